"""MkDocs hook: the site works offline after one visit, installs as an app, and runs under a strict CSP.

- **Service worker** ``sw.js`` at the site root, generated after the build from
  ``docs/assets/offline/sw.js`` (a template, not copied as is): it precaches every built file a
  visitor can need (pages, theme, Pyodide, our wheel) file by file with retries, in a cache named by
  the build's content hash and the site's scope (``cache_name``); what failed is recorded and shown
  (``register.js``: "Available offline", or what is missing with Retry); this site's old caches are
  deleted on activate; a page the player opens comes from the cache when it is there (at once), a
  reload and a page fetched by instant navigation are network-first (cached copy when offline or
  slow); everything else cache-first. ``assets/offline/register.HASH.js`` registers it with a URL
  relative to itself, so a project sub-path (GitHub Pages) works, and offers a waiting new version
  (``data-action="update"``).
- **Accessibility**: ``assets/offline/a11y.css`` (link underlines, dark-scheme button contrast) and
  ``overrides/partials/`` (names for the search dialog and the progress bar).
- **Web manifest** ``manifest.webmanifest`` and PNG/SVG **icons** drawn here (pure Python, nothing
  fetched); ``overrides/main.html`` links them.
- **Content-Security-Policy** as a ``<meta>`` first in every page's ``<head>``: ``default-src 'self'``,
  ``script-src 'self' 'wasm-unsafe-eval'`` plus the hashes of the theme's inline scripts, and the
  hashes of the inline styles the pages use (markdown table alignment). Under ``mkdocs serve`` the
  policy is left out (live reload injects an inline script) and the service worker only clears caches.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import math
import re
import struct
import zlib
from collections.abc import Iterable
from functools import lru_cache
from html import escape
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

__all__ = [
    "CACHE_PREFIX",
    "build_hash",
    "cache_name",
    "content_security_policy",
    "draw_icon",
    "inline_hashes",
    "precache_files",
]

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = "assets/offline/sw.js"  # site path of the template, from browser/offline/
TEMPLATE_SOURCE = ROOT / "browser" / "offline" / "sw.js"
SW_NAME = "sw.js"
MANIFEST = "manifest.webmanifest"
CACHE_PREFIX = "mneme-offline-"
THEME_COLOR = "#673ab7"  # mkdocs-material's "deep purple" primary
BACKGROUND = "#ffffff"
ICONS = {  # site path -> (size, maskable)
    "assets/offline/icon-192.png": (192, False),
    "assets/offline/icon-512.png": (512, False),
    "assets/offline/icon-maskable-512.png": (512, True),
    "assets/offline/apple-touch-icon.png": (180, True),
}
LUNR_LANG = re.compile(r"^assets/javascripts/lunr/(?:min/lunr\.([a-z]+)\.min\.js|(tinyseg|wordcut)\.js)$")
"""Search language packs: only those of the search plugin's languages are precached."""
LUNR_ALWAYS = {"stemmer", "multi"}
LUNR_EXTRA = {"ja": "tinyseg", "th": "wordcut"}

SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.DOTALL | re.IGNORECASE)
STYLE_ELEMENT = re.compile(r"<style\b[^>]*>(.*?)</style>", re.DOTALL | re.IGNORECASE)
STYLE_ATTR = re.compile(r"""<[a-zA-Z][^>]*?\sstyle=(?:"([^"]*)"|'([^']*)')""")
TYPE_ATTR = re.compile(r"""\btype\s*=\s*["']?([^"'\s>]+)""", re.IGNORECASE)
CSP_META = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>\s*')

log = logging.getLogger("mkdocs.hooks.offline")
_state: dict[str, Any] = {"command": "build"}


# ---------------------------------------------------------------- icons (pure Python PNG)


