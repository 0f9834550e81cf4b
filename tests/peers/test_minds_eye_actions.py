"""Mind's Eye Theatre actions, movement, prone, Celerity rounds (seed 004 § Actions to § Celerity Rounds)."""

from __future__ import annotations

import pytest

from rules_core.peers.minds_eye import (
    ActionBudget,
    Character,
    action_allowed_in_round,
    action_kind,
    movement_steps,
    prone_defence_modifier,
    round_actions,
    turn_actions,
    turn_rounds,
)


def test_a_round_gives_one_standard_and_one_simple_action():
    assert round_actions() == ActionBudget(1, 1)


def test_forgoing_the_standard_action_gives_a_second_simple_action():
    assert round_actions(forgo_standard=True) == ActionBudget(0, 2)


@pytest.mark.parametrize(
    ("challenge", "attention", "kind"),
    [(True, False, "standard"), (False, True, "standard"), (False, False, "simple")],
)
def test_anything_needing_a_challenge_or_full_attention_is_a_standard_action(challenge, attention, kind):
    assert action_kind(needs_challenge=challenge, needs_full_attention=attention) == kind


@pytest.mark.parametrize(
    ("moves", "steps"),
    [
        (["move_simple"], 3),
        (["move_standard"], 3),
        (["move_standard", "move_simple"], 6),
        (["advanced_move"], 3),
        (["drop_prone", "crawl"], 1),
    ],
)
def test_each_movement_action_covers_its_steps(moves, steps):
    # § Movement: 3 steps per action, 6 with both; § Advanced Movement; § Lying Prone.
    assert movement_steps(moves) == steps


def test_a_prone_character_can_stand_and_step_then_move_again():
    assert movement_steps(["stand_and_step", "move_standard"], prone=True) == 4


def test_two_simple_moves_need_the_standard_action_forgone():
    with pytest.raises(ValueError, match="1 standard and 1 simple"):
        movement_steps(["move_simple", "move_simple", "move_simple"])
    assert movement_steps(["move_simple", "move_simple"], forgo_standard=True) == 6


def test_two_standard_actions_in_a_round_are_rejected():
    with pytest.raises(ValueError, match="standard"):
        movement_steps(["move_standard", "advanced_move"])


def test_advanced_movement_needs_the_standard_action():
    with pytest.raises(ValueError, match="standard"):
        movement_steps(["advanced_move"], forgo_standard=True)


def test_crawling_needs_a_prone_character():
    with pytest.raises(ValueError, match="prone"):
        movement_steps(["crawl"])


def test_an_unknown_move_is_rejected():
    with pytest.raises(ValueError, match="Unknown move"):
        movement_steps(["teleport"])


@pytest.mark.parametrize(
    ("distance", "ranged", "change"),
    [(4, True, 2), (3, True, -2), (0, False, -2), (3, False, -2), (10, False, 0)],
)
def test_prone_helps_against_far_ranged_attacks_and_hurts_within_three_steps(distance, ranged, change):
    assert prone_defence_modifier(distance, ranged=ranged) == change


def test_a_turn_is_the_everyman_round_then_celerity_rounds_for_those_able():
    rounds = turn_rounds(
        [Character("fast", 5, 5, celerity_rounds=2), Character("quick", 6, 1, celerity_rounds=1)]
    )
    assert [(r.name, r.acting) for r in rounds] == [
        ("Everyman round", ("quick", "fast")),
        ("Celerity round 1", ("quick", "fast")),
        ("Celerity round 2", ("fast",)),
    ]


def test_without_celerity_the_turn_is_only_the_everyman_round():
    # § Example: Combat: neither can act in Celerity rounds, so the turn ends after the first round.
    assert len(turn_rounds([Character("Melvin", 3, 12), Character("Delilah", 9, 4)])) == 1


def test_more_than_three_celerity_rounds_are_rejected():
    with pytest.raises(ValueError, match="at most 3"):
        Character("x", 1, 1, celerity_rounds=4)


@pytest.mark.parametrize(
    ("kind", "round_number", "allowed"),
    [
        ("mental", 0, True),
        ("social", 0, True),
        ("physical", 1, True),
        ("mental", 1, False),
        ("social", 3, False),
    ],
)
def test_only_physical_actions_are_allowed_in_celerity_rounds(kind, round_number, allowed):
    assert action_allowed_in_round(kind, round_number) is allowed


@pytest.mark.parametrize(("celerity", "rounds", "steps"), [(0, 1, 6), (1, 2, 12), (3, 4, 24)])
def test_each_round_of_a_turn_adds_a_standard_a_simple_action_and_six_steps(celerity, rounds, steps):
    turn = turn_actions(celerity)
    assert (turn.rounds, turn.standard_actions, turn.simple_actions, turn.max_steps) == (
        rounds,
        rounds,
        rounds,
        steps,
    )
    assert turn.seconds == 3
