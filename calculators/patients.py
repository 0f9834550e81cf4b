"""Patient load: patients counted in light care patients against one medic's care capacity and daily
monitoring limit, the medics needed, and whether intensive care patients must roll.

Rules: Outcomes § Medical Care (Capacity), § Care Levels, § Light Care, § Intensive Care. Rulings: care
capacity 8 or 32, monitoring at higher levels, intensive care without supervision. All maths is in
:mod:`rules_core.patients` and :mod:`rules_core.healing`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators.format import plural
from calculators.parts import SUPERVISOR_MEDIC, enum_choices, supervised_input
from calculators.parts.links import rule
from rules_core import healing, patients
from rules_core.healing import CareLevel

__all__ = ["CALCULATOR"]

READINGS = enum_choices(patients.MonitoringReading, capacity=healing.light_care_monitoring_capacity())


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """The load level by level, the capacity, the medics needed and the monitoring limit."""
    counts: dict[CareLevel | str, int] = {level: values[level.value] for level in CareLevel}
    with fw.on_field("medic"):
        ward = patients.ward(
            counts, values["medic"], supervised=values["supervised"], reading=values["reading"]
        )
    parts = [f"{counts[level]} {level.value} \u00d7 {level.load}" for level in CareLevel if counts[level]]
    sum_text = " + ".join(parts) if parts else "no patients"
    steps = [
        fw.Step(f"Load in light care patients: {sum_text} = {ward.load}.", rule("levels")),
    ]
    supervised = f", doubled by a supervising Medic {SUPERVISOR_MEDIC}+" if values["supervised"] else ""
    steps.append(
        fw.Step(
            f"Medic {values['medic']} cares for {plural(ward.capacity, 'light care patient')}{supervised}: "
            f"{'enough' if ward.fits else 'not enough'}; {plural(ward.medics_needed, 'such medic')} needed.",
            rule("capacity"),
        )
    )
    steps.append(
        fw.Step(
            f"Monitoring, not caring: {plural(ward.monitoring, 'light care patient')} a day "
            f"({'within' if ward.monitored else 'past'} it).",
            rule("patients.monitoring"),
        )
    )
    outputs = {
        "load": str(ward.load),
        "capacity": str(ward.capacity),
        "medics": str(ward.medics_needed),
        "monitoring": str(ward.monitoring),
    }
    if ward.intensive:
        if ward.intensive_supervised:
            text = f"Intensive care supervised by a Medic {SUPERVISOR_MEDIC}+ (with tools and help): no roll."
            outputs["intensive"] = "no roll"
        else:
            difficulty = healing.intensive_care_difficulty()
            text = (
                f"No Medic {SUPERVISOR_MEDIC}+ or AI sickbay supervises: each intensive care patient "
                f"rolls against {difficulty} every day; a failure means a dying roll."
            )
            outputs["intensive"] = "a roll a day"
        steps.append(fw.Step(text, rule("patients.intensive_roll")))
    return fw.Result(outputs=outputs, working=tuple(steps))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """Load against capacity, in one line."""
    text = (
        f"A load of {out['load']} light care patients: Medic {values['medic']} cares for {out['capacity']}, "
        f"so {plural(int(out['medics']), 'medic')} of that level"
    )
    if out.get("intensive") == "a roll a day":
        text += "; unsupervised intensive care patients roll every day"
    return text + "."


def _count(level: CareLevel, default: int) -> fw.IntInput:
    return fw.IntInput(
        level.value,
        f"{level.value.capitalize()} care patients",
        default,
        0,
        patients.MAX_PATIENTS,
        help=f"Each counts as {plural(level.load, 'light care patient')}.",
    )


CALCULATOR = fw.Calculator(
    title="Patient load",
    summary="How many light care patients a ward counts as, and how many medics it takes.",
    inputs=(
        _count(CareLevel.LIGHT, default=1),
        _count(CareLevel.MODERATE, default=1),
        _count(CareLevel.SERIOUS, default=1),
        _count(CareLevel.INTENSIVE, default=0),
        fw.IntInput("medic", "Medic level", 1, 0, healing.MAX_MEDIC_LEVEL),
        supervised_input(),
        fw.ChoiceInput(
            "reading", "Monitoring limit (ruling)", READINGS, patients.MonitoringReading.DOUBLES.value
        ),
    ),
    outputs=(
        fw.Output("load", "Load (light care patients)"),
        fw.Output("capacity", "One medic cares for"),
        fw.Output("medics", "Medics needed"),
        fw.Output("monitoring", "Monitored a day"),
        fw.Output("intensive", "Intensive care"),
    ),
    compute=_compute,
    answer=_summary,
    uses=(
        "rules_core.patients.ward",
        "rules_core.patients.monitoring_capacity",
        "rules_core.healing.patient_load",
        "rules_core.healing.care_capacity",
        "rules_core.healing.intensive_care_difficulty",
    ),
    rules=(
        rule("capacity"),
        rule("levels"),
        rule("patients.light"),
        rule("intensive"),
        rule("patients.capacity_ruling"),
    ),
)
