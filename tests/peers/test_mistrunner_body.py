"""Mistrunner body levels, knock-outs, lasting injury, recovery (seed 003 § Applying Damage, § Non-Lethal)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core.peers.mistrunner import body


@pytest.mark.parametrize(("con", "points"), [(0, 10), (2, 12), (-3, 7)])
def test_each_body_level_holds_10_plus_con_life_points(con, points):
    # Mistrunner: Combat § Applying Damage.
    assert body.life_points_per_level(con) == points
    assert body.body_point_total(con) == 3 * points


def test_a_con_that_leaves_no_life_points_is_rejected():
    assert body.life_points_per_level(-9) == 1
    with pytest.raises(ValueError, match="at least -9"):
        body.life_points_per_level(-10)


@pytest.mark.parametrize(
    ("damage", "level", "penalty", "out"),
    [
        (0, "unhurt", 0, False),
        (1, "minor", 0, False),
        (12, "minor", 0, False),
        (13, "moderate", 2, False),
        (24, "moderate", 2, False),
        (25, "heavy", 4, False),
        (36, "heavy", 4, False),
        (37, "unconscious", 4, True),
    ],
)
def test_body_levels_fill_in_order_and_past_heavy_the_character_is_out(damage, level, penalty, out):
    # CON 2: 12 life points a level. Moderate -2 dice, heavy -4, past heavy unconscious.
    state = body.wound_state(damage, 2)
    assert (state.level, state.dice_penalty, state.unconscious) == (level, penalty, out)


@pytest.mark.parametrize(("damage", "target"), [(29, None), (30, 0), (33, 3)])
def test_the_knockout_save_is_due_at_the_body_point_total_against_the_damage_over_it(damage, target):
    # CON 0: 30 body points. Mistrunner: Combat § Non-Lethal Combat.
    assert body.non_lethal_save_target(damage, 0) == target


def brute_force_save(damage: int, con: int) -> Fraction:
    total = 3 * (10 + con)
    if damage < total:
        return Fraction(1)
    return Fraction(sum(face + con >= damage - total for face in range(1, 11)), 10)


@given(st.integers(0, 80), st.integers(-5, 5))
def test_the_save_chance_matches_counting_the_d10_faces(damage, con):
    assert body.non_lethal_save_chance(damage, con) == brute_force_save(damage, con)


def test_a_save_against_target_7_with_con_1_succeeds_on_6_or_more():
    # 33 body points; 40 non-lethal damage is 7 over: 1d10 + 1 >= 7 on faces 6-10.
    assert body.non_lethal_save_chance(40, 1) == Fraction(1, 2)


@pytest.mark.parametrize(
    ("damage", "con", "chance"),
    [
        (15, 0, Fraction(0)),
        (16, 0, Fraction(5, 100)),
        (20, 0, Fraction(25, 100)),
        (16, 1, Fraction(0)),
        (17, 1, Fraction(5, 100)),
        (18, 1, Fraction(10, 100)),
        (60, 0, Fraction(1)),
    ],
)
def test_lasting_injury_is_5_percent_per_point_over_half_the_body_points(damage, con, chance):
    # CON 0: 30 points, half 15. CON 1: 33 points, half 16.5 (17 is over by part of a point).
    assert body.serious_injury_chance(damage, con) == chance


@pytest.mark.parametrize(
    ("damage", "rest", "days"), [(0, False, 0), (5, False, 5), (5, True, 3), (6, True, 3)]
)
def test_recovery_is_one_point_a_day_of_mild_activity_and_two_of_complete_rest(damage, rest, days):
    assert body.recovery_days(damage, complete_rest=rest) == days


@given(st.integers(0, 200), st.integers(-5, 10))
def test_dice_penalty_never_falls_as_damage_grows(damage, con):
    assert body.wound_state(damage + 1, con).dice_penalty >= body.wound_state(damage, con).dice_penalty


def test_negative_damage_is_rejected():
    with pytest.raises(ValueError, match="Damage must be at least 0"):
        body.wound_state(-1, 0)
