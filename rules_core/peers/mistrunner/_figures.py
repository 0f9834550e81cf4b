"""Shared access to the Mistrunner data tables (internal)."""

from __future__ import annotations

from rules_core.tables import constant

__all__ = ["MAX_SCORE", "check_score", "figure"]

MAX_SCORE = 100
"""Scores, dice results and damage above this size are rejected (bounded input)."""


def figure(key: str) -> int:
    """An integer constant of ``mistrunner_constants.json``."""
    value: int = constant("mistrunner_constants", key)
    return value


def check_score(label: str, value: int, *, minimum: int = -MAX_SCORE, maximum: int = MAX_SCORE) -> None:
    """Raise ``ValueError`` naming ``label`` unless ``minimum <= value <= maximum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{label} must be a whole number.")
    if value < minimum:
        raise ValueError(f"{label} must be at least {minimum}.")
    if value > maximum:
        raise ValueError(f"{label} must be at most {maximum}.")
