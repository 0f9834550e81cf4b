"""Mistrunner hit location, grenade scatter, movement (seed 003 § Applying Damage, § Grenades, § Actions)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core.peers.mistrunner import (
    GrenadeScatter,
    grenade_scatter,
    hit_location,
    hit_location_chances,
    move_metres,
    move_metres_per_second,
)


@pytest.mark.parametrize(
    ("die", "key"),
    [
        (1, "left_arm"),
        (2, "left_arm"),
        (3, "right_arm"),
        (4, "right_arm"),
        (5, "left_leg"),
        (6, "left_leg"),
        (7, "right_leg"),
        (8, "right_leg"),
        (9, "abdomen"),
        (10, "head"),
    ],
)
def test_every_face_of_the_location_die_names_its_body_part(die, key):
    assert hit_location(die).key == key


def test_only_the_head_doubles_damage():
    assert [hit_location(d).damage_multiplier for d in range(1, 11)] == [1] * 9 + [2]


def test_location_chances_count_the_faces_exactly():
    chances = hit_location_chances()
    assert chances["head"] == Fraction(1, 10)
    assert chances["left_arm"] == Fraction(1, 5)
    assert sum(chances.values()) == 1


@pytest.mark.parametrize("die", [0, 11])
def test_a_location_roll_off_the_d10_is_rejected(die):
    with pytest.raises(ValueError, match="location die"):
        hit_location(die)


@pytest.mark.parametrize(
    ("die", "key"),
    [
        (1, "wide_right"),
        (3, "wide_right"),
        (4, "wide_left"),
        (6, "wide_left"),
        (7, "short"),
        (8, "short"),
        (9, "long"),
        (10, "long"),
    ],
)
def test_a_missed_grenade_goes_the_way_its_d10_says(die, key):
    # Mistrunner: Combat § Grenades scatter table; the second d10 is metres off course.
    scatter = grenade_scatter(die, 4)
    assert (scatter.direction, scatter.metres) == (key, 4)


def test_a_grenade_three_metres_long_reads_as_such():
    assert grenade_scatter(10, 3) == GrenadeScatter("long", "Long", 3)


@pytest.mark.parametrize(("cor", "walk", "run"), [(0, 5, 10), (3, 8, 16), (-5, 0, 0), (-2, 3, 6), (2, 7, 14)])
def test_a_move_is_5_plus_coordination_metres_and_running_doubles_it(cor, walk, run):
    # Mistrunner: Combat § Actions.
    assert move_metres(cor) == walk
    assert move_metres(cor, running=True) == run


def test_a_coordination_that_makes_the_move_negative_is_rejected():
    with pytest.raises(ValueError, match="at least -5"):
        move_metres(-6)


def test_speed_spreads_one_move_over_the_three_second_turn():
    assert move_metres_per_second(1, running=True) == Fraction(12, 3)


@pytest.mark.parametrize(("cor", "speed"), [(-2, Fraction(2)), (0, Fraction(10, 3)), (2, Fraction(14, 3))])
def test_the_pages_running_speeds_are_exact(cor, speed):
    # docs/peers/mistrunner.md#movement table.
    assert move_metres_per_second(cor, running=True) == speed
