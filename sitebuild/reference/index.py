"""The calculators index: one row per registered calculator, linked to its page, with its summary."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from calculators.framework import registry
from sitebuild.reference.markdown import markdown_table

__all__ = ["CalculatorHome", "calculator_index"]


@dataclass(frozen=True)
class CalculatorHome:
    """Where a calculator is shown: ``link`` to its page (relative to the index) and the link text."""

    link: str
    label: str


def calculator_index(homes: Mapping[str, CalculatorHome]) -> str:
    """A table of every registered calculator, in the order of ``homes`` (name -> its page).

    The blurb is the calculator's own ``summary``. A registered calculator missing from
    ``homes`` (shown on no page) or a name that is not registered is a ``ValueError``.
    """
    registered = set(registry.names())
    missing = sorted(registered - set(homes))
    if missing:
        raise ValueError(f"calculators shown on no page: {', '.join(missing)}")
    unknown = sorted(set(homes) - registered)
    if unknown:
        raise ValueError(f"not registered calculators: {', '.join(unknown)}")
    return markdown_table(
        ["Calculator", "What it works out"],
        ((f"[{home.label}]({home.link})", registry.get(name).summary) for name, home in homes.items()),
    )
