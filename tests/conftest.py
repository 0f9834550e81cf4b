"""Suite-wide pytest setup.

- Every test under ``tests/browser/`` is marked ``browser``: ``pytest -m "not browser"`` is the fast
  suite and ``pytest -m browser`` the headless-Chromium one. Browser fixtures: ``tests/browser/conftest.py``.
- Hypothesis runs without its per-example deadline: speed is measured in ``bench/``, never asserted in
  tests, and a shared or loaded machine must not turn a slow first import into a failure.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("mneme", deadline=None)
settings.load_profile("mneme")

BROWSER_DIR = Path(__file__).parent / "browser"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_DIR in item.path.parents:
            item.add_marker(pytest.mark.browser)
