"""The one helper that builds the real site, serves it and starts Chromium, for tests, benches and scripts.

- ``mkdocs_build``: ``mkdocs build`` of a project (the real one by default) into a folder, the finished
  process; ``build_site`` is the same for the real site, raising with the build's own output on failure.
- ``SharedSite``: the test session's one build of the real site, made on first use and shared by every
  test that reads the built files or drives them in the browser, across pytest-xdist's processes. The
  session's first process (``tests/conftest.py``) starts a server on a free port before anything is
  built, so the build can name its own address (``SITE_URL``: the theme's instant navigation matches
  sitemap URLs to the page with their port) and every process then serves the same files from it.
- ``SiteServer``: a quiet static server on 127.0.0.1 that serves a folder under ``SUB_PATH`` (a project
  sub-path, as on GitHub Pages) and other folders under their own sub-paths (other sites of one origin).
- ``launch_chromium``: Debian's Chromium through Playwright (never Playwright's own browser download); the
  tests' browser adds ``TEST_ARGS`` (what it spends around a page, never what a page does).
- ``load_hook``, ``zip_of``: a build hook loaded by path; a zip archive made in memory.
"""

from __future__ import annotations

import fcntl
import functools
import http.server
import importlib.util
import io
import os
import subprocess
import sys
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar
from urllib.parse import urlsplit

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "PLAYWRIGHT_DISABLED_FEATURES",
    "ROOT",
    "SUB_PATH",
    "TEST_ARGS",
    "SharedSite",
    "SiteServer",
    "build_site",
    "launch_chromium",
    "load_hook",
    "mkdocs_build",
    "zip_of",
]

ROOT = Path(__file__).resolve().parent.parent
SUB_PATH = "/mneme/"
BUILD_TIMEOUT_S = 600
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
    # No host but this machine's test servers: a request elsewhere fails at once, wherever it comes from.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]


def mkdocs_build(
    dest: Path,
    site_url: str,
    *,
    config: Path = ROOT / "mkdocs.yml",
    strict: bool = True,
    label: str = "",
) -> subprocess.CompletedProcess[str]:
    """``mkdocs build`` of ``config`` into ``dest`` for ``site_url``; the finished process.

    ``label`` (``MNEME_BUILD_LABEL``) makes another build of the same sources (a new deploy).
    """
    args = [sys.executable, "-m", "mkdocs", "build", "--clean", "-f", str(config), "-d", str(dest)]
    return subprocess.run(
        args + (["--strict"] if strict else []),
        cwd=config.parent,
        env={**os.environ, "SITE_URL": site_url, "MNEME_BUILD_LABEL": label, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
    )


def build_site(site_url: str, dest: Path, label: str = "") -> None:
    """The real site built strictly into ``dest`` for ``site_url``; raises with mkdocs' output if not."""
    done = mkdocs_build(dest, site_url, label=label)
    if done.returncode != 0:
        raise RuntimeError(f"mkdocs build failed:\n{done.stdout}\n{done.stderr[-6000:]}")


@dataclass(frozen=True)
class SharedSite:
    """The session's one build of the real site, served at ``url`` from ``folder``."""

    url: str
    folder: Path

    ENV: ClassVar[str] = "MNEME_TEST_SITE"
    """Where the session's first process tells the others (pytest-xdist workers inherit it)."""

    def to_env(self) -> str:
        return f"{self.url} {self.folder}"

    @classmethod
    def from_env(cls) -> SharedSite | None:
        value = os.environ.get(cls.ENV, "")
        if not value:
            return None
        url, folder = value.split(" ", 1)
        return cls(url, Path(folder))

    def built(self) -> Path:
        """The built site, building it first if no process of the session has (one build, under a lock)."""
        site = self.folder / "site"
        with (self.folder / "build.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            failed = self.folder / "build-failed.txt"
            if failed.is_file():
                raise RuntimeError(failed.read_text(encoding="utf-8"))
            if not (self.folder / "built").is_file():
                done = mkdocs_build(site, self.url)
                if done.returncode != 0:
                    message = f"mkdocs build --strict failed:\n{done.stderr[-6000:]}"
                    failed.write_text(message, encoding="utf-8")
                    raise RuntimeError(message)
                (self.folder / "built").touch()
        return site


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


class _Server(http.server.ThreadingHTTPServer):
    """A browser that drops a connection mid-file (a page closed, a download cut) is no error here."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class SiteServer:
    """A thread-based static server on a free 127.0.0.1 port: ``directory`` under SUB_PATH, and each
    of ``mounts`` (sub-path -> folder, e.g. ``{"/other/": path}``) under its own sub-path."""

    def __init__(self, directory: Path, mounts: dict[str, Path] | None = None) -> None:
        folders = {sub: str(folder) for sub, folder in (mounts or {}).items()}
        handler = functools.partial(_Handler, directory=str(directory), mounts=folders)
        self.httpd = _Server(("127.0.0.1", 0), handler)
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


PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
"""The features Playwright (the pinned version) turns off in its own ``--disable-features``. Chromium
keeps only the last ``--disable-features`` it is given, so a list of ours must repeat these
(``tests/browser/test_chromium_flags.py`` checks it against what Playwright passes)."""
TEST_ARGS = [
    "--js-flags=--no-wasm-dynamic-tiering,--no-wasm-tier-up",
    "--disable-features="
    + ",".join([*PLAYWRIGHT_DISABLED_FEATURES, "WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]),
]
"""Chromium flags for the tests only: the benches keep a phone browser's defaults, and neither flag
changes what a page does, only what the browser spends around it. Measured by the CPU time of the
browser's processes and threads, the same modules with and without:
- No WebAssembly tier-up. V8 compiles each function that runs hot a second time, with its optimising
  compiler, on background threads: about 2 s of CPU per cold engine start, which a test's short-lived
  engine never earns back. The renderers' background threads fell 23.2 -> 9.3 CPU-s in two
  engine-start modules and 14.3 -> 7.1 in two computing ones; the engine's own thread (Python in the
  baseline code) stayed the same (15.2 / 14.6 and 7.4 / 7.2 CPU-s).
- No address-bar popup. Headless Chromium opens each new window with its address bar's popup, two
  hidden WebUI pages in a renderer of their own: a new context and tab cost 1.8-2.1 CPU-s with them,
  0.5 without."""


def launch_chromium(playwright: Any, *, for_tests: bool = False) -> Any:
    """Debian's Chromium, headless, with the project's flags (and ``TEST_ARGS`` for the tests; never
    Playwright's own download)."""
    if not Path(CHROMIUM).exists():
        raise FileNotFoundError(f"{CHROMIUM} is missing: install Debian's chromium (scripts/test does it)")
    args = [*CHROMIUM_ARGS, *(TEST_ARGS if for_tests else [])]
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)


def zip_of(files: dict[str, str]) -> bytes:
    """A zip archive in memory holding ``files`` (name -> text)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def load_hook(name: str) -> ModuleType:
    """hooks/NAME.py, loaded by path (putting hooks/ on sys.path would shadow the calculators package)."""
    spec = importlib.util.spec_from_file_location(f"mneme_{name}_hook", ROOT / "hooks" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
