"""Mitigation parts shared by the calculators that mitigate a failure (Mitigation, One attack)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators.parts import enum_choices
from rules_core import mitigation

__all__ = [
    "CAP_CHOICES",
    "CAP_RULING",
    "DEFEND",
    "DEFEND_CHOICES",
    "FACTOR_RULES",
    "ORDER_CHOICES",
    "cap_steps",
    "yes_no",
]

DEFEND = fw.RuleLink("Defending", "rules/mitigation.md#defend")


CAP_RULING = fw.RuleLink("Ruling: the cap of 4", "rulings.md#defend-cap")


FACTOR_RULES: dict[str, fw.RuleLink] = {
    "conditions": fw.RuleLink("Conditions", "rules/mitigation.md#conditions"),
    "concealment": fw.RuleLink("Conditions", "rules/mitigation.md#conditions"),
    "cover": fw.RuleLink("Cover", "rules/mitigation.md#cover"),
    "skill": fw.RuleLink("Skill", "rules/mitigation.md#skill-defence"),
}
"""The rule each mitigating factor's step cites."""


DEFEND_CHOICES = enum_choices(
    mitigation.Defend,
    {
        mitigation.Defend.NONE: "Not defending",
        mitigation.Defend.COVER: "Defending with cover",
        mitigation.Defend.CONCEALMENT: "Defending with concealment",
        mitigation.Defend.SKILL: "Defending with skill",
    },
)


ORDER_CHOICES = enum_choices(
    mitigation.MitigationOrder,
    {
        mitigation.MitigationOrder.PRIORITY: "Cover before skill (ruling)",
        mitigation.MitigationOrder.SKILL_BEFORE_COVER: "Skill before cover",
    },
)


CAP_CHOICES = enum_choices(
    mitigation.CoverCap,
    {mitigation.CoverCap.ALWAYS: "Always at most 4", mitigation.CoverCap.DOUBLING_ONLY: "Only when doubled"},
)


def yes_no(flag: bool) -> str:
    """``yes`` or ``no``, as outputs print a flag."""
    return "yes" if flag else "no"


def cap_steps(values: Mapping[str, Any], result: mitigation.Mitigation) -> list[fw.Step]:
    """A step for each cover or concealment above the cap of 4 that counts as 4 without a Defend."""
    return [
        fw.Step(
            f"{step.name.capitalize()} {values[step.name]} counts as {step.modifier}: cover and "
            f"concealment never count above {step.modifier}.",
            CAP_RULING,
        )
        for step in result.steps
        if step.name in ("cover", "concealment")
        and step.name != result.defend.value
        and values[step.name] > step.modifier
    ]
