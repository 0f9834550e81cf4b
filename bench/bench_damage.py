"""Time the heaviest realistic damage case, computed exactly, under CPython.

Twelve damage rolls of 4d6 (Success Effect 11), rate of attack 6 (keep the six
highest), against armor 4: the full exact distribution of the total, its mean
and the chance of each injury threshold for a 21 HP character. Target: < 50 ms.

Run: ``python bench/bench_damage.py`` (prints the median of repeats in ms).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules_core import dice
from rules_core.damage import damage_outcome, injury_chances

REPEATS = 15


def heaviest_case() -> None:
    """One full computation from a cold cache of distributions."""
    dice.sum_of_dice.cache_clear()
    dice._expression_distribution.cache_clear()
    outcome = damage_outcome("4d6", success_effect=11, rate_of_attack=6, armor=4)
    injury_chances(outcome, 21)


def main() -> None:
    heaviest_case()  # warm the data tables (loaded once per process)
    timings = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        heaviest_case()
        timings.append((time.perf_counter() - start) * 1000)
    outcome = damage_outcome("4d6", success_effect=11, rate_of_attack=6, armor=4)
    mean = float(outcome.expected_total)
    median = statistics.median(timings)
    print(f"12 x 4d6, rate of attack 6, armor 4: {len(outcome.total)} exact totals, mean {mean:.3f}")
    print(f"median {median:.1f} ms over {REPEATS} repeats (min {min(timings):.1f} ms); target < 50 ms")


if __name__ == "__main__":
    main()
