"""Grappling, action options and time.

Actions § Grappling, § Action Options; Core Mechanics § Time and Checks.
"""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core.action_options import (
    RecklessOutcome,
    RecklessReading,
    coordination_difficulty,
    plan_difficulty,
    plan_rolls,
    reckless_action,
    reckless_roll_modifier,
    supporting_bonus,
)
from rules_core.checks import costly_success
from rules_core.grappling import (
    GrappleEffect,
    GrappleSpend,
    GrappleWeapon,
    PistolReading,
    SweepReading,
    grapple_difficulty,
    grapple_effect_cost,
    grapple_next_round,
    manoeuvre_difficulty,
    spend_grapple_effect,
)
from rules_core.limits import MAX_CHARACTERISTIC
from rules_core.time_checks import Duration, DurationFloor, combat_rounds, median_duration, task_duration


# Actions § Grappling > Step 2 and Step 3
@pytest.mark.parametrize(
    ("manoeuvre", "difficulty"),
    [("target_limb", 1), ("target_extremity", 2), ("throw", 3), ("sweep", 2), ("damage", 1), ("bind", 1)],
)
def test_declaring_a_manoeuvre_adds_its_difficulty(manoeuvre: str, difficulty: int) -> None:
    assert manoeuvre_difficulty(manoeuvre) == difficulty


@pytest.mark.parametrize(
    ("effect", "cost"),
    [(GrappleEffect.TARGET_LIMB, 2), (GrappleEffect.TARGET_EXTREMITY, 3), ("damage", 2), ("bind", 2)],
)
def test_fixed_grappling_effects_cost_their_listed_effect(effect: str, cost: int) -> None:
    assert grapple_effect_cost(effect) == cost


@pytest.mark.parametrize(("hp", "cost"), [(30, 5), (31, 6), (36, 6), (37, 7)])
def test_a_throw_costs_a_sixth_of_the_targets_hp_rounded_up(hp: int, cost: int) -> None:
    assert grapple_effect_cost("throw", hp=hp) == cost


@pytest.mark.parametrize(("dex", "cost"), [(6, 3), (7, 4), (8, 4)])
def test_a_sweep_costs_half_the_targets_dex_rounded_up(dex: int, cost: int) -> None:
    assert grapple_effect_cost("sweep", dex=dex) == cost


def test_a_sweep_adds_half_dex_to_the_difficulty_under_that_reading() -> None:
    assert manoeuvre_difficulty("sweep", dex=7, sweep=SweepReading.HALF_DEX) == 4
    assert manoeuvre_difficulty("throw", sweep="half_dex") == 3


def test_a_throw_without_the_targets_hp_is_rejected() -> None:
    with pytest.raises(ValueError, match="needs the target's HP"):
        grapple_effect_cost("throw")
    # The bound is the project's largest characteristic (rules_core.limits), not a figure of its own.
    with pytest.raises(ValueError, match=f"Dex must be between 0 and {MAX_CHARACTERISTIC}"):
        grapple_effect_cost("sweep", dex=MAX_CHARACTERISTIC + 1)


def test_the_grappling_difficulty_is_eight_plus_the_adversarys_dm() -> None:
    assert grapple_difficulty(1) == 9


def test_an_unskilled_adversary_lowers_the_grappling_difficulty_by_three() -> None:
    """Actions § Grappling > Unskilled Characters."""
    assert grapple_difficulty(1, adversary_unskilled=True) == 6


def test_a_knife_favours_its_holder_by_one_and_a_pistol_by_two() -> None:
    """Actions § Grappling > Weapons Factor."""
    assert grapple_difficulty(0, adversary_weapon=GrappleWeapon.CLOSE_QUARTERS) == 9
    assert grapple_difficulty(0, own_weapon="close_quarters_weapon") == 7
    assert grapple_difficulty(0, adversary_weapon="pistol") == 10
    assert (
        grapple_difficulty(0, own_weapon="close_quarters_weapon", adversary_weapon="close_quarters_weapon")
        == 8
    )


