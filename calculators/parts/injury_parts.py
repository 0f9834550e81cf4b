"""Injury parts shared by the calculators that name an injury state (Thresholds, Healing)."""

from __future__ import annotations

from rules_core import injury

__all__ = ["STATE_TEXT", "state_text"]

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
