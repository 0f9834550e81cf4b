"""The attack, damage, healing, mitigation and injury thresholds calculators in headless Chromium.

One page load each: the URL restores its inputs, 20 random inputs computed through Pyodide equal the
CPython result, and bad inputs are flagged beside their field. The damage calculator also draws the
total's distribution as a chart (``charts.js`` with the bundled Chart.js) while its data table stays for
screen readers.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from ._forms import check_bad_inputs, check_random_inputs
from .conftest import outputs

pytestmark = [pytest.mark.browser, pytest.mark.returning_visit]


def _attack_values(rng: random.Random) -> dict[str, str]:
    dice = [f"{rng.randint(1, 3)}d{rng.choice([3, 6])}" for _ in range(2)]
    return {
        "modifier": str(rng.randint(-3, 6)),
        "difficulty": str(rng.randint(6, 13)),
        "advantage": str(rng.randint(0, 2)),
        "disadvantage": str(rng.randint(0, 2)),
        "roll": rng.choice(["", str(rng.randint(2, 12)), str(rng.randint(2, 12))]),
        "damage": dice[0],
        "rate_of_attack": str(rng.choice([0, 0, 2, 3])),
        "armor": str(rng.randint(0, 4)),
        "hp": rng.choice(["", str(rng.randint(8, 30))]),
        "conditions": str(rng.randint(0, 2)),
        "concealment": str(rng.randint(0, 2)),
        "cover": str(rng.randint(0, 3)),
        "skill": str(rng.randint(0, 3)),
        "defend": rng.choice(["none", "cover", "concealment", "skill"]),
        "adversary_damage": dice[1],
        "adversary_rate": str(rng.choice([0, 0, 2])),
        "own_armor": str(rng.randint(0, 4)),
        "own_hp": rng.choice(["", str(rng.randint(8, 30))]),
        "own_damage": str(rng.randint(0, 6)),
        "order": rng.choice(["priority", "skill_before_cover"]),
        "cover_cap": rng.choice(["doubling_only", "always"]),
        "reading": "fractions_of_hp",
        "best_physical": "",
    }


def _damage_values(rng: random.Random) -> dict[str, str]:
    count, sides, modifier = rng.randint(1, 4), rng.choice([3, 4, 6, 8, 10]), rng.randint(-3, 3)
    expression = f"{count}d{sides}{modifier:+d}" if modifier else f"{count}d{sides}"
    reading = rng.choice(["fractions_of_hp", "best_physical"])
    return {
        "effect": str(rng.randint(-6, 8)),
        "damage": rng.choice(["", "", "D "]) + expression,
        "rate_of_attack": str(rng.choice([0, 0, 1, 2, 3])),
        "armor": str(rng.randint(0, 6)),
        "target_scale": rng.choice(["none", "none", "D"]),
        "hp": rng.choice(["", str(rng.randint(6, 40))]),
        "current_damage": str(rng.randint(0, 8)),
        "minimum": rng.choice(["each_roll", "whole_attack"]),
        "reading": reading,
        "best_physical": str(rng.randint(3, 12)) if reading == "best_physical" else "",
    }


def _healing_values(rng: random.Random) -> dict[str, str]:
    return {
        "strength": str(rng.randint(1, 15)),
        "dexterity": str(rng.randint(1, 15)),
        "endurance": str(rng.randint(1, 15)),
        "damage": str(rng.randint(0, 60)),
        "activity": rng.choice(["moderate", "light", "full_rest"]),
        "care": rng.choice(["no", "yes"]),
        "first_aid_effect": rng.choice(["", str(rng.randint(-4, 6))]),
        "on_self": rng.choice(["0", "1"]),
        "surgery_effect": rng.choice(["", str(rng.randint(-6, 5))]),
        "medic_skill": str(rng.randint(0, 4)),
        "medic": rng.choice(["", str(rng.randint(0, 6))]),
        "supervised": rng.choice(["0", "1"]),
        "reading": rng.choice(["fractions_of_hp", "best_physical"]),
        "care_rate": rng.choice(["table", "double_full_rest"]),
        "lost_progress": rng.choice(["restart", "day_only"]),
        "care_levels": rng.choice(["injury_thresholds", "table"]),
        "surgery_time": rng.choice(["multiply", "one_plus"]),
    }


def _mitigation_values(rng: random.Random) -> dict[str, str]:
    return {
        "fail_effect": str(rng.choice([rng.randint(0, 12), -rng.randint(1, 12)])),
        "conditions": str(rng.randint(0, 4)),
        "concealment": str(rng.randint(0, 3)),
        "cover": str(rng.randint(0, 6)),
        "skill": str(rng.randint(0, 4)),
        "defend": rng.choice(["none", "cover", "concealment", "skill"]),
        "order": rng.choice(["priority", "skill_before_cover"]),
        "cover_cap": rng.choice(["doubling_only", "always"]),
    }


def _thresholds_values(rng: random.Random) -> dict[str, str]:
    return {
        "strength": str(rng.randint(1, 15)),
        "dexterity": str(rng.randint(1, 15)),
        "endurance": str(rng.randint(1, 15)),
        "damage": str(rng.randint(0, 50)),
        "largest_roll": rng.choice(["", str(rng.randint(0, 20))]),
        "location": rng.choice(["none", "limbs", "extremities", "head", "vitals"]),
        "reading": rng.choice(["fractions_of_hp", "best_physical"]),
        "rounding": rng.choice(["down", "exact"]),
    }


@dataclass(frozen=True)
class Page:
    """One calculator: the URL to restore, outputs it must show, random inputs, bad inputs, its chart."""

    name: str
    params: dict[str, str]
    shown: dict[str, str]
    random_values: Callable[[random.Random], dict[str, str]]
    bad: list[tuple[str, str]]
    chart: str | None = None


PAGES = [
    Page(
        "attack",
        {"modifier": "4", "difficulty": "8", "roll": "10", "damage": "3d6", "armor": "2"},
        {"per_roll": "3d6 \u2212 armor 2 (at least 1 a roll)"},
        _attack_values,
        [("roll", "13"), ("damage", "lots"), ("adversary_damage", "2d"), ("modifier", "")],
    ),
    Page(
        "damage",
        {"effect": "1", "damage": "3d3-2", "rate_of_attack": "0", "armor": "3", "hp": "24"},
        {"per_roll": "3d3\u22122 \u2212 armor 3 (at least 0 a roll)"},
        _damage_values,
        [("damage", "3x6"), ("effect", "101"), ("armor", "-2"), ("hp", "0"), ("damage", "")],
        chart="total",
    ),
    Page(
        "healing",
        {
            "strength": "7",
            "dexterity": "8",
            "endurance": "9",
            "damage": "10",
            "activity": "full_rest",
            "care": "no",
        },
        {"days": "13"},
        _healing_values,
        [("damage", "1001"), ("activity", "sprint"), ("medic", "16"), ("strength", "")],
    ),
    Page(
        "mitigation",
        {"fail_effect": "7", "conditions": "3", "cover": "2", "skill": "2", "defend": "none"},
        {"remaining": "0", "ordinary_failure": "yes", "cover_absorbs": "2"},
        _mitigation_values,
        [("fail_effect", "three"), ("cover", "-1"), ("skill", "51"), ("fail_effect", "")],
    ),
    Page(
        "thresholds",
        {
            "strength": "7",
            "dexterity": "7",
            "endurance": "7",
            "damage": "3",
            "largest_roll": "3",
            "location": "head",
        },
        {"targeted": "stunned"},
        _thresholds_values,
        [("largest_roll", "-1"), ("strength", "abc"), ("location", "tail"), ("damage", "")],
    ),
]


@pytest.mark.parametrize("case", PAGES, ids=[p.name for p in PAGES])
def test_the_page_restores_a_url_computes_like_cpython_and_flags_bad_inputs(
    open_calculator: Any, python_outputs: Any, case: Page
) -> None:
    form = open_calculator(case.name, **case.params)
    page = form.page
    for key, value in case.params.items():
        assert page.input_value(f'[name="{key}"]') == value
    expected = python_outputs(case.name, **case.params)
    assert outputs(form) == expected
    assert {k: expected[k] for k in case.shown} == case.shown
    for control in form.locator("input[data-min]").all():
        assert control.get_attribute("inputmode") == "numeric"

    values = check_random_inputs(form, case.name, case.random_values, python_outputs)

    if case.chart:
        figure = form.locator(f'figure[data-chart="{case.chart}"]')
        figure.scroll_into_view_if_needed()  # a chart is drawn when it comes into view (charts.js)
        page.wait_for_function(
            "f => f.hasAttribute('data-chart-drawn') && f.querySelector('canvas[role=img]')",
            arg=figure.element_handle(),
            timeout=20_000,
        )
        assert figure.locator("table tbody tr").count() >= 1
        figure.get_by_role("button", name="Show the table").click()
        assert figure.locator("table").is_visible()

    check_bad_inputs(form, case.name, case.bad, values, python_outputs)
