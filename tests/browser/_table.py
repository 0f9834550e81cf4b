"""The table apps' test helpers (character sheet, tracker), shared by the table, storage, phone and
nothing-lost browser tests: storage keys, a character, how to seed storage and open an app."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Tab, is_shared

TABLE_MODULE = [
    pytest.mark.browser,
    pytest.mark.returning_visit,
    pytest.mark.usefixtures("nothing_stored"),
]
"""A table module's marks: a returning visitor's context (its engine restored from the snapshot), each
test starting with nothing stored, in the module's one tab (the engine started once, each app reached by a
link: ``seed`` writes the storage in that tab first) or, marked ``own_page``, on a page of its own (for an
init script or a route of its own)."""

BOOT_MS = 90_000
STEP_MS = 30_000
SCOPE = "mneme@/mneme/:"
"""Storage keys are named by the site's base path (the test server's sub-path, tests/_site.py)."""
STORE = SCOPE + "characters.v1"
"""The single store of earlier versions: seeded here, the page splits it into one key per character."""
DOCS = SCOPE + "character.v1:"
TRACKER = SCOPE + "tracker.v1"
PHONE = {"width": 360, "height": 780}


def ada(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "schema": "mneme-character",
        "version": 1,
        "id": "ada-1",
        "name": "Ada",
        "characteristics": {"strength": 7, "dexterity": 8, "endurance": 9},
        "skills": [{"name": "Gun Combat", "level": 1, "characteristic": "dexterity"}],
        "armor": 4,
        "weapons": [
            {
                "name": "Pistol",
                "damage": "3d6",
                "rate_of_attack": 2,
                "skill": "Gun Combat",
                "characteristic": "dexterity",
            }
        ],
        "damage": 4,
        "notes": "",
    }
    doc.update(changes)
    return doc


def store_of(*characters: dict[str, Any]) -> str:
    return json.dumps(
        {
            "schema": "mneme-characters",
            "version": 1,
            "characters": list(characters),
            "active": characters[0]["id"],
        }
    )


def stored(page: Any, key: str) -> str | None:
    value: str | None = page.evaluate("k => localStorage.getItem(k)", key)
    return value


def saved(page: Any) -> dict[str, Any]:
    """The characters on the device, in order, and the drafts waiting for a check (one key per character)."""
    found: dict[str, Any] = page.evaluate(
        """(prefix) => {
          const docs = Object.keys(localStorage)
            .filter((k) => k.startsWith(prefix) && !k.includes(":backup:"))
            .map((k) => JSON.parse(localStorage.getItem(k)))
            .sort((a, b) => (a.order || 0) - (b.order || 0));
          return {
            characters: docs.map((d) => d.character),
            drafts: Object.fromEntries(docs.filter((d) => d.draft).map((d) => [d.character.id, d.draft])),
          };
        }""",
        DOCS,
    )
    return found


SEED_JS = "(v) => { for (const k in v) if (localStorage.getItem(k) === null) localStorage.setItem(k, v[k]); }"


def seed(page: Any, values: dict[str, str]) -> None:
    """Write ``values`` into localStorage before the site's scripts read it, unless a key is already set:
    in a returning_visit module's tab (``Tab``), at once, on a page with no app (``Tab.park``), so the next
    page goes to reads them; else before the site's scripts run, in every page of a fresh context, and in
    a returning_visit module's shared context, in this page only."""
    if isinstance(page, Tab):
        page.park()
        page.evaluate(SEED_JS, values)
        return
    (page if is_shared(page.context) else page.context).add_init_script(f"({SEED_JS})({json.dumps(values)})")


def run_first(page: Any, script: str) -> None:
    """``script`` (an expression) before the site's scripts use what it changes: in a returning_visit
    module's tab, run in its window at once (``Tab.run_first``: the tab is closed after the test); on a
    page of its own, as its init script."""
    if isinstance(page, Tab):
        page.run_first(script)
    else:
        page.add_init_script(script)


def open_table(page: Any, which: str, setup: dict[str, str] | None = None, script: str = "") -> Any:
    """Open table/WHICH/ at phone width (``setup`` first written into localStorage, ``script`` run first
    (``run_first``)); wait for the engine."""
    page.set_viewport_size(PHONE)
    if setup:
        seed(page, setup)
    if script:
        run_first(page, script)
    page.goto(f"table/{which}/")
    root = page.locator(f'[data-mneme-table="{which}"]')
    expect(root).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    return root