def _png(size: int, rows: list[bytes]) -> bytes:
    """An RGBA PNG of ``size`` x ``size`` from its rows of raw RGBA bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    idat = chunk(b"IDAT", zlib.compress(raw, 9))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + idat + chunk(b"IEND", b"")


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _box(px: float, py: float, half: float, radius: float) -> float:
    """Signed distance from (px, py) >= 0 (relative to the centre) to a rounded square."""
    qx, qy = px - (half - radius), py - (half - radius)
    if qx > 0.0 and qy > 0.0:
        return math.hypot(qx, qy) - radius
    return max(qx, qy) - radius


@lru_cache(maxsize=8)
def draw_icon(size: int, maskable: bool) -> bytes:
    """The site icon: a white die showing five on a deep purple tile (maskable: full-bleed tile).

    Drawn by signed distances with one pixel of anti-aliasing, one quadrant then mirrored."""
    if size % 2:
        raise ValueError("Icon sizes must be even.")
    tile = _rgb(THEME_COLOR)
    half_tile = size / 2 if maskable else size * 0.47
    tile_radius = 0.0 if maskable else size * 0.2
    half_die = size * (0.25 if maskable else 0.3)
    die_radius = half_die * 0.22
    pip_radius = half_die * 0.17
    corner = half_die * 0.5
    half = size // 2
    rows = []
    for y in range(half):
        py = y + 0.5
        row = bytearray()
        for x in range(half):
            px = x + 0.5
            a_tile = 0.5 - _box(px, py, half_tile, tile_radius)
            if a_tile <= 0.0:
                row += b"\0\0\0\0"
                continue
            a_die = 0.5 - _box(px, py, half_die, die_radius)
            if a_die <= 0.0:
                row += bytes((*tile, 255 if a_tile >= 1.0 else round(255 * a_tile)))
                continue
            a_die = min(1.0, a_die)
            d_pip = min(math.hypot(px, py), math.hypot(px - corner, py - corner)) - pip_radius
            a_pip = min(1.0, max(0.0, 0.5 - d_pip)) * a_die
            white = 255 * (a_die - a_pip)
            row += bytes(
                (
                    round(tile[0] * (1 - a_die + a_pip) + white),
                    round(tile[1] * (1 - a_die + a_pip) + white),
                    round(tile[2] * (1 - a_die + a_pip) + white),
                    255 if a_tile >= 1.0 else round(255 * a_tile),
                )
            )
        mirrored = bytearray()
        for x in range(half - 1, -1, -1):
            mirrored += row[4 * x : 4 * x + 4]
        rows.append(bytes(mirrored + row))
    return _png(size, rows[::-1] + rows)


def icon_svg() -> str:
    """The same icon as SVG (for browsers that take a scalable icon)."""
    pips = "".join(
        f'<circle cx="{50 + dx}" cy="{50 + dy}" r="5.1"/>'
        for dx, dy in ((0, 0), (-15, -15), (15, -15), (-15, 15), (15, 15))
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect x="3" y="3" width="94" height="94" rx="20" fill="{THEME_COLOR}"/>'
        '<rect x="20" y="20" width="60" height="60" rx="6.6" fill="#fff"/>'
        f'<g fill="{THEME_COLOR}">{pips}</g></svg>\n'
    )


def manifest(config: MkDocsConfig) -> str:
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
    icons.append(
        {"src": "assets/offline/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}
    )
    data = {
        "name": config.site_name,
        "short_name": "Mneme combat",
        "description": config.site_description or config.site_name,
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME_COLOR,
        "icons": icons,
    }
    return json.dumps(data, indent=2) + "\n"


# ---------------------------------------------------------------- CSP


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def inline_hashes(html: str) -> tuple[set[str], set[str], set[str]]:
    """Hashes of a page's inline scripts (executable ones), ``<style>`` elements and style attributes."""
    scripts = set()
    for attrs, body in SCRIPT.findall(html):
        if re.search(r"\ssrc\s*=", attrs):
            continue
        kind = TYPE_ATTR.search(attrs)
        if kind and "json" in kind.group(1).lower():
            continue  # data blocks are not executed; CSP does not apply
        scripts.add(_sha256(body))
    styles = {_sha256(body) for body in STYLE_ELEMENT.findall(html)}
    attributes = {_sha256(a or b) for a, b in STYLE_ATTR.findall(html)}
    return scripts, styles, attributes


def content_security_policy(scripts: Iterable[str], styles: Iterable[str], attributes: Iterable[str]) -> str:
    """The site's policy: only its own origin; WebAssembly compiles; the theme's inline bits by hash."""
    style_src = ["'self'", *sorted(styles)]
    if attributes:
        style_src += ["'unsafe-hashes'", *sorted(attributes)]
    parts = [
        "default-src 'self'",
        "script-src " + " ".join(["'self'", "'wasm-unsafe-eval'", *sorted(scripts)]),
        "style-src " + " ".join(style_src),
        "img-src 'self' data:",  # the theme's icons are data: SVGs in its CSS
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
    ]
    return "; ".join(parts)


