"""Mitigation of a fail effect: conditions, then cover, then skill; and the Defend action.

Rules: Core Mechanics § Mitigating Factors, § Fail Effect and Damage to
Protection; Outcomes § Cover Takes Damage; Actions § Defend Action
(docs/rules/mitigation.md). Rulings: notes/rulings-core-actions.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules_core._choices import choice
from rules_core.checks import MAX_SKILL, check_modifier
from rules_core.tables import constant, table

MAX_FAIL_EFFECT = 100
"""Fail effects above this degree are rejected (bounded input)."""
MAX_MITIGATION = 50
"""Defence modifiers above this are rejected (bounded input)."""


class Defend(StrEnum):
    """Which defence modifier a Defend action doubles (Actions § Defend Action)."""

    NONE = "none"
    COVER = "cover"
    CONCEALMENT = "concealment"
    SKILL = "skill"


class CoverCap(StrEnum):
    """Where the cap of 4 on cover and concealment applies (ruling ``defend-cap``).

    ``ALWAYS`` (default): Cover and concealment never count for more than 4, defending or not. Actions §
        Defend Action > Success: "the maximum modifier of Cover and Concealment is 4".
    ``DOUBLING_ONLY``: Defending cannot lift cover or concealment past 4; a value already above 4 keeps
        it.
    """

    ALWAYS = "always"
    DOUBLING_ONLY = "doubling_only"


class MitigationOrder(StrEnum):
    """Whether skill comes before or after cover (ruling ``mitigation-order``).

    Only what the cover absorbs changes.

    ``PRIORITY`` (default): Conditions and concealment, then cover, then skill, as the priority order
        says.
    ``SKILL_BEFORE_COVER``: Skill before cover, in the order the Attack and Defend failure lines list
        them.
    """

    PRIORITY = "priority"
    SKILL_BEFORE_COVER = "skill_before_cover"


@dataclass(frozen=True)
class MitigationStep:
    """One mitigating factor applied: its modifier, how much it removed and what is left."""

    name: str
    priority: int
    modifier: int
    reduced_by: int
    remaining: int
    source: str


@dataclass(frozen=True)
class Mitigation:
    """A fail effect mitigated step by step.

    ``remaining`` is the fail effect's degree left (damage rolls against the
    character); ``ordinary_failure`` is true when it reached 0; ``cover_absorbed``
    is the number of attacks the cover or protection takes instead.
    """

    fail_effect: int
    steps: tuple[MitigationStep, ...]
    remaining: int
    ordinary_failure: bool
    cover_absorbed: int
    defend: Defend


def _check_value(value: int, label: str) -> None:
    if not 0 <= value <= MAX_MITIGATION:
        raise ValueError(f"{label} must be between 0 and {MAX_MITIGATION}.")


def defence_modifier(
    factor: str,
    value: int,
    /,
    defend: Defend | str = Defend.NONE,
    cover_cap: CoverCap | str = CoverCap.ALWAYS,
) -> int:
    """A defence modifier as it counts against a fail effect, after a Defend action's doubling.

    Defend doubles the chosen one of cover, concealment or skill; cover and
    concealment count for at most 4 (by default whether doubled or not; with
    ``cover_cap="doubling_only"`` only the doubling stops at 4).
    Actions § Defend Action > Effect, > Success.

    Raises:
        ValueError: for an unknown factor or an out-of-range value.
    """
    try:
        row = table("mitigation_order").find(factor=factor)
    except KeyError:
        raise ValueError(f"Unknown mitigating factor {factor!r}.") from None
    _check_value(value, f"The {factor} modifier")
    defend = choice(Defend, defend, "Defend")
    cover_cap = choice(CoverCap, cover_cap, "The cover cap")
    cap: int = constant("mitigation", "cover_concealment_cap")
    doubled = value * constant("mitigation", "defend_multiplier") if defend.value == factor else value
    if not row["defend_capped"]:
        return doubled
    if cover_cap is CoverCap.ALWAYS:
        return min(doubled, cap)
    return min(doubled, max(value, cap))


def defend_roll_modifier(
    characteristic_modifier: int, skill: int, /, defend: Defend | str = Defend.NONE
) -> int:
    """The roll's DM while defending: a doubled skill also doubles in the roll.

    Skill 1 with ChM 0 rolls at DM 1; defending with skill 2 doubled rolls at
    DM 4. Actions § Defend Action > Skill Doubling, > Example.

    Raises:
        ValueError: if a value is out of range.
    """
    check_modifier(characteristic_modifier, "The characteristic modifier")
    if not 0 <= skill <= MAX_SKILL:
        raise ValueError(f"A skill level must be between 0 and {MAX_SKILL}.")
    if choice(Defend, defend, "Defend") is Defend.SKILL:
        skill *= constant("mitigation", "defend_multiplier")
    return characteristic_modifier + skill


def mitigate(
    fail_effect: int,
    /,
    *,
    conditions: int = 0,
    concealment: int = 0,
    cover: int = 0,
    skill: int = 0,
    defend: Defend | str = Defend.NONE,
    cover_cap: CoverCap | str = CoverCap.ALWAYS,
    order: MitigationOrder | str = MitigationOrder.PRIORITY,
) -> Mitigation:
    """Reduce a fail effect by conditions (with concealment), then cover, then skill, itemised.

    Each factor removes up to its modifier from what is left; at 0 the failure
    is an ordinary failure. Cover takes the attacks it removes, up to its value.
    Example: degree 7 with conditions 3, cover 2 and skill 2 falls to 4, 2 and 0.
    Core Mechanics § Mitigating Factors, § Fail Effect and Damage to Protection;
    Outcomes § Cover Takes Damage; Actions § Defend Action.

    Args:
        fail_effect: the degree of the fail effect (3 for an Effect of -3).

    Raises:
        ValueError: if a value is negative or out of range.
    """
    if not 0 <= fail_effect <= MAX_FAIL_EFFECT:
        raise ValueError(
            f"Give the fail effect as a degree from 0 to {MAX_FAIL_EFFECT} (3 for an Effect of -3)."
        )
    values = {"conditions": conditions, "concealment": concealment, "cover": cover, "skill": skill}
    defend = choice(Defend, defend, "Defend")
    remaining = fail_effect
    steps: list[MitigationStep] = []
    absorbed = 0
    rows = list(table("mitigation_order").rows)
    if choice(MitigationOrder, order, "The mitigation order") is MitigationOrder.SKILL_BEFORE_COVER:
        rows.sort(key=lambda row: row["takes_attacks"])
    for row in rows:
        name = row["factor"]
        modifier = defence_modifier(name, values[name], defend, cover_cap)
        reduced = min(modifier, remaining)
        remaining -= reduced
        if row["takes_attacks"]:
            absorbed += reduced
        steps.append(MitigationStep(name, row["priority"], modifier, reduced, remaining, row["source"]))
    return Mitigation(fail_effect, tuple(steps), remaining, remaining == 0, absorbed, defend)
