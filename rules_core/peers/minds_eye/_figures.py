"""Shared access to the Mind's Eye Theatre data tables (internal)."""

from __future__ import annotations

from rules_core import _choices
from rules_core.tables import int_constant

MAX_ATTRIBUTE = 100
"""Attributes, pools and counts above this are rejected (bounded input)."""


def figure(key: str) -> int:
    """An integer constant of ``minds_eye_constants.json``."""
    return int_constant("minds_eye_constants", key)


def check_whole(label: str, value: int, *, minimum: int = 0, maximum: int = MAX_ATTRIBUTE) -> None:
    """Raise ``ValueError`` naming ``label`` unless ``value`` is a whole number in range."""
    _choices.check_whole(label, value, minimum, maximum)
