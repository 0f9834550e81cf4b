"""Aim and ballistic correction.

Rules: Actions § Aim, § List of Minor Actions (Aim), § Ballistic Correction
(docs/rules/actions.md). Rulings: notes/rulings-core-actions.md.
"""

from __future__ import annotations

from enum import StrEnum

from rules_core._choices import choice
from rules_core.tables import int_constant

MAX_WEAPON_AIM = 10
"""A weapon Aim modifier above this is rejected (bounded input)."""


class Tracers(StrEnum):
    """Whether the shots fired carry tracer rounds (Actions § Ballistic Correction > Tracer Rounds)."""

    NONE = "none"
    TRACERS = "tracers"
    FULL_AUTO = "full_auto"
    """Tracers on fully automatic fire: the stream of fire is seen."""


class TracerReading(StrEnum):
    """How tracer rounds meet ballistic correction (ruling ``tracer-correction``).

    ``STEP`` (default): Tracers are how the shooter sees the shots: the correction's step becomes their
        figure, +1 or +3 on full automatic.
    ``ADDED``: Tracers add their figure on top of the correction's +1.
    """

    STEP = "step"
    ADDED = "added"


class AimReading(StrEnum):
    """How a weapon's own Aim modifier counts (ruling ``aim-maximum``).

    ``PER_ACTION`` (default): Each Aim action gains the weapon's Aim modifier instead of +1, up to 6
        actions.
    ``ONCE``: The weapon's Aim modifier counts once, each Aim action adds +1, up to 6 actions.
    """

    PER_ACTION = "per_action"
    ONCE = "once"


def _c(key: str) -> int:
    return int_constant("aim", key)


def _check_weapon(weapon_aim: int | None) -> int:
    if weapon_aim is None:
        return _c("aim_per_action")
    if not 1 <= weapon_aim <= MAX_WEAPON_AIM:
        raise ValueError(f"A weapon's Aim modifier must be between 1 and {MAX_WEAPON_AIM}.")
    return weapon_aim


def aim_bonus(
    aim_actions: int, /, weapon_aim: int | None = None, reading: AimReading | str = AimReading.PER_ACTION
) -> int:
    """DM to the next attack after Aim minor actions: +1 each (or the weapon's Aim modifier), up to 6.

    Actions § List of Minor Actions (Aim); § Aim > Weapon Aim Modifier, > Maximum Aim.

    Raises:
        ValueError: for a negative count, more than 6 actions or a bad weapon modifier.
    """
    how = choice(AimReading, reading, "The aim reading")
    most = _c("max_aim_actions")
    if not 0 <= aim_actions <= most:
        raise ValueError(f"Aim counts for 0 to {most} minor actions.")
    per_action = _check_weapon(weapon_aim)
    if aim_actions == 0:
        return 0
    if how is AimReading.ONCE and weapon_aim is not None:
        return weapon_aim + (aim_actions - 1) * _c("aim_per_action")
    return aim_actions * per_action


def max_aim_bonus(weapon_aim: int | None = None, reading: AimReading | str = AimReading.PER_ACTION) -> int:
    """The largest Aim bonus: 6 Aim actions' worth (+6 without a weapon Aim modifier).

    Actions § Aim > Maximum Aim.
    """
    return aim_bonus(_c("max_aim_actions"), weapon_aim, reading)


def ballistic_correction(
    aim: int,
    /,
    weapon_aim: int | None = None,
    reading: AimReading | str = AimReading.PER_ACTION,
    *,
    tracers: Tracers | str = Tracers.NONE,
    tracer_reading: TracerReading | str = TracerReading.STEP,
) -> int:
    """Aim kept from last round plus 1 when the shooter sees where the shots land, within the Aim maximum.

    With tracer rounds the step is the tracers' figure (+1, or +3 on full automatic), or that figure on top
    of the +1 under ``tracer_reading="added"``. Actions § Ballistic Correction > Effect, > Tracer Rounds; the
    cap and the tracers are rulings (Actions § Aim > Maximum Aim).

    Raises:
        ValueError: if the kept aim is negative or above the maximum, or for an unknown choice.
    """
    fire = choice(Tracers, tracers, "The tracers")
    how = choice(TracerReading, tracer_reading, "The tracer reading")
    most = max_aim_bonus(weapon_aim, reading)
    if not 0 <= aim <= most:
        raise ValueError(f"The kept Aim bonus must be between 0 and {most}.")
    step = _c("ballistic_correction_step")
    if fire is not Tracers.NONE:
        tracer = tracer_aim_bonus(fire is Tracers.FULL_AUTO)
        step = step + tracer if how is TracerReading.ADDED else tracer
    return min(aim + step, most)


def tracer_aim_bonus(full_auto: bool = False, /) -> int:
    """Most Aim bonus tracer rounds grant: +1, or +3 on fully automatic fire.

    Actions § Ballistic Correction > Tracer Rounds.
    """
    return _c("tracer_full_auto_aim" if full_auto else "tracer_aim")


def spotter_conditions() -> int:
    """Conditions a spotter calling out coordinates can grant: 2. Actions § Ballistic Correction > Spotter."""
    return _c("spotter_conditions")
