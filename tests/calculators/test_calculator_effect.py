"""The Effect calculator: exact chance (checked against brute force), Effect and outcome of a roll.

Rules: Core Mechanics § Dice Roll, § Effect, § Advantage and Disadvantage.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import _calc
import _dice
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators.format import percent, signed
from calculators.framework import runtime
from rules_core import checks


def brute_force_chance(modifier: int, difficulty: int, advantage: int, disadvantage: int) -> Fraction:
    """Every way the dice can fall, on the net (dis)advantage."""
    return _dice.brute_force_chance(modifier, difficulty, advantage - disadvantage)


outputs = partial(_calc.outputs, "effect")


def test_difficulty_10_on_2d6_is_one_in_six() -> None:
    # Core Mechanics § Difficulty table: 10 -> 16.67%.
    assert outputs(difficulty=10)["chance"] == "16.67%"


def test_difficulty_12_on_2d6_is_one_in_thirty_six() -> None:
    # Core Mechanics § Difficulty table: 12 -> 2.78%.
    assert outputs(difficulty=12)["chance"] == "2.78%"


def test_a_roll_of_5_against_8_is_a_fail_effect_of_3() -> None:
    # Core Mechanics § Fail Effect: difficulty 8, dice roll 5 -> degree 3 (Effect -3).
    assert outputs(roll=5) == {
        "chance": "41.67%",
        "effect": "\u22123",
        "outcome": "failure",
        "success_effect": "0",
        "fail_effect": "3",
        "summary": "41.67% chance to reach 8; your roll: Effect \u22123, failure.",
    }


def test_a_roll_that_just_reaches_the_difficulty_is_a_success_with_effect_zero() -> None:
    assert outputs(modifier=2, difficulty=10, roll=8)["effect"] == "+0"
    assert outputs(modifier=2, difficulty=10, roll=8)["outcome"] == "success"
    assert outputs(modifier=2, difficulty=10, roll=7)["outcome"] == "failure"


def test_the_attack_example_2d6_plus_4_against_13_rolling_6_fails_by_3() -> None:
    # Core Mechanics § Mitigating the Fail Effect: 2d6+4 vs 13 -- a roll of 6 gives 10, Effect -3.
    assert outputs(modifier=4, difficulty=13, roll=6)["effect"] == "\u22123"


@pytest.mark.parametrize("advantage", [0, 1, 2])
@pytest.mark.parametrize("disadvantage", [0, 1, 3])
@pytest.mark.parametrize("modifier", [-3, 0, 2])
@pytest.mark.parametrize("difficulty", [2, 6, 8, 10, 13, 15])
def test_the_chance_equals_brute_force_over_every_die_face(
    advantage: int, disadvantage: int, modifier: int, difficulty: int
) -> None:
    expected = brute_force_chance(modifier, difficulty, advantage, disadvantage)
    assert outputs(modifier=modifier, difficulty=difficulty, advantage=advantage, disadvantage=disadvantage)[
        "chance"
    ] == percent(expected)


@given(
    modifier=st.integers(-checks.MAX_MODIFIER, checks.MAX_MODIFIER),
    difficulty=st.integers(checks.MIN_DIFFICULTY, checks.MAX_DIFFICULTY),
    roll=st.integers(2, 12),
)
def test_the_effect_is_roll_plus_modifier_minus_difficulty_and_its_sign_is_the_outcome(
    modifier: int, difficulty: int, roll: int
) -> None:
    out = outputs(modifier=modifier, difficulty=difficulty, roll=roll)
    effect = roll + modifier - difficulty
    assert out["effect"] == signed(effect)
    assert out["outcome"] == ("success" if effect >= 0 else "failure")


def test_equal_advantage_and_disadvantage_cancel_to_a_plain_2d6_roll() -> None:
    assert outputs(advantage=3, disadvantage=3, difficulty=9) == outputs(difficulty=9)


def test_the_working_shows_the_exact_fraction_and_links_the_rules() -> None:
    details = runtime.compute("effect", {"advantage": "1"}, "../../")["details"]
    assert "keep the two highest" in details
    assert "exact: " in details
    assert 'href="../../rules/checks/#advantage"' in details
    assert 'data-chart="dice"' in details and "<table>" in details