def test_under_the_hindrance_reading_a_pistol_raises_only_its_holders_difficulty() -> None:
    assert grapple_difficulty(0, own_weapon="pistol", pistol=PistolReading.HINDRANCE) == 10
    assert grapple_difficulty(0, adversary_weapon="pistol", pistol="hindrance") == 8


def test_a_declared_throw_adds_three_to_the_grappling_difficulty() -> None:
    assert grapple_difficulty(1, manoeuvre="throw") == 12
    assert grapple_difficulty(0, manoeuvre="sweep", dex=9, sweep="half_dex") == 13


def test_grappling_effects_are_bought_within_the_effect() -> None:
    assert spend_grapple_effect(5, ["target_limb", "bind"]) == GrappleSpend(
        5, (GrappleEffect.TARGET_LIMB, GrappleEffect.BIND), (2, 2), 4, 1
    )
    assert spend_grapple_effect(6, ["throw"], hp=31).remaining == 0


def test_grappling_effects_costing_more_than_the_effect_are_rejected() -> None:
    with pytest.raises(ValueError, match="cost 7; the Effect is only 6"):
        spend_grapple_effect(6, ["throw"], hp=37)


@pytest.mark.parametrize(("effect", "choices"), [(-1, []), (51, []), (50, ["bind"] * 21)])
def test_absurd_grappling_spends_are_rejected(effect: int, choices: list[str]) -> None:
    with pytest.raises(ValueError, match=r"between 0 and 50|at most 20"):
        spend_grapple_effect(effect, choices)


def test_a_won_grapple_gives_advantage_next_round_and_a_lost_one_disadvantage() -> None:
    assert grapple_next_round(True) == (1, 0)
    assert grapple_next_round(False) == (0, 1)


# Actions § Reckless Action
def test_acting_recklessly_gives_plus_two() -> None:
    assert reckless_roll_modifier() == 2


@pytest.mark.parametrize(
    ("effect", "outcome"),
    [
        (4, RecklessOutcome(4, True, 4, 0)),
        (3, RecklessOutcome(3, True, 3, 0)),
        (2, RecklessOutcome(2, True, 2, 1)),
        (0, RecklessOutcome(0, True, 0, 3)),
        (-1, RecklessOutcome(-1, False, 0, 4)),
    ],
)
def test_a_reckless_success_below_three_also_brings_a_fail_effect_and_a_failure_is_three_worse(
    effect: int, outcome: RecklessOutcome
) -> None:
    assert reckless_action(effect) == outcome


def test_under_the_reduced_success_reading_a_reckless_success_counts_three_lower() -> None:
    assert reckless_action(5, RecklessReading.REDUCED_SUCCESS) == RecklessOutcome(5, True, 2, 0)
    assert reckless_action(1, "reduced_success") == RecklessOutcome(1, True, 0, 2)


@given(st.integers(-20, -1))
def test_a_costly_success_harms_more_than_a_reckless_failure_of_the_same_effect(e: int) -> None:
    """Actions § Reckless Action > Costly Success Difference."""
    assert costly_success(e).fail_degree >= reckless_action(e).fail_degree - 1


@given(st.integers(3, 50))
def test_a_reckless_success_of_three_or_more_has_no_fail_effect(e: int) -> None:
    assert reckless_action(e).fail_degree == 0


# Actions § Supporting Actions, § Coordinating Action, § Plan/Wait
def test_a_supporting_action_gives_its_success_effect_as_a_dm_and_nothing_on_a_failure() -> None:
    assert supporting_bonus(2) == 2
    assert supporting_bonus(0) == 0
    assert supporting_bonus(-3) == 0


def test_coordination_adds_one_to_four_to_the_difficulty_less_any_offset() -> None:
    assert coordination_difficulty(8, 1) == 9
    assert coordination_difficulty(8, 4, 1) == 11


