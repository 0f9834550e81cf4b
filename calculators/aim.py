"""Aim: the aim bonus of this round's aim actions, its maximum, ballistic correction with tracers, spotters.

Rules: Actions § List of Minor Actions (Aim), § Aim (Weapon Aim Modifier, Maximum Aim, Keeping Aim),
§ Ballistic Correction (Effect, Spotter, Tracer Rounds). Rulings: maximum aim, ballistic correction and the
aim limit, aim for the next ranged attack, tracers and ballistic correction. All maths is in
:mod:`rules_core.aim`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators.format import plural, signed
from calculators.parts import enum_choices, sentence
from calculators.parts.links import rule
from rules_core import aim, limits
from rules_core.tables import int_constant

__all__ = ["CALCULATOR"]


AIM_STEP = int_constant("aim", "aim_per_action")
"""The aim an action gains with a weapon that has no Aim modifier of its own (Actions § Aim)."""
READINGS = enum_choices(aim.AimReading, step=AIM_STEP)
TRACER_CHOICES = enum_choices(aim.Tracers)
TRACER_READINGS = enum_choices(aim.TracerReading, step=int_constant("aim", "ballistic_correction_step"))
MAX_AIM_ACTIONS = int_constant("aim", "max_aim_actions")


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """This round's aim, the maximum, and last round's aim corrected."""
    weapon, reading = values["weapon_aim"], values["reading"]
    with fw.on_field("weapon_aim"):
        bonus = aim.aim_bonus(values["aim_actions"], weapon, reading)
        most = aim.max_aim_bonus(weapon, reading)
    per = signed(AIM_STEP) if weapon is None else f"the weapon's {signed(weapon)}"
    steps = [
        fw.Step(
            f"{plural(values['aim_actions'], 'aim action')}, each worth {per}: aim {signed(bonus)} on the "
            "next ranged attack (thrown weapons too, not a melee blow).",
            rule("aim.ranged"),
        ),
        fw.Step(
            f"At most {MAX_AIM_ACTIONS} aim actions count: aim {signed(most)} at most.", rule("aim.maximum")
        ),
    ]
    outputs = {"aim": signed(bonus), "maximum": signed(most)}
    if values["kept"] is not None:
        with fw.on_field("kept"):
            corrected = aim.ballistic_correction(
                values["kept"],
                weapon,
                reading,
                tracers=values["tracers"],
                tracer_reading=values["tracer_reading"],
            )
        outputs["corrected"] = signed(corrected)
        steps.append(
            fw.Step(
                f"Shooting on at the same target and seeing the shots land: aim {signed(values['kept'])} "
                f"kept, now {signed(corrected)} (never above {signed(most)}).",
                rule("aim.tracers") if values["tracers"] != aim.Tracers.NONE else rule("aim.correction_max"),
            )
        )
    if values["spotter"]:
        outputs["spotter"] = f"{aim.spotter_conditions()} conditions"
        steps.append(
            fw.Step(
                f"A spotter calling out coordinates: {aim.spotter_conditions()} conditions in your favour.",
                rule("aim.correction"),
            )
        )
    return fw.Result(outputs=outputs, working=tuple(steps))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """The aim to add to the next ranged attack, in one line."""
    return sentence(
        f"Aim {out['aim']} on your next ranged attack (at most {out['maximum']})",
        out,
        corrected="corrected fire: aim {corrected}",
        spotter="a spotter adds {spotter}",
    )


CALCULATOR = fw.Calculator(
    title="Aim and ballistic correction",
    summary="The aim bonus for your next shot, and what correcting your fire, tracers and a spotter add.",
    inputs=(
        fw.IntInput("aim_actions", "Aim actions", 1, 0, MAX_AIM_ACTIONS, help="Minor actions spent aiming."),
        fw.OptionalIntInput(
            "weapon_aim",
            "Weapon aim modifier",
            1,
            aim.MAX_WEAPON_AIM,
            help=f"Blank: the weapon has none ({signed(AIM_STEP)}).",
        ),
        fw.OptionalIntInput(
            "kept",
            "Aim kept from last round",
            0,
            limits.MAX_MODIFIER,
            help="For ballistic correction: shooting on at a target whose shots you see land.",
        ),
        fw.ChoiceInput(
            "tracers", "Tracers", TRACER_CHOICES, aim.Tracers.NONE.value, help="They change the correction."
        ),
        fw.BoolInput("spotter", "A spotter calls out coordinates"),
        fw.ChoiceInput(
            "reading", "Weapon aim modifier counts (ruling)", READINGS, aim.AimReading.PER_ACTION.value
        ),
        fw.ChoiceInput("tracer_reading", "Tracers (ruling)", TRACER_READINGS, aim.TracerReading.STEP.value),
    ),
    outputs=(
        fw.Output("aim", "Aim"),
        fw.Output("maximum", "Most aim"),
        fw.Output("corrected", "Corrected fire"),
        fw.Output("spotter", "Spotter"),
    ),
    compute=_compute,
    answer=_summary,
    uses=(
        "rules_core.aim.aim_bonus",
        "rules_core.aim.max_aim_bonus",
        "rules_core.aim.ballistic_correction",
        "rules_core.aim.spotter_conditions",
    ),
    rules=(rule("aim"), rule("aim.correction"), rule("aim.maximum"), rule("aim.correction_max")),
)
