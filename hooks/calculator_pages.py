"""MkDocs hook: calculators in pages, and the browser engine bundled into the site.

- A line ``<!-- calculator: NAME -->`` in a page is replaced by calculator NAME,
  prerendered with its default inputs computed by CPython (correct at first
  paint, even without JavaScript). An unknown NAME, or any other
  ``<!-- calculator`` comment, fails the build. Markers inside code fences are
  left alone (so pages can show the syntax); the scanning is ``markers.py``'s.
- A line ``<!-- calculators-index -->`` is replaced by a table of every registered
  calculator, linked to the page that shows it (first in navigation order) and
  described by its ``summary`` (``sitebuild.reference.index``). A calculator
  shown on no page fails the build.
- Rule links used by calculators (``rules/checks.md#effect``) are checked: a
  missing page or anchor is reported at the levels of mkdocs' ``validation:``
  (``warn`` there, so ``mkdocs build --strict`` fails).
- The engine files (Pyodide runtime from ``node_modules/pyodide``, our hashed
  wheel and worker, the front end under content-hashed names) are added to the site's files.
  Every page links only ``loader.HASH.js``, ``register.HASH.js`` and ``mneme.HASH.css``; the
  loader adds the calculator runtime and table apps where they are used.
- Pages the table scripts work on (the character page, the tracker, any page with a
  calculator: "use my character") carry ``sitebuild.table_ui.page_config()`` as data,
  ``<div id="mneme-table-config" hidden data-config='JSON'>``: empty documents, schemas,
  limits, labels and rule sentences come from Python, not from the scripts. An attribute,
  not a ``<script type="application/json">``: the theme's instant navigation re-creates every
  inline script in the swapped content without its attributes (id and type lost, and the
  JSON would then run as a script the CSP blocks).
"""

from __future__ import annotations

import functools
import json
import logging
import posixpath
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the build package (sitebuild) sits beside this folder

from sitebuild import bundle as engine_bundle  # noqa: E402
from sitebuild import early_engine, markers  # noqa: E402
from sitebuild.errors import BuildError  # noqa: E402

log = logging.getLogger("mkdocs.hooks.calculators")

PLACEHOLDER = '<div data-mneme-calculator="{index}"></div>'
ID_ATTR = re.compile(r"""\bid\s*=\s*["']([^"']+)["']""")
TABLE_ROOT = re.compile(r"""\bdata-mneme-table\s*=\s*["'](?:character|tracker)["']""")
TABLE_CONFIG_ID = "mneme-table-config"
# JSON made safe inside a single-quoted attribute (JSON.parse reads the escapes back).
_ATTR_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "'": "\\u0027"})

_state: dict[str, Any] = {}


def _fresh_modules() -> None:
    """Forget imported rules_core/calculators so `mkdocs serve` rebuilds see edits."""
    for name in list(sys.modules):
        fresh = name.split(".")[0] in {"rules_core", "calculators", "table"}
        if fresh or name.startswith(("sitebuild.reference", "sitebuild.rules_pages", "sitebuild.table_ui")):
            del sys.modules[name]


def _reported(event: Any) -> Any:
    """The event, with the build's errors (``BuildError``) reported as MkDocs' own (``PluginError``)."""

    @functools.wraps(event)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return event(*args, **kwargs)
        except BuildError as exc:
            raise PluginError(str(exc)) from exc

    return run


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    if not config.use_directory_urls:
        raise PluginError(
            "hooks/calculator_pages.py: use_directory_urls must stay true (rule links rely on it)"
        )
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    _fresh_modules()
    _state.clear()
    try:
        bundle = engine_bundle.make_bundle(ROOT)
    except (FileNotFoundError, ValueError) as exc:
        raise PluginError(f"hooks/calculator_pages.py: {exc}") from exc
    _state["bundle"] = bundle
    # Each page links one script and one stylesheet of ours: the loader adds the engine,
    # calculators and table apps to the pages that use them; print.css is print-only and the build
    # hash is every page's <meta name="mneme-build"> (both by overrides/main.html, from config.extra).
    # Deferred, as the theme's bundle.js is made (early_engine.with_deferred_theme): same order.
    listed_js = {str(item) for item in config.extra_javascript}
    for uri in bundle.scripts:
        if uri not in listed_js:
            script = ExtraScriptValue(uri)
            script.defer = True
            config.extra_javascript.append(script)
    listed_css = set(config.extra_css)
    for uri in bundle.styles:
        if uri not in listed_css:
            config.extra_css.append(uri)
    config.extra["mneme_build"] = bundle.build
    config.extra["mneme_print_css"] = bundle.print_style
    _state["pages"] = {}  # page src_uri -> list of calculator names (by placeholder index)
    _state["ids"] = {}  # page src_uri -> set of element ids
    _state["links"] = defaultdict(set)  # target docs path#anchor -> pages using it
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    bundle = _state["bundle"]
    for uri, content in bundle.contents.items():
        files.append(File.generated(config, uri, content=content))
    for uri, path in bundle.copies.items():
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files


def _registry() -> Any:
    from calculators.framework import registry

    return registry


