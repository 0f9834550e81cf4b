"""Suite-wide pytest setup.

- Every test under ``tests/browser/`` is marked ``browser``: ``pytest -m "not browser"`` is the fast
  suite and ``pytest -m browser`` the headless-Chromium one. With pytest-xdist they all run in one
  process (one group), beside the fast tests in the other. Browser fixtures: ``tests/browser/conftest.py``.
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


def pytest_itemcollected(item: pytest.Item) -> None:
    """Marks each browser test as it is collected: before any hook reads the marks (pytest-xdist's
    loadgroup reads its group in its own ``pytest_collection_modifyitems``, which ran before ours)."""
    if BROWSER_DIR in item.path.parents:
        item.add_marker(pytest.mark.browser)
        # One process runs every browser test (--dist loadgroup): two Chromiums competing for two
        # cores turned the engine's timing into failures (a retry counted twice, a hand-off read
        # before its values, a page swap that never came) in about one full run in three.
        item.add_marker(pytest.mark.xdist_group("browser"))


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
