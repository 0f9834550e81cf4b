"""Calculators in pages, and the browser engine bundled into the site: the build's side, free of MkDocs.

- A line ``<!-- calculator: NAME -->`` in a page is replaced by calculator NAME, prerendered with its
  default inputs computed by CPython (correct at first paint, even without JavaScript). An unknown NAME,
  or any other ``<!-- calculator`` comment, fails the build. Markers inside code fences are left alone
  (so pages can show the syntax); the scanning is ``sitebuild.markers``'.
- A line ``<!-- calculators-index -->`` is replaced by a table of every registered calculator, linked to
  the page that shows it (first in navigation order) and described by its ``summary``
  (``sitebuild.reference.index``). A calculator shown on no page fails the build.
- Rule links used by calculators (``rules/checks.md#effect``) are collected; ``broken_links`` names
  those whose page or anchor is missing, for the generator to report at its own levels.
- The engine files (``sitebuild.bundle``: the Pyodide runtime, our hashed wheel and worker, the browser
  files under content-hashed names) are the site's extra files. Every page links only the loader, the
  offline script and one stylesheet of ours; the loader adds the calculator runtime and table apps
  where they are used.
- Each prerendered result's details carry ``data-built``, the key of what the build wrote there
  (``built_key``): the worker sends the same key back with an answer that would write the same, so the
  page's first answer for the values it was built with leaves that HTML alone instead of parsing and
  comparing all of it (on a phone, 60 ms of the main thread just as a returning visit answers).
- Pages the table scripts work on (the character page, the tracker, any page with a calculator: "use
  my character") carry ``sitebuild.table_ui.page_config()`` as data,
  ``<div id="mneme-table-config" hidden data-config='JSON'>``. An attribute, not a
  ``<script type="application/json">``: the theme's instant navigation re-creates every inline script
  in the swapped content without its attributes (id and type lost, and the JSON would then run as a
  script the CSP blocks).

One ``CalculatorPages`` serves one build: the generator's glue calls its methods in build order
(``homes``, then per page ``page_markdown`` and ``page_content``, then ``finished_page``).
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sitebuild import early_engine, markers
from sitebuild.bundle import Bundle, make_bundle
from sitebuild.errors import BuildError
from sitebuild.urls import relative_url

if TYPE_CHECKING:
    from calculators.framework.spec import Evaluation

__all__ = ["BrokenLink", "CalculatorPages", "SourcePage"]

PLACEHOLDER = '<div data-mneme-calculator="{index}"></div>'
ID_ATTR = re.compile(r"""\bid\s*=\s*["']([^"']+)["']""")
TABLE_CONFIG_ID = "mneme-table-config"
# JSON made safe inside a single-quoted attribute (JSON.parse reads the escapes back).
_ATTR_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "'": "\\u0027"})


@dataclass(frozen=True)
class SourcePage:
    """A page of ``docs/`` as the generator read it: its path there, its markdown and nav title."""

    src_uri: str
    markdown: str
    title: str | None = None


@dataclass(frozen=True)
class BrokenLink:
    """A calculator's rule link to a missing page (``anchor`` empty) or to a missing anchor."""

    target: str
    pages: tuple[str, ...]
    anchor: str = ""

    def message(self) -> str:
        where = ", ".join(self.pages)
        if self.anchor:
            return f"Calculator rule link '{self.target}' (on {where}): no anchor '#{self.anchor}'"
        return f"Calculator rule link '{self.target}' (on {where}): no such page in docs/"


def table_config_element() -> str:
    """The table scripts' settings from ``sitebuild.table_ui``, as a hidden element with JSON data."""
    from sitebuild.table_ui import page_config

    data = json.dumps(page_config(), ensure_ascii=False, separators=(",", ":")).translate(_ATTR_SAFE)
    return f"<div id=\"{TABLE_CONFIG_ID}\" hidden data-config='{data}'></div>"


DETAILS_SLOT = '<div class="calc-details" data-details>'
"""Where ``render_calculator`` writes a result's details."""


def built_key(details: str, next_links: str) -> str:
    """The key of a result's details and hand-off links (``payload``'s ``details`` and ``next``): the
    SHA-256 of both in UTF-8, a NUL between them, in hex. ``browser/worker.js`` computes the same."""
    return hashlib.sha256(f"{details}\0{next_links}".encode()).hexdigest()


def with_built_key(form: str, details: str, next_links: str) -> str:
    """A prerendered calculator (``render_calculator``) whose details slot says the key of the
    ``details`` and ``next_links`` written in it and beside it (``data-built``)."""
    if form.count(DETAILS_SLOT) != 1:
        raise BuildError("a prerendered calculator has not exactly one details slot")
    key = built_key(details, next_links)
    return form.replace(DETAILS_SLOT, f'<div class="calc-details" data-details data-built="{key}">')


def prerendered(evaluation: Evaluation, root: str, prefix: str) -> str:
    """The calculator as the build writes it: its details keyed (``with_built_key``)."""
    from calculators.framework.render import render_calculator, render_details, render_next

    form = render_calculator(evaluation, root, prefix)
    return with_built_key(form, render_details(evaluation, root), render_next(evaluation, root))


