"""Mind's Eye Theatre fair escape, test pools and damage (seed 004 § Fair Escape, § Example: Combat)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core.peers.minds_eye import challenge_pool, fair_escape, hit_damage, tied_test_winner


def test_bobby_first_attempt_fails_when_a_declared_gang_member_shoots_him():
    # § Fair Escape worked example, first attempt.
    result = fair_escape(declared_attackers=1, attacked_later=True)
    assert (result.outcome, result.escaped) == ("fails", False)


def test_bobby_second_attempt_in_a_celerity_round_succeeds_because_nobody_can_attack():
    # § Fair Escape worked example: the gang cannot act in Celerity rounds.
    assert fair_escape(can_be_attacked=False, declared_attackers=10).outcome == "escaped now"


def test_with_no_declared_attack_the_escape_is_immediate():
    assert fair_escape().outcome == "escaped now"


def test_declared_attacks_that_never_come_let_the_character_escape_at_the_end_of_the_round():
    assert fair_escape(declared_attackers=2).outcome == "escapes at end of round"


def test_a_blocking_challenge_spoils_a_pending_escape():
    assert fair_escape(declared_attackers=1, blocking_challenge=True).outcome == "fails"


def test_an_attack_before_the_initiative_fails_the_escape_even_if_nobody_else_could_attack():
    assert fair_escape(attacked_before_initiative=True, can_be_attacked=False).outcome == "fails"


def test_no_logical_way_out_always_fails():
    assert fair_escape(logical_exit=False, can_be_attacked=False).outcome == "fails"


def test_a_negative_attacker_count_is_rejected():
    with pytest.raises(ValueError, match="Declared attackers"):
        fair_escape(declared_attackers=-1)


@pytest.mark.parametrize(
    ("attribute", "ability", "bonus", "pool"),
    [(9, 4, 2, 15), (3, 4, 0, 7), (3, 4, 2, 9), (9, 3, 0, 12), (12, 4, 0, 16), (4, 6, 0, 10)],
)
def test_the_worked_example_pools_are_attribute_plus_ability_plus_bonus(attribute, ability, bonus, pool):
    # § Example: Combat, every pool quoted.
    assert challenge_pool(attribute, ability, bonus) == pool


@pytest.mark.parametrize(
    ("mine", "theirs", "winner"), [(9, 12, "defender"), (16, 10, "challenger"), (7, 7, None)]
)
def test_a_tied_test_goes_to_the_larger_pool(mine, theirs, winner):
    # § Example: Combat: Melvin's 9 ties Delilah's 12 and loses; his 16 ties her 10 and wins.
    assert tied_test_winner(mine, theirs) == winner


@pytest.mark.parametrize(("bonus", "reduction", "damage"), [(1, 0, 2), (0, 1, 0), (0, 0, 1), (0, 3, 0)])
def test_a_hit_deals_1_plus_bonuses_less_reductions_never_below_0(bonus, reduction, damage):
    # § Example: Combat: bat with Potence 1 + 1 = 2; knife against Fortitude 1 - 1 = 0.
    assert hit_damage(bonus=bonus, reduction=reduction) == damage


@given(st.integers(0, 50), st.integers(0, 50))
def test_swapping_the_pools_swaps_the_tie_winner(a, b):
    swap = {"challenger": "defender", "defender": "challenger", None: None}
    assert tied_test_winner(b, a) == swap[tied_test_winner(a, b)]
