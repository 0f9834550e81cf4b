"""Markdown writing shared by the reference tables."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["label", "markdown_table", "stacked_table", "wide_and_narrow"]

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


def wide_and_narrow(wide: str, narrow: str) -> str:
    """Two layouts of one table: ``wide`` on larger screens and in print, ``narrow`` on a phone.

    Each goes in a ``<div markdown>`` (``md_in_html``) marked ``rules-wide`` or ``rules-narrow``;
    ``browser/rules.css`` shows one of the two by the screen's width.
    """
    return "\n\n".join(
        f'<div class="{kind}" markdown>\n\n{table}\n\n</div>'
        for kind, table in (("rules-wide", wide), ("rules-narrow", narrow))
    )


def stacked_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """The same rows stacked for a phone: the first cell, then every other non-empty cell as "header: value".

    Two columns whatever the width of the original, so a table of long text fits a 360 px screen.
    """
    return markdown_table(
        [headers[0], "Details"],
        (
            (
                row[0],
                "<br>".join(f"**{h}:** {v}" for h, v in zip(headers[1:], row[1:], strict=True) if str(v)),
            )
            for row in rows
        ),
    )
