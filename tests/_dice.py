"""Helpers shared by the tests that check chances: brute-force 2d6 counts and the pages' percentages."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

__all__ = ["brute_force_chance", "pct"]


def brute_force_chance(modifier: int, difficulty: int, net: int) -> Fraction:
    """Every way the dice can fall: 2d6, or 3d6 keeping the two highest (net > 0) or lowest (net < 0);
    the chance that the kept dice plus ``modifier`` reach ``difficulty``."""
    count = 2 if net == 0 else 3
    wins = 0
    for dice in product(range(1, 7), repeat=count):
        kept = sorted(dice, reverse=net > 0)[:2]
        wins += sum(kept) + modifier >= difficulty
    return Fraction(wins, 6**count)


def pct(p: Fraction) -> str:
    """Two decimals, half up from the exact fraction; 0% and 100% for the certain cases."""
    if p in (0, 1):
        return f"{int(p) * 100}%"
    hundredths = int(p * 10000 + Fraction(1, 2))
    return f"{hundredths // 100}.{hundredths % 100:02d}%"
