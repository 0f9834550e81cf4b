"""A medic's ward: patient load in light care patients, care capacity, medics needed, daily monitoring.

Rules: Outcomes § Medical Care (Capacity), § Care Levels, § Light Care (Monitoring Capacity), § Intensive
Care. The single figures are :mod:`rules_core.healing`'s. Rulings: ``care-capacity``,
``monitoring-capacity``, ``intensive-roll`` (notes/rulings-outcomes.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from math import ceil

from rules_core import healing
from rules_core._choices import check_whole, choice
from rules_core.healing import CareLevel

MAX_PATIENTS = 1000
"""Patients of one care level followed at most (bounded input)."""


class MonitoringReading(StrEnum):
    """Whether the daily monitoring limit grows with Medic level (ruling ``monitoring-capacity``).

    ``DOUBLES`` (default): like care capacity, 32 at Medic 0, doubled for every level above 0.
    ``FIXED``: 32 light care patients a day at any level.
    """

    DOUBLES = "doubles"
    FIXED = "fixed"


@dataclass(frozen=True)
class Ward:
    """The load of a set of patients against one medic: counted in light care patients."""

    load: int
    capacity: int
    medics_needed: int
    monitoring: int
    intensive: int
    intensive_supervised: bool

    @property
    def fits(self) -> bool:
        """Whether one medic of this level cares for the whole load."""
        return self.load <= self.capacity

    @property
    def monitored(self) -> bool:
        """Whether the load stays within what the medic can monitor in a day."""
        return self.load <= self.monitoring


def monitoring_capacity(
    medic_level: int, /, *, reading: MonitoringReading | str = MonitoringReading.DOUBLES
) -> int:
    """Light care patients a medic can monitor in a day: 32 at Medic 0 (doubled per level by default).

    Outcomes § Light Care > Monitoring Capacity; § Medical Care > Capacity.
    """
    how = choice(MonitoringReading, reading, "The monitoring reading")
    base = healing.light_care_monitoring_capacity()
    if how is MonitoringReading.FIXED:
        healing.care_capacity(medic_level)  # checks the level
        return base
    return base * healing.care_capacity(medic_level) // healing.care_capacity(0)


def ward(
    patients: Mapping[CareLevel | str, int],
    medic_level: int,
    /,
    *,
    supervised: bool = False,
    reading: MonitoringReading | str = MonitoringReading.DOUBLES,
) -> Ward:
    """The patients' load (light 1, moderate 2, serious 4, intensive 8) against one medic's capacity.

    ``supervised``: a Medic 2+ supervises (doubling the capacity and, with tools and help, sparing
    intensive care patients their roll). Outcomes § Medical Care, § Care Levels, § Intensive Care.

    Raises:
        ValueError: for a negative or huge count, an unknown care level or a medic level out of range.
    """
    levels: list[CareLevel] = []
    intensive = 0
    for level, count in patients.items():
        kind = choice(CareLevel, level, "The care level")
        check_whole(f"{kind.value.capitalize()} care patients", count, 0, MAX_PATIENTS)
        levels.extend([kind] * count)
        if kind is CareLevel.INTENSIVE:
            intensive += count
    load = healing.patient_load(levels)
    capacity = healing.care_capacity(medic_level, supervised=supervised)
    return Ward(
        load=load,
        capacity=capacity,
        medics_needed=ceil(load / capacity),
        monitoring=monitoring_capacity(medic_level, reading=reading),
        intensive=intensive,
        intensive_supervised=supervised or healing.can_supervise(medic_level),
    )
