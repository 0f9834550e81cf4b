"""Targeted attacks: hit locations (Actions § Targeted Attack) and effects (Outcomes § Targeted Damage)."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core import damage, targeting
from rules_core.targeting import Rounding

TWO_D6 = Counter(a + b for a, b in product(range(1, 7), repeat=2))


@pytest.mark.parametrize(
    ("roll", "location", "difficulty", "area", "sided"),
    [
        (2, "Vitals, Neck", 3, "vitals", False),
        (3, "Feet", 2, "extremities", True),
        (4, "Secondary Leg", 2, "limbs", False),
        (5, "Primary Leg", 1, "limbs", False),
        (6, "Groin", 1, None, False),
        (7, "Core or Center of Mass", 0, None, False),
        (8, "Chest", 1, None, False),
        (9, "Primary Arm", 1, "limbs", False),
        (10, "Secondary Arm", 2, "limbs", False),
        (11, "Hands", 2, "extremities", True),
        (12, "Head", 3, "head", False),
    ],
)
def test_each_2d6_roll_hits_its_location_with_its_targeting_difficulty(
    roll, location, difficulty, area, sided
):
    """Actions § Targeted Attack (location table)."""
    row = targeting.hit_location(roll)
    assert (row.location, row.difficulty, row.area, row.sided) == (location, difficulty, area, sided)
    assert row.odds == Fraction(TWO_D6[roll], 36)


def test_printed_odds_are_the_exact_2d6_odds_rounded_to_two_decimals():
    for row in targeting.hit_locations():
        assert f"{float(row.odds * 100):.2f}%" == row.printed_odds


@pytest.mark.parametrize(
    ("name", "difficulty"), [("Head", 3), ("  primary   arm ", 1), ("CORE OR CENTER OF MASS", 0)]
)
def test_a_targeted_location_is_found_by_name_with_its_difficulty(name, difficulty):
    assert targeting.hit_location_by_name(name).difficulty == difficulty


def test_an_unknown_location_name_is_rejected_with_the_choices():
    with pytest.raises(ValueError, match="Unknown location 'Tail': use one of Vitals, Neck"):
        targeting.hit_location_by_name("Tail")


def test_location_odds_add_up_to_one():
    odds = targeting.hit_location_odds()
    assert len(odds) == 11
    assert sum(odds.values()) == 1
    assert odds["Core or Center of Mass"] == Fraction(1, 6)


@pytest.mark.parametrize("roll", [1, 13, 0])
def test_rolls_outside_2_to_12_are_rejected(roll):
    with pytest.raises(ValueError, match="between 2 and 12"):
        targeting.hit_location(roll)


@pytest.mark.parametrize(("d6", "side"), [(1, "primary"), (3, "primary"), (4, "secondary"), (6, "secondary")])
def test_a_d6_of_1_to_3_is_the_primary_side_and_4_to_6_the_secondary(d6, side):
    """Actions § Targeted Attack (note): roll 1d6: 1-3 Primary, 4-6 Secondary."""
    assert targeting.side(d6) == side


@pytest.mark.parametrize("d6", [0, 7])
def test_side_rolls_outside_1_to_6_are_rejected(d6):
    with pytest.raises(ValueError, match="between 1 and 6"):
        targeting.side(d6)


def test_rolling_a_location_uses_the_injected_generator():
    seen = Counter()
    rng = random.Random(11)
    for _ in range(400):
        location, side = targeting.roll_hit_location(rng)
        seen[location.roll] += 1
        assert (side is not None) is location.sided
        if side is not None:
            assert side in {"primary", "secondary"}
    assert set(seen) <= set(range(2, 13))
    assert targeting.roll_hit_location(random.Random(5)) == targeting.roll_hit_location(random.Random(5))
    with pytest.raises(ValueError, match=r"random\.Random"):
        targeting.roll_hit_location(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("area", "hp", "threshold"),
    [
        ("limbs", 21, 7),
        ("extremities", 21, 2),
        ("head", 21, 2),
        ("vitals", 21, 2),
        ("head", 9, 1),
        ("limbs", 20, 6),
    ],
)
def test_targeted_thresholds_are_fractions_of_hp_rounded_down(area, hp, threshold):
    """Outcomes § Targeted Damage: limbs >= 1/3 HP; hands, feet, head, vitals >= 1/10 HP."""
    assert targeting.area_threshold(area, hp) == threshold


@pytest.mark.parametrize(("area", "hp", "threshold"), [("limbs", 20, 7), ("head", 21, 3), ("vitals", 20, 2)])
def test_the_exact_reading_rounds_targeted_thresholds_up(area, hp, threshold):
    assert targeting.area_threshold(area, hp, rounding=Rounding.EXACT) == threshold


@pytest.mark.parametrize(("text", "member"), [("down", Rounding.DOWN), ("exact", Rounding.EXACT)])
def test_a_plain_string_names_a_rounding(text, member):
    assert targeting.area_threshold("limbs", 20, rounding=text) == targeting.area_threshold(
        "limbs", 20, rounding=member
    )
    assert targeting.targeted_effects(20, rounding=text) == targeting.targeted_effects(20, rounding=member)


@pytest.mark.parametrize("rounding", ["up", "", "DOWN", 1])
def test_an_unknown_rounding_is_rejected_instead_of_read_as_exact(rounding):
    with pytest.raises(ValueError, match=r"^The rounding must be one of: down, exact\.$"):
        targeting.area_threshold("limbs", 20, rounding=rounding)
    with pytest.raises(ValueError, match="rounding"):
        targeting.targeted_effect("head", 5, 20, rounding=rounding)


@pytest.mark.parametrize(
    ("area", "damage_taken", "effect"),
    [
        ("limbs", 6, None),
        ("limbs", 7, "crippled"),
        ("extremities", 1, None),
        ("extremities", 2, "crippled"),
        ("head", 1, None),
        ("head", 2, "stunned"),
        ("vitals", 1, None),
        ("vitals", 2, "bleeding"),
    ],
)
def test_targeted_damage_effects_just_below_and_at_the_threshold(area, damage_taken, effect):
    assert targeting.targeted_effect(area, damage_taken, 21) == effect


def test_every_targeted_effect_for_a_21_hp_character():
    effects = {e.area: (e.effect, e.threshold) for e in targeting.targeted_effects(21)}
    assert effects == {
        "limbs": ("crippled", 7),
        "extremities": ("crippled", 2),
        "head": ("stunned", 2),
        "vitals": ("bleeding", 2),
    }


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: targeting.area_threshold("tail", 21), "Unknown targeted area"),
        (lambda: targeting.area_threshold("head", 0), "HP"),
        (lambda: targeting.targeted_effect("head", -1, 21), "negative"),
    ],
)
def test_bad_targeting_arguments_are_rejected(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_chance_of_a_targeted_effect_from_an_attack_is_exact():
    """A 3d3-2 broadsword hit (Effect 0) to the limb of a 21 HP character: crippled needs 7."""
    outcome = damage.damage_outcome("3d3-2", success_effect=0)
    assert targeting.targeted_effect_chance("limbs", outcome.total, 21) == Fraction(1, 27)


@given(st.sampled_from(["limbs", "extremities", "head", "vitals"]), st.integers(1, 500), st.integers(0, 50))
def test_more_hp_never_lowers_a_targeted_threshold(area, hp, extra):
    assert targeting.area_threshold(area, hp) <= targeting.area_threshold(area, hp + extra)
