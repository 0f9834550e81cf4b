"""Suite-wide pytest setup.

- Every test under ``tests/browser/`` is marked ``browser``: ``pytest -m "not browser"`` is the fast
  suite and ``pytest -m browser`` the headless-Chromium one. With pytest-xdist (``--dist loadgroup``)
  each browser module goes to one of ``BROWSER_LANES`` lanes (one group each: one process, one
  Chromium, its modules one after another), balanced by ``MODULE_SECONDS``; the fast tests fill the
  other processes. Browser fixtures: ``tests/browser/conftest.py``.
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
    folder = Path(tempfile.mkdtemp(prefix="mneme-site-"))
    _SERVER = SiteServer(folder / "site")
    _SERVER.start()
    os.environ[SharedSite.ENV] = SharedSite(_SERVER.url, folder).to_env()


def pytest_unconfigure(config: pytest.Config) -> None:
    global _SERVER
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


BROWSER_LANES = int(os.environ.get("MNEME_BROWSER_LANES", "1"))
"""How many processes run browser tests side by side (``scripts/test`` starts one more for the fast
tests); a module never spans two lanes (its shared tab boots the engine once). One by default: on a
2-core machine two Chromiums beside the fast tests saved about 10 % of the wall time but starved the
CPU enough for timing-bound tests (a tab's engine start, two tabs at once) to fail now and then."""
MODULE_SECONDS = {
    "test_a11y": 111,
    "test_storage": 60,
    "test_offline": 54,
    "test_updates": 50,
    "test_engine_faults": 48,
    "test_loading": 42,
    "test_table": 42,
    "test_table_phones": 33,
    "test_answer_first": 32,
    "test_offline_copy": 31,
    "test_nothing_lost": 27,
    "test_effect_calculator": 25,
    "test_rules_fidelity": 25,
    "test_robustness": 20,
    "test_calc_forms": 18,
    "test_calc_comparison": 17,
    "test_calc_tools": 17,
    "test_calc_handoff": 15,
    "test_early_start": 11,
    "test_csp": 11,
    "test_search": 9,
    "test_palette": 8,
    "test_calc_smoke": 7,
    "test_rules_calculators": 6,
    "test_recompute": 6,
    "test_table_leftovers": 5,
}
"""Seconds each browser module took in a whole run on a quiet 2-core machine (``--durations=0`` summed
per module, both lanes busy): only to balance the lanes. A module missing here counts as
``DEFAULT_SECONDS``."""
DEFAULT_SECONDS = 10


def browser_lanes(modules: list[str], lanes: int = BROWSER_LANES) -> dict[str, str]:
    """Each module's lane (``browser``, ``browser-2``, ...): the longest module first, into the lane
    with the least time so far; ties go to the earlier lane, so the same modules give the same lanes."""
    names = ["browser", *(f"browser-{n}" for n in range(2, max(1, lanes) + 1))]
    load = dict.fromkeys(names, 0)
    lane_of: dict[str, str] = {}
    for module in sorted(set(modules), key=lambda m: (-MODULE_SECONDS.get(m, DEFAULT_SECONDS), m)):
        lane = min(names, key=lambda name: load[name])
        lane_of[module] = lane
        load[lane] += MODULE_SECONDS.get(module, DEFAULT_SECONDS)
    return lane_of


_LANES = browser_lanes([path.stem for path in BROWSER_DIR.glob("test_*.py")])


def pytest_itemcollected(item: pytest.Item) -> None:
    """Marks each browser test as it is collected: before any hook reads the marks (pytest-xdist's
    loadgroup reads its group in its own ``pytest_collection_modifyitems``, which ran before ours).
    The lanes come from every browser module on disk, not from the selection: every process agrees."""
    if BROWSER_DIR in item.path.parents:
        item.add_marker(pytest.mark.browser)
        item.add_marker(pytest.mark.xdist_group(_LANES.get(item.path.stem, "browser")))


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
