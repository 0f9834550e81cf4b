"""Movement of a wounded character (3/4 speed and no Dash; no movement when critically wounded) and the
Athletics roll of a risky Run.

Rules: Outcomes § Seriously Wounded > Movement Effects, § Critically Wounded; Actions § Movement Table,
§ Running (Roll).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from _dice import brute_force_chance
from hypothesis import given
from hypothesis import strategies as st

from rules_core import injury, limits
from rules_core.movement import RunCharacteristic, WoundedRounding, movement, run_roll


def test_seriously_wounded_moves_at_three_quarters_rounded_down_by_default() -> None:
    """Outcomes § Seriously Wounded: "movement speed is at 3/4"; Run 15 spaces becomes 11 (16.5 m)."""
    run = movement("run", seriously_wounded=True)
    assert (run.spaces, run.metres) == (11, Fraction(33, 2))
    assert movement("move", "medium", seriously_wounded=True).spaces == 2


def test_the_exact_reading_keeps_three_quarters_of_the_distance() -> None:
    run = movement("run", seriously_wounded=True, wounded_rounding=WoundedRounding.EXACT)
    assert (run.spaces, run.metres) == (Fraction(45, 4), Fraction(135, 8))


def test_seriously_wounded_cannot_dash() -> None:
    """Outcomes § Seriously Wounded: "Cannot Dash"."""
    dash = movement("dash", seriously_wounded=True)
    assert (dash.spaces, dash.metres) == (None, None)


def test_an_unknown_rounding_is_refused() -> None:
    with pytest.raises(ValueError, match="rounding"):
        movement("run", seriously_wounded=True, wounded_rounding="up")


@pytest.mark.parametrize("condition", ["critically_wounded", "dying"])
@pytest.mark.parametrize("action", ["move", "dash", "run"])
def test_a_critically_wounded_or_dying_character_does_not_move(condition: str, action: str) -> None:
    """Outcomes § Critically Wounded, § Dying; ruling: movement when critically wounded. The limit
    comes from ``injury.movement`` (share 0), so the two modules cannot disagree."""
    found = movement(action, condition=condition)
    assert (found.spaces, found.metres, found.immobile) == (None, None, True)
    assert injury.movement(condition).factor == 0


@pytest.mark.parametrize(
    ("condition", "action", "spaces"),
    [
        ("unhurt", "run", 15),
        ("wounded", "dash", 10),
        ("seriously_wounded", "run", 11),
        ("seriously_wounded", "move", 3),
        ("seriously_wounded", "dash", None),
    ],
)
def test_the_injury_condition_sets_the_share_of_movement(
    condition: str, action: str, spaces: int | None
) -> None:
    """Outcomes § Seriously Wounded (3/4, cannot Dash); ruling: no Dash, but a Run (Run 15 -> 11)."""
    assert movement(action, condition=condition).spaces == spaces
    assert movement(action, condition=condition) == movement(
        action, seriously_wounded=condition == "seriously_wounded"
    )


def test_the_run_roll_adds_athletics_and_the_better_of_end_and_dex() -> None:
    """Actions § Running (Roll: Athletics + End or Dex); ruling: the Run roll. End 9 (DM +1), Dex 12
    (DM +2), Athletics 1: 2d6 + 3 against 8 + 2 conditions = 10, that is 7+ on 2d6: 21/36."""
    found = run_roll(9, 12, 1, 2)
    assert (found.characteristic, found.characteristic_modifier, found.competence) == ("dexterity", 2, 3)
    assert (found.modifier, found.difficulty, found.chance) == (3, 10, Fraction(21, 36))
    assert found.chance == brute_force_chance(3, 10, 0)


def test_the_run_roll_unskilled_wounded_and_with_a_chosen_characteristic() -> None:
    """Core Mechanics § Unskilled Penalty (-3); Outcomes § Character HP Thresholds (-1 per 3 damage)."""
    found = run_roll(9, 12, None, damage=7, characteristic=RunCharacteristic.ENDURANCE)
    assert (found.characteristic_modifier, found.competence, found.wound_penalty) == (1, -2, -2)
    assert (found.modifier, found.difficulty) == (-4, 8)
    assert found.chance == brute_force_chance(-4, 8, 0) == Fraction(1, 36)


@given(
    end=st.integers(0, limits.MAX_CHARACTERISTIC),
    dex=st.integers(0, limits.MAX_CHARACTERISTIC),
    skill=st.one_of(st.none(), st.integers(0, limits.MAX_SKILL)),
    conditions=st.integers(0, 10),
    damage=st.integers(0, 60),
)
def test_the_best_characteristic_is_never_worse_than_either(
    end: int, dex: int, skill: int | None, conditions: int, damage: int
) -> None:
    best = run_roll(end, dex, skill, conditions, damage=damage)
    for chosen in ("endurance", "dexterity"):
        other = run_roll(end, dex, skill, conditions, damage=damage, characteristic=chosen)
        assert best.chance >= other.chance
    assert best.chance == brute_force_chance(best.modifier, best.difficulty, 0)
