"""Time and checks: the median duration of a task, moved by the Effect; rounds of an extended action.

Rules: Core Mechanics § Time and Checks; Actions § Extended Actions
(docs/rules/checks.md). Rulings: notes/rulings-core-actions.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

from rules_core._choices import choice
from rules_core.actions import round_seconds
from rules_core.checks import check_modifier
from rules_core.dice import sum_of_dice
from rules_core.tables import constant

MAX_DURATION_DICE = 20
"""Duration rolls of more dice than this are rejected (bounded work)."""
MAX_DURATION_SIDES = 100
"""Duration dice of more sides than this are rejected (bounded work)."""
MAX_SECONDS = 10**7
"""Extended actions longer than this many seconds are rejected (bounded input)."""


class DurationFloor(StrEnum):
    """How short a large success effect can make a task (the source is silent; ruling ``time-floor``).

    ``LOWEST_ROLL`` (default): Never below the lowest roll of the duration dice: 1 second for 1d6 seconds.
    ``ONE_UNIT``: Never below one smallest unit, whatever the dice.
    """

    LOWEST_ROLL = "lowest_roll"
    ONE_UNIT = "one_unit"


@dataclass(frozen=True)
class Duration:
    """How long a task takes, in its smallest unit: the median roll moved by the Effect."""

    dice: int
    sides: int
    median: int
    effect: int
    units: int


def _check_dice(dice: int, sides: int) -> None:
    if not 1 <= dice <= MAX_DURATION_DICE:
        raise ValueError(f"The duration roll must use 1 to {MAX_DURATION_DICE} dice.")
    if not 2 <= sides <= MAX_DURATION_SIDES:
        raise ValueError(f"Duration dice must have 2 to {MAX_DURATION_SIDES} sides.")


def median_duration(dice: int = 1, sides: int = 6, /) -> int:
    """The median of a duration roll of ``dice`` d ``sides``, taking the lower of two middle values.

    1d6 seconds has median 3 s (the source's example), 2d6 has 7.
    Core Mechanics § Time and Checks.

    Raises:
        ValueError: for more than 20 dice, or fewer than 2 or more than 100 sides.
    """
    _check_dice(dice, sides)
    return _median(dice, sides)


@cache
def _median(dice: int, sides: int) -> int:
    running = Fraction(0)
    for total, chance in sum_of_dice(dice, sides).items():
        running += chance
        if 2 * running >= 1:
            return total
    raise AssertionError("unreachable")  # pragma: no cover


def task_duration(
    effect: int,
    /,
    dice: int = 1,
    sides: int = 6,
    *,
    floor: DurationFloor | str = DurationFloor.LOWEST_ROLL,
) -> Duration:
    """How long a task takes: the median duration roll, one smallest unit shorter per point of
    success effect and one longer per point of fail effect.

    A 1d6-second action takes 3 s at Effect 0, 2 s at +1, 4 s at -1 and 6 s at -3.
    Core Mechanics § Time and Checks.

    Raises:
        ValueError: for an Effect beyond plus or minus 50, bad dice or an unknown floor.
    """
    check_modifier(effect, "The Effect")
    how = choice(DurationFloor, floor, "The duration floor")
    median = median_duration(dice, sides)
    lowest = dice if how is DurationFloor.LOWEST_ROLL else 1
    units = max(median - effect * constant("time_checks", "unit_per_effect"), lowest)
    return Duration(dice, sides, median, effect, units)


def combat_rounds(seconds: int, /) -> int:
    """Combat rounds an extended action of so many seconds takes (6 s each, a part round counting whole).

    First aid's 3 minutes are 30 rounds. Actions § Extended Actions; § Combat Round Summary.

    Raises:
        ValueError: for a negative or absurd duration.
    """
    if not 0 <= seconds <= MAX_SECONDS:
        raise ValueError(f"The duration must be between 0 and {MAX_SECONDS} seconds.")
    return -(-seconds // round_seconds())
