"""Shared access to the Mistrunner data tables (internal)."""

from __future__ import annotations

from rules_core import _choices
from rules_core.tables import int_constant

MAX_SCORE = 100
"""Scores, dice results and damage above this size are rejected (bounded input)."""


def figure(key: str) -> int:
    """An integer constant of ``mistrunner_constants.json``."""
    return int_constant("mistrunner_constants", key)


def check_score(label: str, value: int, *, minimum: int = -MAX_SCORE, maximum: int = MAX_SCORE) -> None:
    """Raise ``ValueError`` naming ``label`` unless ``minimum <= value <= maximum``."""
    _choices.check_whole(label, value, minimum, maximum)
