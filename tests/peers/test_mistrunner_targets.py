"""Mistrunner target numbers (seed 003 § Combat Target Numbers, § Target Number Modifiers, § Vehicles)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core.peers.mistrunner import (
    range_target_number,
    recoil_modifier,
    target_number,
    vehicle_speed_modifier,
)
from rules_core.peers.mistrunner.targets import ATTACKER_MOTIONS, COVERS, RANGES, TARGET_MOTIONS, VISIONS


@pytest.mark.parametrize(
    ("band", "tn"), [("point_blank", 6), ("short", 7), ("medium", 8), ("long", 9), ("extreme", 10)]
)
def test_each_range_band_has_its_target_number(band, tn):
    # Mistrunner: Combat § Combat Target Numbers table.
    assert range_target_number(band) == tn


def test_nothing_beyond_extreme_range_can_be_attacked():
    with pytest.raises(ValueError, match="nothing past extreme"):
        range_target_number("beyond_extreme")


def test_melee_is_always_at_point_blank_with_target_number_6():
    # Mistrunner: Combat § Melee Combat.
    assert target_number("long", melee=True).total == 6


@pytest.mark.parametrize(
    ("options", "change"),
    [
        ({"vision": "blind_fire"}, 3),
        ({"vision": "impaired_vision"}, 1),
        ({"cover": "partial_cover"}, 1),
        ({"cover": "full_cover"}, 3),
        ({"target_motion": "target_running"}, 2),
        ({"target_motion": "target_not_moving"}, -1),
        ({"melee_opponents": 2}, 2),
        ({"attacker_motion": "attacker_running"}, 2),
        ({"attacker_motion": "attacker_walking"}, 1),
        ({"called_shot": True}, 3),
        ({"shots": 3}, 2),
        ({"shots": 3, "compensator": 1}, 1),
        ({"vehicle_speed_kph": 45}, 2),
    ],
)
def test_each_modifier_of_the_table_changes_the_target_number_by_its_amount(options, change):
    # Mistrunner: Combat § Target Number Modifiers table.
    tn = target_number("medium", **options)
    assert tn.base == 8
    assert tn.total == 8 + change


def test_the_attacker_in_melee_modifier_applies_to_projectile_attacks_only():
    assert target_number(melee=True, melee_opponents=3).total == 6


def test_the_working_lists_every_modifier_applied():
    tn = target_number("short", cover="full_cover", called_shot=True)
    assert tn.steps == (("Full cover", 3), ("Called shot", 3))
    assert tn.total == 13


@pytest.mark.parametrize(
    ("shots", "compensator", "recoil"), [(1, 0, 0), (2, 0, 1), (4, 0, 3), (4, 2, 1), (2, 5, 0)]
)
def test_recoil_is_one_per_shot_after_the_first_less_the_compensator_never_below_zero(
    shots, compensator, recoil
):
    # Mistrunner: Combat § Projectile Weaponry.
    assert recoil_modifier(shots, compensator) == recoil


def test_shots_beyond_the_rate_of_fire_are_rejected():
    assert recoil_modifier(3, rate_of_fire=3) == 2
    with pytest.raises(ValueError, match="Rate of fire 3"):
        recoil_modifier(4, rate_of_fire=3)


@pytest.mark.parametrize(("kph", "change"), [(0, 0), (19, 0), (20, 1), (39, 1), (40, 2), (100, 5)])
def test_vehicle_speed_adds_one_per_full_20_kph(kph, change):
    # Mistrunner: Combat § Vehicle Combat.
    assert vehicle_speed_modifier(kph) == change


@pytest.mark.parametrize(
    "options",
    [{"vision": "fog"}, {"cover": "total"}, {"target_motion": "flying"}, {"attacker_motion": "sprint"}],
)
def test_unknown_states_are_rejected_with_the_allowed_list(options):
    with pytest.raises(ValueError, match="must be one of"):
        target_number(**options)


@given(
    st.sampled_from(RANGES),
    st.sampled_from(VISIONS),
    st.sampled_from(COVERS),
    st.sampled_from(TARGET_MOTIONS),
    st.sampled_from(ATTACKER_MOTIONS),
    st.booleans(),
)
def test_the_total_is_the_base_plus_the_listed_steps(band, vision, cover, target, attacker, called):
    tn = target_number(
        band, vision=vision, cover=cover, target_motion=target, attacker_motion=attacker, called_shot=called
    )
    assert tn.total == range_target_number(band) + sum(v for _, v in tn.steps)
    assert tn.total >= range_target_number(band) - 1
