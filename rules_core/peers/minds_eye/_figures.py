"""Shared access to the Mind's Eye Theatre data tables (internal)."""

from __future__ import annotations

from rules_core.tables import constant

__all__ = ["MAX_ATTRIBUTE", "check_whole", "figure"]

MAX_ATTRIBUTE = 100
"""Attributes, pools and counts above this are rejected (bounded input)."""


def figure(key: str) -> int:
    """An integer constant of ``minds_eye_constants.json``."""
    value: int = constant("minds_eye_constants", key)
    return value


def check_whole(label: str, value: int, *, minimum: int = 0, maximum: int = MAX_ATTRIBUTE) -> None:
    """Raise ``ValueError`` naming ``label`` unless ``value`` is a whole number in range."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{label} must be a whole number.")
    if value < minimum:
        raise ValueError(f"{label} must be at least {minimum}.")
    if value > maximum:
        raise ValueError(f"{label} must be at most {maximum}.")
