"""Mistrunner turn order (seed 003 § Reaction Rolls, § Combat Sequence, § Dodging)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core.peers.mistrunner import reaction


def test_a_rolled_7_with_reaction_score_2_gives_a_reaction_result_of_9():
    # Mistrunner: Combat § Reaction Rolls, worked example.
    assert reaction.reaction_result(7, 2) == 9


@pytest.mark.parametrize("die", [0, 11, -1])
def test_a_reaction_die_outside_1_to_10_is_rejected(die):
    with pytest.raises(ValueError, match="reaction die"):
        reaction.reaction_result(die, 0)


@pytest.mark.parametrize("die", [1, 10])
def test_both_ends_of_the_d10_are_accepted(die):
    assert reaction.reaction_result(die, 0) == die


def test_a_reaction_result_of_9_acts_on_9_then_4_then_2_losing_0_2_and_4_dice():
    # Mistrunner: Combat § Reaction Rolls, worked example (always round down).
    assert reaction.action_slots(9, actions=3) == (
        reaction.ActionSlot(1, 9, 0),
        reaction.ActionSlot(2, 4, 2),
        reaction.ActionSlot(3, 2, 4),
    )


def test_one_action_by_default():
    assert reaction.action_slots(9) == (reaction.ActionSlot(1, 9, 0),)


@pytest.mark.parametrize("actions", [0, 4])
def test_no_one_has_fewer_than_one_or_more_than_three_actions(actions):
    with pytest.raises(ValueError, match="number of actions"):
        reaction.action_slots(9, actions=actions)


@given(st.integers(-100, 100))
def test_extra_actions_act_on_half_and_a_quarter_rounded_down(result):
    slots = reaction.action_slots(result, actions=3)
    assert [s.segment for s in slots] == [result, result // 2, result // 4]


@given(st.integers(1, 100))
def test_later_actions_never_act_before_earlier_ones_for_positive_results(result):
    segments = [s.segment for s in reaction.action_slots(result, actions=3)]
    assert segments == sorted(segments, reverse=True)


def test_the_highest_reaction_result_acts_first():
    order = reaction.turn_schedule([reaction.Combatant("slow", 5), reaction.Combatant("fast", 12)])
    assert [a.name for a in order] == ["fast", "slow"]


def test_a_tied_reaction_result_goes_to_the_higher_perception():
    order = reaction.turn_schedule(
        [reaction.Combatant("dull", 8, perception=1), reaction.Combatant("keen", 8, perception=3)]
    )
    assert [a.name for a in order] == ["keen", "dull"]
    assert not order[1].simultaneous_with_previous


def test_a_tie_on_result_and_perception_is_marked_simultaneous_and_keeps_the_given_order():
    order = reaction.turn_schedule([reaction.Combatant("a", 8, 2), reaction.Combatant("b", 8, 2)])
    assert [a.name for a in order] == ["a", "b"]
    assert [a.simultaneous_with_previous for a in order] == [False, True]


def test_extra_actions_interleave_with_other_combatants_first_actions():
    # Result 9 with three actions acts on 9, 4, 2; a result of 5 falls between.
    order = reaction.turn_schedule(
        [reaction.Combatant("triple", 9, actions=3), reaction.Combatant("single", 5)]
    )
    assert [(a.name, a.slot.segment) for a in order] == [
        ("triple", 9),
        ("single", 5),
        ("triple", 4),
        ("triple", 2),
    ]


def test_repeated_names_are_rejected():
    with pytest.raises(ValueError, match="different name"):
        reaction.turn_schedule([reaction.Combatant("a", 1), reaction.Combatant("a", 2)])


@pytest.mark.parametrize(("defender", "attacker", "allowed"), [(7, 8, False), (8, 8, True), (9, 8, True)])
def test_a_target_may_dodge_only_with_a_reaction_at_least_the_attackers(defender, attacker, allowed):
    assert reaction.may_dodge(defender, attacker) is allowed


def test_a_target_that_cannot_react_never_dodges():
    assert reaction.may_dodge(10, 1, able_to_react=False) is False


@pytest.mark.parametrize(
    ("attack", "dodge", "left"), [(12, 11, 1), (12, 12, None), (12, 13, None), (12, 0, 12)]
)
def test_the_dodge_total_comes_off_the_attack_total_and_a_dodge_that_reaches_it_defeats_it(
    attack, dodge, left
):
    assert reaction.dodged_attack_total(attack, dodge) == left


@pytest.mark.parametrize(("dodges", "penalty"), [(0, 0), (1, 1), (3, 3)])
def test_each_dodge_costs_one_die_on_every_other_roll_that_turn(dodges, penalty):
    assert reaction.dodge_penalty_dice(dodges) == penalty


def test_a_negative_number_of_dodges_is_rejected():
    with pytest.raises(ValueError, match="at least 0"):
        reaction.dodge_penalty_dice(-1)
