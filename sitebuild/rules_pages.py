"""Rules tables and worked-example figures in the pages, from ``sitebuild.reference``.

Two markers may appear in any page:

- a line ``<!-- table: NAME -->`` (alone on its line, indented or not) is replaced by the
  markdown table ``sitebuild.reference.TABLES[NAME]`` renders from ``rules_core``;
- ``<!-- value: NAME -->`` anywhere in a line is replaced by the figure
  ``sitebuild.reference.VALUES[NAME]`` computes.

The scanning rules (fenced code left alone, unknown or malformed markers fail the build naming the
page and line) are :mod:`sitebuild.markers`'. On the rulings page each entry's engine option is
folded into a closed block (``sitebuild.reference.rulings``).
"""

from __future__ import annotations

from sitebuild import markers
from sitebuild.reference import TABLES, VALUES
from sitebuild.reference.rulings import fold_engine_options

__all__ = ["RULINGS_PAGE", "page_markdown", "render_markdown"]

RULINGS_PAGE = "rulings.md"


def _kinds() -> dict[str, markers.Kind]:
    return {
        "table": markers.Kind(render=lambda name: TABLES[name](), known=TABLES),
        "value": markers.Kind(render=lambda name: VALUES[name](), known=VALUES, block=False),
    }


def render_markdown(markdown: str, where: str = "page") -> str:
    """``markdown`` with every table and value marker outside fenced code filled in."""
    return markers.expand(markdown, _kinds(), where)


def page_markdown(markdown: str, where: str) -> str:
    """A page's markdown (``where``: its path in ``docs/``) ready to convert: markers filled, and on
    the rulings page the engine options folded."""
    if where == RULINGS_PAGE:
        markdown = fold_engine_options(markdown)
    return render_markdown(markdown, where)
