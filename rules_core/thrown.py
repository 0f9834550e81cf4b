"""Thrown and lobbed range.

Rules: Actions § Thrown Weapons (docs/rules/actions.md). Rulings: notes/rulings-core-actions.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from math import floor

from rules_core import limits
from rules_core._choices import choice
from rules_core.tables import constant

MAX_STRENGTH = limits.MAX_CHARACTERISTIC
"""A Strength above this is rejected (bounded input)."""
MAX_THROWN_VALUE = 20
"""A Thrown value above this is rejected (bounded input)."""
MAX_THROWN_TEXT = 16
"""A Thrown value written as text longer than this is rejected (bounded work)."""


class ThrownRounding(StrEnum):
    """How the ranges are rounded (ruling ``thrown-rounding``).

    ``DOWN`` (default): To whole metres, rounding down, as the source's examples do: 3.5 m is 3 m.
    ``EXACT``: Exact metres: 3.5 m.
    """

    DOWN = "down"
    EXACT = "exact"


@dataclass(frozen=True)
class ThrownRange:
    """How far a weapon flies: thrown straight (accurately, level) and lobbed, in metres."""

    straight_m: Fraction
    lobbed_m: Fraction


def _value(thrown_value: Fraction | int | float | str) -> Fraction:
    if isinstance(thrown_value, str):
        if len(thrown_value) > MAX_THROWN_TEXT:
            raise ValueError(f"The Thrown value is at most {MAX_THROWN_TEXT} characters, such as 0.5 or 1.5.")
        if "e" in thrown_value.casefold():
            raise ValueError("Write the Thrown value without an exponent, such as 0.5 or 1.5.")
    elif not isinstance(thrown_value, Fraction | int | float):
        raise ValueError("The Thrown value must be a number such as 0.5 or 1.5.")
    try:
        value = Fraction(str(thrown_value)) if isinstance(thrown_value, float) else Fraction(thrown_value)
    except (ValueError, TypeError, ZeroDivisionError):
        raise ValueError("The Thrown value must be a number such as 0.5 or 1.5.") from None
    if not 0 < value <= MAX_THROWN_VALUE:
        raise ValueError(f"The Thrown value must be above 0 and at most {MAX_THROWN_VALUE}.")
    return value


def thrown_range(
    strength: int,
    thrown_value: Fraction | int | float | str,
    /,
    rounding: ThrownRounding | str = ThrownRounding.DOWN,
) -> ThrownRange:
    """Thrown range is Strength x the weapon's Thrown value in metres; lobbed range is 3 times that.

    Str 7 throws a Thrown 0.5 weapon 3 m straight or 10 m lobbed, and a
    Thrown 1.5 weapon 10 m or 31 m. Actions § Thrown Weapons.

    Raises:
        ValueError: for a Strength outside 0 to :data:`MAX_STRENGTH`, a Thrown value outside (0, 20],
            or one written as text longer than 16 characters or with an exponent (``9e999999``).
    """
    if not 0 <= strength <= MAX_STRENGTH:
        raise ValueError(f"Strength must be between 0 and {MAX_STRENGTH}.")
    value = _value(thrown_value)
    how = choice(ThrownRounding, rounding, "The rounding")
    straight = strength * value
    lobbed = straight * constant("thrown", "lobbed_multiplier")
    if how is ThrownRounding.DOWN:
        return ThrownRange(Fraction(floor(straight)), Fraction(floor(lobbed)))
    return ThrownRange(straight, lobbed)
