"""The phone at the table: the browser tab's icon and the installed app's shortcuts point at files and
pages the built site really has (``sitebuild/icons.py``, ``sitebuild/offline.py``, ``mkdocs.yml``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sitebuild import icons, offline

ROOT = Path(__file__).resolve().parents[2]


def test_the_favicon_is_the_site_s_own_icon_on_every_page(site: Path) -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(rf"^\s+favicon: {re.escape(icons.FAVICON)}\b", config, re.MULTILINE)
    assert icons.FAVICON in icons.ICONS and (site / icons.FAVICON).is_file()
    page = (site / "table" / "tracker" / "index.html").read_text(encoding="utf-8")
    assert f'rel="icon" href="../../{icons.FAVICON}"' in page


def test_the_app_shortcuts_open_the_tracker_my_character_and_one_attack(site: Path) -> None:
    manifest = json.loads((site / offline.MANIFEST).read_text(encoding="utf-8"))
    shortcuts = {s["name"]: s for s in manifest["shortcuts"]}
    assert list(shortcuts) == ["Combat tracker", "My character", "One attack"]
    for shortcut in shortcuts.values():
        assert not shortcut["url"].startswith(("/", "http")), shortcut  # relative: any sub-path works
        assert (site / shortcut["url"] / "index.html").is_file(), shortcut["url"]
        assert len(shortcut["short_name"]) <= 12
        for icon in shortcut["icons"]:
            assert (site / icon["src"]).is_file()
    attack = (site / shortcuts["One attack"]["url"] / "index.html").read_text(encoding="utf-8")
    assert "<h1" in attack and "One attack" in attack
