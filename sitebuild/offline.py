"""The offline copy and the installed app: the service worker, its precache list, the web manifest.

- **Service worker** ``sw.js`` at the site root, made after the build from ``browser/offline/sw.js`` (a
  template, its settings filled in): it precaches every built file a visitor can need (pages, theme,
  Pyodide, our wheel) file by file with retries, in a cache named by the build's content hash and the
  site's scope (``cache_name``); what failed is recorded and shown (``register.js``: "Available
  offline", or what is missing with Retry); this site's old caches are deleted on activate; a page the
  player opens comes from the cache when it is there (at once), a reload and a page fetched by instant
  navigation are network-first (cached copy when offline or slow); everything else cache-first (the
  engine's WebAssembly from the browser's HTTP cache first when it holds it: V8's code cache).
  ``register.HASH.js`` registers it with a URL relative to itself, so a project sub-path (GitHub
  Pages) works, and offers a waiting new version (``data-action="update"``).
- **Web manifest** ``manifest.webmanifest`` with the icons of ``sitebuild.icons``; every URL relative to
  the site root. ``overrides/main.html`` links them.
- ``finish_site`` is the last step of a build: the policy (``sitebuild.csp``) into every page, then
  the service worker over the finished files. Under a live-reloading preview (``serving``) the policy
  is left out (live reload injects an inline script) and the service worker only clears caches.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path

from sitebuild.csp import apply_csp
from sitebuild.errors import BuildError
from sitebuild.icons import BACKGROUND, FAVICON, ICONS, SVG_PATH, THEME_COLOR, draw_icon, icon_svg

__all__ = [
    "CACHE_PREFIX",
    "build_hash",
    "cache_name",
    "finish_site",
    "generated_files",
    "manifest",
    "precache_files",
    "service_worker",
]

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_SOURCE = ROOT / "browser" / "offline" / "sw.js"
SW_NAME = "sw.js"
MANIFEST = "manifest.webmanifest"
CACHE_PREFIX = "mneme-offline-"
LUNR_LANG = re.compile(r"^assets/javascripts/lunr/(?:min/lunr\.([a-z]+)\.min\.js|(tinyseg|wordcut)\.js)$")
"""Search language packs: only those of the search's languages are precached."""
LUNR_ALWAYS = {"stemmer", "multi"}
FIXED = re.compile(r"(?:^|/)[^/]*\.[0-9a-f]{8,}\.[^/]+$|^assets/pyodide/[0-9a-f]{16}/")
"""Files named by their content's hash (ours, the theme's) or in a folder so named (Pyodide's runtime):
the same name is always the same bytes, so the precache may take them from the browser's HTTP cache
(where the engine has just put them) without asking the server again."""
ENGINE = re.compile(r"^assets/pyodide/|\.whl$")
"""The engine's files: precached last, once the engine's own downloads have filled the HTTP cache."""
LUNR_EXTRA = {"ja": "tinyseg", "th": "wordcut"}


SHORTCUTS = (
    ("Combat tracker", "Tracker", "table/tracker/"),
    ("My character", "Character", "table/character/"),
    ("One attack", "Attack", "calculators/attack/"),
)
"""The installed app's shortcuts (a long press on its icon): name, short name, page."""


def manifest(site_name: str, description: str = "") -> str:
    """The web manifest; every URL relative to it (the site root), so any sub-path works."""
    icons = [
        {
            "src": path,
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "maskable" if maskable else "any",
        }
        for path, (size, maskable) in ICONS.items()
        if "apple" not in path
    ]
    icons.append({"src": SVG_PATH, "sizes": "any", "type": "image/svg+xml", "purpose": "any"})
    data = {
        "name": site_name,
        "short_name": "Mneme combat",
        "description": description or site_name,
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME_COLOR,
        "icons": icons,
        "shortcuts": [
            {"name": name, "short_name": short, "url": url, "icons": [{"src": FAVICON, "sizes": "192x192"}]}
            for name, short, url in SHORTCUTS
        ],
    }
    return json.dumps(data, indent=2) + "\n"


