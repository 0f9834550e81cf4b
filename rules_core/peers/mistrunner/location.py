"""Mistrunner hit location and grenade scatter rolls.

Rules: Mistrunner: Combat § Applying Damage, § Grenades
(docs/peers/mistrunner.md#hit-location).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from rules_core.peers.mistrunner._figures import check_score, figure
from rules_core.tables import table


@dataclass(frozen=True)
class HitLocation:
    """Where a hit lands and what its damage is multiplied by (2 for the head)."""

    key: str
    name: str
    damage_multiplier: int


@dataclass(frozen=True)
class GrenadeScatter:
    """Where a missed grenade goes: a direction and metres off course."""

    direction: str
    label: str
    metres: int


def _row_for(table_name: str, die: int) -> Mapping[str, Any]:
    for row in table(table_name).rows:
        if row["low"] <= die <= row["high"]:
            return row
    raise ValueError(f"No row for a roll of {die}.")  # pragma: no cover - tables cover every face


def hit_location(die: int, /) -> HitLocation:
    """Body part hit for a d10 roll: 1-2 left arm ... 9 abdomen, 10 head.

    Mistrunner: Combat § Applying Damage.
    """
    check_score("The location die", die, minimum=1, maximum=figure("hit_location_die_sides"))
    row = _row_for("mistrunner_hit_locations", die)
    return HitLocation(row["key"], row["name"], row["damage_multiplier"])


def hit_location_chances() -> Mapping[str, Fraction]:
    """Exact chance of each body part on the d10 location roll.

    Mistrunner: Combat § Applying Damage.
    """
    sides = figure("hit_location_die_sides")
    return MappingProxyType(
        {
            row["key"]: Fraction(row["high"] - row["low"] + 1, sides)
            for row in table("mistrunner_hit_locations").rows
        }
    )


def grenade_scatter(direction_die: int, distance_die: int, /) -> GrenadeScatter:
    """Where a missed grenade lands: a d10 for direction, a d10 for metres off course.

    Mistrunner: Combat § Grenades.
    """
    sides = figure("grenade_distance_die_sides")
    check_score("The direction die", direction_die, minimum=1, maximum=sides)
    check_score("The distance die", distance_die, minimum=1, maximum=sides)
    row = _row_for("mistrunner_grenade_scatter", direction_die)
    return GrenadeScatter(row["key"], row["direction"], distance_die)
