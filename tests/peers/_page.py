"""Helpers shared by the peer page tests: read a markdown table off a docs page."""

from __future__ import annotations

from pathlib import Path

__all__ = ["page_table"]


def page_table(page: Path, anchor: str) -> list[list[str]]:
    """Body rows of the first markdown table after the heading with ``{#anchor}`` on ``page``."""
    text = page.read_text(encoding="utf-8")
    start = text.index("{#" + anchor + "}")
    rows: list[list[str]] = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    return rows[2:]
