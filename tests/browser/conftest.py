"""Shared browser fixtures: the built site, served on 127.0.0.1 under a sub-path, in headless Chromium.

Reuse them in any ``tests/browser/test_*.py`` (every test there is marked ``browser``):

- ``site_url``: the served site root, e.g. ``http://127.0.0.1:PORT/mneme/`` (a project sub-path,
  as on GitHub Pages). The site is the session's one build (``tests/conftest.py``: ``site``), made
  with ``SITE_URL`` set to it, so mkdocs-material's instant navigation works.
- ``site_dir``: the built site on disk (``pathlib.Path``; the same as ``site``).
- ``browser``: Debian's Chromium through Playwright (``/usr/bin/chromium``; never ``playwright install``),
  with the tests' flags (``_site.TEST_ARGS``: no WebAssembly tier-up, no address-bar popup).
- ``context``: a fresh browser context (cold cache; the site's service worker may register) whose
  requests to any host but 127.0.0.1 are blocked and recorded; in a module marked
  ``pytest.mark.returning_visit``, one context shared by the module's tests (a returning visitor's
  engine, restored from its memory snapshot: far cheaper), but for tests marked ``first_visit``
  (``nothing_stored`` empties its storage before each test: for modules whose tests each want none);
  a context registers no service worker (saves no offline copy) unless the test (for a fresh
  context) or the module (for its shared one) is marked ``offline_copy``;
  the loader's warm start is off (``window.mnemeLoaderConfig``; a test may set its own);
  the theme's search index is not asked for unless the test or module is marked ``theme_search``
  (``NO_SEARCH_INDEX_JS``);
  ``window.__mnemeSitemapIn`` marks when the
  theme has its sitemap (``wait_instant_navigation``).
- ``page``: a page in ``context`` that FAILS the test on any page error, console error or request to
  another host; in a ``returning_visit`` module, the module's one tab (``Tab``: a page of the site
  opened there is reached by instant navigation, as a player's link, so the engine is not started
  again), unless the test is marked ``own_page``. Tests expecting an error (e.g. a blocked file) call
  ``page_log.allow(regex)``.
- ``page_log``: what the page reported (``errors``, ``console``, ``foreign``) and ``allow()``.
- ``open_calculator(name, **params)``: opens ``calculators/NAME/?params``, waits until the engine has
  computed live (``data-state="ready"``) and a link click is instant navigation, and returns the
  form's Locator.
- ``outputs(form)``: ``{key: text}`` of every ``[data-output]`` in the form.
- ``python_outputs(name, **params)``: the same outputs computed by CPython (the framework runtime).

A failed test's report also shows what its tabs saw of the service workers, for the tests that open
their tabs through ``test_offline.Visit`` (``_workers``: each version's states, each document).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

import pytest
from _site import launch_chromium
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from . import _workers

READY_TIMEOUT_MS = 90_000
INSTANT_ARRIVAL_MS = 20_000
"""How long a followed link may take to arrive in the shared tab before the page is loaded instead."""


@pytest.fixture(scope="session")
def site_dir(site: Path) -> Path:
    return site


@pytest.fixture
def site_copy(site_dir: Path, tmp_path: Path) -> Path:
    """A copy of the built site that a test may change (a new deploy, a broken file) without touching
    the shared build."""
    folder = tmp_path / "site"
    shutil.copytree(site_dir, folder)
    return folder


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> pytest.TestReport:
    """A failed test's report shows what its tabs saw of the service workers (``_workers``); the
    timelines are dropped after each test."""
    report: pytest.TestReport = yield
    if report.failed and _workers.report():
        report.sections.append(("service workers and tabs", _workers.report()))
    if report.when == "teardown":
        _workers.TIMELINES.clear()
    return report


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        try:
            chromium = launch_chromium(pw, for_tests=True)
        except FileNotFoundError as exc:
            pytest.fail(str(exc))
        yield chromium
        chromium.close()


@dataclass
class PageLog:
    """What a page reported; ``allow`` accepts page and console errors matching a regex."""

    errors: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=list)

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def problems(self) -> list[str]:
        console = [c for c in self.console if not any(p.search(c) for p in self.allowed)]
        errors = [e for e in self.errors if not any(p.search(e) for p in self.allowed)]
        return (
            [f"page error: {e}" for e in errors]
            + [f"console error: {c}" for c in console]
            + [f"request to another host: {u}" for u in self.foreign]
        )


def _is_local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("data", "blob", "about") or parts.hostname == "127.0.0.1"


@pytest.fixture
def page_log() -> PageLog:
    return PageLog()


NO_SEARCH_INDEX_JS = """(() => {
  const open = XMLHttpRequest.prototype.open;
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.mnemeNoSearchIndex = /\\/search\\/search_index\\.json(?:[?#]|$)/.test(String(url));
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (...args) {
    if (!this.mnemeNoSearchIndex) return send.apply(this, args);
  };
})();"""
"""The theme's search index (``search/search_index.json``) is never asked for: the request is not sent,
so the theme's search worker waits for it and builds no index. The theme asks for it at every page load
and indexes the whole site in a worker (about 0.2 CPU-s a load here, of a reading page's 0.5); only the
tests of search use it. Everything else of the page is as built (the search box, its worker, the
offline copy, which saves the index in the service worker). A test or module marked ``theme_search``
keeps it, as the loader's warm start (``mnemeLoaderConfig``) is off unless a test sets it."""


def _new_context(
    browser: Any, site_url: str, log: Callable[[], PageLog], *, routed: bool = True, search: bool = False
) -> Any:
    """A context whose requests to any host but 127.0.0.1 are recorded in ``log()`` and refused.

    ``routed``: through a context route (a test's own ``page.route`` then also sees the engine's
    worker's requests); without it, Chromium refuses them (``CHROMIUM_ARGS``: no other host resolves)
    and an event records them, because Playwright's routing turns the HTTP cache off, and with it
    a returning visit. ``search``: the theme's search index is asked for (``NO_SEARCH_INDEX_JS``).
    """
    ctx = browser.new_context(base_url=site_url, viewport={"width": 1280, "height": 900})

    def guard(route: Any) -> None:
        from playwright.sync_api import Error as PlaywrightError

        url = route.request.url
        if not _is_local(url):
            log().foreign.append(url)
        try:
            if _is_local(url):
                route.continue_()
            else:
                route.abort()
        except PlaywrightError as exc:
            # A test's own page route (which runs first) may have answered the request already, or
            # been removed while it was in flight (unroute): nothing is left for this guard to do.
            if "already handled" not in str(exc):
                raise

    if routed:
        ctx.route("**/*", guard)
    else:
        ctx.on("request", lambda request: _is_local(request.url) or log().foreign.append(request.url))
    # No background warm start of the engine on reading pages (it only costs the suite CPU); a test of
    # the warm start sets its own window.mnemeLoaderConfig, which replaces this one.
    ctx.add_init_script("window.mnemeLoaderConfig = { warm: false };")
    # The engine's memory snapshot after 1.5 s of quiet, not a phone's 5 s (browser/worker.js).
    ctx.add_init_script("window.mnemeEngineConfig = { snapshotQuietMs: 1500 };")
    ctx.add_init_script(SITEMAP_PROBE_JS)
    if not search:
        ctx.add_init_script(NO_SEARCH_INDEX_JS)
    return ctx


@dataclass
class ModuleVisit:
    """A returning_visit module's one context and its one tab, and the log of the test now running."""

    context: Any
    log: list[PageLog]
    tab: Tab | None = None


_SHARED: list[Any] = []
"""The returning_visit modules' contexts open now (``is_shared``)."""


def is_shared(context: Any) -> bool:
    """Whether ``context`` is a returning_visit module's shared one: it outlives the test, so a test's
    own init script there goes on its page (``page.add_init_script``), never on the context."""
    return any(context is shared for shared in _SHARED)


CLEAR_STORAGE_JS = "() => { localStorage.clear(); sessionStorage.clear(); }"


def clear_storage(context: Any, site_url: str) -> None:
    """Empty the site's local and session storage in ``context`` (what a test left there), keeping the
    HTTP cache, the service worker and the engine's snapshot: a returning visitor with nothing saved."""
    blank = context.new_page()
    try:
        blank.goto(urljoin(site_url, "sitemap.xml"))  # of the site's origin, and runs no site script
        blank.evaluate(CLEAR_STORAGE_JS)
    finally:
        blank.close()


@pytest.fixture
def nothing_stored(request: pytest.FixtureRequest, context: Any, site_url: str) -> None:
    """In a returning_visit module's shared context, the test starts with nothing stored, as it would in
    a fresh context (``clear_storage``); a module uses it with ``pytest.mark.usefixtures``. The module's
    tab, if open, first leaves the page it shows (``Tab.park``: nothing of it is left to write storage
    afterwards) and empties the storage itself. A test on a page of its own (``own_page``) finds no
    other page open: the module's tab is closed (the next test to use it opens it again)."""
    if not is_shared(context):
        return
    visit: ModuleVisit = request.getfixturevalue("_returning_context")
    if visit.tab is not None and not visit.tab.raw.is_closed():
        if not request.node.get_closest_marker("own_page"):
            visit.tab.park()
            visit.tab.raw.evaluate(CLEAR_STORAGE_JS)
            return
        visit.tab.raw.close()
        visit.tab = None
    clear_storage(context, site_url)


NO_OFFLINE_COPY_JS = "window.mnemeOfflineConfig = { register: false };"
"""Set before the site's scripts: the service worker is not registered, so no offline copy is saved."""


@pytest.fixture(scope="module")
def _returning_context(request: pytest.FixtureRequest, browser: Any, site_url: str) -> Iterator[ModuleVisit]:
    """One context for a whole test module: after its first test the engine is a returning visitor's.
    It saves no offline copy unless the module is marked ``offline_copy`` (17 MB copied into Cache
    Storage beside the module's first engine start: CPU a module that never goes offline need not pay)."""
    log = [PageLog()]
    search = bool(request.node.get_closest_marker("theme_search"))
    visit = ModuleVisit(_new_context(browser, site_url, lambda: log[0], routed=False, search=search), log)
    if not request.node.get_closest_marker("offline_copy"):
        visit.context.add_init_script(NO_OFFLINE_COPY_JS)
    _SHARED.append(visit.context)
    yield visit
    _SHARED.remove(visit.context)
    visit.context.close()


def _uses_module_context(node: Any) -> bool:
    return bool(node.get_closest_marker("returning_visit")) and not node.get_closest_marker("first_visit")


@pytest.fixture
def context(request: pytest.FixtureRequest, browser: Any, site_url: str, page_log: PageLog) -> Iterator[Any]:
    """A fresh context (a first visit: cold caches, no service worker, the engine booted from nothing);
    in a module marked ``returning_visit``, the module's one context instead (a returning visit: the
    cached files, the engine's memory snapshot of the module's earlier tests, and the service worker if
    the module is marked ``offline_copy``),
    except for a test marked ``first_visit``. A test there must leave no storage behind that matters.
    A fresh context saves no offline copy (the service worker is not registered) unless the test is
    marked ``offline_copy``; a module's shared one, unless the module is."""
    node = request.node
    if _uses_module_context(node):
        visit: ModuleVisit = request.getfixturevalue("_returning_context")
        visit.log[0] = page_log
        yield visit.context
        for pg in visit.context.pages:
            if visit.tab is None or pg is not visit.tab.raw:
                pg.close()
        return
    search = bool(node.get_closest_marker("theme_search"))
    ctx = _new_context(browser, site_url, lambda: page_log, search=search)
    if not node.get_closest_marker("offline_copy"):
        # No offline copy saved in the background (17 MB into Cache Storage: CPU every test would pay);
        # the offline tests and the tests and modules marked offline_copy keep it.
        ctx.add_init_script(NO_OFFLINE_COPY_JS)
    yield ctx
    ctx.close()


def _watch(pg: Any, log: Callable[[], PageLog]) -> None:
    pg.on("pageerror", lambda exc: log().errors.append(str(exc)))
    pg.on("console", lambda msg: msg.type == "error" and log().console.append(msg.text))


@pytest.fixture
def page(request: pytest.FixtureRequest, context: Any, site_url: str, page_log: PageLog) -> Iterator[Any]:
    """A new page in ``context``; in a returning_visit module, the module's one tab (``Tab``) unless the
    test is marked ``own_page`` (or ``first_visit``)."""
    node = request.node
    if _uses_module_context(node) and not node.get_closest_marker("own_page"):
        visit: ModuleVisit = request.getfixturevalue("_returning_context")
        if visit.tab is None or visit.tab.raw.is_closed():
            raw = context.new_page()
            _watch(raw, lambda: visit.log[0])
            visit.tab = Tab(raw, site_url)
        tab = visit.tab
        tab.begin()
        yield tab
        tab.release()
    else:
        pg = context.new_page()
        _watch(pg, lambda: page_log)
        yield pg
    problems = page_log.problems()
    assert not problems, "the page reported problems:\n" + "\n".join(problems)


INSTANT_GO_JS = """
(href) => {
  const link = document.createElement("a");
  link.href = href;
  link.textContent = "next";
  link.id = "__test_go";
  (document.querySelector("article") || document.body).append(link);
  link.click();
}
"""
INSTANT_ARRIVED_JS = """(href) => location.href === href && !document.getElementById("__test_go")
  && !!document.querySelector("article")"""
ENGINE_PAGE_JS = "() => !!document.querySelector('form[data-calculator], [data-mneme-table]')"
HOP = "peers/"
"""A small page with no calculator: the shared tab passes through it to show the calculator page it
shows now at another address (``Tab.goto``), as a player would follow a link back to it."""


class Tab:
    """A returning_visit module's one page, shared by its tests as a player keeps one tab open.

    ``goto`` to a page of the site is a link followed in the page (the theme's instant navigation: the
    engine, already started, answers at once) rather than a new load: the same code shows and binds the
    page either way. To the calculator page shown now (another address query, say) the tab first
    follows a link to a page with no calculator (``HOP``), then one back. A load of a reading page
    shown now, of a file that is not a page, of an address with a fragment, or from outside the site
    is still a real load. Each test starts at the
    desktop size in the light scheme; a handler a test adds with ``on`` is removed after it. A test that
    needs its own init script or route is marked ``own_page`` (this tab refuses them).
    """

    def __init__(self, raw: Any, site_url: str) -> None:
        self.raw = raw
        self.site_url = site_url
        self._handlers: list[tuple[str, Callable[..., Any]]] = []
        self._changed = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)

    def begin(self) -> None:
        self.raw.set_viewport_size({"width": 1280, "height": 900})
        self.raw.emulate_media(color_scheme="light")

    def release(self) -> None:
        for event, handler in self._handlers:
            self.raw.remove_listener(event, handler)
        self._handlers.clear()
        if self._changed:  # its window is not the site's own any more (``run_first``)
            self.raw.close()

    def run_first(self, script: str) -> None:
        """Run ``script`` (an expression) in the tab's window now, on a page with no app (``park``), in
        place of an init script: the pages reached by a link from here see what it changed. The window
        keeps the change, so the tab is closed after the test (the next test opens another)."""
        self.park()
        self.raw.evaluate(script)
        self._changed = True

    def on(self, event: str, handler: Callable[..., Any]) -> None:
        self._handlers.append((event, handler))
        self.raw.on(event, handler)

    def add_init_script(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError(
            "a returning_visit module's shared tab takes no init script: mark the test own_page"
        )

    def route(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a returning_visit module's shared tab takes no route: mark the test own_page")

    def goto(self, url: str, **kwargs: Any) -> Any:
        target = urljoin(self.site_url, url)
        here, there = urlsplit(self.raw.url), urlsplit(target)
        instant = (
            not kwargs
            and self.raw.url.startswith(self.site_url)
            and target.startswith(self.site_url)
            and there.path.endswith("/")
            and not there.fragment
        )
        if not instant:
            return self.raw.goto(url, **kwargs)
        if here.path == there.path:
            if not self.raw.evaluate(ENGINE_PAGE_JS):
                return self.raw.goto(url, **kwargs)  # a reading page: a load costs no engine start
            # The page shown now, at another address (or anew): a player reaches it by a link from
            # another page, and so does this tab, through a page with no calculator on it.
            self.park()
        if not self._follow(target):
            return self.raw.goto(url)
        return None

    def park(self) -> None:
        """Show ``HOP`` (no calculator, no table app), reached by a link where it can be (the engine
        keeps running for the next page): the page shown before is gone, with its scripts."""
        hop = urljoin(self.site_url, HOP)
        if self.raw.url == hop:
            return
        if not (self.raw.url.startswith(self.site_url) and self._follow(hop)):
            self.raw.goto(hop)

    def _follow(self, target: str) -> bool:
        """Follow a link to ``target`` in the page (instant navigation); whether it arrived."""
        wait_instant_navigation(self.raw)
        self.raw.evaluate(INSTANT_GO_JS, target)
        try:
            self.raw.wait_for_function(INSTANT_ARRIVED_JS, arg=target, timeout=INSTANT_ARRIVAL_MS)
        except PlaywrightTimeout:
            # Rarely (about once in two full runs, never alone) the theme leaves a followed link
            # unanswered; say so in the log and load the page, so one lost click fails no test.
            print(f"instant navigation to {target} did not arrive from {self.raw.url}: loading it")
            return False
        return True


def outputs(form: Any) -> dict[str, str]:
    """``{key: text}`` of every output of a calculator form (a Playwright Locator)."""
    found: dict[str, str] = form.evaluate(
        "f => Object.fromEntries([...f.querySelectorAll('[data-output]')]"
        ".map(e => [e.dataset.output, e.textContent]))"
    )
    return found


@pytest.fixture(name="outputs")
def outputs_fixture() -> Callable[[Any], dict[str, str]]:
    return outputs


FORM_STATE_JS = """f => ({
  state: f.dataset.state, stale: f.hasAttribute("data-stale"), connected: f.isConnected,
  bound: !!f.mnemeBound, status: (f.querySelector("[data-status]") || {}).textContent,
  forms: document.querySelectorAll("form[data-calculator]").length, url: location.href,
  engine: window.mnemeEngine && window.mnemeEngine.stats,
})"""
"""What a form and its engine show: said when a form never becomes ready, to tell where it stopped."""


def wait_ready(form: Any) -> None:
    """Wait until the form's engine is ready and the shown result is live (not stale)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    handle = form.element_handle()
    try:
        form.page.wait_for_function(
            "f => f.dataset.state === 'ready' && !f.hasAttribute('data-stale')",
            arg=handle,
            timeout=READY_TIMEOUT_MS,
        )
    except PlaywrightTimeout:
        pytest.fail(f"the calculator never showed a live result: {form.page.evaluate(FORM_STATE_JS, handle)}")


THEME_RUNNING_JS = """() => {
  const held = window.mnemeCalculators && window.mnemeCalculators.theme;
  return !!window.document$ && !window.document$.mnemeStandIn && !(held && held.subscribers.length);
}"""
"""True once mkdocs-material's script runs the page (instant navigation, search): at once on a reading
page; on a calculator page after the first result, when calculators.js starts it."""


def wait_theme(page: Any) -> None:
    """Wait until the theme runs the page (search, and links followed once its sitemap is in)."""
    page.wait_for_function(THEME_RUNNING_JS, timeout=READY_TIMEOUT_MS)


SITEMAP_PROBE_JS = """(() => {
  const parse = DOMParser.prototype.parseFromString;
  DOMParser.prototype.parseFromString = function (text, type) {
    const parsed = parse.call(this, text, type);
    if (type === "text/xml" && parsed.querySelector("urlset")) window.__mnemeSitemapIn = true;
    return parsed;
  };
})();"""
"""Marks when the theme has parsed its sitemap.xml. The theme turns a link click into instant navigation
only once it has the sitemap (it fetches it when it starts); a click before that is a full page load.
The theme hands the parsed sitemap on in the same task, so a later check of the mark finds it in use."""


def wait_instant_navigation(page: Any) -> None:
    """Wait until a player's link click is instant navigation: the theme runs and has its sitemap."""
    wait_theme(page)
    page.wait_for_function("() => window.__mnemeSitemapIn === true", timeout=READY_TIMEOUT_MS)


@pytest.fixture
def open_calculator(page: Any) -> Callable[..., Any]:
    def open_(name: str, **params: Any) -> Any:
        query = f"?{urlencode(params)}" if params else ""
        page.goto(f"calculators/{name}/{query}")
        form = page.locator(f'form[data-calculator="{name}"]')
        wait_ready(form)
        wait_instant_navigation(page)
        return form

    return open_


@pytest.fixture
def python_outputs() -> Callable[..., dict[str, str]]:
    from calculators.framework import runtime

    def compute(name: str, **params: Any) -> dict[str, str]:
        result: dict[str, str] = runtime.compute(name, {k: str(v) for k, v in params.items()})["outputs"]
        return result

    return compute
