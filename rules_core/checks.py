"""The 2d6 check: modifiers, advantage, Effect and the exact odds.

Rules: Core Mechanics (docs/rules/checks.md).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product
from types import MappingProxyType
from typing import Mapping

from rules_core.tables import constant

__all__ = [
    "MAX_ADVANTAGE",
    "characteristic_modifier",
    "check_distribution",
    "effect",
    "net_advantage",
    "success_chance",
]

MAX_ADVANTAGE = 20
"""Advantage or disadvantage counts beyond this are rejected (bounded input)."""


def _c(key: str) -> int:
    value: int = constant("check_constants", key)
    return value


def characteristic_modifier(characteristic: int, /) -> int:
    """Characteristic modifier (ChM): the characteristic divided by 3, rounded down, minus 2.

    Core Mechanics § Characteristic Modifier (ChM).

    Raises:
        ValueError: if the characteristic is negative.
    """
    if characteristic < 0:
        raise ValueError("A characteristic cannot be negative.")
    return characteristic // _c("characteristic_divisor") + _c("characteristic_offset")


def net_advantage(advantage: int, disadvantage: int, /) -> int:
    """Advantage and disadvantage cancel one for one; positive is a net advantage.

    Core Mechanics § Advantage and Disadvantage.

    Raises:
        ValueError: if a count is negative or above :data:`MAX_ADVANTAGE`.
    """
    for label, count in (("Advantage", advantage), ("Disadvantage", disadvantage)):
        if count < 0:
            raise ValueError(f"{label} cannot be negative.")
        if count > MAX_ADVANTAGE:
            raise ValueError(f"{label} is at most {MAX_ADVANTAGE}.")
    return advantage - disadvantage


@cache
def _distribution(net: int) -> Mapping[int, Fraction]:
    sides, kept = _c("sides"), _c("dice")
    rolled = kept if net == 0 else _c("advantage_dice")
    counts: dict[int, int] = {}
    for faces in product(range(1, sides + 1), repeat=rolled):
        ordered = sorted(faces, reverse=net > 0)
        total = sum(ordered[:kept])
        counts[total] = counts.get(total, 0) + 1
    whole = sides**rolled
    return MappingProxyType({t: Fraction(n, whole) for t, n in sorted(counts.items())})


def check_distribution(advantage: int = 0, disadvantage: int = 0) -> Mapping[int, Fraction]:
    """Exact distribution of the two kept dice of a check.

    A net advantage rolls 3d6 and keeps the two highest, a net disadvantage
    the two lowest; otherwise 2d6. Core Mechanics § Advantage and Disadvantage.
    """
    net = net_advantage(advantage, disadvantage)
    return _distribution((net > 0) - (net < 0))


def success_chance(modifier: int, difficulty: int, advantage: int = 0, disadvantage: int = 0) -> Fraction:
    """Exact chance that dice + modifier reach the difficulty (a success).

    Core Mechanics § Dice Roll: a roll equal to or greater than the difficulty succeeds.
    """
    dist = check_distribution(advantage, disadvantage)
    return sum((p for total, p in dist.items() if total + modifier >= difficulty), Fraction(0))


def effect(roll: int, difficulty: int, /) -> int:
    """Effect: the dice roll (with modifiers) minus the difficulty.

    Core Mechanics § Effect.
    """
    return roll - difficulty
