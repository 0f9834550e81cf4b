"""Aim, initiative, tactics, thrown weapons and stealth: Actions (seed 000) worked examples and thresholds."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core.aim import (
    AimReading,
    aim_bonus,
    ballistic_correction,
    max_aim_bonus,
    spotter_conditions,
    tracer_aim_bonus,
)
from rules_core.initiative import (
    ambush_initiative,
    initiative,
    initiative_order,
    tactics_initiative_bonus,
    unprepared_initiative,
)
from rules_core.stealth import deliberate_stealth_difficulty, scan_difficulty
from rules_core.tactics import (
    TacticsReading,
    TacticsRolls,
    may_retry_tactics,
    tactics_attempts,
    tactics_difficulties,
    tactics_max_effect,
    tactics_rolls,
)
from rules_core.thrown import ThrownRange, ThrownRounding, thrown_range


# Actions § Aim
def test_each_aim_action_adds_one_up_to_plus_six() -> None:
    """Actions § List of Minor Actions (Aim): +1 DM each, maximum +6."""
    assert [aim_bonus(n) for n in range(7)] == [0, 1, 2, 3, 4, 5, 6]
    assert max_aim_bonus() == 6


def test_a_seventh_aim_action_is_rejected() -> None:
    with pytest.raises(ValueError, match="Aim counts for 0 to 6 minor actions"):
        aim_bonus(7)
    with pytest.raises(ValueError, match="0 to 6"):
        aim_bonus(-1)


def test_a_weapon_aim_modifier_replaces_the_plus_one_per_action_by_default() -> None:
    """Actions § Aim > Maximum Aim: six actions for +6 or more because of a weapon Aim modifier."""
    assert aim_bonus(1, 2) == 2
    assert max_aim_bonus(2) == 12


def test_a_weapon_aim_modifier_counted_once_adds_to_plus_one_per_further_action() -> None:
    assert aim_bonus(1, 2, AimReading.ONCE) == 2
    assert aim_bonus(6, 2, "once") == 7
    assert aim_bonus(3, None, "once") == 3
    assert aim_bonus(0, 2, "once") == 0


@pytest.mark.parametrize("weapon_aim", [0, 11])
def test_an_absurd_weapon_aim_modifier_is_rejected(weapon_aim: int) -> None:
    with pytest.raises(ValueError, match="Aim modifier must be between 1 and 10"):
        aim_bonus(1, weapon_aim)


def test_ballistic_correction_keeps_the_aim_and_adds_one_up_to_the_maximum() -> None:
    """Actions § Ballistic Correction > Effect."""
    assert ballistic_correction(3) == 4
    assert ballistic_correction(5) == 6
    assert ballistic_correction(6) == 6
    assert ballistic_correction(11, 2) == 12


def test_ballistic_correction_rejects_a_kept_aim_above_the_maximum() -> None:
    with pytest.raises(ValueError, match="between 0 and 6"):
        ballistic_correction(7)


def test_tracers_grant_up_to_one_aim_or_three_on_full_auto_and_a_spotter_two_conditions() -> None:
    """Actions § Ballistic Correction > Tracer Rounds, > Spotter."""
    assert (tracer_aim_bonus(), tracer_aim_bonus(True), spotter_conditions()) == (1, 3, 2)


# Actions § Initiative
def test_initiative_is_two_d_six_plus_characteristic_modifier_and_skill() -> None:
    assert initiative(7, 1, 2) == 10
    assert initiative(7, 1, 2, tactics_bonus=2) == 12


def test_unprepared_combatants_add_only_their_dexterity_dm() -> None:
    assert unprepared_initiative(7, 1) == 8


def test_an_ambusher_counts_an_automatic_twelve_plus_dexterity_dm() -> None:
    assert ambush_initiative(1) == 13
    assert ambush_initiative(-1, tactics_bonus=1) == 12


@pytest.mark.parametrize("roll", [1, 13])
def test_an_initiative_roll_outside_two_to_twelve_is_rejected(roll: int) -> None:
    with pytest.raises(ValueError, match="between 2 and 12"):
        initiative(roll, 0)
    with pytest.raises(ValueError, match="between 2 and 12"):
        unprepared_initiative(roll, 0)


def test_an_initiative_skill_out_of_range_is_rejected() -> None:
    with pytest.raises(ValueError, match="skill level"):
        initiative(7, 0, 21)


def test_the_tactics_effect_adds_to_the_units_initiative_negative_included_by_default() -> None:
    assert tactics_initiative_bonus(2) == 2
    assert tactics_initiative_bonus(-2) == -2
    assert tactics_initiative_bonus(-2, negative_counts=False) == 0


def test_initiative_order_is_descending_and_ties_keep_the_given_order() -> None:
    assert initiative_order({"Ana": 8, "Bo": 12, "Cy": 8, "Di": 3}) == ("Bo", "Ana", "Cy", "Di")


def test_ordering_more_than_five_hundred_combatants_is_rejected() -> None:
    with pytest.raises(ValueError, match="At most 500"):
        initiative_order({str(i): i for i in range(501)})


# Actions § Tactics Skill
@pytest.mark.parametrize(("difficulty", "cap"), [(6, 1), (8, 2), (10, 4), (12, 8)])
def test_the_declared_risk_caps_the_tactics_effect(difficulty: int, cap: int) -> None:
    assert tactics_max_effect(difficulty) == cap
    assert tactics_rolls(cap, difficulty).advantage_rolls == cap
    assert tactics_rolls(cap + 1, difficulty).advantage_rolls == cap
    assert tactics_rolls(-(cap + 1), difficulty).disadvantage_rolls == cap


def test_a_tactics_roll_at_an_undeclared_risk_is_rejected() -> None:
    assert tactics_difficulties() == (6, 8, 10, 12)
    with pytest.raises(ValueError, match="difficulty 6, 8, 10, 12"):
        tactics_max_effect(9)


def test_a_tactics_failure_grants_disadvantage_rolls() -> None:
    assert tactics_rolls(-1, 10) == TacticsRolls(10, -1, 0, 1)
    assert tactics_rolls(0, 10) == TacticsRolls(10, 0, 0, 0)


def test_the_skill_plus_one_reading_grants_skill_plus_one_rolls() -> None:
    """Actions § List of Significant Actions (Use Tactics): rolls equal to skill + 1 per combat."""
    assert tactics_rolls(1, 8, skill=2, reading=TacticsReading.SKILL_PLUS_ONE) == TacticsRolls(8, 1, 3, 0)
    assert tactics_rolls(-5, 8, skill=1, reading="skill_plus_one") == TacticsRolls(8, -2, 0, 2)


def test_skill_one_in_tactics_may_try_twice_in_a_battle() -> None:
    """Actions § Tactics Skill > Re-attempting: a character with skill 1 can try 2x in a battle."""
    assert tactics_attempts(1) == 2
    assert may_retry_tactics(1, 1)
    assert not may_retry_tactics(2, 1)
    assert may_retry_tactics(2, 1, battle_changed=True)


@pytest.mark.parametrize(("attempts", "skill"), [(-1, 1), (101, 1), (0, 21), (0, -1)])
def test_absurd_tactics_attempts_or_skill_are_rejected(attempts: int, skill: int) -> None:
    with pytest.raises(ValueError, match="between"):
        may_retry_tactics(attempts, skill)


@given(st.integers(-50, 50), st.sampled_from([6, 8, 10, 12]))
def test_tactics_never_grants_both_advantage_and_disadvantage_nor_more_than_the_cap(e: int, d: int) -> None:
    rolls = tactics_rolls(e, d)
    assert min(rolls.advantage_rolls, rolls.disadvantage_rolls) == 0
    assert max(rolls.advantage_rolls, rolls.disadvantage_rolls) <= tactics_max_effect(d)


# Actions § Thrown Weapons
def test_strength_seven_throws_a_thrown_half_weapon_three_metres_or_lobs_it_ten() -> None:
    """Actions § Thrown Weapons > Examples: Thrown 0.5, Str 7: 3 m straight, 10 m lobbed."""
    assert thrown_range(7, Fraction(1, 2)) == ThrownRange(Fraction(3), Fraction(10))
    assert thrown_range(7, 0.5) == thrown_range(7, "0.5")


def test_strength_seven_throws_a_thrown_one_and_a_half_weapon_ten_metres_or_lobs_it_thirty_one() -> None:
    """Actions § Thrown Weapons > Examples: Thrown 1.5, Str 7: 10 m straight, 31 m lobbed."""
    assert thrown_range(7, "1.5") == ThrownRange(Fraction(10), Fraction(31))


def test_exact_thrown_ranges_keep_the_half_metres() -> None:
    assert thrown_range(7, 1.5, ThrownRounding.EXACT) == ThrownRange(Fraction(21, 2), Fraction(63, 2))


@pytest.mark.parametrize(
    ("strength", "value", "message"),
    [
        (-1, 1, "Strength must be between 0 and 99"),
        (100, 1, "Strength"),
        (7, 0, "above 0"),
        (7, 21, "at most 20"),
    ],
)
def test_bad_thrown_inputs_are_rejected(strength: int, value: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        thrown_range(strength, value)


def test_a_thrown_value_that_is_not_a_number_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"must be a number such as 0\.5"):
        thrown_range(7, "far")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("9e999999", "without an exponent"),
        ("1E2", "without an exponent"),
        ("0." + "5" * 20, "at most 16 characters"),
        ("1" * 100_000, "at most 16 characters"),
        (float("inf"), "must be a number"),
        (float("nan"), "must be a number"),
        (1e308, "at most 20"),
        (10**1000, "at most 20"),
        (Fraction(10**1000 + 1, 3), "at most 20"),
        (Decimal("9e999999"), "must be a number"),
        (None, "must be a number"),
    ],
)
def test_long_exponent_or_absurd_thrown_values_are_refused_quickly(value: object, message: str) -> None:
    """Bounded work: the refusal is a short sentence, not seconds spent building a huge number."""
    with pytest.raises(ValueError, match=message):
        thrown_range(7, value)  # type: ignore[arg-type]


def test_a_thrown_value_written_as_a_fraction_or_decimal_text_is_read_exactly() -> None:
    assert thrown_range(9, "1/3", ThrownRounding.EXACT) == ThrownRange(Fraction(3), Fraction(9))
    assert thrown_range(7, " 1.5 ") == thrown_range(7, Fraction(3, 2))


@given(st.integers(0, 50), st.fractions(Fraction(1, 100), 20))
def test_lobbed_range_is_never_shorter_than_thrown_range(strength: int, value: Fraction) -> None:
    for rounding in ThrownRounding:
        result = thrown_range(strength, value, rounding)
        assert 0 <= result.straight_m <= result.lobbed_m


# Actions § Deliberate Stealth, § Scan/Search
def test_deliberate_stealth_is_rolled_against_eight_plus_the_adversarys_recon_chm_and_conditions() -> None:
    assert deliberate_stealth_difficulty(2, 1) == 11
    assert deliberate_stealth_difficulty(2, 1, adversary_conditions=1, hiding_factors=3) == 9


def test_an_adversary_without_recon_counts_the_unskilled_penalty() -> None:
    assert deliberate_stealth_difficulty(None, 0) == 5


def test_absurd_hiding_factors_are_rejected() -> None:
    with pytest.raises(ValueError, match="hiding factors"):
        deliberate_stealth_difficulty(0, 0, hiding_factors=-1)


def test_scan_is_rolled_against_eight_plus_the_adversarys_stealth_chm_and_conditions() -> None:
    assert scan_difficulty(1, 0) == 9
    assert scan_difficulty(None, 1, conditions=2) == 8
