"""Mind's Eye Theatre initiative, tie-breaks, delays (seed 004 § Measuring Time, § Delaying Your Actions)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core.peers.minds_eye import (
    Character,
    initiative,
    initiative_order,
    initiative_with_delay_bonus,
    resolve_shared_moment,
)


def test_physical_5_and_mental_8_give_initiative_8():
    # Mind's Eye Theatre: Complex Scenarios § Measuring Time, worked example.
    assert initiative(5, 8) == 8


def test_the_worked_example_order_melvin_12_before_delilah_9():
    # § Example: Combat: Melvin (Mental 12, Physical 3) acts on 12, Delilah (Physical 9, Mental 4) on 9.
    order = initiative_order([Character("Delilah", 9, 4), Character("Melvin", 3, 12)])
    assert [(e.name, e.initiative) for e in order] == [("Melvin", 12), ("Delilah", 9)]


def test_a_tie_goes_to_the_higher_mental_attribute():
    order = initiative_order([Character("brawn", 8, 6), Character("brains", 7, 8)])
    assert [(e.name, e.decided_by) for e in order] == [("brains", "initiative"), ("brawn", "mental")]


def test_with_equal_mental_the_higher_physical_goes_first():
    order = initiative_order([Character("a", 6, 8), Character("b", 7, 8)])
    assert [(e.name, e.decided_by) for e in order] == [("b", "initiative"), ("a", "physical")]


def test_with_equal_mental_and_physical_the_higher_social_goes_first():
    order = initiative_order([Character("a", 6, 8, 2), Character("b", 6, 8, 5)])
    assert [(e.name, e.decided_by) for e in order] == [("b", "initiative"), ("a", "social")]


def test_a_full_tie_is_a_random_draw_that_keeps_the_given_order_without_a_generator():
    order = initiative_order([Character("a", 6, 8, 2), Character("b", 6, 8, 2)])
    assert [(e.name, e.decided_by) for e in order] == [("a", "initiative"), ("b", "random")]


def test_a_full_tie_is_drawn_with_the_injected_generator():
    people = [Character(str(i), 6, 8, 2) for i in range(6)]
    first = [e.name for e in initiative_order(people, rng=random.Random(1))]
    again = [e.name for e in initiative_order(people, rng=random.Random(1))]
    assert first == again
    assert sorted(first) == [str(i) for i in range(6)]


def test_the_delay_bonus_moves_a_character_up_the_order():
    order = initiative_order([Character("waited", 4, 4), Character("fast", 8, 1)], bonus=[5, 0])
    assert [(e.name, e.initiative) for e in order] == [("waited", 9), ("fast", 8)]


@pytest.mark.parametrize(("forwent", "value"), [(True, 12), (False, 7)])
def test_forgoing_both_actions_adds_5_next_round(forwent, value):
    assert initiative_with_delay_bonus(7, forwent_both_actions=forwent) == value


def test_the_delay_bonus_is_not_cumulative():
    with pytest.raises(ValueError, match="at most 5"):
        initiative_order([Character("a", 1, 1)], bonus=[10])


def test_a_natural_initiative_resolves_before_those_who_delayed_to_it_highest_delayer_first():
    assert resolve_shared_moment(["natural"], [("slow", 4), ("quick", 11)]) == ("natural", "quick", "slow")


def test_repeated_names_are_rejected():
    with pytest.raises(ValueError, match="different name"):
        initiative_order([Character("a", 1, 1), Character("a", 2, 2)])


def test_a_negative_attribute_is_rejected():
    with pytest.raises(ValueError, match="Physical attribute must be at least 0"):
        Character("x", -1, 3)


attributes = st.integers(0, 15)


@given(st.lists(st.tuples(attributes, attributes, attributes), min_size=1, max_size=8))
def test_the_order_never_puts_a_lower_initiative_first(stats):
    people = [Character(f"c{i}", p, m, s) for i, (p, m, s) in enumerate(stats)]
    values = [e.initiative for e in initiative_order(people)]
    assert values == sorted(values, reverse=True)
    assert values == sorted((max(p, m) for p, m, _ in stats), reverse=True)
