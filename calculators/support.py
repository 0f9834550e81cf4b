"""Support and coordination: the DM supporters give, a coordinated action's Difficulty, a plan's advantage,
and the exact chance of the helped roll.

Rules: Actions § Supporting Actions, § Coordinating Action, § Plan/Wait; Core Mechanics § Modifiers to Rolls.
Rulings: supporting action on a failure, several allies, stacking supporters, coordination offset. All maths
is in :mod:`rules_core.support` and :mod:`rules_core.action_options`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from calculators import framework as fw
from calculators.format import decimal, percent, plural, signed, term
from calculators.parts import (
    advantage_inputs,
    chance_chart,
    check_dice,
    difficulty_input,
    enum_choices,
    modifier_input,
)
from calculators.parts.links import rule
from rules_core import action_options, checks, support

__all__ = ["CALCULATOR"]


STACKINGS = enum_choices(support.SupportStacking)
PLANS = (("none", "No plan"), ("right", "Prediction right"), ("wrong", "Prediction wrong"))
_DIFFICULTY_HELP = "The helped roll's Difficulty before any coordination."


def _difficulty(values: Mapping[str, Any], steps: list[fw.Step]) -> int:
    """The helped roll's Difficulty, raised by coordination less the Leadership or Tactics offset."""
    difficulty: int = values["difficulty"]
    added = values["coordination"]
    if not added:
        return difficulty
    with fw.on_field("coordination"):
        result = support.coordinated(difficulty, added, values["offset"])
    offset = f" \u2212 Leadership or Tactics {result.offset}" if result.offset else ""
    steps.append(
        fw.Step(
            f"Coordinated: Difficulty {difficulty} + {added}{offset} = {result.difficulty}.",
            rule("support.coordinating"),
        )
    )
    if values["offset"] > added:
        steps.append(fw.Step(f"The offset stops at the {added} the referee added.", rule("support.offset")))
    return result.difficulty


def _rolls(values: Mapping[str, Any], steps: list[fw.Step]) -> tuple[int, int]:
    """Advantage and disadvantage, a plan's one added (Actions § Plan/Wait)."""
    advantage, disadvantage = values["advantage"], values["disadvantage"]
    if values["plan"] != "none":
        more, less = action_options.plan_rolls(values["plan"] == "right")
        advantage, disadvantage = advantage + more, disadvantage + less
        word = "advantage" if more else "disadvantage"
        steps.append(
            fw.Step(f"The prediction was {values['plan']}: one {word} on the roll.", rule("support.plan"))
        )
    return advantage, disadvantage


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """The chance alone, the supporters' DM distribution, and the chance with everything."""
    steps: list[fw.Step] = []
    modifier, count = values["modifier"], values["supporters"]
    difficulty = _difficulty(values, steps)
    advantage, disadvantage = _rolls(values, steps)
    with fw.on_field("advantage"):
        net = checks.net_advantage(advantage, disadvantage)
        alone = checks.success_chance(modifier, difficulty, advantage, disadvantage)
    outputs = {"difficulty": str(difficulty), "alone": percent(alone)}
    steps.insert(
        0,
        fw.Step(
            f"Without supporters: {check_dice(net)}{term(modifier)} against {difficulty}: {percent(alone)}.",
            rule("check"),
        ),
    )
    charts: tuple[fw.Chart, ...] = ()
    if count:
        with fw.on_field("support_difficulty"):
            bonus = support.support_distribution(
                values["support_modifier"], values["support_difficulty"], count, stacking=values["stacking"]
            )
        helped = support.helped_chance(modifier, difficulty, bonus, advantage, disadvantage)
        some = 1 - bonus.get(0, Fraction(0))
        mean = sum((dm * p for dm, p in bonus.items()), Fraction(0))
        outputs.update(
            {
                "some_bonus": percent(some),
                "mean_bonus": signed(mean) if mean.denominator == 1 else "+" + decimal(mean),
                "helped": percent(helped),
            }
        )
        who = plural(count, "supporter")
        steps.append(
            fw.Step(
                f"{who.capitalize()}, each 2d6{term(values['support_modifier'])} against "
                f"{values['support_difficulty']}: a success gives its Effect as a DM, a failure nothing; "
                f"some DM {percent(some)} of the time.",
                rule("support.supporting") if count == 1 else rule("support.stacking"),
            )
        )
        if count == 1:
            steps.append(fw.Step("An exact success (Effect 0) gives no DM.", rule("support.on_failure")))
        steps.append(
            fw.Step(f"With their DM (on average {outputs['mean_bonus']}): {percent(helped)}.", rule("check"))
        )
        charts = (chance_chart("support", "Chance of each support DM", "Support DM", bonus),)
    return fw.Result(outputs=outputs, working=tuple(steps), charts=charts)


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """The helped roll's chance, alone and supported."""
    if "helped" in out:
        return f"Supported, the roll succeeds {out['helped']} of the time (alone {out['alone']})."
    return f"The roll succeeds {out['alone']} of the time against {out['difficulty']}."


CALCULATOR = fw.Calculator(
    title="Support and coordination",
    summary="What supporters, coordination and a plan do to a roll: the DM, the Difficulty, the chance.",
    inputs=(
        modifier_input("modifier", "Your DM", 0, help="The helped roll's DM."),
        difficulty_input(_DIFFICULTY_HELP),
        fw.IntInput(
            "supporters",
            "Supporters",
            1,
            0,
            support.MAX_SUPPORTERS,
            help="Allies spending a significant action to support you.",
        ),
        modifier_input("support_modifier", "Their DM", 0, help="Each supporter's DM on their own roll."),
        fw.IntInput(
            "support_difficulty",
            "Their Difficulty",
            checks.default_difficulty(),
            checks.MIN_DIFFICULTY,
            checks.MAX_DIFFICULTY,
        ),
        fw.IntInput(
            "coordination",
            "Coordination added",
            0,
            0,
            action_options.coordination_max(),
            help="0: not coordinated. Else the referee's 1 to 4.",
        ),
        fw.IntInput(
            "offset", "Leadership or Tactics", 0, 0, checks.MAX_SKILL, help="Offsets the coordination."
        ),
        fw.ChoiceInput("plan", "Plan / wait", PLANS, "none"),
        *advantage_inputs(),
        fw.ChoiceInput(
            "stacking", "Several supporters (ruling)", STACKINGS, support.SupportStacking.BEST.value
        ),
    ),
    outputs=(
        fw.Output("alone", "Chance alone"),
        fw.Output("difficulty", "Difficulty"),
        fw.Output("some_bonus", "Chance of some DM"),
        fw.Output("mean_bonus", "Average support DM"),
        fw.Output("helped", "Chance supported"),
    ),
    compute=_compute,
    answer=_summary,
    folded=frozenset({"coordination", "offset", "plan", "advantage", "disadvantage"}),
    folded_label="More: coordination, plan / wait, advantage",
    uses=(
        "rules_core.support.support_distribution",
        "rules_core.support.helped_chance",
        "rules_core.support.coordinated",
        "rules_core.action_options.plan_rolls",
        "rules_core.checks.success_chance",
    ),
    rules=(
        rule("support.supporting"),
        rule("support.coordinating"),
        rule("support.plan"),
        rule("support.stacking"),
    ),
)
