"""Suite-wide pytest setup.

- Every test under ``tests/browser/`` is marked ``browser``: ``pytest -m "not browser"`` is the fast
  suite and ``pytest -m browser`` the headless-Chromium one. With pytest-xdist (``--dist loadgroup``)
  each browser module goes to one of ``BROWSER_LANES`` lanes (one group each: one process, one
  Chromium, its modules one after another): the timing-bound ones at the normal CPU priority, the
  others (``IDLE_MODULES``) and the fast tests at the idle priority. Browser fixtures:
  ``tests/browser/conftest.py``.
- ``site`` is the real site, built strictly once per test session on first use and shared by every test
  and every pytest-xdist process (``tests/_site.py``: ``SharedSite``); ``site_url`` is where it is served.
- Hypothesis runs without its per-example deadline: speed is measured in ``bench/``, never asserted in
  tests, and a shared or loaded machine must not turn a slow first import into a failure.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from _site import SharedSite, SiteServer
from hypothesis import settings

settings.register_profile("mneme", deadline=None)
settings.load_profile("mneme")

BROWSER_DIR = Path(__file__).parent / "browser"
_SERVER: SiteServer | None = None


def pytest_configure(config: pytest.Config) -> None:
    """In the session's first process only: a server on a free port for the shared build, which every
    process (pytest-xdist's workers inherit the environment) builds into at most once."""
    global _SERVER
    if hasattr(config, "workerinput"):
        return
    if config.getoption("dist", None) == "loadgroup":  # the lanes are groups: tell the processes
        os.environ[IDLE_ENV] = "1"
    folder = Path(tempfile.mkdtemp(prefix="mneme-site-"))
    _SERVER = SiteServer(folder / "site")
    _SERVER.start()
    os.environ[SharedSite.ENV] = SharedSite(_SERVER.url, folder).to_env()


def pytest_unconfigure(config: pytest.Config) -> None:
    global _SERVER
    if not hasattr(config, "workerinput"):
        os.environ.pop(IDLE_ENV, None)
    shared = SharedSite.from_env()
    if _SERVER is None or shared is None:
        return
    _SERVER.stop()
    _SERVER = None
    del os.environ[SharedSite.ENV]
    shutil.rmtree(shared.folder, ignore_errors=True)


def _shared() -> SharedSite:
    shared = SharedSite.from_env()
    assert shared is not None, "tests/conftest.py did not start the shared site's server"
    return shared


@pytest.fixture(scope="session")
def site() -> Path:
    """The real site, built strictly (``mkdocs build --strict``) for ``site_url``."""
    return _shared().built()


@pytest.fixture(scope="session")
def site_url(site: Path) -> str:
    """Where ``site`` is served (built first): ``http://127.0.0.1:PORT/mneme/`` (a project sub-path)."""
    return _shared().url


BROWSER_LANES = min(2, max(1, int(os.environ.get("MNEME_BROWSER_LANES", "2"))))
"""How many processes run browser tests side by side (``scripts/test`` starts one more for the fast
tests); a module never spans two lanes (its shared tab boots the engine once). With two (the default)
the first lane (``browser``) runs the modules with a check bound to time at the normal CPU priority, and
the second (``browser-idle``) runs ``IDLE_MODULES`` with the fast tests at the idle priority
(``yield_cpu``): they use only what the first lane leaves of the cores. Two lanes of equal priority
starved the timing-bound tests (a tab's engine start, two tabs at once) until they failed now and then;
one lane leaves most of a second core unused."""
IDLE_MODULES = frozenset(
    {
        "test_a11y",
        "test_calc_comparison",
        "test_calc_forms",
        "test_calc_handoff",
        "test_calc_smoke",
        "test_calc_tools",
        "test_csp",
        "test_loading",
        "test_palette",
        "test_recompute",
        "test_rules_calculators",
        "test_rules_fidelity",
        "test_table",
        "test_table_leftovers",
    }
)
"""Browser modules with no check that races time (no answer due within a budget, no two tabs, no slow
or cut link, no update or offline copy racing a deploy; a page's own timer may be waited out, never
raced): each waits only for an answer or an event, with a Playwright timeout of 5 s or more.
A module not named here (a new one too) runs in the first lane, at the normal priority."""
IDLE_LANE = "browser-idle"
IDLE_ENV = "MNEME_IDLE_LANE"
"""Set by the session's first process for pytest-xdist's processes when the lanes are groups (``--dist
loadgroup``): each lane is then one process, and the first lane's runs it before anything else."""


def browser_lanes(modules: list[str], lanes: int = BROWSER_LANES) -> dict[str, str]:
    """Each module's lane: ``browser``, or with two lanes ``browser-idle`` for ``IDLE_MODULES``."""
    return {
        module: IDLE_LANE if lanes > 1 and module in IDLE_MODULES else "browser" for module in set(modules)
    }


_LANES = browser_lanes([path.stem for path in BROWSER_DIR.glob("test_*.py")])


def lane_of(item: pytest.Item) -> str | None:
    """The browser lane of a test, or None for a fast test."""
    return _LANES.get(item.path.stem, "browser") if BROWSER_DIR in item.path.parents else None


def yield_cpu() -> None:
    """This process, and every process and thread it starts from now on (Chromium and its renderers, a
    site build), runs at the idle CPU priority (Linux ``SCHED_IDLE``): only when nothing at the normal
    priority wants the core. Chromium sets its threads' ``nice`` values itself, so nice would not do."""
    if hasattr(os, "sched_setscheduler") and os.sched_getscheduler(0) != os.SCHED_IDLE:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def pytest_runtest_setup(item: pytest.Item) -> None:
    """In a pytest-xdist process (``--dist loadgroup``) with two browser lanes, a test outside the first
    lane (the idle lane or a fast test) first moves its process to the idle priority (``yield_cpu``; the
    first lane's process runs its whole lane before anything else, so it stays at the normal priority
    while it does)."""
    if BROWSER_LANES > 1 and os.environ.get(IDLE_ENV) and lane_of(item) != "browser":
        yield_cpu()


def pytest_itemcollected(item: pytest.Item) -> None:
    """Marks each browser test as it is collected: before any hook reads the marks (pytest-xdist's
    loadgroup reads its group in its own ``pytest_collection_modifyitems``, which ran before ours).
    The lanes come from every browser module on disk, not from the selection: every process agrees."""
    if BROWSER_DIR in item.path.parents:
        item.add_marker(pytest.mark.browser)
        item.add_marker(pytest.mark.xdist_group(lane_of(item)))


def _sendable(text: str) -> str:
    """``text`` as UTF-8 can carry it: a lone surrogate (half an emoji, as hostile-input tests type)
    becomes U+FFFD instead of breaking the report between pytest-xdist's processes."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    """Every report's captured output and failure text made sendable (``_sendable``): one such
    character in a test's output once stopped a whole run ("no active workers available")."""
    outcome = yield
    report = outcome.get_result()
    report.sections = [(title, _sendable(text)) for title, text in report.sections]
    if report.longrepr is not None:
        try:
            str(report.longrepr).encode("utf-8")
        except UnicodeEncodeError:
            report.longrepr = _sendable(str(report.longrepr))
    return None
