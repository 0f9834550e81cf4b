"""Support, coordination and plan/wait in the engine, checked against every way the dice can fall.

Rules: Actions § Supporting Actions, § Coordinating Action, § Plan/Wait; Core Mechanics § Modifiers to Rolls.
Rulings: supporting action on a failure, several supporters (best or sum), coordination offset.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import support

TWO_D6 = [a + b for a, b in product(range(1, 7), repeat=2)]


def _brute_helped(
    modifier: int, difficulty: int, supporters: int, their_dm: int, their_diff: int, how: str
) -> Fraction:
    """Every supporter's two dice and the helped roll's two dice, counted."""
    wins = total = 0
    for rolls in product(TWO_D6, repeat=supporters + 1):
        bonuses = [max(r + their_dm - their_diff, 0) for r in rolls[1:]]
        dm = (max(bonuses) if how == "best" else sum(bonuses)) if bonuses else 0
        wins += rolls[0] + modifier + dm >= difficulty
        total += 1
    return Fraction(wins, total)


@pytest.mark.parametrize("how", ["best", "sum"])
@pytest.mark.parametrize(
    ("modifier", "difficulty", "supporters", "their_dm", "their_diff"),
    [
        (0, 8, 1, 0, 8),
        (0, 8, 2, 0, 8),
        (1, 10, 2, 2, 8),
        (-2, 6, 1, 3, 10),
    ],
)
def test_the_helped_chance_matches_brute_force(
    modifier: int, difficulty: int, supporters: int, their_dm: int, their_diff: int, how: str
) -> None:
    bonus = support.support_distribution(their_dm, their_diff, supporters, stacking=how)
    assert sum(bonus.values()) == 1
    found = support.helped_chance(modifier, difficulty, bonus)
    assert found == _brute_helped(modifier, difficulty, supporters, their_dm, their_diff, how)


def test_two_supporters_at_plus_0_the_pinned_figures_of_the_ruling() -> None:
    """Ruling support-stacking: an ally at +0 against 8 with two supporters at +0 against 8."""
    best = support.helped_chance(0, 8, support.support_distribution(0, 8, 2))
    summed = support.helped_chance(0, 8, support.support_distribution(0, 8, 2, stacking="sum"))
    assert (round(float(best) * 100, 2), round(float(summed) * 100, 2)) == (56.11, 57.02)


def test_a_failed_or_exact_support_gives_nothing() -> None:
    """Actions § Supporting Actions: the success effect is the DM; ruling supporting-effect: failure 0."""
    assert support.combined_support([-3]) == 0
    assert support.combined_support([0]) == 0
    assert support.combined_support([2, 3, -1]) == 3
    assert support.combined_support([2, 3, -1], stacking="sum") == 5
    assert support.combined_support([]) == 0
    # One supporter at +0 against 8: no DM unless the dice reach 9 (Effect 1+): 26/36 of the time nothing.
    assert support.support_distribution(0, 8, 1)[0] == Fraction(26, 36)


def test_coordination_adds_1_to_4_and_the_skill_offsets_it_down_to_0() -> None:
    """Actions § Coordinating Action > Difficulty, > Skills; ruling coordination-offset."""
    assert support.coordinated(8, 3, 0).difficulty == 11
    assert support.coordinated(8, 3, 1).difficulty == 10
    assert support.coordinated(8, 3, 5) == support.Coordination(8, 3, 3)
    with pytest.raises(ValueError, match="between 1 and 4"):
        support.coordinated(8, 5, 0)
    with pytest.raises(ValueError, match="negative"):
        support.coordinated(8, 2, -1)


@settings(max_examples=40, deadline=None)
@given(st.integers(-5, 5), st.integers(2, 14), st.integers(0, 3), st.sampled_from(["best", "sum"]))
def test_support_never_lowers_the_chance_and_sum_is_never_below_best(
    modifier: int, difficulty: int, supporters: int, how: str
) -> None:
    alone = support.helped_chance(modifier, difficulty, {0: Fraction(1)})
    best = support.helped_chance(modifier, difficulty, support.support_distribution(1, 8, supporters))
    summed = support.helped_chance(
        modifier, difficulty, support.support_distribution(1, 8, supporters, stacking="sum")
    )
    assert alone <= best <= summed


def test_too_many_supporters_are_refused() -> None:
    with pytest.raises(ValueError, match="at most"):
        support.support_distribution(0, 8, support.MAX_SUPPORTERS + 1)
    with pytest.raises(ValueError, match="At most"):
        support.combined_support([1] * (support.MAX_SUPPORTERS + 1))
