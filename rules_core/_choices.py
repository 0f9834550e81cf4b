"""Parsing of rule options given as enum members or their string values."""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

__all__ = ["choice"]

E = TypeVar("E", bound=StrEnum)


def choice(kind: type[E], value: E | str, label: str) -> E:
    """``value`` as a member of ``kind``; a ``ValueError`` naming the allowed values otherwise."""
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise ValueError(f"{label} must be one of: {allowed}.") from None
