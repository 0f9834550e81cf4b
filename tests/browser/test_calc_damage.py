"""The damage calculator in headless Chromium: one page load, a restored URL, 20 random inputs computed
through Pyodide equal to CPython, bad inputs flagged, and the total's distribution drawn as a chart
(``charts.js`` with the bundled Chart.js) while its data table stays for screen readers."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ._forms import check_bad_inputs, check_random_inputs
from .conftest import outputs

pytestmark = pytest.mark.browser

NAME = "damage"
EMPTY = "\u2014"
BAD = [("damage", "3x6"), ("effect", "101"), ("armor", "-2"), ("hp", "0"), ("damage", "")]


def random_values(rng: random.Random) -> dict[str, str]:
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


def test_the_page_restores_a_url_computes_like_cpython_charts_and_flags_bad_inputs(
    open_calculator: Any, python_outputs: Any
) -> None:

    params = {"effect": "1", "damage": "3d3-2", "rate_of_attack": "0", "armor": "3", "hp": "24"}
    form = open_calculator(NAME, **params)
    page = form.page
    for key, value in params.items():
        assert page.input_value(f'[name="{key}"]') == value
    expected = python_outputs(NAME, **params)
    assert outputs(form) == expected and expected["per_roll"] == "3d3\u22125"

    values = check_random_inputs(form, NAME, random_values, python_outputs)

    figure = form.locator('figure[data-chart="total"]')
    page.wait_for_function(
        "f => f.hasAttribute('data-chart-drawn') && f.querySelector('canvas[role=img]')",
        arg=figure.element_handle(),
        timeout=20_000,
    )
    assert figure.locator("table tbody tr").count() >= 1
    toggle = figure.get_by_role("button", name="Show the table")
    toggle.click()
    assert figure.locator("table").is_visible()

    check_bad_inputs(form, NAME, BAD, values, python_outputs)
