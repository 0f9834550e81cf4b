"""The Content-Security-Policy every page carries as a ``<meta>`` first in its ``<head>``.

``default-src 'self'``; ``worker-src 'self' blob:`` (the engine's worker, from its text in the page);
``script-src 'self' 'wasm-unsafe-eval'`` plus the hashes of the theme's inline
scripts; the hashes of the inline styles the pages use (markdown table alignment). One policy for every
page: instant navigation keeps the first page's policy.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from html import escape
from pathlib import Path

from sitebuild.errors import BuildError

__all__ = ["apply_csp", "content_security_policy", "inline_hashes"]

SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.DOTALL | re.IGNORECASE)
STYLE_ELEMENT = re.compile(r"<style\b[^>]*>(.*?)</style>", re.DOTALL | re.IGNORECASE)
STYLE_ATTR = re.compile(r"""<[a-zA-Z][^>]*?\sstyle=(?:"([^"]*)"|'([^']*)')""")
TYPE_ATTR = re.compile(r"""\btype\s*=\s*["']?([^"'\s>]+)""", re.IGNORECASE)
EXECUTED = re.compile(r"module|(text|application)/(x-)?(java|ecma)script", re.IGNORECASE)
"""Script types a browser runs (with no type, it runs too); any other type is a data block."""
CSP_META = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>\s*')


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def inline_hashes(html: str) -> tuple[set[str], set[str], set[str]]:
    """Hashes of a page's inline scripts (executable ones), ``<style>`` elements and style attributes."""
    scripts = set()
    for attrs, body in SCRIPT.findall(html):
        if re.search(r"\ssrc\s*=", attrs):
            continue
        kind = TYPE_ATTR.search(attrs)
        if kind and not EXECUTED.fullmatch(kind.group(1)):
            continue  # data blocks (JSON, the worker's text, the held theme) are never run: no CSP
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
        # blob: the engine's worker, run by the early start from its text inlined in the page.
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
    ]
    return "; ".join(parts)


def apply_csp(site: Path) -> str:
    """Writes the one policy into every page of the built ``site``; returns it."""
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
            raise BuildError(f"no <head> in {page.relative_to(site)}: the policy has nowhere to go")
        # Right after <meta charset> (which must come first), before any script or style.
        charset = re.compile(r"\s*<meta charset=[^>]*>").match(text, head.end())
        at = charset.end() if charset else head.end()
        page.write_text(text[:at] + meta + text[at:], encoding="utf-8")
    return policy
