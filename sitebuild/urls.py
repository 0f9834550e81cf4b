"""Site paths relative to a page: how a page at one URL links a file at another.

Both are slash-separated site paths (no scheme or host), as the generator names pages
(``rules/damage/``) and files (``assets/calculators/worker.HASH.js``). Behaves as MkDocs'
``get_relative_url`` (a last component with a dot is a file, not a folder), without importing it.
"""

from __future__ import annotations

import posixpath

__all__ = ["relative_url"]


def _parts(path: str) -> list[str]:
    normal = posixpath.normpath("/" + path.lstrip("/"))[1:]
    return normal.split("/") if normal else []


def relative_url(url: str, page: str) -> str:
    """``url`` (a site path) as written in the page at ``page`` (a site path)."""
    folder, _, last = page.rpartition("/")
    if "." in last:
        page = folder
    here, there = _parts(page), _parts(url)
    common = 0
    for a, b in zip(here, there, strict=False):
        if a != b:
            break
        common += 1
    relative = "/".join([".."] * (len(here) - common) + there[common:]) or "."
    return relative + "/" if url.endswith("/") else relative
