"""The healing calculator in headless Chromium: one page load, a restored URL, 20 random
inputs computed through Pyodide equal to CPython, and bad inputs flagged beside their field."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ._forms import check_bad_inputs, check_random_inputs
from .conftest import outputs

pytestmark = pytest.mark.browser

NAME = "healing"
EMPTY = "\u2014"
BAD = [("damage", "1001"), ("activity", "sprint"), ("medic", "16"), ("strength", "")]


def random_values(rng: random.Random) -> dict[str, str]:
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


def test_the_page_restores_a_url_computes_like_cpython_and_flags_bad_inputs(
    open_calculator: Any, python_outputs: Any
) -> None:

    params = {
        "strength": "7",
        "dexterity": "8",
        "endurance": "9",
        "damage": "10",
        "activity": "full_rest",
        "care": "no",
    }
    form = open_calculator(NAME, **params)
    page = form.page
    for key, value in params.items():
        assert page.input_value(f'[name="{key}"]') == value
    expected = python_outputs(NAME, **params)
    assert outputs(form) == expected and expected["days"] == "13"

    values = check_random_inputs(form, NAME, random_values, python_outputs)

    check_bad_inputs(form, NAME, BAD, values, python_outputs)