def _apply_csp(site: Path) -> str:
    pages = sorted(site.rglob("*.html"))
    scripts: set[str] = set()
    styles: set[str] = set()
    attributes: set[str] = set()
    texts = {}
    for page in pages:
        text = CSP_META.sub("", page.read_text(encoding="utf-8"))
        texts[page] = text
        found = inline_hashes(text)
        scripts |= found[0]
        styles |= found[1]
        attributes |= found[2]
    # One policy for every page: instant navigation keeps the first page's policy.
    policy = content_security_policy(scripts, styles, attributes)
    meta = f'<meta http-equiv="Content-Security-Policy" content="{escape(policy, quote=False)}">'
    for page, text in texts.items():
        head = re.search(r"<head[^>]*>", text)
        if not head:
            raise PluginError(f"hooks/offline.py: no <head> in {page.relative_to(site)}")
        # Right after <meta charset> (which must come first), before any script or style.
        charset = re.compile(r"\s*<meta charset=[^>]*>").match(text, head.end())
        at = charset.end() if charset else head.end()
        page.write_text(text[:at] + meta + text[at:], encoding="utf-8")
    return policy


# ---------------------------------------------------------------- service worker


def _lunr_languages(config: MkDocsConfig) -> set[str]:
    search = config.plugins.get("material/search") or config.plugins.get("search")
    langs = (getattr(search, "config", {}) or {}).get("lang") or [config.theme.get("language", "en")]
    return {str(lang) for lang in ([langs] if isinstance(langs, str) else langs)}


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


def _template(config: MkDocsConfig) -> str:
    source = TEMPLATE_SOURCE
    if not source.is_file():
        raise PluginError(f"hooks/offline.py: the service worker template {source} is missing")
    return source.read_text(encoding="utf-8")


def service_worker(config: MkDocsConfig, site: Path, serving: bool) -> tuple[str, str, list[str]]:
    """The service worker text, its build hash and precache list (empty under ``mkdocs serve``)."""
    files = [] if serving else precache_files(site, _lunr_languages(config))
    digest = build_hash(site, files) if files else "dev"
    settings = {
        "build": digest,
        "prefix": CACHE_PREFIX,
        "files": [_url(rel) for rel in files],
        "dev": serving,
    }
    text = _template(config)
    start, end = "/*MNEME_OFFLINE*/", "/*END_MNEME_OFFLINE*/"
    head, found, rest = text.partition(start)
    _, found_end, tail = rest.partition(end)
    if not (found and found_end):
        raise PluginError(f"hooks/offline.py: {TEMPLATE} lost its {start} markers")
    body = f"{head}{start} {json.dumps(settings, separators=(',', ':'))} {end}{tail}"
    return body, digest, files


# ---------------------------------------------------------------- hook events


def on_startup(command: str, dirty: bool) -> None:
    _state["command"] = command


def on_files(files: Files, config: MkDocsConfig) -> Files:
    if not TEMPLATE_SOURCE.is_file():
        raise PluginError(f"hooks/offline.py: {TEMPLATE_SOURCE} (the service worker template) is missing")
    # sw.js is written at the site root after the build; register.js (content-hashed) and a11y.css
    # (merged into mneme.HASH.css) come with the engine bundle (sitebuild/bundle.py).
    for path, (size, maskable) in ICONS.items():
        files.append(File.generated(config, path, content=draw_icon(size, maskable)))
    files.append(File.generated(config, "assets/offline/icon.svg", content=icon_svg()))
    files.append(File.generated(config, MANIFEST, content=manifest(config)))
    return files


def on_post_build(config: MkDocsConfig) -> None:
    site = Path(config.site_dir)
    serving = _state.get("command") == "serve"
    if serving:
        log.info("offline: mkdocs serve: no CSP meta (live reload is an inline script); no precache")
    else:
        _apply_csp(site)
    text, digest, files = service_worker(config, site, serving)
    (site / SW_NAME).write_text(text, encoding="utf-8")
    size = sum((site / rel).stat().st_size for rel in files)
    what = f"{len(files)} files ({size / 1e6:.1f} MB)"
    log.info(f"offline: {SW_NAME} precaches {what}, cache {cache_name(digest, '<scope>')}")


def cache_name(digest: str, scope_path: str) -> str:
    """The service worker's cache for one build of the site served at ``scope_path`` (``/sub/path/``):
    by build and by scope, so two sites on one origin never delete each other's caches."""
    return f"{CACHE_PREFIX}{digest}@{scope_path}"
