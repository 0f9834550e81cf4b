"""Hit points, injury thresholds, bleeding, massive damage and dying.

Outcomes § Hit Points (HP), § Injury Conditions, § Massive Damage.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core import checks, injury
from rules_core.injury import InjuryCondition as C
from rules_core.injury import ThresholdReading


def two_d6_at_least(target: int) -> Fraction:
    hits = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b >= target)
    return Fraction(hits, 36)


def test_character_hp_is_the_sum_of_the_three_physical_characteristics():
    """Outcomes § Hit Points (HP): Str + Dex + End."""
    assert injury.hit_points(7, 8, 6) == 21


@pytest.mark.parametrize(
    ("args", "message"), [((-1, 7, 7), "Strength cannot be negative"), ((0, 0, 0), "HP")]
)
def test_impossible_characteristics_are_rejected(args, message):
    with pytest.raises(ValueError, match=message):
        injury.hit_points(*args)


def test_thresholds_of_a_21_hp_character_are_a_third_and_two_thirds_rounded_down():
    """Outcomes § Seriously Wounded (>= 1/3 HP, rounded down), § Critically Wounded, § Dying."""
    limits = injury.injury_thresholds(21)
    assert (limits.wounded, limits.seriously_wounded, limits.critically_wounded, limits.dying) == (
        1,
        7,
        14,
        22,
    )


def test_thresholds_round_down_when_hp_is_not_a_multiple_of_three():
    limits = injury.injury_thresholds(20)
    assert (limits.seriously_wounded, limits.critically_wounded, limits.dying) == (6, 13, 21)


@pytest.mark.parametrize(
    ("damage", "condition"),
    [
        (0, C.UNHURT),
        (1, C.WOUNDED),
        (6, C.WOUNDED),
        (7, C.SERIOUSLY_WOUNDED),
        (13, C.SERIOUSLY_WOUNDED),
        (14, C.CRITICALLY_WOUNDED),
        (21, C.CRITICALLY_WOUNDED),
        (22, C.DYING),
    ],
)
def test_each_threshold_of_a_21_hp_character_just_below_and_just_above(damage, condition):
    assert injury.injury_condition(damage, 21) is condition


@pytest.mark.parametrize(
    ("damage", "condition"),
    [(7, C.WOUNDED), (8, C.SERIOUSLY_WOUNDED), (15, C.SERIOUSLY_WOUNDED), (16, C.CRITICALLY_WOUNDED)],
)
def test_the_table_reading_uses_the_best_physical_characteristic_and_twice_it(damage, condition):
    """Outcomes § Character HP Thresholds (table): >= best physical characteristic, >= 2 x."""
    got = injury.injury_condition(damage, 21, reading=ThresholdReading.BEST_PHYSICAL, best_physical=8)
    assert got is condition


def test_the_table_reading_needs_the_best_physical_characteristic():
    with pytest.raises(ValueError, match="best physical"):
        injury.injury_thresholds(21, reading=ThresholdReading.BEST_PHYSICAL)


def test_tiny_hp_thresholds_never_fall_below_one_point_of_damage():
    limits = injury.injury_thresholds(2)
    assert (limits.seriously_wounded, limits.critically_wounded, limits.dying) == (1, 1, 3)
    assert injury.injury_condition(0, 2) is C.UNHURT
    assert injury.injury_condition(1, 2) is C.CRITICALLY_WOUNDED


@pytest.mark.parametrize(("damage", "hp"), [(-1, 21), (1, 0), (1, 2_000_000)])
def test_bad_damage_or_hp_is_rejected(damage, hp):
    with pytest.raises(ValueError):
        injury.injury_condition(damage, hp)


def test_thresholds_name_the_condition_of_any_damage_and_reject_negative_damage():
    limits = injury.injury_thresholds(21)
    assert [limits.condition(d) for d in (0, 1, 7, 14, 22)] == list(C)
    with pytest.raises(ValueError, match="negative"):
        limits.condition(-1)


def test_least_damage_of_unhurt_is_zero():
    assert injury.injury_thresholds(21).least_damage(C.UNHURT) == 0
    assert [c.severity for c in C] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(("damage", "penalty"), [(0, 0), (2, 0), (3, -1), (5, -1), (6, -2), (22, -7)])
def test_wound_penalty_is_minus_one_for_every_three_damage(damage, penalty):
    """Outcomes § Character HP Thresholds: every 3 damage, -1 to all mental and physical rolls."""
    assert injury.wound_penalty(damage) == penalty


def test_an_end_roll_adds_ends_characteristic_modifier_and_the_wound_penalty():
    assert injury.end_roll_modifier(9, 6) == checks.characteristic_modifier(9) - 2 == -1


def test_seriously_wounded_move_at_three_quarters_and_cannot_dash():
    """Outcomes § Seriously Wounded: movement 3/4, no dash."""
    assert injury.movement(C.SERIOUSLY_WOUNDED) == injury.Movement(Fraction(3, 4), False)
    assert injury.movement(C.WOUNDED) == injury.Movement(Fraction(1), True)
    assert injury.movement(C.UNHURT).can_dash
    assert injury.movement(C.CRITICALLY_WOUNDED).factor == 0
    assert injury.movement(C.DYING) == injury.Movement(Fraction(0), False)


@pytest.mark.parametrize(("roll_damage", "bleeds"), [(6, False), (7, True), (30, True)])
def test_one_damage_roll_reaching_a_third_of_hp_starts_bleeding(roll_damage, bleeds):
    """Outcomes § Bleeding: one roll >= the seriously wounded threshold (1/3 HP rounded down)."""
    assert injury.bleeds_from_roll(roll_damage, 21) is bleeds


def test_bleeding_follows_the_table_reading_when_asked():
    kwargs = {"reading": ThresholdReading.BEST_PHYSICAL, "best_physical": 9}
    assert not injury.bleeds_from_roll(8, 21, **kwargs)
    assert injury.bleeds_from_roll(9, 21, **kwargs)


@pytest.mark.parametrize(("minutes", "damage"), [(0, 0), (1, 1), (2, 2), (10, 10)])
def test_bleeding_deals_one_point_a_minute_from_the_minute_after(minutes, damage):
    """Outcomes § Bleeding: 1 point every minute, starting 1 minute after the damage."""
    assert injury.bleeding_damage_after(minutes) == damage


def test_bleeding_minutes_cannot_be_negative():
    with pytest.raises(ValueError, match="negative"):
        injury.bleeding_damage_after(-1)


@pytest.mark.parametrize(("damage", "minutes"), [(7, 15), (21, 1), (22, 0), (30, 0)])
def test_minutes_of_untreated_bleeding_until_dying(damage, minutes):
    assert injury.minutes_until_dying(damage, 21) == minutes


@pytest.mark.parametrize(("attack", "massive"), [(21, False), (22, True)])
def test_massive_damage_is_more_than_hp_from_one_attack(attack, massive):
    """Outcomes § Massive Damage: more than HP in total damage from an attack."""
    assert injury.is_massive_damage(attack, 21) is massive


def test_massive_damage_roll_is_end_against_8_with_wound_penalties():
    """Outcomes § Massive Damage: End 15 (ChM +3), 22 damage (-7): 2d6 - 4 >= 8 needs 12."""
    assert injury.massive_damage_survival_chance(15, 22) == two_d6_at_least(12) == Fraction(1, 36)
    assert injury.massive_damage_survival_chance(7, 22) == 0


def test_dying_roll_is_end_against_4_with_wound_penalties():
    """Outcomes § Dying: End 7 (ChM 0) at 22 damage (-7) needs 2d6 >= 11 each round."""
    assert injury.dying_roll_chance(7, 22) == two_d6_at_least(11) == Fraction(1, 12)


@pytest.mark.parametrize("rounds", [0, 1, 2, 5])
def test_chance_to_survive_n_dying_rounds_is_the_round_chance_to_the_power_n(rounds):
    assert injury.survive_dying_rounds_chance(7, 22, rounds) == Fraction(1, 12) ** rounds


def test_bleeding_while_dying_raises_the_wound_penalty_every_minute():
    """Damage 22 -> 23 after minute 1 (still -7), 24 after minute 2 (-8): round 21 needs 2d6 >= 12."""
    expected = Fraction(1, 12) ** 20 * Fraction(1, 36)
    assert injury.survive_dying_rounds_chance(7, 22, 21, bleeding=True) == expected
    assert injury.survive_dying_rounds_chance(3, 40, 25, bleeding=True) == 0


@pytest.mark.parametrize("rounds", [-1, 1001])
def test_dying_rounds_are_bounded(rounds):
    with pytest.raises(ValueError, match="Rounds"):
        injury.survive_dying_rounds_chance(7, 22, rounds)


def test_first_aid_holds_off_dying_rolls_for_hours_equal_to_end():
    """Outcomes § First Aid, § Dying: stabilised for hours equal to End."""
    assert injury.stabilised_hours(8) == 8
    with pytest.raises(ValueError):
        injury.stabilised_hours(-1)


@given(st.integers(1, 300), st.integers(0, 400), st.integers(0, 400))
def test_more_damage_never_gives_a_milder_condition(hp, a, b):
    low, high = sorted((a, b))
    assert injury.injury_condition(low, hp).severity <= injury.injury_condition(high, hp).severity


@given(st.integers(0, 20), st.integers(0, 60), st.integers(0, 60), st.integers(0, 30))
def test_more_damage_never_improves_the_chance_to_survive_dying(endurance, a, b, rounds):
    low, high = sorted((a, b))
    assert injury.survive_dying_rounds_chance(endurance, high, rounds) <= injury.survive_dying_rounds_chance(
        endurance, low, rounds
    )


def test_the_best_physical_characteristic_is_the_highest_of_str_dex_end() -> None:
    """Outcomes § Character HP Thresholds (table reading)."""
    assert injury.best_physical(7, 9, 8) == 9


def test_best_physical_rejects_a_negative_characteristic() -> None:
    with pytest.raises(ValueError, match="negative"):
        injury.best_physical(7, -1, 8)


@given(st.integers(0, 30), st.integers(0, 3000))
def test_end_rolls_at_any_damage_match_the_dice_however_large_the_wound_penalty(
    endurance: int, damage: int
) -> None:
    """Outcomes § Dying, § Massive Damage: past damage 150 the wound penalty passes -50 (the checks'
    bound on a modifier); the chances are still exact, brought in range with nothing lost (0 there)."""
    modifier = injury.end_roll_modifier(endurance, damage)
    assert injury.dying_roll_chance(endurance, damage) == two_d6_at_least(4 - modifier)
    assert injury.massive_damage_survival_chance(endurance, damage) == two_d6_at_least(8 - modifier)
    assert injury.survive_dying_rounds_chance(endurance, damage, 3, bleeding=True) <= two_d6_at_least(
        4 - modifier
    )
