"""The table tools in headless Chromium: odds, dying, initiative, movement, thrown, tactics, time,
hit location and dice.

One page load per calculator: the URL restores its inputs, 20 random valid inputs computed through
Pyodide equal the CPython result (the rollers with a fixed roll number), the URL follows the form, and
bad inputs are flagged beside their field. The rollers also draw a fresh roll number when none is given
and write it into the address. Every test fails on any page error, console error or request to a host
other than 127.0.0.1 (see ``conftest.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import pytest

from ._forms import EMPTY, set_values, url_query, wait_outputs
from .conftest import outputs, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.returning_visit]

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay"]


def _optional(rng: random.Random, low: int, high: int) -> str:
    return "" if rng.random() < 0.3 else str(rng.randint(low, high))


def _initiative(rng: random.Random) -> dict[str, str]:
    situation = rng.choice(["prepared", "ambush", "unprepared"])
    others = ", ".join(f"{n} {rng.randint(-3, 20)}" for n in rng.sample(NAMES, rng.randint(0, 4)))
    return {
        "dexterity": str(rng.randint(0, 30)),
        "skill": str(rng.randint(0, 6)),
        "roll": _optional(rng, 2, 12),
        "ambush": "1" if situation == "ambush" else "0",
        "unprepared": "1" if situation == "unprepared" else "0",
        "tactics_effect": str(rng.randint(-6, 6)),
        "negative_tactics": rng.choice("01"),
        "others": others,
    }


@dataclass(frozen=True)
class Tool:
    name: str
    page: str
    restore: dict[str, str]
    restored: dict[str, str]
    random_values: Callable[[random.Random], dict[str, str]]
    bad: tuple[tuple[str, str], ...]


TOOLS = [
    Tool(
        "odds",
        "odds",
        {"difficulty": "10", "modifier": "2", "mode": "advantage"},
        {"plain": "41.67%", "advantage": "68.06%", "disadvantage": "19.44%"},
        lambda r: {
            "difficulty": str(r.randint(2, 30)),
            "modifier": str(r.randint(-20, 20)),
            "mode": r.choice(["plain", "advantage", "disadvantage"]),
        },
        (("difficulty", "1"), ("modifier", "lots")),
    ),
    Tool(
        "dying",
        "dying",
        {"endurance": "9", "damage": "25", "rounds": "3"},
        {"hp": "23", "state": "dying", "round_chance": "8.33%", "survive": "0.06%"},
        lambda r: {
            "strength": str(r.randint(0, 15)),
            "dexterity": str(r.randint(0, 15)),
            "endurance": str(r.randint(1, 20)),
            "damage": str(r.randint(20, 70)),  # 20 or more: one roll may have started bleeding
            "attack_damage": _optional(r, 0, 20),
            "rounds": str(r.randint(0, 80)),
            "bleeding": r.choice("01"),
            "reading": r.choice(["fractions_of_hp", "best_physical"]),
        },
        (("rounds", "1001"), ("damage", ""), ("attack_damage", "80")),
    ),
    Tool(
        "initiative",
        "initiative",
        {"dexterity": "9", "ambush": "1", "tactics_effect": "2"},
        {"initiative": "15", "position": "1st of 3", "order": "You 15, Bo 9, Cy 7"},
        _initiative,
        (("others", "Bo nine"), ("roll", "13")),
    ),
    Tool(
        "movement",
        "movement",
        {"action": "dash", "load": "medium", "stance": "standing", "scale": "1.5"},
        {"spaces": "7", "metres": "10.5 m"},
        lambda r: {
            "action": r.choice(["move", "dash", "run"]),
            "load": r.choice(["light", "medium", "heavy"]),
            "stance": r.choice(["standing", "crouching", "prone"]),
            "scale": r.choice(["1.5", "4.5"]),
            "new_stance": r.choice(["standing", "crouching", "prone"]),
            "conditions": str(r.randint(0, 10)),
            "reading": r.choice(["spaces", "printed"]),
            "stance_reading": r.choice(["listed_steps", "down_is_one"]),
            "injury": r.choice(["unhurt", "seriously_wounded", "critically_wounded"]),
            "athletics": _optional(r, 0, 4),
            "dexterity": str(r.randint(0, 15)),
            "damage": str(r.randint(0, 20)),
        },
        (("conditions", "-1"), ("conditions", "x")),
    ),
    Tool(
        "thrown",
        "thrown",
        {"strength": "7", "thrown": "1.5"},
        {"straight": "10 m", "lobbed": "31 m"},
        lambda r: {
            "strength": str(r.randint(0, 50)),
            "thrown": r.choice(["0.5", "1.5", "1", "2.25", "1/3", "3", "0,75"]),
            "rounding": r.choice(["down", "exact"]),
        },
        (("thrown", "lots"), ("strength", "100")),
    ),
    Tool(
        "tactics",
        "tactics",
        {"skill": "1", "difficulty": "10", "effect": "5"},
        {"max_effect": "4", "rolls": "4 advantage rolls", "attempts": "2"},
        lambda r: {
            "skill": str(r.randint(0, 10)),
            "modifier": str(r.randint(-5, 8)),
            "difficulty": r.choice(["6", "8", "10", "12"]),
            "effect": _optional(r, -20, 20),
            "attempts_made": str(r.randint(0, 12)),
            "battle_changed": r.choice("01"),
            "reading": r.choice(["effect", "skill_plus_one"]),
        },
        (("effect", "51"), ("skill", "")),
    ),
    Tool(
        "time",
        "time",
        {"die": "1d6", "effect": "-3"},
        {"median": "3 s", "duration": "6 s", "rounds": "1 round"},
        lambda r: {
            "die": r.choice(["1d6", "2d6", "1d10", "3d4", "1d20", "d6"]),
            "unit": r.choice(["seconds", "minutes", "hours", "days", "weeks"]),
            "effect": str(r.randint(-20, 20)),
            "floor": r.choice(["lowest_roll", "one_unit"]),
        },
        (("die", "2d6+1"), ("effect", "51")),
    ),
    Tool(
        "hit_location",
        "hit-location",
        {"seed": "12345", "hp": "21", "damage": "7"},
        {"roll": "10", "location": "Secondary Arm", "threshold": "7 damage (crippled)", "effect": "crippled"},
        lambda r: {
            "seed": str(r.randint(0, 999_999_999)),
            "hp": _optional(r, 1, 60),
            "damage": _optional(r, 0, 30),
            "roll": _optional(r, 2, 12),
            "side_roll": _optional(r, 1, 6),
            "rounding": r.choice(["down", "exact"]),
        },
        (("roll", "1"), ("seed", "-5")),
    ),
    Tool(
        "dice",
        "dice",
        {"dice": "3d6-2", "times": "3", "seed": "42"},
        {"rolls": "6, 9, 8", "total": "23", "range": "1 to 16", "expected": "8.50"},
        lambda r: {
            "dice": r.choice(["2d6", "3d6-2", "d6", "4d3+1", "D 2d6-2", "H 1d4", "K 5d6-4", "1d100"]),
            "times": str(r.randint(1, 8)),
            "seed": str(r.randint(0, 999_999_999)),
        },
        (("dice", "2x6"), ("times", "0")),
    ),
]


def open_page(page: Any, tool: Tool, params: dict[str, str]) -> Any:
    query = f"?{urlencode(params)}" if params else ""
    page.goto(f"calculators/{tool.page}/{query}")
    form = page.locator(f'form[data-calculator="{tool.name}"]')
    wait_ready(form)
    return form


def python(name: str, values: dict[str, str]) -> dict[str, Any]:
    from calculators.framework import runtime

    return runtime.compute(name, values)


@pytest.mark.parametrize("tool", TOOLS, ids=[t.name for t in TOOLS])
def test_the_page_restores_a_url_computes_like_cpython_and_flags_bad_inputs(page: Any, tool: Tool) -> None:
    form = open_page(page, tool, tool.restore)
    for key, value in tool.restore.items():
        control = form.locator(f'[name="{key}"]')
        if control.get_attribute("type") == "checkbox":
            assert control.is_checked() == (value == "1")
        else:
            assert control.input_value() == value
    shown = outputs(form)
    assert shown == python(tool.name, tool.restore)["outputs"]
    assert {k: shown[k] for k in tool.restored} == tool.restored
    for control in form.locator("input[data-min]").all():
        assert control.get_attribute("inputmode") == "numeric"

    rng = random.Random(tool.name)
    for _ in range(20):
        values = tool.random_values(rng)
        expected = python(tool.name, values)
        assert expected["ok"], (values, expected)
        set_values(form, values)
        wait_outputs(form, expected["outputs"])
        assert outputs(form) == expected["outputs"]
        assert form.locator("[data-form-error]").text_content() == ""
    query = {k: v[0] for k, v in url_query(page, values).items()}
    assert {k: query[k] for k in values} == values

    for field, bad in tool.bad:
        set_values(form, {field: bad})
        control = form.locator(f'[name="{field}"]')
        page.wait_for_function(
            "el => el.getAttribute('aria-invalid') === 'true'", arg=control.element_handle(), timeout=20_000
        )
        message = python(tool.name, {**values, field: bad})["errors"][field]
        assert form.locator(f'[data-error-for="{field}"]').text_content() == message
        assert set(outputs(form).values()) == {EMPTY}
        set_values(form, {field: values[field]})
        page.wait_for_function("el => !el.hasAttribute('aria-invalid')", arg=control.element_handle())


@pytest.mark.parametrize("tool", [t for t in TOOLS if "seed" in t.restore], ids=["hit_location", "dice"])
def test_a_roller_without_a_roll_number_draws_one_writes_it_into_the_url_and_rolls_again(
    page: Any, tool: Tool
) -> None:
    form = open_page(page, tool, {})
    seed = form.locator('[name="seed"]')
    page.wait_for_function("el => el.value !== ''", arg=seed.element_handle(), timeout=20_000)
    first = seed.input_value()
    expected = python(tool.name, {"seed": first})["outputs"]
    wait_outputs(form, expected)
    assert EMPTY not in (expected.get("rolls"), expected.get("location"))
    page.wait_for_function("seed => location.search.includes('seed=' + seed)", arg=first)

    form.get_by_role("button", name="Roll again").click()
    page.wait_for_function("([el, old]) => el.value !== old", arg=[seed.element_handle(), first])
    second = seed.input_value()
    wait_outputs(form, python(tool.name, {"seed": second})["outputs"])
    page.wait_for_function("seed => location.search.includes('seed=' + seed)", arg=second)
    assert form.get_by_role("button", name="Roll again").count() == 1