def generated_files(site_name: str, description: str = "") -> dict[str, bytes | str]:
    """What the build adds to the site before it is written, by site path: the icons and the manifest."""
    if not TEMPLATE_SOURCE.is_file():
        raise BuildError(f"{TEMPLATE_SOURCE} (the service worker template) is missing")
    files: dict[str, bytes | str] = {
        path: draw_icon(size, maskable) for path, (size, maskable) in ICONS.items()
    }
    files[SVG_PATH] = icon_svg()
    files[MANIFEST] = manifest(site_name, description)
    return files


def precache_files(site: Path, languages: Iterable[str] = ("en",)) -> list[str]:
    """Every built file a visitor can need, as site paths: all but the service worker itself,
    source maps, gzip twins and search language packs for languages the search does not use."""
    wanted = set(languages)
    extras = {LUNR_EXTRA[lang] for lang in wanted if lang in LUNR_EXTRA}
    out = []
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if not path.is_file() or rel == SW_NAME or rel.endswith((".map", ".gz")):
            continue
        lunr = LUNR_LANG.match(rel)
        if lunr and (lunr.group(1) or lunr.group(2)) not in wanted | LUNR_ALWAYS | extras:
            continue
        out.append(rel)
    return out


def build_hash(site: Path, files: Iterable[str]) -> str:
    """A short hash of the precached files' names and contents: it names the cache."""
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0")
        digest.update(hashlib.sha256((site / rel).read_bytes()).digest())
    return digest.hexdigest()[:16]


def _url(rel: str) -> str:
    """The URL a file is requested by, relative to the site root (directory URLs for index pages)."""
    if rel == "index.html":
        return "./"
    if rel.endswith("/index.html"):
        return rel[: -len("index.html")]
    return rel


def file_sum(path: Path) -> str:
    """The short SHA-256 the service worker checks a cached file's bytes against (16 hex digits)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _template() -> str:
    if not TEMPLATE_SOURCE.is_file():
        raise BuildError(f"the service worker template {TEMPLATE_SOURCE} is missing")
    return TEMPLATE_SOURCE.read_text(encoding="utf-8")


def service_worker(
    site: Path, serving: bool, languages: Iterable[str] = ("en",)
) -> tuple[str, str, list[str]]:
    """The service worker text, its build hash and precache list (empty when ``serving``)."""
    files = [] if serving else precache_files(site, languages)
    digest = build_hash(site, files) if files else "dev"
    settings = {
        "build": digest,
        "prefix": CACHE_PREFIX,
        "files": [_url(rel) for rel in files],
        "sums": [file_sum(site / rel) for rel in files],
        "fixed": [i for i, rel in enumerate(files) if FIXED.search(rel)],
        "engine": [i for i, rel in enumerate(files) if ENGINE.search(rel)],
        "dev": serving,
    }
    text = _template()
    start, end = "/*MNEME_OFFLINE*/", "/*END_MNEME_OFFLINE*/"
    head, found, rest = text.partition(start)
    _, found_end, tail = rest.partition(end)
    if not (found and found_end):
        raise BuildError(f"{TEMPLATE_SOURCE} lost its {start} markers")
    body = f"{head}{start} {json.dumps(settings, separators=(',', ':'))} {end}{tail}"
    return body, digest, files


def finish_site(site: Path, serving: bool, languages: Iterable[str] = ("en",)) -> str:
    """The last step of a build: the policy into every page (not when ``serving``), then ``sw.js``.
    Returns what was done, in a line."""
    if not serving:
        apply_csp(site)
    text, digest, files = service_worker(site, serving, languages)
    (site / SW_NAME).write_text(text, encoding="utf-8")
    if serving:
        return "offline: live preview: no CSP meta (live reload is an inline script); no precache"
    size = sum((site / rel).stat().st_size for rel in files)
    cache = cache_name(digest, "<scope>")
    return f"offline: {SW_NAME} precaches {len(files)} files ({size / 1e6:.1f} MB), cache {cache}"


def cache_name(digest: str, scope_path: str) -> str:
    """The service worker's cache for one build of the site served at ``scope_path`` (``/sub/path/``):
    by build and by scope, so two sites on one origin never delete each other's caches."""
    return f"{CACHE_PREFIX}{digest}@{scope_path}"
