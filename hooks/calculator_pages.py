"""MkDocs hook: calculators in pages, and the browser engine bundled into the site.

The work is ``sitebuild.calculator_pages`` (markers, prerendering, the table settings, rule links) and
``sitebuild.bundle`` (the engine files); this file hands it MkDocs' pages and files and reports its
findings at MkDocs' levels: a calculator rule link to a missing page or anchor at those of
``validation:`` (``warn`` there, so ``mkdocs build --strict`` fails).
"""

from __future__ import annotations

import functools
import logging
import sys
from pathlib import Path
from typing import Any

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the build package (sitebuild) sits beside this folder

from sitebuild import early_engine  # noqa: E402
from sitebuild.calculator_pages import CalculatorPages, SourcePage  # noqa: E402
from sitebuild.errors import BuildError  # noqa: E402

log = logging.getLogger("mkdocs.hooks.calculators")
_state: dict[str, CalculatorPages] = {}
FRESH = (
    "rules_core",
    "calculators",
    "table",
    "sitebuild.reference",
    "sitebuild.rules_pages",
    "sitebuild.table_ui",
)
"""What a rebuild under ``mkdocs serve`` imports afresh, so that it shows edits."""


def _reported(event: Any) -> Any:
    """The event, with the build's errors (``BuildError``) reported as MkDocs' own (``PluginError``)."""

    @functools.wraps(event)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return event(*args, **kwargs)
        except BuildError as exc:
            raise PluginError(f"{exc}") from exc

    return run


def _build() -> CalculatorPages:
    return _state["build"]


@_reported
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    if not config.use_directory_urls:
        raise PluginError(
            "hooks/calculator_pages.py: use_directory_urls must stay true (rule links rely on it)"
        )
    for name in list(sys.modules):
        if name.startswith(FRESH):
            del sys.modules[name]
    try:
        _state["build"] = build = CalculatorPages(ROOT)
    except BuildError as exc:
        raise PluginError(f"hooks/calculator_pages.py: {exc}") from exc
    bundle = build.bundle
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
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    bundle = _build().bundle
    for uri, content in bundle.contents.items():
        files.append(File.generated(config, uri, content=content))
    for uri, path in bundle.copies.items():
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files


@_reported
def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    """Which page shows each calculator: the first in navigation order, then the others by path."""
    in_nav = [page.file for page in nav.pages]
    rest = sorted((f for f in files.documentation_pages() if f not in in_nav), key=lambda f: f.src_uri)
    titles = {page.file.src_uri: vars(page).get("title") for page in nav.pages}
    _build().homes(SourcePage(f.src_uri, f.content_string, titles.get(f.src_uri)) for f in [*in_nav, *rest])
    return nav


@_reported
def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return _build().page_markdown(markdown, page.file.src_uri)


@_reported
def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return _build().page_content(html, page.file.src_uri, page.url)


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    return _build().finished_page(output, page.url)


def on_post_template(output: str, template_name: str, config: MkDocsConfig) -> str:
    """The 404 page (a theme template, not a page) defers the theme's script too."""
    return early_engine.with_deferred_theme(output)


def on_post_build(config: MkDocsConfig) -> None:
    for link in _build().broken_links():
        level = config.validation.links.anchors if link.anchor else config.validation.links.not_found
        log.log(level, link.message())
