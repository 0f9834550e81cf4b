"""Mitigation parts shared by the calculators that mitigate a failure (Mitigation, One attack)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators.parts import enum_choices
from calculators.parts.links import rule
from rules_core import mitigation
from rules_core.tables import int_constant

__all__ = [
    "COVER_CAP",
    "FACTOR_RULES",
    "MITIGATED_OUTPUTS",
    "cap_steps",
    "defend_input",
    "mitigated_outputs",
    "reading_inputs",
]


FACTOR_RULES: dict[str, fw.RuleLink] = {
    "conditions": rule("conditions"),
    "concealment": rule("conditions"),
    "cover": rule("cover"),
    "skill": rule("skill_defence"),
}
"""The rule each mitigating factor's step cites."""


COVER_CAP = int_constant("mitigation", "cover_concealment_cap")
"""The most cover or concealment counts for, unless doubled by a Defend (ruling ``defend-cap``)."""


def defend_input(help: str = "") -> fw.ChoiceInput:
    """The ``defend`` choice: the factor a Defend action doubles, if any (Actions § Defend Action)."""
    return fw.ChoiceInput("defend", "Defend action", enum_choices(mitigation.Defend), "none", help=help)


def reading_inputs(order_help: str = "") -> tuple[fw.ChoiceInput, fw.ChoiceInput]:
    """The ``order`` of skill and cover and the ``cover_cap`` readings (rulings ``mitigation-order``,
    ``defend-cap``; Actions § Defend Action > Success)."""
    return (
        fw.ChoiceInput(
            "order", "Order (ruling)", enum_choices(mitigation.MitigationOrder), "priority", help=order_help
        ),
        fw.ChoiceInput(
            "cover_cap",
            f"Cap of {COVER_CAP} (ruling)",
            enum_choices(mitigation.CoverCap, cap=COVER_CAP),
            "always",
        ),
    )


MITIGATED_OUTPUTS = (
    fw.Output("remaining", "Fail effect left"),
    fw.Output("ordinary_failure", "Ordinary failure"),
    fw.Output("cover_absorbs", "Attacks the cover takes"),
)
"""What mitigation leaves of a fail effect: the outputs :func:`mitigated_outputs` fills."""


def mitigated_outputs(result: mitigation.Mitigation) -> dict[str, str]:
    """The texts of :data:`MITIGATED_OUTPUTS` for ``result`` (a flag as ``yes`` or ``no``)."""
    return {
        "remaining": str(result.remaining),
        "ordinary_failure": "yes" if result.ordinary_failure else "no",
        "cover_absorbs": str(result.cover_absorbed),
    }


def cap_steps(values: Mapping[str, Any], result: mitigation.Mitigation) -> list[fw.Step]:
    """A step for each cover or concealment above the cap of 4 that counts as 4 without a Defend."""
    return [
        fw.Step(
            f"{step.name.capitalize()} {values[step.name]} counts as {step.modifier}: cover and "
            f"concealment never count above {step.modifier}.",
            rule("cap_ruling"),
        )
        for step in result.steps
        if step.name in ("cover", "concealment")
        and step.name != result.defend.value
        and values[step.name] > step.modifier
    ]
