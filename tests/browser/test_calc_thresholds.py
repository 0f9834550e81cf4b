"""The injury thresholds calculator in headless Chromium: one page load, a restored URL, 20 random
inputs computed through Pyodide equal to CPython, and bad inputs flagged beside their field."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ._forms import check_bad_inputs, check_random_inputs
from .conftest import outputs

pytestmark = pytest.mark.browser

NAME = "thresholds"
EMPTY = "\u2014"
BAD = [("largest_roll", "-1"), ("strength", "abc"), ("location", "tail"), ("damage", "")]


def random_values(rng: random.Random) -> dict[str, str]:
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


def test_the_page_restores_a_url_computes_like_cpython_and_flags_bad_inputs(
    open_calculator: Any, python_outputs: Any
) -> None:

    params = {
        "strength": "7",
        "dexterity": "7",
        "endurance": "7",
        "damage": "3",
        "largest_roll": "3",
        "location": "head",
    }
    form = open_calculator(NAME, **params)
    page = form.page
    for key, value in params.items():
        assert page.input_value(f'[name="{key}"]') == value
    expected = python_outputs(NAME, **params)
    assert outputs(form) == expected and expected["targeted"] == "stunned"

    values = check_random_inputs(form, NAME, random_values, python_outputs)

    check_bad_inputs(form, NAME, BAD, values, python_outputs)