@_reported
def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    """Note which page shows each calculator (the first, in navigation order) for the index."""
    in_nav = [page.file for page in nav.pages]
    rest = sorted((f for f in files.documentation_pages() if f not in in_nav), key=lambda f: f.src_uri)
    titles = {page.file.src_uri: vars(page).get("title") for page in nav.pages}
    homes: dict[str, tuple[str, str | None]] = {}
    for file in [*in_nav, *rest]:
        for marker in markers.find(file.content_string, ("calculator",)):
            homes.setdefault(marker.name, (file.src_uri, titles.get(file.src_uri)))
    _state["homes"] = homes
    return nav


def _calculator_index(page: Page) -> str:
    from sitebuild.reference import CalculatorHome, calculator_index

    registry = _registry()
    here = posixpath.dirname(page.file.src_uri) or "."
    homes = {
        name: CalculatorHome(posixpath.relpath(src_uri, here), title or registry.get(name).title)
        for name, (src_uri, title) in _state.get("homes", {}).items()
        if name in registry.CALCULATORS
    }
    try:
        return calculator_index(homes)
    except ValueError as exc:
        raise PluginError(f"{page.file.src_uri}: calculators index: {exc}") from exc


@_reported
def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    registry = _registry()
    names: list[str] = []

    def calculator(name: str) -> str:
        names.append(name)
        return "\n" + PLACEHOLDER.format(index=len(names) - 1) + "\n"

    kinds = {
        "calculator": markers.Kind(render=calculator, known=registry.CALCULATORS, max_indent=3),
        "calculators-index": markers.Kind(render=lambda _: _calculator_index(page), named=False),
    }
    out = markers.expand(markdown, kinds, page.file.src_uri)
    if names:
        _state["pages"][page.file.src_uri] = names
    return out


def _site_root(page: Page) -> str:
    root = get_relative_url(".", page.url or ".")
    return "" if root in ("", ".") else root.rstrip("/") + "/"


def table_config_element() -> str:
    """The table scripts' settings from ``sitebuild.table_ui``, as a hidden element with JSON data."""
    if "table_config" not in _state:
        from sitebuild.table_ui import page_config

        data = json.dumps(page_config(), ensure_ascii=False, separators=(",", ":")).translate(_ATTR_SAFE)
        _state["table_config"] = f"<div id=\"{TABLE_CONFIG_ID}\" hidden data-config='{data}'></div>"
    element: str = _state["table_config"]
    return element


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    _state["ids"][page.file.src_uri] = set(ID_ATTR.findall(html))
    html = _with_calculators(html, page)
    if _state["pages"].get(page.file.src_uri) or TABLE_ROOT.search(html):
        html += "\n" + table_config_element() + "\n"
    return html


def _with_calculators(html: str, page: Page) -> str:
    names = _state["pages"].get(page.file.src_uri)
    if not names:
        return html
    from calculators.framework import registry
    from calculators.framework.render import render_calculator
    from calculators.framework.spec import evaluate
    from sitebuild.table_ui import mine_box

    root = _site_root(page)
    seen: dict[str, int] = defaultdict(int)
    for index, name in enumerate(names):
        calc = registry.get(name)
        seen[name] += 1
        prefix = f"calc-{name}" if seen[name] == 1 else f"calc-{name}-{seen[name]}"
        evaluation = evaluate(calc)
        if not evaluation.ok:
            raise PluginError(
                f"calculator {name!r}: its defaults do not compute: "
                f"{evaluation.form_error or evaluation.errors}"
            )
        placeholder = PLACEHOLDER.format(index=index)
        if placeholder not in html:
            raise PluginError(f"{page.file.src_uri}: calculator {name!r} placeholder was lost by markdown")
        built = mine_box(name, root) + render_calculator(evaluation, root, prefix)
        html = html.replace(placeholder, built, 1)
        result = evaluation.result
        assert result is not None
        links = list(calc.rules) + list(result.rules) + [s.rule for s in result.working if s.rule]
        for link in links:
            _state["links"][link.target].add(page.file.src_uri)
    return html


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    bundle = _state["bundle"]
    scripts = [bundle.script_uri(name) for name in ("engine", "calculators")]
    output = early_engine.with_page_scripts(output, scripts, page.url)
    output = early_engine.with_deferred_theme(early_engine.with_held_theme(output))
    return early_engine.with_early_start(output, bundle.worker_uri, page.url)


def on_post_template(output: str, template_name: str, config: MkDocsConfig) -> str:
    """The 404 page (a theme template, not a page) defers the theme's script too."""
    return early_engine.with_deferred_theme(output)


def on_post_build(config: MkDocsConfig) -> None:
    files_level = config.validation.links.not_found
    anchors_level = config.validation.links.anchors
    pages = {uri for uri in _state["ids"]}
    for target, users in sorted(_state["links"].items()):
        path, _, anchor = target.partition("#")
        where = ", ".join(sorted(users))
        if path not in pages:
            log.log(files_level, f"Calculator rule link '{target}' (on {where}): no such page in docs/")
        elif anchor and anchor not in _state["ids"][path]:
            log.log(anchors_level, f"Calculator rule link '{target}' (on {where}): no anchor '#{anchor}'")
