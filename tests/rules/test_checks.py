"""The 2d6 check: Core Mechanics (seed 001) worked examples, thresholds, brute force and properties."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from _dice import brute_force_chance
from hypothesis import given
from hypothesis import strategies as st

from rules_core import checks
from rules_core.checks import (
    CheckOutcome,
    CostlySuccess,
    CostlySuccessReading,
    Modifier,
    characteristic_modifier,
    check_distribution,
    combine_modifiers,
    combined_difficulty,
    competence,
    costly_success,
    default_difficulty,
    effect,
    fail_degree,
    is_success,
    net_advantage,
    resolve_check,
    success_chance,
    success_degree,
    unskilled_penalty,
)


# Core Mechanics § Characteristic Modifier (ChM)
@pytest.mark.parametrize(
    ("characteristic", "expected"),
    [(0, -2), (2, -2), (3, -1), (5, -1), (6, 0), (8, 0), (9, 1), (11, 1), (12, 2), (15, 3)],
)
def test_characteristic_modifier_is_the_characteristic_divided_by_three_rounded_down_minus_two(
    characteristic: int, expected: int
) -> None:
    assert characteristic_modifier(characteristic) == expected


def test_a_negative_characteristic_is_rejected() -> None:
    with pytest.raises(ValueError, match="cannot be negative"):
        characteristic_modifier(-1)


# Core Mechanics § Unskilled Penalty, § Competence (Cmp)
def test_the_unskilled_penalty_is_minus_three() -> None:
    assert unskilled_penalty() == -3


def test_competence_adds_the_skill_to_the_characteristic_modifier() -> None:
    assert competence(1, 2) == 3
    assert competence(-1, 0) == -1


def test_competence_without_the_skill_takes_the_unskilled_penalty_instead() -> None:
    assert competence(1, None) == -2


# Core Mechanics § Modifiers to Rolls > Important Rules
def test_two_scopes_do_not_stack_only_the_better_counts() -> None:
    total = combine_modifiers(
        [Modifier("scope", 1, "red dot"), Modifier("Scope ", 2, "x4"), Modifier("aim", 3)]
    )
    assert total.total == 5
    assert [m.label for m in total.counted] == ["x4", ""]
    assert [m.label for m in total.dropped] == ["red dot"]


def test_modifiers_of_different_kinds_all_count() -> None:
    assert combine_modifiers([Modifier("range", -2), Modifier("size", 1), Modifier("move", -1)]).total == -2


def test_of_two_penalties_of_one_kind_the_more_favourable_counts() -> None:
    assert combine_modifiers([Modifier("light", -2), Modifier("light", -1)]).total == -1


def test_of_two_equal_modifiers_of_one_kind_the_first_counts_and_the_second_is_dropped() -> None:
    first, second = Modifier("sight", 1, "a"), Modifier("sight", 1, "b")
    total = combine_modifiers([first, second])
    assert total.counted == (first,)
    assert total.dropped == (second,)


def test_no_modifiers_total_zero() -> None:
    assert combine_modifiers([]).total == 0


def test_a_modifier_without_a_kind_is_rejected() -> None:
    with pytest.raises(ValueError, match="needs a kind"):
        combine_modifiers([Modifier("  ", 1)])


def test_an_absurd_modifier_is_rejected() -> None:
    with pytest.raises(ValueError, match="between -50 and 50"):
        combine_modifiers([Modifier("aim", 51)])


def test_more_than_a_hundred_modifiers_are_rejected() -> None:
    with pytest.raises(ValueError, match="At most 100"):
        combine_modifiers([Modifier(f"k{i}", 1) for i in range(101)])


# Core Mechanics § Difficulty, § Combined Difficulties
def test_the_default_difficulty_is_eight() -> None:
    assert default_difficulty() == 8


def test_athletic_attack_without_athletics_raises_difficulty_eight_to_nine() -> None:
    """Core Mechanics § Combined Difficulties, example: ChM 1, no Athletics: 8 + 1, rolled at competence 1."""
    assert combined_difficulty(8, 0) == 8
    assert combined_difficulty(8, 1) == 9


# Bounded inputs: a skill of 0..20, a characteristic modifier, 0..10 missing skills, a difficulty up to 50.
@pytest.mark.parametrize(
    ("rule", "args", "message"),
    [
        (competence, (0, -1), "skill level must be between 0 and 20"),
        (competence, (0, 21), "skill level must be between 0 and 20"),
        (competence, (51, 0), "characteristic modifier must be between"),
        (combined_difficulty, (8, -1), "missing skills"),
        (combined_difficulty, (8, 11), "missing skills"),
        (combined_difficulty, (45, 10), "difficulty must be between 2 and 50"),
    ],
    ids=["skill -1", "skill 21", "modifier 51", "missing -1", "missing 11", "difficulty 55"],
)
def test_competence_and_combined_difficulty_reject_out_of_range_inputs(
    rule: Callable[..., int], args: tuple[int, int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        rule(*args)


# Core Mechanics § Dice Roll, § Effect, § Fail Effect, § Success Effect
def test_a_roll_equal_to_the_difficulty_succeeds_and_one_below_fails() -> None:
    assert is_success(8, 8)
    assert not is_success(7, 8)


def test_effect_is_the_roll_minus_the_difficulty() -> None:
    assert effect(14, 12) == 2
    assert effect(5, 8) == -3


def test_difficulty_eight_and_a_roll_of_five_give_a_fail_effect_of_degree_three() -> None:
    """Core Mechanics § Fail Effect, example."""
    assert fail_degree(5, 8) == 3
    assert success_degree(5, 8) == 0


def test_a_roll_of_fourteen_against_twelve_is_a_success_effect_of_two() -> None:
    """Outcomes § Example: Automatic Rifle Damage."""
    assert success_degree(14, 12) == 2
    assert fail_degree(14, 12) == 0


def test_resolve_check_reports_every_figure_of_a_failed_roll() -> None:
    """Core Mechanics § Mitigating Factors, example: 2d6+4 rolls 6 against 13, fail effect 7."""
    assert resolve_check(6, 13) == CheckOutcome(6, 13, -7, False, 0, 7)


def test_resolve_check_at_the_threshold_is_a_success_effect_of_zero() -> None:
    assert resolve_check(8, 8) == CheckOutcome(8, 8, 0, True, 0, 0)


@pytest.mark.parametrize(("roll", "difficulty"), [(-51, 8), (101, 8), (8, 1), (8, 51)])
def test_resolve_check_rejects_absurd_rolls_and_difficulties(roll: int, difficulty: int) -> None:
    with pytest.raises(ValueError, match="must be between"):
        resolve_check(roll, difficulty)


# Core Mechanics § Costly Success
def test_failing_by_two_and_paying_for_success_gives_a_fail_effect_of_minus_seven() -> None:
    """Core Mechanics § Costly Success, example: -2 x 2 + 3 is read as a fail effect of -7."""
    assert costly_success(-2) == CostlySuccess(success_effect=0, fail_effect=-7, fail_degree=7)


def test_costly_success_read_literally_on_the_signed_effect_gives_minus_one() -> None:
    assert costly_success(-2, CostlySuccessReading.SIGNED) == CostlySuccess(0, -1, 1)
    assert costly_success(-1, "signed") == CostlySuccess(0, 0, 0)


def test_costly_success_needs_a_failure() -> None:
    with pytest.raises(ValueError, match="needs a failed roll"):
        costly_success(0)


def test_costly_success_rejects_an_unknown_reading() -> None:
    with pytest.raises(ValueError, match="must be one of: degree, signed"):
        costly_success(-2, "double")


# Core Mechanics § Advantage and Disadvantage
def test_advantage_and_disadvantage_cancel_one_for_one() -> None:
    assert net_advantage(2, 1) == 1
    assert check_distribution(3, 3) == check_distribution()


@pytest.mark.parametrize(("advantage", "disadvantage"), [(-1, 0), (0, -1), (21, 0), (0, 21)])
def test_advantage_counts_out_of_range_are_rejected(advantage: int, disadvantage: int) -> None:
    with pytest.raises(ValueError):
        net_advantage(advantage, disadvantage)


@pytest.mark.parametrize("net", [-1, 0, 1], ids=["disadvantage", "plain", "advantage"])
@pytest.mark.parametrize("difficulty", range(2, 21))
@pytest.mark.parametrize("modifier", [-4, 0, 3])
def test_success_chance_equals_brute_force_enumeration(modifier: int, difficulty: int, net: int) -> None:
    advantage, disadvantage = max(net, 0), max(-net, 0)
    assert success_chance(modifier, difficulty, advantage, disadvantage) == brute_force_chance(
        modifier, difficulty, net
    )


def test_check_distributions_sum_to_one() -> None:
    for adv, dis in [(0, 0), (1, 0), (0, 1)]:
        assert sum(check_distribution(adv, dis).values()) == 1


@pytest.mark.parametrize(("modifier", "difficulty"), [(51, 8), (-51, 8), (0, 1), (0, 51)])
def test_success_chance_rejects_absurd_modifiers_and_difficulties(modifier: int, difficulty: int) -> None:
    with pytest.raises(ValueError, match="must be between"):
        success_chance(modifier, difficulty)


def test_success_chance_accepts_the_bounds() -> None:
    assert success_chance(50, 50) == 1
    assert success_chance(-50, 2) == 0


@given(st.integers(-10, 10), st.integers(2, 49), st.integers(0, 3), st.integers(0, 3))
def test_a_higher_difficulty_never_gives_a_higher_chance(m: int, d: int, adv: int, dis: int) -> None:
    assert success_chance(m, d + 1, adv, dis) <= success_chance(m, d, adv, dis)


@given(st.integers(-10, 10), st.integers(2, 50), st.integers(0, 5), st.integers(0, 5))
def test_advantage_never_lowers_the_chance(m: int, d: int, adv: int, dis: int) -> None:
    assert success_chance(m, d, adv + 1, dis) >= success_chance(m, d, adv, dis)


@given(st.integers(-10, 10), st.integers(2, 50))
def test_a_higher_modifier_never_lowers_the_chance(m: int, d: int) -> None:
    assert success_chance(m + 1, d) >= success_chance(m, d)


@given(st.integers(-50, -1))
def test_a_costly_success_is_always_worse_than_the_failure_it_replaces(e: int) -> None:
    assert costly_success(e).fail_effect < e


@given(st.integers(-30, 60), st.integers(2, 50))
def test_resolve_check_has_either_a_success_or_a_fail_degree(roll: int, difficulty: int) -> None:
    outcome = resolve_check(roll, difficulty)
    assert outcome.success == (outcome.fail_degree == 0)
    assert outcome.success_degree - outcome.fail_degree == outcome.effect


@pytest.mark.parametrize("written", [-3, 3], ids=["signed", "as a degree"])
def test_a_fail_effect_of_three_has_degree_three_however_it_is_written(written: int) -> None:
    """Core Mechanics § Fail Effect; ruling fail-effect-sign."""
    assert checks.fail_effect_degree(written) == 3


@given(
    st.integers(-10_000, 10_000),
    st.integers(checks.MIN_DIFFICULTY, checks.MAX_DIFFICULTY),
    st.integers(-1, 1),
)
def test_a_derived_modifier_brought_in_range_keeps_every_chance_exact(
    modifier: int, difficulty: int, net: int
) -> None:
    """Core Mechanics § Dice Roll: any modifier, brought within the checks' bound, gives the chance the
    dice give it unbounded (2d6, or 3d6 keeping the two highest or lowest)."""
    chance = checks.success_chance(checks.within_check_range(modifier), difficulty, max(net, 0), max(-net, 0))
    assert chance == brute_force_chance(modifier, difficulty, net)


def test_modifiers_are_read_as_kind_and_number_pairs() -> None:
    """Core Mechanics § Modifiers to Rolls: a kind and a DM each; a true minus reads as a minus."""
    from rules_core.checks import Modifier, combine_modifiers, parse_modifiers

    found = parse_modifiers("scope +2, Scope 1, light \u22121, ")
    assert found == (
        Modifier("scope", 2, "scope"),
        Modifier("Scope", 1, "Scope"),
        Modifier("light", -1, "light"),
    )
    assert combine_modifiers(found).total == 1
    for bad in ("+2", "scope", "scope +x", "scope +2 +1"):
        with pytest.raises(ValueError, match="like scope"):
            parse_modifiers(bad)
