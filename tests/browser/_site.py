"""Build the site and serve it on 127.0.0.1 under a project sub-path; Chromium launch settings.

Shared by ``tests/browser/conftest.py`` and the ``bench/`` scripts (which put this folder on sys.path).
"""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "ROOT", "SUB_PATH", "SiteServer", "build_site", "launch_chromium"]

ROOT = Path(__file__).resolve().parents[2]
SUB_PATH = "/mneme/"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
]


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site under SUB_PATH only; quiet; correct MIME types for wasm and modules."""

    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".whl": "application/octet-stream",
        ".zip": "application/zip",
    }

    def __init__(self, *args: Any, mounts: dict[str, str] | None = None, **kwargs: Any) -> None:
        self.mounts = mounts or {}
        super().__init__(*args, **kwargs)

    def translate_path(self, path: str) -> str:
        parts = urlsplit(path).path
        for sub_path, folder in self.mounts.items():  # other sites on the same origin
            if parts.startswith(sub_path):
                self.directory = folder
                return super().translate_path("/" + path[len(sub_path) :])
        if not parts.startswith(SUB_PATH):
            return str(Path(self.directory) / "__outside_sub_path__")
        return super().translate_path("/" + path[len(SUB_PATH) :])

    def log_message(self, format: str, *args: Any) -> None:
        pass


class SiteServer:
    """A thread-based static server on a free 127.0.0.1 port: ``directory`` under SUB_PATH, and each
    of ``mounts`` (sub-path -> folder, e.g. ``{"/other/": path}``) under its own sub-path."""

    def __init__(self, directory: Path, mounts: dict[str, Path] | None = None) -> None:
        folders = {sub: str(folder) for sub, folder in (mounts or {}).items()}
        handler = functools.partial(_Handler, directory=str(directory), mounts=folders)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{SUB_PATH}"

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def build_site(site_url: str, dest: Path, label: str = "") -> None:
    """``mkdocs build`` with ``SITE_URL`` set (instant navigation needs it to match the server);
    ``label`` (``MNEME_BUILD_LABEL``) makes another build of the same sources (a new deploy)."""
    env = {**os.environ, "SITE_URL": site_url, "MNEME_BUILD_LABEL": label}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--clean", "--site-dir", str(dest)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        raise RuntimeError(f"mkdocs build failed:\n{done.stdout}\n{done.stderr}")


def launch_chromium(playwright: Any) -> Any:
    """Debian's Chromium, headless, with the project's flags (never Playwright's own download)."""
    if not Path(CHROMIUM).exists():
        raise FileNotFoundError(f"{CHROMIUM} is missing: install Debian's chromium (scripts/test does it)")
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
