"""What the browser benches and ``scripts/screenshots.py`` share: the built site, served, and Chromium.

Importing this module puts ``tests`` on ``sys.path`` so ``_site`` (the test suite's server
and site builder) can be used as-is.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from _site import SiteServer, build_site, launch_chromium  # noqa: E402

__all__ = ["ROOT", "served_browser"]


@contextmanager
def served_browser(mounts: dict[str, Path] | None = None) -> Iterator[tuple[str, Path, Any]]:
    """The site built into a temporary folder and served: yields its URL, the folder and a Chromium.

    ``mounts`` (sub-path -> folder) serves other folders on the same origin. The browser is closed
    and the server stopped on the way out.
    """
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder)
        server = SiteServer(site, mounts)
        build_site(server.url, site)
        server.start()
        try:
            with sync_playwright() as pw:
                browser = launch_chromium(pw)
                try:
                    yield server.url, site, browser
                finally:
                    browser.close()
        finally:
            server.stop()
