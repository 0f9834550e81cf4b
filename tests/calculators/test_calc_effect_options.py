"""The Effect calculator's reckless and costly-success options.

Core Mechanics § Costly Success; Actions § Reckless Action; rulings costly-success-sign and reckless-twice.
"""

from __future__ import annotations

from functools import partial

import _calc
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators.framework import runtime
from rules_core import action_options, checks

run = partial(_calc.compute, "effect")


def test_the_costly_success_example_minus_two_becomes_a_fail_effect_of_seven() -> None:
    """Core Mechanics § Costly Success: failing by 2 and paying the price gives -2 x 2 + 3 = -7."""
    out = run(modifier=0, difficulty=10, roll=8, costly_success=1)["outputs"]
    assert out["effect"] == "\u22122"
    assert (out["outcome"], out["success_effect"], out["fail_effect"]) == ("costly success", "0", "7")


def test_the_signed_reading_of_costly_success_gives_a_smaller_fail_effect() -> None:
    """Ruling costly-success-sign: -2 x 2 + 3 = -1 taken literally."""
    out = run(modifier=0, difficulty=10, roll=8, costly_success=1, costly_reading="signed")["outputs"]
    assert out["fail_effect"] == "1"


def test_a_costly_success_on_a_roll_that_succeeded_changes_nothing() -> None:
    out = run(modifier=0, difficulty=8, roll=9, costly_success=1)["outputs"]
    assert (out["outcome"], out["success_effect"], out["fail_effect"]) == ("success", "1", "0")


def test_a_reckless_action_adds_two_to_the_chance() -> None:
    """Actions § Reckless Action: +2 to the roll."""
    assert (
        run(modifier=0, difficulty=10, reckless=1)["outputs"]["chance"]
        == run(modifier=2, difficulty=10)["outputs"]["chance"]
    )


def test_a_reckless_success_of_two_also_brings_a_fail_effect_of_one() -> None:
    """Actions § Reckless Action: the Effect less 3, when negative, is suffered too."""
    out = run(modifier=1, difficulty=8, roll=7, reckless=1)["outputs"]
    assert (out["effect"], out["outcome"], out["success_effect"], out["fail_effect"]) == (
        "+2",
        "success, with harm",
        "2",
        "1",
    )


def test_the_reduced_reading_counts_a_reckless_success_three_lower() -> None:
    out = run(modifier=1, difficulty=8, roll=9, reckless=1, reckless_reading="reduced_success")["outputs"]
    assert (out["effect"], out["success_effect"], out["fail_effect"]) == ("+4", "1", "0")


def test_a_reckless_failure_is_three_worse() -> None:
    out = run(modifier=0, difficulty=10, roll=5, reckless=1)["outputs"]
    assert (out["effect"], out["outcome"], out["fail_effect"]) == ("\u22123", "failure", "6")


def test_reckless_and_costly_together_are_refused_beside_the_costly_field() -> None:
    result = run(roll=5, reckless=1, costly_success=1)
    assert not result["ok"] and "not both" in result["errors"]["costly_success"]


def test_the_reckless_bonus_cannot_push_the_modifier_past_its_bound() -> None:
    result = run(modifier=checks.MAX_MODIFIER, reckless=1)
    assert not result["ok"] and "reckless" in result["errors"]["modifier"]


@given(
    modifier=st.integers(-20, 20),
    difficulty=st.integers(2, 20),
    roll=st.integers(2, 12),
    reading=st.sampled_from(["full_success", "reduced_success"]),
)
def test_the_reckless_outputs_equal_the_engine(
    modifier: int, difficulty: int, roll: int, reading: str
) -> None:
    out = run(modifier=modifier, difficulty=difficulty, roll=roll, reckless=1, reckless_reading=reading)[
        "outputs"
    ]
    bonus = action_options.reckless_roll_modifier()
    expected = action_options.reckless_action(roll + modifier + bonus - difficulty, reading)
    assert out["success_effect"] == str(expected.success_effect)
    assert out["fail_effect"] == str(expected.fail_degree)


@pytest.mark.parametrize("reading", ["degree", "signed"])
@given(roll=st.integers(2, 12), difficulty=st.integers(3, 20))
def test_the_costly_outputs_equal_the_engine(reading: str, roll: int, difficulty: int) -> None:
    out = run(difficulty=difficulty, roll=roll, costly_success=1, costly_reading=reading)["outputs"]
    eff = roll - difficulty
    if eff < 0:
        assert out["fail_effect"] == str(checks.costly_success(eff, reading).fail_degree)
    else:
        assert out["fail_effect"] == "0"


def test_a_costly_success_hands_its_fail_effect_to_the_mitigation_calculator() -> None:
    # Core Mechanics § Costly Success: Effect -2 paid for becomes a success effect 0 with a fail effect of 7,
    # which the mitigation calculator then works through (Core Mechanics § Mitigating Factors).
    result = runtime.compute(
        "effect", {"modifier": "0", "difficulty": "8", "roll": "6", "costly_success": "1"}
    )
    assert 'data-handoff="mitigation" href="calculators/mitigation/?fail_effect=7"' in result["next"]
    assert "the costly success&#x27;s fail effect of 7" in result["next"]
    mitigated = runtime.compute("mitigation", {"fail_effect": "7", "cover": "2"})
    assert mitigated["outputs"]["remaining"] == "5"
    assert runtime.compute("effect", {"roll": "9"})["next"] == ""  # a success leaves nothing to mitigate
