"""MkDocs hook: fill rules tables and worked-example figures from ``calculators.reference``.

Two markers may appear in any page:

- a line ``<!-- table: NAME -->`` (alone on its line, indented or not) is replaced by the
  markdown table ``calculators.reference.TABLES[NAME]`` renders from ``rules_core``;
- ``<!-- value: NAME -->`` anywhere in a line is replaced by the figure
  ``calculators.reference.VALUES[NAME]`` computes.

The scanning rules (fenced code left alone, unknown or malformed markers fail the build
naming the page and line) are :mod:`markers`'. The content lives in ``calculators/reference/``.
"""

from __future__ import annotations

from typing import Any

import markers  # a sibling: mkdocs puts hooks/ on sys.path while loading a hook

__all__ = ["on_page_markdown", "render_markdown"]


def _kinds() -> dict[str, markers.Kind]:
    # Imported per call, not at load: calculator_pages.py forgets calculators.* on each
    # (re)build so that `mkdocs serve` shows edits.
    from calculators.reference import TABLES, VALUES

    return {
        "table": markers.Kind(render=lambda name: TABLES[name](), known=TABLES),
        "value": markers.Kind(render=lambda name: VALUES[name](), known=VALUES, block=False),
    }


def render_markdown(markdown: str, where: str = "page") -> str:
    """``markdown`` with every table and value marker outside fenced code filled in."""
    return markers.expand(markdown, _kinds(), where)


def on_page_markdown(markdown: str, /, *, page: Any = None, **_: Any) -> str:
    """MkDocs event: fill the page's markers before it is converted to HTML; on the rulings page,
    fold each entry's engine option into a closed block (``calculators.reference.rulings``)."""
    where = getattr(getattr(page, "file", None), "src_uri", "page")
    if where == "rulings.md":
        from calculators.reference.rulings import fold_engine_options

        markdown = fold_engine_options(markdown)
    return render_markdown(markdown, where)
