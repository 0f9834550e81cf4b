"""Mitigation calculator: what conditions, concealment, cover and skill leave of a fail effect.

Rules: Core Mechanics § Mitigating Factors, § Fail Effect and Damage to Protection;
Outcomes § Cover Takes Damage; Actions § Defend Action. Rulings: order of skill
and cover, the Defend cap of 4. All maths is in :mod:`rules_core.mitigation`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators import parts
from calculators.format import plural, signed
from calculators.parts import factor_input, injury_hp_input, threshold_reading_input
from calculators.parts.damage_parts import dice_input, dice_param, rate_input, rolls_input
from calculators.parts.links import rule
from calculators.parts.mitigation_parts import (
    COVER_CAP,
    FACTOR_RULES,
    MITIGATED_OUTPUTS,
    cap_steps,
    defend_input,
    mitigated_outputs,
    reading_inputs,
)
from rules_core import checks, damage, mitigation

__all__ = ["CALCULATOR", "fail_degree_text"]


CARRIED_INPUTS: tuple[fw.Input, ...] = (
    dice_input(
        "adversary_damage",
        "The attack's damage dice",
        "",
        "Optional, passed on with the rolls left. No weapon lists in the rules: the referee's dice.",
        required=False,
        placeholder="not given",
    ),
    rate_input("adversary_rate", "Its rate of attack"),
    fw.IntInput("armor", "Your armor", 0, 0, damage.MAX_ARMOR, help="In plain points."),
    injury_hp_input("hp", "Your HP"),
    parts.damage_taken_input("current_damage", "Damage you already have"),
    rolls_input(),
    threshold_reading_input("Injury thresholds (ruling)"),
    parts.best_physical_input("Only for the table reading.", placeholder="optional"),
)
"""What the damage calculator needs next, carried through as given (a hand-off fills them)."""
CARRIED = tuple(item.key for item in CARRIED_INPUTS)
AS_DAMAGE_NAMES = {"adversary_damage": "damage", "adversary_rate": "rate_of_attack"}
"""The damage calculator's names of the attacker's dice and rate ("use my character" leaves these alone:
they are the adversary's, not the character's weapon)."""


def _given(key: str, value: Any, values: Mapping[str, Any]) -> bool:
    """A carried value worth passing on: with the attack's dice, every number and the reading; without
    them, only what differs from nothing (an armor, a limit, an HP)."""
    if key in {"adversary_rate", "armor", "current_damage", "reading"}:
        return values["adversary_damage"] is not None or (key != "reading" and bool(value))
    return value is not None


def fail_degree_text(effect: int) -> str:
    """How a signed fail effect reads as a degree in the working (``\u22123`` is ``3``)."""
    return f"Effect {signed(effect)} is a fail effect of degree {-effect}." if effect < 0 else ""


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """The fail effect left after each mitigating factor, and what the cover absorbs."""
    entered = values["fail_effect"]
    with fw.on_field("fail_effect"):
        degree = checks.fail_effect_degree(entered)
        result = parts.mitigate(values, degree)
    steps: list[fw.Step] = []
    if entered < 0:
        steps.append(fw.Step(fail_degree_text(entered), rule("sign_ruling")))
    steps.append(fw.Step(f"Start from a fail effect of {degree}.", rule("mitigation.fail_effect")))
    if result.defend is not mitigation.Defend.NONE:
        chosen = values[result.defend.value]
        doubled = next(s.modifier for s in result.steps if s.name == result.defend.value)
        steps.append(
            fw.Step(
                f"Defending doubles {result.defend.value}: {chosen} counts as {doubled}"
                + (
                    f" (cover and concealment stop at {COVER_CAP})."
                    if result.defend.value != "skill"
                    else "."
                ),
                rule("defend"),
            )
        )
    steps.extend(cap_steps(values, result))
    for step in result.steps:
        if step.modifier == 0:
            continue
        took = f"removes {step.reduced_by}" if step.reduced_by else "removes nothing (nothing left)"
        steps.append(
            fw.Step(
                f"{step.name.capitalize()} {step.modifier} {took}: {step.remaining} left.",
                FACTOR_RULES[step.name],
            )
        )
    if result.ordinary_failure:
        steps.append(fw.Step("Nothing is left: an ordinary failure, with no damage rolls.", rule("ordinary")))
    else:
        steps.append(
            fw.Step(
                f"{result.remaining} left: {result.remaining} damage roll(s) against the character.",
                rule("mitigation.factors"),
            )
        )
    steps.append(
        fw.Step(
            f"The cover takes the {result.cover_absorbed} attack(s) it removed.",
            rule("cover_damage"),
        )
    )
    return fw.Result(outputs=mitigated_outputs(result), working=tuple(steps))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """What is left of the fail effect and what the cover takes, in one line."""
    left = int(out["remaining"])
    text = "An ordinary failure: no damage to you" if not left else f"You take {plural(left, 'damage roll')}"
    if out["cover_absorbs"] != "0":
        text += f"; the cover takes {out['cover_absorbs']}"
    return text + "."


def _next(values: Mapping[str, Any], out: Mapping[str, str]) -> tuple[fw.Handoff, ...]:
    """Carry the rolls left into the damage calculator (a fail effect of that many)."""
    left = int(out["remaining"])
    if not left:
        return ()
    text = f"roll the {plural(left, 'damage roll')} left in the damage calculator"
    return (fw.Handoff(text, "calculators/damage.md", (("effect", str(-left)), *_carried(values))),)


def _carried(values: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The attack's situation as it was handed in or typed (dice, rate, armor, HP...), passed on as given."""
    found = []
    for key in CARRIED:
        value, name = values[key], AS_DAMAGE_NAMES.get(key, key)
        if key == "adversary_damage" and value is not None:
            found.append((name, dice_param(value)))
        elif key == "rolled" and value:
            found.append((name, " ".join(str(v) for v in value)))
        elif _given(key, value, values):
            found.append((name, str(value)))
    return tuple(found)


CALCULATOR = fw.Calculator(
    title="Mitigation calculator",
    summary="What conditions, concealment, cover and skill leave of a fail effect.",
    inputs=(
        fw.IntInput(
            "fail_effect",
            "Fail effect",
            3,
            -mitigation.MAX_FAIL_EFFECT,
            mitigation.MAX_FAIL_EFFECT,
            help="The failure's size: 3, or -3 as an Effect; both mean the same.",
        ),
        factor_input(
            "conditions",
            "Conditions",
            0,
            "What shields you: your movement, size, the range. How much: the referee's call.",
        ),
        factor_input(
            "concealment",
            "Concealment",
            0,
            "Smoke, darkness, foliage. How much: the referee's call.",
        ),
        factor_input(
            "cover", "Cover", 2, "What stands between. No cover values in the rules: the referee's call."
        ),
        factor_input("skill", "Skill", 0, "The defender's relevant skill level."),
        defend_input("A Defend action doubles one factor."),
        *reading_inputs("Only what the cover takes changes."),
        *CARRIED_INPUTS,
    ),
    outputs=MITIGATED_OUTPUTS,
    compute=_compute,
    answer=_summary,
    handoffs=_next,
    uses=("rules_core.mitigation.mitigate",),
    rules=(
        rule("mitigation.factors"),
        rule("mitigation.order"),
        rule("cover_damage"),
        rule("defend"),
        rule("mitigation.order_ruling"),
        rule("cap_ruling"),
    ),
)
