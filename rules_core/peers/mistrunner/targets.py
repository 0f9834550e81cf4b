"""Mistrunner target numbers: range bands, modifiers, recoil, vehicles.

Rules: Mistrunner: Combat § Combat Target Numbers, § Target Number Modifiers,
§ Melee Combat, § Projectile Weaponry, § Vehicle Combat
(docs/peers/mistrunner.md#target-numbers).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.peers.mistrunner._figures import check_score, figure
from rules_core.tables import table

RANGES = ("point_blank", "short", "medium", "long", "extreme")
"""Range bands, nearest first (keys of ``mistrunner_range_target_numbers.json``)."""
VISIONS = ("clear", "impaired_vision", "blind_fire")
COVERS = ("none", "partial_cover", "full_cover")
TARGET_MOTIONS = ("normal", "target_running", "target_not_moving")
ATTACKER_MOTIONS = ("still", "attacker_walking", "attacker_running")
MAX_SPEED_KPH = 2000


@dataclass(frozen=True)
class TargetNumber:
    """A target number with its working: the base for the range and each modifier applied."""

    base: int
    steps: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        """Base plus every modifier."""
        return self.base + sum(value for _, value in self.steps)


def range_target_number(range_band: str, /) -> int:
    """Base target number of a range band: point blank 6 up to extreme 10.

    Mistrunner: Combat § Combat Target Numbers.

    Raises:
        ValueError: for a band that is not in the table (beyond extreme cannot be attacked).
    """
    if range_band not in RANGES:
        raise ValueError(f"Range must be one of {', '.join(RANGES)}; nothing past extreme can be attacked.")
    value: int = table("mistrunner_range_target_numbers").find(range=range_band)["target_number"]
    return value


def _modifier(key: str) -> tuple[str, int]:
    row = table("mistrunner_target_modifiers").find(key=key)
    return row["situation"], row["modifier"]


def recoil_modifier(shots: int, /, compensator: int = 0, rate_of_fire: int | None = None) -> int:
    """Recoil: +1 per shot after the first, cancelled point for point by a compensator's rating.

    The compensator never lowers the number below what recoil raised it to
    (see notes/rulings-peers.md, "Recoil: bursts or shots").
    Mistrunner: Combat § Projectile Weaponry, § Target Number Modifiers.

    Raises:
        ValueError: if shots are not positive, exceed the rate of fire, or the rating is negative.
    """
    check_score("Shots fired", shots, minimum=1)
    check_score("The compensator rating", compensator, minimum=0)
    if rate_of_fire is not None:
        check_score("The rate of fire", rate_of_fire, minimum=1)
        if shots > rate_of_fire:
            raise ValueError(f"Rate of fire {rate_of_fire} allows at most {rate_of_fire} shots a turn.")
    return max(0, (shots - 1) * figure("recoil_per_extra_shot") - compensator)


def vehicle_speed_modifier(speed_kph: int, /) -> int:
    """Target number increase in vehicle combat: +1 for every full 20 km/h of speed.

    Mistrunner: Combat § Vehicle Combat.
    """
    check_score("Vehicle speed", speed_kph, minimum=0, maximum=MAX_SPEED_KPH)
    return speed_kph // figure("vehicle_speed_step_kph") * figure("vehicle_target_number_per_step")


def _choice(label: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ValueError(f"{label} must be one of {', '.join(allowed)}.")
    return value


def target_number(
    range_band: str = "point_blank",
    *,
    melee: bool = False,
    vision: str = "clear",
    cover: str = "none",
    target_motion: str = "normal",
    attacker_motion: str = "still",
    melee_opponents: int = 0,
    called_shot: bool = False,
    shots: int = 1,
    compensator: int = 0,
    vehicle_speed_kph: int = 0,
) -> TargetNumber:
    """The target number of an attack, with each modifier listed.

    Melee attacks are always at point blank (base 6) and ignore the
    attacker-in-melee modifier, which applies to projectile attacks only.
    Vision, cover and each side's motion are one state each (see
    notes/rulings-peers.md, "Modifiers that exclude one another").
    Mistrunner: Combat § Combat Target Numbers, § Target Number Modifiers, § Melee Combat.

    Raises:
        ValueError: for an unknown range or state, or counts out of range.
    """
    if melee:
        range_band = "point_blank"
    base = range_target_number(range_band)
    steps: list[tuple[str, int]] = []
    for label, state, allowed in (
        ("Vision", vision, VISIONS),
        ("Cover", cover, COVERS),
        ("Target motion", target_motion, TARGET_MOTIONS),
        ("Attacker motion", attacker_motion, ATTACKER_MOTIONS),
    ):
        if _choice(label, state, allowed) != allowed[0]:
            steps.append(_modifier(state))
    check_score("Melee opponents", melee_opponents, minimum=0)
    if melee_opponents and not melee:
        situation, per = _modifier("attacker_in_melee")
        steps.append((situation, per * melee_opponents))
    if called_shot:
        steps.append(_modifier("called_shot"))
    recoil = recoil_modifier(shots, compensator)
    if recoil:
        steps.append(("Recoil (after compensator)", recoil))
    speed = vehicle_speed_modifier(vehicle_speed_kph)
    if speed:
        steps.append(("Vehicle speed", speed))
    return TargetNumber(base, tuple(steps))
