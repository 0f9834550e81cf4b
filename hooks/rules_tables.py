"""MkDocs hook: rules tables and worked-example figures in the pages (``sitebuild.rules_pages``).

Imported per call, not at load: ``calculator_pages.py`` forgets the rules and the page content on
each (re)build, so that ``mkdocs serve`` shows edits.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the build package (sitebuild) sits beside this folder

__all__ = ["on_page_markdown"]


def on_page_markdown(markdown: str, /, *, page: Any = None, **_: Any) -> str:
    """MkDocs event: the page's markdown with its markers filled, before it is converted to HTML."""
    from sitebuild import rules_pages
    from sitebuild.errors import BuildError

    try:
        return rules_pages.page_markdown(markdown, getattr(getattr(page, "file", None), "src_uri", "page"))
    except BuildError as exc:
        raise PluginError(str(exc)) from exc
