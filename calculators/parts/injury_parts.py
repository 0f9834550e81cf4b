"""Injury parts shared by the calculators and the table documents: state names and rule wording.

The wording reads its figures from ``rules_core/data/injury.json``, so no text repeats them by hand.
"""

from __future__ import annotations

from calculators.format import signed
from rules_core import injury
from rules_core.tables import int_constant

__all__ = ["STATE_TEXT", "bleeding_rate_text", "state_text", "wound_penalty_rule_text"]

STATE_TEXT: dict[injury.InjuryCondition, str] = {
    injury.InjuryCondition.UNHURT: "unhurt",
    injury.InjuryCondition.WOUNDED: "wounded",
    injury.InjuryCondition.SERIOUSLY_WOUNDED: "seriously wounded",
    injury.InjuryCondition.CRITICALLY_WOUNDED: "critically wounded",
    injury.InjuryCondition.DYING: "dying",
}


def state_text(condition: injury.InjuryCondition) -> str:
    """The injury condition as the outputs print it (``seriously wounded``)."""
    return STATE_TEXT[condition]


def wound_penalty_rule_text() -> str:
    """The wound penalty rule in words: ``-1 for each full 3 damage`` (a minus sign).

    Outcomes § Character HP Thresholds.
    """
    per_step, step = (
        int_constant("injury", "wound_penalty_per_step"),
        int_constant("injury", "wound_penalty_step"),
    )
    return f"{signed(per_step)} for each full {step} damage"


def bleeding_rate_text(*, rounds: bool = True) -> str:
    """Bleeding's pace in words: ``1 damage a minute (10 rounds)``, or without the rounds.

    Outcomes § Bleeding.
    """
    damage = int_constant("injury", "bleeding_damage_per_minute")
    per_minute = int_constant("injury", "rounds_per_minute")
    return f"{damage} damage a minute" + (f" ({per_minute} rounds)" if rounds else "")
