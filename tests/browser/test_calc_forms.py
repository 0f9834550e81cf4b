"""The attack, damage, healing, mitigation and injury thresholds calculators in headless Chromium.

One page load each: the URL restores its inputs, 20 random inputs computed through Pyodide equal the
CPython result, and bad inputs are flagged beside their field. The damage calculator also draws the
total's distribution as a chart: SVG drawn by Python (``calculators/framework/chart_svg.py``) in the built
page and by the engine at each result, no chart script; its table opens without one.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from ._forms import check_bad_inputs, check_random_inputs, set_values, wait_outputs
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


FORM_VALUES = "f => Object.fromEntries([...new FormData(f)].map(([k, v]) => [k, String(v)]))"
BAR_HEIGHTS = "f => [...f.querySelectorAll('svg[role=img] rect')].map(r => r.getAttribute('height'))"


def python_bar_heights(name: str, raw: dict[str, str], key: str) -> list[str]:
    """The bar heights CPython draws for chart ``key`` of calculator ``name`` with the form texts ``raw``."""
    from calculators.framework import runtime

    details = runtime.compute(name, raw)["details"]
    figure = re.search(rf'<figure class="calc-chart" data-chart="{key}">.*?</figure>', details)
    assert figure, details
    return re.findall(r'<rect[^>]* height="([^"]+)"', figure.group(0))


def check_live_chart(form: Any, name: str, key: str, values: dict[str, str], python_outputs: Any) -> None:
    """The chart the engine drew for the last inputs is CPython's, bar for bar; its table opens without a
    script and stays open while a new input redraws the bars; no chart library or chart script is fetched."""
    page = form.page
    figure = form.locator(f'figure[data-chart="{key}"]')
    shown = figure.evaluate(BAR_HEIGHTS)
    assert shown and shown == python_bar_heights(name, form.evaluate(FORM_VALUES), key)
    name_text = figure.locator("svg > title").text_content()
    assert name_text and figure.get_by_role("img", name=name_text, exact=True).count() == 1
    assert "Bar chart of" in figure.locator("svg > desc").text_content()
    assert not figure.locator("table").is_visible()
    figure.locator("summary").click()
    assert figure.locator("table").is_visible()
    other = "5d10+2" if values.get("damage") != "5d10+2" else "2d6"
    set_values(form, {**values, "damage": other})
    wait_outputs(form, python_outputs(name, **{**values, "damage": other}), fresh=True)
    redrawn = figure.evaluate(BAR_HEIGHTS)
    assert redrawn != shown and redrawn == python_bar_heights(name, form.evaluate(FORM_VALUES), key)
    assert figure.locator("table").is_visible()  # the reader's open table survives the new result
    box, column = figure.locator("svg").bounding_box(), figure.bounding_box()
    assert box and column and box["x"] + box["width"] <= column["x"] + column["width"] + 0.5
    fetched = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert fetched and not [u for u in fetched if re.search(r"chart", u, re.IGNORECASE)]
    assert page.evaluate("typeof window.Chart") == "undefined"
    set_values(form, values)
    wait_outputs(form, python_outputs(name, **values), fresh=True)


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
        check_live_chart(form, case.name, case.chart, values, python_outputs)

    check_bad_inputs(form, case.name, case.bad, values, python_outputs)
