"""The tactics calculator: the risk table, rolls gained, attempts, and the odds of each number of rolls.

Rules: Actions § Tactics Skill (Procedure, Re-attempting); § List of Significant Actions (Use Tactics);
ruling: advantage rolls and attempts.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.format import number, percent
from calculators.framework import runtime

CAPS = {6: 1, 8: 2, 10: 4, 12: 8}


def result(**params: object) -> dict:
    found = runtime.compute("tactics", {k: str(v) for k, v in params.items()})
    assert found["ok"], found
    return found


def test_tactics_1_at_risk_10_with_effect_5_gains_4_advantage_rolls_and_2_attempts() -> None:
    # Actions § Tactics Skill > Procedure (10 caps at 4) and > Re-attempting (skill 1 tries twice).
    found = result(skill=1, difficulty=10, effect=5)["outputs"]
    assert found["max_effect"] == "4"
    assert found["rolls"] == "4 advantage rolls"
    assert found["attempts"] == "2"


@pytest.mark.parametrize(("difficulty", "cap"), CAPS.items())
def test_each_risk_caps_the_effect_as_the_table_says(difficulty: int, cap: int) -> None:
    assert result(difficulty=difficulty)["outputs"]["max_effect"] == str(cap)
    assert result(difficulty=difficulty, effect=-20)["outputs"]["rolls"] == (
        f"{cap} disadvantage roll{'s' if cap != 1 else ''}"
    )


def test_an_effect_of_zero_gains_no_rolls() -> None:
    assert result(effect=0)["outputs"]["rolls"] == "no rolls"


def test_the_skill_plus_one_reading_gives_skill_plus_one_rolls() -> None:
    # Ruling: tactics-count, other reading (Use Tactics: "skill + 1" rolls).
    assert result(skill=3, effect=1, reading="skill_plus_one")["outputs"]["rolls"] == "4 advantage rolls"


def test_a_tactician_may_retry_while_attempts_are_below_skill_plus_one_or_the_battle_changed() -> None:
    assert result(skill=1, attempts_made=1)["outputs"]["retry"] == "yes"
    assert result(skill=1, attempts_made=2)["outputs"]["retry"] == "no"
    assert result(skill=1, attempts_made=2, battle_changed=1)["outputs"]["retry"] == "yes"


@settings(max_examples=30, deadline=None)
@given(modifier=st.integers(-15, 15), difficulty=st.sampled_from(sorted(CAPS)))
def test_the_chance_and_the_rolls_chart_equal_brute_force(modifier: int, difficulty: int) -> None:
    cap = CAPS[difficulty]
    counts: dict[int, int] = {}
    wins = 0
    for a, b in product(range(1, 7), repeat=2):
        effect = a + b + modifier - difficulty
        wins += effect >= 0
        rolls = max(-cap, min(cap, effect))
        counts[rolls] = counts.get(rolls, 0) + 1
    found = result(modifier=modifier, difficulty=difficulty)
    assert found["outputs"]["chance"] == percent(Fraction(wins, 36))
    for rolls, count in counts.items():
        row = f'<th scope="row">{number(rolls)}</th><td>{percent(Fraction(count, 36))}</td>'
        assert row in found["details"]


@pytest.mark.parametrize(
    ("field", "value"), [("difficulty", "7"), ("effect", "51"), ("skill", "21"), ("attempts_made", "-1")]
)
def test_bad_inputs_are_flagged_beside_their_field(field: str, value: str) -> None:
    assert field in runtime.compute("tactics", {field: value})["errors"]


def test_the_summary_says_1_attempt_not_1_attempts() -> None:
    """Actions § Tactics Skill: skill + 1 attempts per battle; skill 0 gives one (format's plural)."""
    summary = runtime.compute("tactics", {"skill": "0"})["outputs"]["summary"]
    assert "; 1 attempt per battle." in summary
    assert "; 3 attempts per battle." in runtime.compute("tactics", {"skill": "2"})["outputs"]["summary"]
