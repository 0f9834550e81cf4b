"""The engine's early start: pages that compute start their worker from the top of <head>.

On a page with a calculator or a table app, ``browser/head/early.js`` is inlined right
after ``<meta charset>`` (``hooks/offline.py`` then puts the Content-Security-Policy, with this
script's hash, before it). It creates the worker before the stylesheets and the theme's scripts
load, so Pyodide's downloads begin about as soon as the page's own; ``engine.js`` takes the worker
over. The script's text is the same on every page (the worker's address, relative to the page, is
an attribute), so the policy needs one hash. It is bundled as every page script is
(``bundle.bundle_script``), once per change of the browser sources.
"""

from __future__ import annotations

import functools
import re
from html import escape
from pathlib import Path

from sitebuild.bundle import ROOT, bundle_script
from sitebuild.errors import BuildError
from sitebuild.urls import relative_url

SCRIPT = "head/early.js"
"""The early start's entry in ``browser/``."""
CALCULATOR = re.compile(r"<form[^>]*\sdata-calculator=")
TABLE_APP = re.compile(r"""\bdata-mneme-table\s*=\s*["'](?:character|tracker)["']""")
"""A table app's root (the character page, the tracker and its players' view)."""
COMPUTES = re.compile(r"<form[^>]*\sdata-calculator=|\sid=\"mneme-table-config\"")
"""What makes a page start the engine (as in ``loader.js``): a calculator, or the table apps' settings."""
THEME_BUNDLE = re.compile(r'<script src="([^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js)"')
CHARSET = re.compile(r"<meta charset=[^>]*>")


def with_page_scripts(html: str, script_uris: list[str], page_url: str) -> str:
    """``html`` with ``script_uris`` (in order) just before the theme's ``bundle.js``, if it has a calculator.

    Deferred, like the theme's script (``with_deferred_theme``), they run once the page is parsed and
    just before it, not after ``bundle.js`` has run and ``loader.js`` has added
    them (it finds them already there): on a returning visit, whose engine starts in about a
    second, that wait was most of the time to a first result. They sit outside the content that
    instant navigation swaps (and whose scripts it runs again); there ``loader.js`` adds them."""
    theme = THEME_BUNDLE.search(html)
    if not CALCULATOR.search(html) or not theme:
        return html
    tags = "".join(
        f'<script src="{escape(relative_url(uri, page_url), quote=True)}" defer></script>'
        for uri in script_uris
    )
    return html[: theme.start()] + tags + html[theme.start() :]


def with_deferred_theme(html: str) -> str:
    """``html`` with the theme's ``bundle.js`` deferred, as every script of ours is.

    They all sit at the end of ``<body>`` and run in the same order, once the page is parsed and
    before ``DOMContentLoaded`` (which the theme waits for), so nothing runs differently; but a
    parser-blocking script that is still downloading holds back the first paint on a slow phone
    (Lighthouse counted ``bundle.js`` as render-blocking: about a quarter of a second of first
    contentful paint on a reading page)."""
    theme = THEME_BUNDLE.search(html)
    if not theme or html.startswith(" defer", theme.end()):
        return html
    return html[: theme.end()] + " defer" + html[theme.end() :]


def with_held_theme(html: str) -> str:
    """``html`` with the theme's ``bundle.js`` held back, if the page has a calculator or a table app.

    On a phone the theme's script is a third of a second of the main thread (mounting search and
    instant navigation), and on a returning visit the engine answers about when it would run, so the
    first result waited behind it. The tag becomes an inert ``<script type="mneme/theme">`` naming the
    file; ``calculators.js`` starts the theme once the first result is on screen, and on a table app's
    page ``loader.js`` once the app has drawn the engine's view (at once where it drew what needs no
    engine); either also when the engine has failed, its start has gone quiet for ``themeHoldMs``, or
    the player taps the header (``browser/lib/theme-hold.js``), each step of its start after a pause
    in the player's input (``browser/lib/tasks.js``: ``whenQuiet``). On a first visit what it fetches
    then (search index, sitemap) no longer shares the link with the engine's WebAssembly. Applied
    before ``with_deferred_theme``, which then defers the theme's tag on every other page."""
    theme = THEME_BUNDLE.search(html)
    if not (CALCULATOR.search(html) or TABLE_APP.search(html)) or not theme:
        return html
    held = f'<script type="mneme/theme" data-mneme-theme="{theme.group(1)}"'
    return html[: theme.start()] + held + html[theme.end() :]


@functools.lru_cache(maxsize=2)
def _bundled(root: Path, stamp: tuple[tuple[str, int, int], ...]) -> str:
    return bundle_script(SCRIPT, root)


def early_script(root: Path = ROOT) -> str:
    """The early start as inlined: ``browser/head/early.js`` bundled (bundled again only when a
    browser source changes, as ``mkdocs serve`` rebuilds)."""
    files = sorted((root / "browser").rglob("*.js"))
    stamp = tuple((p.as_posix(), p.stat().st_mtime_ns, p.stat().st_size) for p in files)
    return _bundled(root, stamp)


WORKER_BLOCK = "mneme/worker"
"""The type of the data block holding the worker's text (never run by the page itself)."""


def worker_block(worker_source: str) -> str:
    """The worker's text as an inert ``<script type="mneme/worker" id="mneme-worker">`` data block.

    The early start runs it from a blob (``browser/head/early.js``): on a first visit the worker's
    downloads no longer wait a round trip for ``worker.HASH.js`` (about 0.17 s of an idle link on the
    phone profile). Its text must not end the element early, nor open a comment the parser would
    honour."""
    lowered = worker_source.lower()
    if "</script" in lowered or "<!--" in lowered:
        raise BuildError("the worker's bundle holds '</script' or '<!--': it cannot be inlined in a page")
    return f'<script type="{WORKER_BLOCK}" id="mneme-worker">{worker_source}</script>'


def with_early_start(html: str, worker_uri: str, page_url: str, worker_source: str = "") -> str:
    """``html`` with the early-start script after its ``<meta charset>``, if the page computes; the
    worker's own text (``worker_source``, if given) just before it, for the early start to run."""
    if not COMPUTES.search(html):
        return html
    charset = CHARSET.search(html)
    if not charset:
        return html
    address = escape(relative_url(worker_uri, page_url), quote=True)
    block = worker_block(worker_source) if worker_source else ""
    tag = f'{block}<script data-mneme-worker="{address}">{early_script()}</script>'
    return html[: charset.end()] + tag + html[charset.end() :]
