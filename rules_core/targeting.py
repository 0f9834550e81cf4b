"""Targeted attacks: the 2d6 hit location table and targeted damage effects.

Rules: Actions § Targeted Attack (location table, 1d6 for primary or secondary
hand or foot); Outcomes § Targeted Damage (crippled, stunned, bleeding).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from math import ceil, floor
from types import MappingProxyType

from rules_core import dice
from rules_core._choices import choice
from rules_core.tables import table


class Rounding(StrEnum):
    """How a fraction of HP becomes a whole damage threshold (ruling ``targeted-rounding``).

    ``DOWN`` (default): rounded down, as the injury thresholds say. ``EXACT``:
    the damage must reach the exact fraction (so the threshold rounds up).
    The plain strings ``"down"`` and ``"exact"`` are accepted wherever a rounding is.
    """

    DOWN = "down"
    EXACT = "exact"


@dataclass(frozen=True)
class HitLocation:
    """One row of the location table: its 2d6 roll, exact odds and targeting difficulty."""

    roll: int
    location: str
    difficulty: int
    area: str | None
    sided: bool
    odds: Fraction
    printed_odds: str


@dataclass(frozen=True)
class TargetedEffect:
    """The effect of damage to a targeted area and the least damage that causes it."""

    area: str
    label: str
    effect: str
    threshold: int


@cache
def hit_locations() -> tuple[HitLocation, ...]:
    """Every row of the location table, by roll, with exact 2d6 odds. Actions § Targeted Attack."""
    odds = dice.sum_of_dice(2, 6)
    return tuple(
        HitLocation(
            roll=row["roll"],
            location=row["location"],
            difficulty=row["difficulty"],
            area=row["area"],
            sided=row["sided"],
            odds=odds[row["roll"]],
            printed_odds=row["printed_odds"],
        )
        for row in table("hit_locations").rows
    )


def hit_location(roll: int, /) -> HitLocation:
    """The location a 2d6 roll hits. Actions § Targeted Attack.

    Raises:
        ValueError: if the roll is not 2..12.
    """
    for row in hit_locations():
        if row.roll == roll:
            return row
    raise ValueError("A hit location roll is 2d6: between 2 and 12.")


def hit_location_by_name(location: str, /) -> HitLocation:
    """The row of a named location (case and spacing ignored), e.g. to read its targeting difficulty.

    Actions § Targeted Attack.
    """
    wanted = " ".join(str(location).split()).casefold()
    for row in hit_locations():
        if row.location.casefold() == wanted:
            return row
    names = ", ".join(row.location for row in hit_locations())
    raise ValueError(f"Unknown location {location!r}: use one of {names}.")


def hit_location_odds() -> Mapping[str, Fraction]:
    """Exact chance of each location on a random 2d6 hit. Actions § Targeted Attack."""
    return MappingProxyType({row.location: row.odds for row in hit_locations()})


def side(d6: int, /) -> str:
    """Primary (1-3) or secondary (4-6) hand or foot. Actions § Targeted Attack (note)."""
    for row in table("hit_location_sides").rows:
        if row["lowest"] <= d6 <= row["highest"]:
            side_name: str = row["side"]
            return side_name
    raise ValueError("The side roll is 1d6: between 1 and 6.")


def roll_hit_location(rng: random.Random, /) -> tuple[HitLocation, str | None]:
    """Roll a random location (2d6) and, for hands and feet, its side (1d6)."""
    if not isinstance(rng, random.Random):
        raise ValueError("Rolling needs a random.Random generator.")
    location = hit_location(rng.randint(1, 6) + rng.randint(1, 6))
    return location, side(rng.randint(1, 6)) if location.sided else None


def _row(area: str) -> Mapping[str, object]:
    try:
        return table("targeted_effects").find(area=area)
    except KeyError:
        areas = ", ".join(table("targeted_effects").column("area"))
        raise ValueError(f"Unknown targeted area {area!r}: use one of {areas}.") from None


def area_threshold(area: str, hp: int, /, *, rounding: Rounding | str = Rounding.DOWN) -> int:
    """Least damage to ``area`` that causes its effect: a fraction of HP (at least 1).

    Limbs 1/3 of HP; extremities, head and vitals 1/10 of HP. Outcomes § Targeted Damage.

    Raises:
        ValueError: for HP below 1, an unknown area or a rounding other than down or exact.
    """
    how = choice(Rounding, rounding, "The rounding")
    if hp < 1:
        raise ValueError("HP must be at least 1.")
    fraction = _row(area)["hp_fraction"]
    assert isinstance(fraction, Fraction)
    exact = hp * fraction
    return max(1, floor(exact) if how is Rounding.DOWN else ceil(exact))


def targeted_effects(hp: int, /, *, rounding: Rounding | str = Rounding.DOWN) -> tuple[TargetedEffect, ...]:
    """Every targeted area's effect and threshold for a character of ``hp``."""
    return tuple(
        TargetedEffect(
            row["area"], row["label"], row["effect"], area_threshold(row["area"], hp, rounding=rounding)
        )
        for row in table("targeted_effects").rows
    )


def targeted_effect(
    area: str, damage: int, hp: int, /, *, rounding: Rounding | str = Rounding.DOWN
) -> str | None:
    """The effect (crippled, stunned, bleeding) that ``damage`` to ``area`` causes, or ``None``.

    Outcomes § Targeted Damage.
    """
    if damage < 0:
        raise ValueError("Damage cannot be negative.")
    threshold = area_threshold(area, hp, rounding=rounding)
    effect = _row(area)["effect"]
    assert isinstance(effect, str)
    return effect if damage >= threshold else None


def targeted_effect_chance(
    area: str, damage: dice.Distribution, hp: int, /, *, rounding: Rounding | str = Rounding.DOWN
) -> Fraction:
    """Exact chance that a damage distribution to ``area`` reaches its effect's threshold."""
    return dice.chance_at_least(damage, area_threshold(area, hp, rounding=rounding))
