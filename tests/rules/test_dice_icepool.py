"""Cross-check of rules_core.dice against icepool, an independent dice-probability library (test only).

Every exact distribution the site shows comes from rules_core.dice: dice expressions with a modifier
and a scale (Outcomes § Damage Scale: "D 3d3 = 3d3 x 10"), repeated damage rolls, the highest rolls
kept under a rate of attack (Outcomes § Weapons with Limited Rate of Attack) and the advantage roll,
3d6 keeping the two highest or lowest (Core Mechanics § Advantage and Disadvantage).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from itertools import product
from math import lcm

import pytest

from rules_core import checks, damage, dice

icepool = pytest.importorskip("icepool")


def _as_fractions(die: object) -> dict[int, Fraction]:
    denominator = die.denominator()  # type: ignore[attr-defined]
    return {int(v): Fraction(q, denominator) for v, q in die.items() if q}  # type: ignore[attr-defined]


def _ours(distribution: Mapping[int, Fraction]) -> dict[int, Fraction]:
    return {v: p for v, p in distribution.items() if p}


def _from(distribution: Mapping[int, Fraction]) -> object:
    whole = lcm(*(p.denominator for p in distribution.values()))
    return icepool.Die({v: int(p * whole) for v, p in distribution.items() if p})


@pytest.mark.parametrize(
    ("count", "sides", "modifier", "scale"),
    [
        (count, sides, modifier, scale)
        for count, sides, modifier, scale in product(
            (1, 2, 3, 5), (2, 3, 4, 6, 10, 20), (-4, 0, 3), ("", "D", "K")
        )
    ],
)
def test_an_expressions_distribution_matches_icepool(
    count: int, sides: int, modifier: int, scale: str
) -> None:
    """Outcomes § Damage Scale: "D 3d3 = 3d3 x 10", "K 5d6-4 = (5d6-4) x 1,000"."""
    text = f"{scale} {count}d{sides}{modifier:+d}" if modifier else f"{scale} {count}d{sides}"
    factor = dice.scale_factor(scale)
    theirs = (count @ icepool.d(sides) + modifier).map(lambda v: v * factor)
    assert _ours(dice.parse_dice(text.strip()).distribution()) == _as_fractions(theirs)


@pytest.mark.parametrize(
    ("expression", "armor", "rolls", "keep"),
    [
        (expression, armor, rolls, keep)
        for expression, armor in (("3d6", 0), ("3d3-2", 3), ("2d6", 5), ("1d6", 0), ("1d20", 4))
        for rolls in (1, 2, 3, 5)
        for keep in range(1, rolls + 1)
    ],
)
def test_keep_highest_matches_icepool(expression: str, armor: int, rolls: int, keep: int) -> None:
    """Outcomes § Weapons with Limited Rate of Attack: only the highest rolls, as many as the rate, count.

    Each roll after armor (Outcomes § Armor) is a lumpy distribution with a floor: a good test of the
    keep-highest dynamic programme.
    """
    per_roll = damage.per_roll_distribution(dice.parse_dice(expression), armor)
    ours = dice.keep_highest(per_roll, rolls, keep)
    theirs = _from(per_roll).pool(rolls).highest(keep).sum()  # type: ignore[attr-defined]
    assert _ours(ours) == _as_fractions(theirs)
    assert dice.expected_keep_highest(per_roll, rolls, keep) == dice.mean(ours)
    assert _ours(dice.repeat_sum(per_roll, rolls)) == _as_fractions(rolls @ _from(per_roll))


@pytest.mark.parametrize(("advantage", "disadvantage"), [(0, 0), (1, 0), (0, 1), (2, 1), (1, 3), (2, 2)])
def test_advantage_and_disadvantage_match_icepool(advantage: int, disadvantage: int) -> None:
    """Core Mechanics § Advantage and Disadvantage: 3d6, keep the two highest (or lowest); they cancel."""
    net = advantage - disadvantage
    d6 = icepool.d(6)
    if net > 0:
        theirs = d6.pool(3).highest(2).sum()
    elif net < 0:
        theirs = d6.pool(3).lowest(2).sum()
    else:
        theirs = 2 @ d6
    assert _ours(checks.check_distribution(advantage, disadvantage)) == _as_fractions(theirs)


@pytest.mark.parametrize(("modifier", "difficulty"), [(0, 8), (2, 8), (-3, 10), (4, 13), (1, 6)])
def test_success_chances_match_icepool(modifier: int, difficulty: int) -> None:
    """Core Mechanics § Dice Roll: a total equal to or above the difficulty succeeds."""
    for advantage, lowest in ((0, None), (1, False), (0, True)):
        d6 = icepool.d(6)
        if lowest is None:
            die = 2 @ d6
        elif lowest:
            die = d6.pool(3).lowest(2).sum()
        else:
            die = d6.pool(3).highest(2).sum()
        theirs = sum((p for v, p in _as_fractions(die).items() if v + modifier >= difficulty), Fraction(0))
        ours = checks.success_chance(modifier, difficulty, advantage, 1 if lowest else 0)
        assert ours == theirs
