"""Thrown and lobbed range: Strength x the weapon's Thrown value, lobbed three times as far.

Rules: Actions § Thrown Weapons. Ruling: rounding of the ranges.
All maths is in :mod:`rules_core.thrown`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from calculators import framework as fw
from calculators.parts import enum_choices
from calculators.parts.links import rule
from rules_core import thrown as rules

__all__ = ["CALCULATOR", "parse_thrown"]


ROUNDINGS = enum_choices(rules.ThrownRounding)

_NUMBER = re.compile(r"^\d{1,3}(\.\d{1,3})?$|^\d{1,3}/\d{1,3}$")


def parse_thrown(text: str) -> str:
    """A Thrown value as written on a weapon: ``0.5``, ``1,5`` or ``1/3``; the text with a decimal point."""
    value = text.replace(",", ".").replace(" ", "")
    if not _NUMBER.match(value):
        raise ValueError("write a number such as 0.5 or 1.5.")
    return value


def _metres(value: Fraction) -> str:
    return f"{float(value):g} m" if value.denominator in (1, 2, 4, 5, 8, 10) else f"{float(value):.2f} m"


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """Straight and lobbed range for the Strength and Thrown value."""
    strength, text, rounding = values["strength"], values["thrown"], values["rounding"]
    with fw.on_field("thrown"):
        exact = rules.thrown_range(strength, text, rules.ThrownRounding.EXACT)
    with fw.on_field("rounding"):
        found = rules.thrown_range(strength, text, rounding)
    outputs = {"straight": _metres(found.straight_m), "lobbed": _metres(found.lobbed_m)}
    steps = [
        fw.Step(
            f"Straight: Strength {strength} x Thrown {text} = {_metres(exact.straight_m)}.",
            rule("thrown.thrown"),
        ),
        fw.Step(f"Lobbed: three times as far, {_metres(exact.lobbed_m)}.", rule("thrown.thrown")),
    ]
    if rounding == "down":
        steps.append(
            fw.Step(
                f"Rounded down at the end: {outputs['straight']} straight, {outputs['lobbed']} lobbed.",
                rule("thrown.rounding"),
            )
        )
    return fw.Result(outputs=outputs, working=tuple(steps))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """Both ranges in one line."""
    return f"Thrown straight {out['straight']}, lobbed {out['lobbed']}."


CALCULATOR = fw.Calculator(
    title="Thrown and lobbed range",
    summary="How far a thrown weapon carries straight and lobbed.",
    inputs=(
        fw.IntInput("strength", "Strength", 7, 0, rules.MAX_STRENGTH, help="The characteristic, not its DM."),
        fw.TextInput(
            "thrown",
            "Thrown value",
            "0.5",
            max_length=8,
            placeholder="0.5",
            help="From the weapon's profile, e.g. 0.5 or 1.5.",
            parser=parse_thrown,
        ),
        fw.ChoiceInput("rounding", "Rounding (ruling)", ROUNDINGS, "down"),
    ),
    outputs=(fw.Output("straight", "Straight (accurate, level)"), fw.Output("lobbed", "Lobbed")),
    compute=_compute,
    answer=_summary,
    uses=("rules_core.thrown.thrown_range",),
    rules=(rule("thrown.thrown"), rule("thrown.rounding")),
)