@pytest.mark.parametrize(("coordination", "offset"), [(0, 0), (5, 0), (2, 3), (2, -1)])
def test_coordination_outside_one_to_four_or_an_excess_offset_is_rejected(
    coordination: int, offset: int
) -> None:
    with pytest.raises(ValueError, match="between"):
        coordination_difficulty(8, coordination, offset)


def test_a_right_prediction_gives_advantage_and_a_wrong_one_disadvantage() -> None:
    assert plan_rolls(True) == (1, 0)
    assert plan_rolls(False) == (0, 1)


def test_a_divulged_prediction_moves_the_difficulty_by_up_to_four() -> None:
    assert plan_difficulty(8, -4) == 4
    assert plan_difficulty(8, 4) == 12
    with pytest.raises(ValueError, match="at most 4"):
        plan_difficulty(8, 5)


# Core Mechanics § Time and Checks
@pytest.mark.parametrize(("effect", "seconds"), [(0, 3), (1, 2), (-1, 4), (-3, 6)])
def test_a_one_d_six_second_action_takes_the_median_moved_by_the_effect(effect: int, seconds: int) -> None:
    """Core Mechanics § Time and Checks, example (a fail effect of three is an Effect of -3: 6 seconds)."""
    assert task_duration(effect, 1, 6) == Duration(1, 6, 3, effect, seconds)


def test_a_large_success_never_takes_less_than_the_lowest_roll() -> None:
    assert task_duration(5).units == 1
    assert task_duration(10, 2, 6).units == 2
    assert task_duration(10, 2, 6, floor=DurationFloor.ONE_UNIT).units == 1


@pytest.mark.parametrize(
    ("dice", "sides", "median"), [(1, 6, 3), (2, 6, 7), (1, 2, 1), (3, 6, 10), (1, 3, 2)]
)
def test_the_median_duration_is_the_lower_middle_value(dice: int, sides: int, median: int) -> None:
    assert median_duration(dice, sides) == median


def _brute_force_median(dice: int, sides: int) -> int:
    """The lower middle total, counting every combination of faces."""
    totals = sorted(map(sum, product(range(1, sides + 1), repeat=dice)))
    return totals[(len(totals) - 1) // 2]


@pytest.mark.parametrize(
    ("dice", "sides"), [(d, s) for d in range(1, 5) for s in (2, 3, 4, 5, 6, 7, 10)] + [(5, 6), (2, 100)]
)
def test_the_median_duration_equals_brute_force_over_every_face(dice: int, sides: int) -> None:
    assert median_duration(dice, sides) == _brute_force_median(dice, sides)


@given(st.integers(1, 20), st.integers(2, 100))
def test_the_median_duration_is_the_centre_of_the_symmetric_roll_rounded_down(dice: int, sides: int) -> None:
    """A sum of fair dice is symmetric about dice x (sides + 1) / 2: the lower median is that rounded down."""
    assert median_duration(dice, sides) == dice * (sides + 1) // 2


@pytest.mark.parametrize(("dice", "sides"), [(0, 6), (21, 6), (1, 1), (1, 101)])
def test_absurd_duration_dice_are_rejected(dice: int, sides: int) -> None:
    with pytest.raises(ValueError, match=r"dice|sides"):
        median_duration(dice, sides)


def test_first_aids_three_minutes_are_thirty_rounds() -> None:
    """Actions § Extended Actions: first aid takes 30 rounds (Outcomes § First Aid: 3 minutes)."""
    assert combat_rounds(180) == 30
    assert combat_rounds(181) == 31
    assert combat_rounds(0) == 0


def test_an_absurd_extended_action_is_rejected() -> None:
    with pytest.raises(ValueError, match="between 0 and"):
        combat_rounds(-1)


@given(st.integers(-50, 49), st.integers(1, 4), st.sampled_from([2, 3, 6, 10]))
def test_a_better_effect_never_makes_a_task_longer(e: int, dice: int, sides: int) -> None:
    assert task_duration(e + 1, dice, sides).units <= task_duration(e, dice, sides).units
