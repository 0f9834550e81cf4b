"""A ward in the engine: the load in light care patients, care capacity, medics needed, daily monitoring.

Rules: Outcomes § Medical Care (Capacity), § Care Levels, § Light Care, § Intensive Care. Rulings: care
capacity 8 or 32, monitoring at higher levels.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core import patients


def test_the_load_counts_light_1_moderate_2_serious_4_intensive_8() -> None:
    """Outcomes § Care Levels: 3 light + 2 moderate + 1 serious + 1 intensive = 3 + 4 + 4 + 8 = 19."""
    ward = patients.ward({"light": 3, "moderate": 2, "serious": 1, "intensive": 1}, 0)
    assert (ward.load, ward.capacity, ward.medics_needed, ward.fits) == (19, 8, 3, False)
    assert ward.intensive == 1 and not ward.intensive_supervised


@pytest.mark.parametrize(
    ("level", "supervised", "capacity"), [(0, False, 8), (1, False, 16), (2, False, 32), (1, True, 32)]
)
def test_capacity_8_at_medic_0_doubles_per_level_and_under_supervision(
    level: int, supervised: bool, capacity: int
) -> None:
    """Outcomes § Medical Care > Capacity."""
    assert patients.ward({"light": 1}, level, supervised=supervised).capacity == capacity


def test_the_healing_page_example_medic_2_takes_4_serious_and_16_light() -> None:
    """docs/rules/healing.md example: Medic 2 cares for 32 light care patients: 4 serious, 16 light."""
    ward = patients.ward({"serious": 4, "light": 16}, 2)
    assert (ward.load, ward.capacity, ward.fits, ward.medics_needed) == (32, 32, True, 1)


def test_monitoring_is_32_at_medic_0_and_doubles_by_default() -> None:
    """Outcomes § Light Care > Monitoring Capacity; ruling monitoring-capacity."""
    assert patients.monitoring_capacity(0) == 32
    assert patients.monitoring_capacity(3) == 256
    assert patients.monitoring_capacity(3, reading="fixed") == 32


def test_a_medic_2_or_a_supervisor_spares_intensive_care_its_roll() -> None:
    """Outcomes § Intensive Care > With Supervision."""
    assert patients.ward({"intensive": 1}, 2).intensive_supervised
    assert patients.ward({"intensive": 1}, 0, supervised=True).intensive_supervised


@given(st.lists(st.integers(0, 50), min_size=4, max_size=4), st.integers(0, 6))
def test_the_medics_needed_cover_the_load_and_one_fewer_would_not(counts: list[int], level: int) -> None:
    ward = patients.ward(dict(zip(("light", "moderate", "serious", "intensive"), counts, strict=True)), level)
    assert ward.medics_needed * ward.capacity >= ward.load
    assert (ward.medics_needed - 1) * ward.capacity < ward.load or ward.load == 0


def test_bad_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 0"):
        patients.ward({"light": -1}, 0)
    with pytest.raises(ValueError, match="must be one of"):
        patients.ward({"critical": 1}, 0)
    with pytest.raises(ValueError, match="Medic level"):
        patients.ward({"light": 1}, 99)
