"""Time checks: how long a task takes when its duration is a die roll, moved by the Effect.

Rules: Core Mechanics § Time and Checks; Actions § Extended Actions.
Rulings: the median, "multiply" and "fail effect of three"; how short a task can get.
All maths is in :mod:`rules_core.time_checks` (dice read by :mod:`rules_core.dice`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators.format import dice as dice_notation
from calculators.format import plural, signed
from calculators.parts import enum_choices, modifier_input
from calculators.parts.links import rule
from rules_core import dice, limits, time_checks

__all__ = ["CALCULATOR", "parse_duration_die"]


UNITS = (
    ("seconds", "Seconds"),
    ("minutes", "Minutes"),
    ("hours", "Hours"),
    ("days", "Days"),
    ("weeks", "Weeks"),
)
SECONDS_PER = {"seconds": 1, "minutes": 60}
"""Units short enough to count in combat rounds, in seconds."""

FLOORS = enum_choices(time_checks.DurationFloor)
MAX_EFFECT_INPUT = limits.MAX_MODIFIER
MAX_DICE = 6
MAX_DICE_OVER_20 = 3
"""Duration rolls the form accepts (bounded work: each median counts every total of the dice)."""
LISTED_SIDES = 20
"""Dice of at most this many sides are cheap enough to compute with many dice and list Effects."""
NEARBY = 3
"""Effects either side of the chosen one listed in the working."""


def parse_duration_die(text: str) -> tuple[int, int]:
    """A duration roll such as ``1d6`` or ``2d6``: (dice, sides); no modifier or scale."""
    try:
        expression = dice.parse_dice(text)
    except ValueError as exc:
        if "not a dice expression" not in str(exc):
            raise
        raise ValueError("write dice such as 1d6 or 2d6.") from None
    if expression.modifier or expression.scale:
        raise ValueError("write plain dice such as 1d6 or 2d6 (no + or scale).")
    if expression.count > MAX_DICE or (
        expression.count > MAX_DICE_OVER_20 and expression.sides > LISTED_SIDES
    ):
        raise ValueError(f"at most {MAX_DICE} dice ({MAX_DICE_OVER_20} with more than {LISTED_SIDES} sides).")
    return expression.count, expression.sides


SHORT = {"seconds": "s", "minutes": "min", "hours": "h"}
"""Short unit names for the result boxes (days and weeks are written out)."""


def _amount(units: int, unit: str) -> str:
    if unit in SHORT:
        return f"{units} {SHORT[unit]}"
    return plural(units, unit[:-1])


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """The median duration, the duration at the Effect, nearby Effects, and combat rounds for short tasks."""
    count, sides = values["die"]
    effect, unit, floor = values["effect"], values["unit"], values["floor"]
    with fw.on_field("die"):
        median = time_checks.median_duration(count, sides)
    with fw.on_field("effect"):
        found = time_checks.task_duration(effect, count, sides, floor=floor)
    outputs = {"median": _amount(median, unit), "duration": _amount(found.units, unit)}
    steps = [
        fw.Step(
            f"Do not roll for time: take the median of {dice_notation(count, sides)}, "
            f"{_amount(median, unit)}.",
            rule("time.median"),
        ),
        fw.Step(
            f"Each point of success effect removes one {unit[:-1]}, each point of fail effect adds one: "
            f"Effect {signed(effect)} gives {_amount(found.units, unit)}.",
            rule("time.time"),
        ),
    ]
    if effect > 0 and time_checks.task_duration(effect - 1, count, sides, floor=floor).units == found.units:
        steps.append(
            fw.Step(f"Never shorter than {_amount(found.units, unit)} (the floor).", rule("time.floor"))
        )
    if sides <= LISTED_SIDES:  # cheap enough to list the Effects either side
        low, high = max(-MAX_EFFECT_INPUT, effect - NEARBY), min(MAX_EFFECT_INPUT, effect + NEARBY)
        nearby = ", ".join(
            f"{signed(e)}: {time_checks.task_duration(e, count, sides, floor=floor).units}"
            for e in range(low, high + 1)
        )
        steps.append(fw.Step(f"Nearby Effects ({unit}): {nearby}.", rule("time.time")))
    if unit in SECONDS_PER:
        rounds = time_checks.combat_rounds(found.units * SECONDS_PER[unit])
        outputs["rounds"] = plural(rounds, "round")
        steps.append(
            fw.Step(
                f"In combat, 6-second rounds, a part round counting whole: {outputs['rounds']}.",
                rule("extended"),
            )
        )
    return fw.Result(outputs=outputs, working=tuple(steps))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """How long it takes, in one line."""
    rounds = f" ({out['rounds']})" if "rounds" in out else ""
    text = f"Takes {out['duration']}{rounds}"
    return f"{text}; {out['median']} at Effect +0." if values["effect"] else f"{text}."


CALCULATOR = fw.Calculator(
    title="Time checks",
    summary="How long a task takes when its duration is a die roll, moved by the check's Effect.",
    inputs=(
        fw.TextInput(
            "die",
            "Duration roll",
            "1d6",
            max_length=10,
            placeholder="1d6",
            help="The task's duration dice, e.g. 1d6 or 2d6.",
            parser=parse_duration_die,
        ),
        fw.ChoiceInput("unit", "Unit", UNITS, "seconds"),
        modifier_input("effect", "Effect", help="The check's Effect (negative: failure)."),
        fw.ChoiceInput("floor", "Shortest task (ruling)", FLOORS, "lowest_roll"),
    ),
    outputs=(
        fw.Output("median", "Median (Effect 0)"),
        fw.Output("duration", "Takes"),
        fw.Output("rounds", "Combat rounds"),
    ),
    compute=_compute,
    answer=_summary,
    uses=(
        "rules_core.dice.parse_dice",
        "rules_core.time_checks.median_duration",
        "rules_core.time_checks.task_duration",
        "rules_core.time_checks.combat_rounds",
    ),
    rules=(rule("time.time"), rule("extended"), rule("time.median"), rule("time.floor")),
)
