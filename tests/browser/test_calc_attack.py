"""One attack, start to finish, in headless Chromium: one page load, a restored URL, 20 random
inputs computed through Pyodide equal to CPython, and bad inputs flagged beside their field."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ._forms import check_bad_inputs, check_random_inputs
from .conftest import outputs

pytestmark = pytest.mark.browser

NAME = "attack"
EMPTY = "\u2014"
BAD = [("roll", "13"), ("damage", "lots"), ("adversary_damage", "2d"), ("modifier", "")]


def random_values(rng: random.Random) -> dict[str, str]:
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


def test_the_page_restores_a_url_computes_like_cpython_and_flags_bad_inputs(
    open_calculator: Any, python_outputs: Any
) -> None:

    params = {"modifier": "4", "difficulty": "8", "roll": "10", "damage": "3d6", "armor": "2"}
    form = open_calculator(NAME, **params)
    page = form.page
    for key, value in params.items():
        assert page.input_value(f'[name="{key}"]') == value
    expected = python_outputs(NAME, **params)
    assert outputs(form) == expected and expected["per_roll"] == "3d6\u22122"

    values = check_random_inputs(form, NAME, random_values, python_outputs)

    check_bad_inputs(form, NAME, BAD, values, python_outputs)
