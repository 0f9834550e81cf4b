"""Checking of rule inputs: options given as enum members or their string values, bounded whole numbers."""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

E = TypeVar("E", bound=StrEnum)


def choice(kind: type[E], value: E | str, label: str) -> E:
    """``value`` as a member of ``kind``; a ``ValueError`` naming the allowed values otherwise."""
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise ValueError(f"{label} must be one of: {allowed}.") from None


def check_whole(label: str, value: int, minimum: int, maximum: int) -> None:
    """Raise ``ValueError`` naming ``label`` unless ``value`` is a whole number in ``minimum..maximum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{label} must be a whole number.")
    if value < minimum:
        raise ValueError(f"{label} must be at least {minimum}.")
    if value > maximum:
        raise ValueError(f"{label} must be at most {maximum}.")
