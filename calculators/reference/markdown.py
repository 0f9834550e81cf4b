"""Markdown writing shared by the reference tables."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["label", "markdown_table"]

_ALIGN = {"l": "---", "c": ":---:", "r": "---:"}


def markdown_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], align: str = "") -> str:
    """A pipe table; ``align`` gives one letter per column (``l``, ``c``, ``r``), left by default.

    Cells are written with ``str`` (format numbers with :mod:`calculators.format` first) and a
    ``|`` inside a cell is escaped. A row with the wrong number of cells is a ``ValueError``.
    """
    spec = align.ljust(len(headers), "l")
    lines = [
        "| " + " | ".join(headers) + " |",
        "| " + " | ".join(_ALIGN[a] for a in spec) + " |",
    ]
    for row in rows:
        cells = [str(c).replace("|", "\\|") for c in row]
        if len(cells) != len(headers):
            raise ValueError(f"row {row!r} has {len(cells)} cells for {len(headers)} columns")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def label(snake: str) -> str:
    """A data key as a label: ``significant_action`` -> ``Significant action``."""
    return snake.replace("_", " ").capitalize()
