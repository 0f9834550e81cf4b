"""Mitigation and the Defend action: Core Mechanics § Mitigating Factors, Outcomes § Cover Takes Damage,
Actions § Defend Action."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core.mitigation import (
    CoverCap,
    Defend,
    MitigationOrder,
    defence_modifier,
    defend_roll_modifier,
    mitigate,
)


def test_the_mitigating_factors_example_falls_from_seven_to_four_to_two_to_an_ordinary_failure() -> None:
    """Core Mechanics § Mitigating Factors, example; Outcomes § Example: Mitigating Factors in Practice."""
    result = mitigate(7, conditions=3, cover=2, skill=2)
    assert [(s.name, s.priority, s.modifier, s.reduced_by, s.remaining) for s in result.steps] == [
        ("conditions", 1, 3, 3, 4),
        ("concealment", 1, 0, 0, 4),
        ("cover", 2, 2, 2, 2),
        ("skill", 3, 2, 2, 0),
    ]
    assert result.remaining == 0
    assert result.ordinary_failure
    assert result.cover_absorbed == 2
    assert all("§" in s.source for s in result.steps)


def test_a_shield_of_two_takes_two_of_three_attacks_and_the_character_one() -> None:
    """Core Mechanics § Fail Effect and Damage to Protection; Outcomes § Example: Shield Taking Damage."""
    result = mitigate(3, cover=2)
    assert (result.cover_absorbed, result.remaining, result.ordinary_failure) == (2, 1, False)


def test_cover_absorbs_only_what_the_conditions_left() -> None:
    result = mitigate(3, conditions=2, cover=4)
    assert (result.cover_absorbed, result.remaining) == (1, 0)


def test_cover_absorbs_nothing_once_conditions_reached_zero() -> None:
    assert mitigate(2, conditions=2, cover=3).cover_absorbed == 0


def test_concealment_is_a_first_priority_condition_applied_before_cover() -> None:
    result = mitigate(3, concealment=2, cover=2)
    assert (result.steps[1].reduced_by, result.cover_absorbed, result.remaining) == (2, 1, 0)


def test_a_fail_effect_mitigated_to_exactly_zero_is_ordinary_and_one_above_is_not() -> None:
    assert mitigate(4, skill=4).ordinary_failure
    assert not mitigate(5, skill=4).ordinary_failure


def test_a_fail_effect_of_zero_is_an_ordinary_failure_without_mitigation() -> None:
    assert mitigate(0).ordinary_failure


def test_with_skill_before_cover_the_cover_absorbs_only_what_the_skill_left() -> None:
    """Actions § Attack Basics > Failure lists skill before cover; the priority order puts cover first."""
    assert mitigate(3, cover=2, skill=2).cover_absorbed == 2
    result = mitigate(3, cover=2, skill=2, order=MitigationOrder.SKILL_BEFORE_COVER)
    assert [s.name for s in result.steps] == ["conditions", "concealment", "skill", "cover"]
    assert (result.cover_absorbed, result.remaining) == (1, 0)


# Actions § Defend Action
def test_defending_doubles_cover() -> None:
    result = mitigate(5, cover=2, defend=Defend.COVER)
    assert (result.steps[2].modifier, result.cover_absorbed, result.remaining) == (4, 4, 1)
    assert result.defend is Defend.COVER


def test_defending_with_cover_three_stops_at_four() -> None:
    """Actions § Defend Action > Success: Defend does not improve cover or concealment past 4."""
    assert defence_modifier("cover", 3, Defend.COVER) == 4
    assert defence_modifier("concealment", 2, "concealment") == 4
    assert defence_modifier("concealment", 1, "concealment") == 2


def test_cover_never_counts_above_four_by_default() -> None:
    """Actions § Defend Action > Success: "the maximum modifier of Cover and Concealment is 4"."""
    assert defence_modifier("cover", 5) == 4
    assert defence_modifier("concealment", 6) == 4
    assert defence_modifier("cover", 5, Defend.COVER) == 4
    assert defence_modifier("cover", 5, cover_cap=CoverCap.ALWAYS) == 4
    assert defence_modifier("cover", 3, Defend.COVER, "always") == 4
    assert mitigate(9, cover=6).cover_absorbed == 4
    assert mitigate(9, cover=6, cover_cap="always").cover_absorbed == 4


def test_with_the_doubling_only_reading_a_cover_above_four_is_kept() -> None:
    """Switch cover_cap="doubling_only": only the Defend doubling stops at 4 (rulings.md#defend-cap)."""
    assert defence_modifier("cover", 5, Defend.COVER, "doubling_only") == 5
    assert defence_modifier("cover", 5, cover_cap=CoverCap.DOUBLING_ONLY) == 5
    assert defence_modifier("cover", 3, Defend.COVER, "doubling_only") == 4
    assert mitigate(9, cover=6, cover_cap="doubling_only").cover_absorbed == 6


def test_defending_doubles_skill_without_a_cap() -> None:
    assert defence_modifier("skill", 3, Defend.SKILL) == 6
    assert mitigate(7, skill=3, defend="skill").remaining == 1


def test_defending_one_factor_leaves_the_others_single() -> None:
    assert defence_modifier("skill", 3, Defend.COVER) == 3
    assert defence_modifier("conditions", 3, Defend.SKILL) == 3


def test_a_defended_skill_also_raises_the_rolls_dm() -> None:
    """Actions § Defend Action > Example: skill 1 and ChM 0 roll at DM 1; skill 2 doubled rolls at DM 4."""
    assert defend_roll_modifier(0, 1) == 1
    assert defend_roll_modifier(0, 2, Defend.SKILL) == 4
    assert defend_roll_modifier(1, 2, Defend.COVER) == 3


def test_defend_roll_modifier_rejects_an_absurd_skill() -> None:
    with pytest.raises(ValueError, match="skill level"):
        defend_roll_modifier(0, 21)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"conditions": -1}, "conditions modifier must be between 0 and 50"),
        ({"cover": 51}, "cover modifier must be between 0 and 50"),
        ({"defend": "dodge"}, "Defend must be one of: none, cover, concealment, skill"),
        ({"cover_cap": "never"}, "cover cap must be one of"),
        ({"order": "random"}, "mitigation order must be one of: priority, skill_before_cover"),
    ],
)
def test_bad_mitigation_inputs_are_rejected_with_a_sentence(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        mitigate(3, **kwargs)


@pytest.mark.parametrize("fail_effect", [-3, 101])
def test_a_fail_effect_must_be_given_as_a_degree_up_to_a_hundred(fail_effect: int) -> None:
    with pytest.raises(ValueError, match="as a degree"):
        mitigate(fail_effect)


def test_an_unknown_mitigating_factor_is_rejected() -> None:
    with pytest.raises(ValueError, match="Unknown mitigating factor"):
        defence_modifier("luck", 1)


values = st.integers(0, 50)
defends = st.sampled_from(list(Defend))
fails = st.integers(0, 100)
factors = st.fixed_dictionaries(
    {"conditions": values, "concealment": values, "cover": values, "skill": values}
)
"""The four mitigating factors (Outcomes § Mitigating Factors), each within the rules' bound."""


@given(fails, factors, defends)
def test_mitigation_never_increases_a_fail_effect_and_accounts_for_every_point(
    fail: int, factor: dict[str, int], defend: Defend
) -> None:
    result = mitigate(fail, **factor, defend=defend)
    assert 0 <= result.remaining <= fail
    assert sum(s.reduced_by for s in result.steps) + result.remaining == fail
    assert [s.remaining for s in result.steps] == sorted((s.remaining for s in result.steps), reverse=True)
    assert 0 <= result.cover_absorbed <= result.steps[2].modifier


@given(fails, factors, defends)
def test_the_order_changes_only_what_the_cover_absorbs(
    fail: int, factor: dict[str, int], defend: Defend
) -> None:
    first = mitigate(fail, **factor, defend=defend)
    second = mitigate(fail, **factor, defend=defend, order="skill_before_cover")
    assert first.remaining == second.remaining
    assert second.cover_absorbed <= first.cover_absorbed


@given(fails, factors, defends)
def test_more_cover_never_leaves_a_larger_fail_effect(
    fail: int, factor: dict[str, int], defend: Defend
) -> None:
    less = mitigate(fail, **factor, defend=defend)
    more = mitigate(fail, **{**factor, "cover": min(factor["cover"] + 1, 50)}, defend=defend)
    assert more.remaining <= less.remaining


@given(fails, factors)
def test_defending_never_leaves_a_larger_fail_effect_than_not_defending(
    fail: int, factor: dict[str, int]
) -> None:
    plain = mitigate(fail, **factor)
    for defend in Defend:
        assert mitigate(fail, **factor, defend=defend).remaining <= plain.remaining
