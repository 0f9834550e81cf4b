"""The patient load calculator: the load in light care patients, one medic's capacity, medics needed.

Rules: Outcomes § Medical Care (Capacity), § Care Levels, § Light Care, § Intensive Care. Rulings: care
capacity 8 or 32, monitoring at higher levels, intensive care without supervision.
"""

from __future__ import annotations

from functools import partial

import _calc

outputs = partial(_calc.outputs, "patients")


def test_a_field_hospital_for_one_medic_2() -> None:
    """docs/rules/healing.md example: Medic 2 takes 4 serious and 16 light (load 32, capacity 32)."""
    found = outputs(light=16, moderate=0, serious=4, medic=2)
    assert (found["load"], found["capacity"], found["medics"], found["monitoring"]) == (
        "32",
        "32",
        "1",
        "128",
    )


def test_an_unsupervised_intensive_patient_rolls_every_day() -> None:
    """Outcomes § Intensive Care > Without Supervision; ruling intensive-roll."""
    found = outputs(light=0, moderate=0, serious=0, intensive=1, medic=0)
    assert (found["load"], found["capacity"], found["medics"], found["intensive"]) == (
        "8",
        "8",
        "1",
        "a roll a day",
    )
    assert (
        outputs(light=0, moderate=0, serious=0, intensive=1, medic=0, supervised=1)["intensive"] == "no roll"
    )


def test_monitoring_reading() -> None:
    """Ruling monitoring-capacity: 32 at Medic 0, doubled per level, or 32 at any level."""
    assert outputs(medic=3)["monitoring"] == "256"
    assert outputs(medic=3, reading="fixed")["monitoring"] == "32"


def test_a_bad_count_is_refused_beside_its_field() -> None:
    result = _calc.compute("patients", light=-1)
    assert not result["ok"] and "light" in result["errors"]
