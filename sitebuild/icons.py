"""The site's icon, drawn in pure Python (nothing fetched): PNGs for the web manifest and the home screen,
and the same icon as SVG. A white die showing five on the theme's deep purple tile."""

from __future__ import annotations

import math
import struct
import zlib
from functools import lru_cache

__all__ = ["BACKGROUND", "FAVICON", "ICONS", "THEME_COLOR", "draw_icon", "icon_svg"]

THEME_COLOR = "#673ab7"  # mkdocs-material's "deep purple" primary
BACKGROUND = "#ffffff"
ICONS = {  # site path -> (size, maskable)
    "assets/offline/icon-192.png": (192, False),
    "assets/offline/icon-512.png": (512, False),
    "assets/offline/icon-maskable-512.png": (512, True),
    "assets/offline/apple-touch-icon.png": (180, True),
}
SVG_PATH = "assets/offline/icon.svg"
FAVICON = "assets/offline/icon-192.png"
"""The browser tab's icon (``theme.favicon`` in mkdocs.yml) and the app shortcuts' icon."""


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
