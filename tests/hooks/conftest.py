"""The real site, built once (strictly) for the hook tests that read the built files."""

from __future__ import annotations

from pathlib import Path

import pytest
from _build import mkdocs_build


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built under a project sub-path (``https://example.org/sub/path/``)."""
    dest = tmp_path_factory.mktemp("built-site")
    done = mkdocs_build(dest, "https://example.org/sub/path/")
    assert done.returncode == 0, done.stderr[-4000:]
    return dest