def site_root(page_url: str) -> str:
    """The site root as written in the page at ``page_url`` (``""`` or ``../../``)."""
    root = relative_url(".", page_url or ".")
    return "" if root in ("", ".") else root.rstrip("/") + "/"


class CalculatorPages:
    """One build's calculators: the bundle, where each calculator lives, the rule links they use."""

    def __init__(self, root: Path) -> None:
        try:
            self.bundle: Bundle = make_bundle(root)
        except (FileNotFoundError, ValueError) as exc:
            raise BuildError(str(exc)) from exc
        self._pages: dict[str, list[str]] = {}  # page src_uri -> calculator names (by placeholder index)
        self._ids: dict[str, set[str]] = {}  # page src_uri -> element ids
        self._links: defaultdict[str, set[str]] = defaultdict(set)  # docs path#anchor -> pages using it
        self._homes: dict[str, tuple[str, str | None]] = {}
        self._table_config = ""

    def homes(self, pages: Iterable[SourcePage]) -> None:
        """Notes which page shows each calculator: the first of ``pages`` (navigation order first)."""
        for page in pages:
            for marker in markers.find(page.markdown, ("calculator",)):
                self._homes.setdefault(marker.name, (page.src_uri, page.title))

    def _index(self, src_uri: str) -> str:
        from calculators.framework import registry
        from sitebuild.reference import CalculatorHome, calculator_index

        here = posixpath.dirname(src_uri) or "."
        homes = {
            name: CalculatorHome(posixpath.relpath(home, here), title or registry.get(name).title)
            for name, (home, title) in self._homes.items()
            if name in registry.CALCULATORS
        }
        try:
            return calculator_index(homes)
        except ValueError as exc:
            raise BuildError(f"{src_uri}: calculators index: {exc}") from exc

    def page_markdown(self, markdown: str, src_uri: str) -> str:
        """The page's markdown with each calculator marker a placeholder, the index filled in."""
        from calculators.framework import registry

        names: list[str] = []

        def calculator(name: str) -> str:
            names.append(name)
            return "\n" + PLACEHOLDER.format(index=len(names) - 1) + "\n"

        kinds = {
            "calculator": markers.Kind(render=calculator, known=registry.CALCULATORS, max_indent=3),
            "calculators-index": markers.Kind(render=lambda _: self._index(src_uri), named=False),
        }
        out = markers.expand(markdown, kinds, src_uri)
        if names:
            self._pages[src_uri] = names
        return out

    def page_content(self, html: str, src_uri: str, page_url: str) -> str:
        """The page's HTML with its calculators prerendered and, where a table script works, its settings."""
        self._ids[src_uri] = set(ID_ATTR.findall(html))
        html = self._with_calculators(html, src_uri, page_url)
        if self._pages.get(src_uri) or early_engine.TABLE_APP.search(html):
            self._table_config = self._table_config or table_config_element()
            html += "\n" + self._table_config + "\n"
        return html

    def _with_calculators(self, html: str, src_uri: str, page_url: str) -> str:
        names = self._pages.get(src_uri)
        if not names:
            return html
        from calculators.framework import registry
        from calculators.framework.spec import evaluate
        from sitebuild.table_ui import mine_box

        root = site_root(page_url)
        seen: dict[str, int] = defaultdict(int)
        for index, name in enumerate(names):
            calc = registry.get(name)
            seen[name] += 1
            prefix = f"calc-{name}" if seen[name] == 1 else f"calc-{name}-{seen[name]}"
            evaluation = evaluate(calc)
            if not evaluation.ok:
                raise BuildError(
                    f"calculator {name!r}: its defaults do not compute: "
                    f"{evaluation.form_error or evaluation.errors}"
                )
            placeholder = PLACEHOLDER.format(index=index)
            if placeholder not in html:
                raise BuildError(f"{src_uri}: calculator {name!r} placeholder was lost by markdown")
            html = html.replace(placeholder, mine_box(name, root) + prerendered(evaluation, root, prefix), 1)
            result = evaluation.result
            assert result is not None
            links = list(calc.rules) + list(result.rules) + [s.rule for s in result.working if s.rule]
            for link in links:
                self._links[link.target].add(src_uri)
        return html

    def finished_page(self, output: str, page_url: str) -> str:
        """The written page: the engine started at the top of a computing page, the theme deferred."""
        scripts = [self.bundle.script_uri(name) for name in ("engine", "calculators")]
        output = early_engine.with_page_scripts(output, scripts, page_url)
        output = early_engine.with_deferred_theme(early_engine.with_held_theme(output))
        worker = self.bundle.contents[self.bundle.worker_uri]
        source = worker if isinstance(worker, str) else worker.decode("utf-8")
        return early_engine.with_early_start(output, self.bundle.worker_uri, page_url, source)

    def broken_links(self) -> list[BrokenLink]:
        """Every calculator rule link whose page or anchor the built pages do not have."""
        broken = []
        for target, users in sorted(self._links.items()):
            path, _, anchor = target.partition("#")
            if path not in self._ids:
                broken.append(BrokenLink(target, tuple(sorted(users))))
            elif anchor and anchor not in self._ids[path]:
                broken.append(BrokenLink(target, tuple(sorted(users)), anchor))
        return broken
