"""The player's data in the built site, in headless Chromium: nothing lost, never mixed.

- Many tabs, one truth: two tabs of one browser edit characters; both edits survive and each tab
  shows the other's; the tracker hears the other tab too.
- Bounded input: a 7,400-deep character link is refused with a sentence (the engine lives on and
  saves the next character); a deeply nested stored tracker is kept aside, not a broken page.
- Engine death: a fatal error in the worker restarts the engine once by itself; a second is said.
- Backups and honest messages: unreadable stores kept in dated backups with download and restore;
  storage full or blocked is said, never "Saved"; "Download file" exports the character shown now;
  an over-long link is refused, never cut.
- Scope: two copies of the site under two sub-paths of one origin keep their own characters.
- Local first: with the engine blocked, a new character's name survives a reload.

The tests share one context, a returning visitor's (its engine restored, not booted cold), and start
with nothing stored (``nothing_stored``). Most share its one tab too (the engine started once, each app
reached by a link; storage that fills up is a script run in that tab, which is then closed); the one
with other sites gets a page of its own; the three that change how the engine's files load or storage
works get a fresh context.
"""

from __future__ import annotations

import base64
import functools
import http.server
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from _site import _Handler
from playwright.sync_api import expect

from table import tracker as table_tracker
from table.character import MAX_NESTING

from . import _table
from ._table import BOOT_MS, DOCS, PHONE, STEP_MS, STORE, TRACKER, ada, open_table, saved, store_of, stored

pytestmark = _table.TABLE_MODULE

BACKUP = STORE + ":backup:"


def characters(page: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = saved(page)["characters"]
    return found


def backups_of(page: Any, key: str) -> list[str]:
    found: list[str] = page.evaluate(
        "k => Object.keys(localStorage).filter((x) => x.startsWith(k + ':backup:')).sort()", key
    )
    return found


def settled(page: Any, read: Callable[[], Any], want: Any) -> None:
    """Wait (up to STEP_MS) until ``read()`` gives ``want``: storage settles once the engine has checked."""
    got = read()
    for _ in range(STEP_MS // 50):
        if got == want:
            return
        page.wait_for_timeout(50)
        got = read()
    assert got == want


def new_character(page: Any, name: str) -> None:
    page.click('[data-action="new"]')
    page.fill('[data-path="name"]', name)


# ---------------------------------------------------------------- many tabs, one truth


def test_two_tabs_editing_different_characters_keep_both_edits_and_see_each_other(
    page: Any, context: Any
) -> None:
    open_table(page, "character", {STORE: store_of(ada())})
    expect(page.locator('[data-derived="hp"]')).to_have_text("24", timeout=BOOT_MS)  # one engine at a time
    other = context.new_page()
    open_table(other, "character")
    expect(other.locator('[data-derived="hp"]')).to_have_text("24", timeout=BOOT_MS)

    new_character(other, "Bruno")  # tab B adds Bruno...
    expect(other.locator(".mt-status")).to_have_text("Saved on this device: Bruno.", timeout=STEP_MS)
    page.fill('[data-path="armor"]', "6")  # ...while tab A, which loaded before Bruno existed, edits Ada
    expect(page.locator(".mt-status")).to_have_text("Saved on this device: Ada.", timeout=STEP_MS)

    names = {c["name"]: c for c in characters(page)}
    assert set(names) == {"Ada", "Bruno"}, "a stale tab overwrote the other's character"
    assert names["Ada"]["armor"] == 6
    # Each tab shows the other's change: A lists Bruno; B, back on Ada, shows armor 6.
    expect(page.locator(".mt-picker option")).to_have_text(["Ada", "Bruno"], timeout=STEP_MS)
    other.locator(".mt-picker").select_option(label="Ada")
    expect(other.locator('[data-path="armor"]')).to_have_value("6")

    # Both tabs on Ada, editing different fields of the same character: both fields survive,
    # and each tab shows the other's field a moment later, saying it reloaded it.
    page.fill('[data-path="characteristics.strength"]', "9")
    expect(other.locator('[data-path="characteristics.strength"]')).to_have_value("9", timeout=STEP_MS)
    expect(other.locator(".mt-status")).to_contain_text("another tab")
    other.fill('[data-path="notes"]', "left-handed")
    expect(page.locator('[data-path="notes"]')).to_have_value("left-handed", timeout=STEP_MS)
    expect(page.locator('[data-derived="hp"]')).to_have_text("26", timeout=STEP_MS)
    settled(
        page,
        lambda: {c["name"]: (c["characteristics"]["strength"], c["notes"]) for c in characters(page)},
        {"Ada": (9, "left-handed"), "Bruno": (7, "")},
    )
    other.close()


def test_the_tracker_in_two_tabs_keeps_both_changes(page: Any, context: Any) -> None:
    open_table(page, "tracker")
    expect(page.locator(".mt-sticky .mt-status")).to_have_text(
        "A new tracker: add combatants below.", timeout=BOOT_MS
    )
    other = context.new_page()
    open_table(other, "tracker")
    expect(other.locator(".mt-sticky .mt-status")).to_have_text(
        "A new tracker: add combatants below.", timeout=BOOT_MS
    )
    for tab, name in ((page, "Goon"), (other, "Guard")):
        form = tab.locator("[data-add]")
        form.locator('[data-field="name"]').fill(name)
        form.locator('[data-field="mode"]').select_option("ambush")
        form.locator('[data-action="add"]').click()
        expect(tab.locator("[data-combatant] [data-name]", has_text=name)).to_have_count(1, timeout=STEP_MS)
    # The first tab hears the second: it shows both, and the store holds both.
    expect(page.locator("[data-combatant]")).to_have_count(2, timeout=STEP_MS)
    expect(page.locator(".mt-sticky .mt-status")).to_have_text("Reloaded a change made in another tab.")
    fight = json.loads(stored(page, TRACKER) or "")
    assert sorted(c["name"] for c in fight["combatants"]) == ["Goon", "Guard"]
    other.close()


# ---------------------------------------------------------------- bounded input, engine death


def deep_link(depth: int = 7400) -> str:
    text = "[" * depth + "]" * depth
    return "character=" + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def test_a_7400_deep_character_link_is_refused_and_the_same_page_then_saves_a_character(page: Any) -> None:
    link = deep_link()
    assert len(link) < 20_000  # under the import limit: it reaches the nesting check, not the size one
    open_table(page, "character")
    page.goto(f"table/character/#{link}")
    expect(page.locator("[data-import-message]")).to_have_text(
        f"The link's character was not imported: This is not a character: it nests deeper than "
        f"{MAX_NESTING} levels.",
        timeout=BOOT_MS,
    )
    new_character(page, "Zed")
    expect(page.locator(".mt-status")).to_have_text("Saved on this device: Zed.", timeout=STEP_MS)
    expect(page.locator('[data-derived="hp"]')).to_have_text("21")  # the engine still answers
    assert [c["name"] for c in characters(page)] == ["Zed"]
    assert page.evaluate("() => window.mnemeEngine.stats.restarts") == 0


def test_a_deeply_nested_stored_tracker_is_kept_aside_and_a_new_fight_starts(page: Any) -> None:
    empty = json.dumps({**table_tracker.empty_tracker(), "combatants": []}, separators=(",", ":"))
    text = empty.replace('"combatants":[]', '"combatants":[' + "[" * 5000 + "]" * 5000 + "]")
    assert len(text) >= len(empty) + 10_000
    open_table(page, "tracker", {TRACKER: text})
    expect(page.locator("[data-tracker-error]")).to_contain_text("kept aside below", timeout=BOOT_MS)
    expect(page.locator("[data-tracker-error]")).to_contain_text("Too deeply nested")
    kept = backups_of(page, TRACKER)
    assert len(kept) == 1 and stored(page, kept[0]) == text
    expect(page.locator("[data-backups] [data-action='backup-download']")).to_have_count(1)
    form = page.locator("[data-add]")
    form.locator('[data-field="name"]').fill("Goon")
    form.locator('[data-action="add"]').click()
    expect(page.locator("[data-combatant]")).to_have_count(1, timeout=STEP_MS)
    page.reload()  # no longer broken on every load, and no second copy of the same backup
    expect(page.locator("[data-combatant]")).to_have_count(1, timeout=BOOT_MS)
    expect(page.locator("[data-tracker-error]")).to_have_text("")
    assert backups_of(page, TRACKER) == kept


CRASH = 'if (msg.module === "test.crash") (function f() { f(); })();\n'
"""Injected by the test into the served worker: a real JavaScript stack overflow inside a call."""


@pytest.mark.first_visit  # the worker file is served changed: an engine of its own
def test_an_engine_that_dies_is_restarted_once_by_itself_and_a_second_death_is_said(
    page: Any, context: Any, site_dir: Path
) -> None:
    (worker,) = (site_dir / "assets/calculators").glob("worker*.js")
    source = worker.read_text(encoding="utf-8")
    anchor = "      await booted;\n      const text = runtime.call_json("
    assert anchor in source
    crashing = anchor.replace("await booted;\n", "await booted;\n" + CRASH)
    context.route(
        f"**/{worker.name}",
        lambda route: route.fulfill(body=source.replace(anchor, crashing), content_type="text/javascript"),
    )

    def page_with_crashing_worker(route: Any) -> None:
        # The early start runs the worker from its text inlined in the page: that copy crashes too.
        if route.request.resource_type != "document":
            route.fallback()
            return
        response = route.fetch()
        route.fulfill(response=response, body=response.text().replace(anchor, crashing))

    context.route("**/*", page_with_crashing_worker)
    open_table(page, "character", {STORE: store_of(ada())})
    expect(page.locator('[data-derived="hp"]')).to_have_text("24", timeout=BOOT_MS)
    ask = """async (module) => {
      try { await window.mnemeEngine.call(module, "derive_tracker", {tracker: {}}); return "answered"; }
      catch (e) { return e.message; }
    }"""
    assert "stopped (Maximum call stack size exceeded) and was restarted" in page.evaluate(ask, "test.crash")
    assert page.evaluate("() => window.mnemeEngine.stats.restarts") == 1
    assert page.evaluate(ask, "table.api") == "answered"  # the restarted engine
    assert "stopped again" in page.evaluate(ask, "test.crash")
    # No third start by itself; the next request (what Retry does) starts a fresh engine.
    starts = page.evaluate("() => window.mnemeEngine.stats.engineStarts")
    assert page.evaluate(ask, "table.api") == "answered"
    assert page.evaluate("() => window.mnemeEngine.stats.engineStarts") == starts + 1


# ---------------------------------------------------------------- backups and honest messages


def test_a_store_shaped_as_a_list_is_kept_aside_and_its_characters_can_be_restored(page: Any) -> None:
    broken = json.dumps([None, ada(), 7])
    open_table(page, "character", {STORE: broken})
    expect(page.locator(".mt-empty")).to_contain_text("No character on this device yet")
    kept = backups_of(page, STORE)
    assert len(kept) == 1 and stored(page, kept[0]) == broken
    box = page.locator("[data-backups]")
    expect(box).to_be_visible()
    with page.expect_download() as download:
        box.locator('[data-action="backup-download"]').click()
    assert Path(download.value.path()).read_text(encoding="utf-8") == broken
    box.locator('[data-action="backup-restore"]').click()
    expect(page.locator(".mt-status")).to_have_text(
        "Restored 1 of 3 entries from the backup; the backup stays until you forget it.", timeout=BOOT_MS
    )
    expect(page.locator('[data-path="name"]')).to_have_value("Ada")
    assert [c["name"] for c in characters(page)] == ["Ada"]

    # A second corruption gets a backup of its own: the first is never overwritten.
    ada_id = characters(page)[0]["id"]
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [DOCS + ada_id, "{not json"])
    page.reload()
    expect(page.locator('[data-mneme-table="character"]')).to_have_attribute("data-state", "ready")
    again = backups_of(page, STORE)
    assert len(again) == 2 and stored(page, again[0]) == broken and stored(page, again[1]) == "{not json"


QUOTA = """(() => {
  const set = Storage.prototype.setItem;
  Storage.prototype.setItem = function (k, v) {
    if (window.__full) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    return set.call(this, k, v);
  };
})()"""


BLOCKED = """Object.defineProperty(window, "localStorage", {
  get() { throw new DOMException("The operation is insecure.", "SecurityError"); },
});"""


@pytest.mark.first_visit  # a browser that blocks storage from its first visit on: no returning state
def test_blocked_storage_is_said_and_the_page_still_works(page: Any, page_log: Any) -> None:
    page_log.allow("insecure|localStorage")
    page.add_init_script(BLOCKED)
    open_table(page, "character")
    expect(page.locator(".mt-status")).to_contain_text("This browser blocks storage for this site")
    new_character(page, "Mira")
    expect(page.locator(".mt-status")).to_have_text(
        "Not saved on this device: this browser blocks storage for this site, so it is kept on this page "
        "only until you close it. Download the file to keep it.",
        timeout=STEP_MS,
    )
    expect(page.locator('[data-derived="hp"]')).to_have_text("21", timeout=BOOT_MS)
    expect(page.locator('[data-path="name"]')).to_have_value("Mira")


def test_download_file_exports_the_character_shown_now(page: Any) -> None:
    open_table(page, "character", {STORE: store_of(ada(), ada(id="bo-2", name="Bo"))})
    expect(page.locator('[data-derived="hp"]')).to_have_text("24", timeout=BOOT_MS)
    page.locator(".mt-picker").select_option(label="Bo")
    page.fill('[data-path="armor"]', "9")
    with page.expect_download() as download:  # at once, before any check of the edit
        page.click('[data-action="export-file"]')
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert (exported["name"], exported["armor"]) == ("Bo", 9)


def test_an_over_long_character_link_is_refused_never_cut(page: Any) -> None:
    open_table(page, "character")
    link = "character=" + "A" * 25_000
    page.goto(f"table/character/#{link}")
    expect(page.locator("[data-import-message]")).to_have_text(
        f"The link's character was not imported: the link is too long to be a character "
        f"({len(link)} characters; at most 20000).",
        timeout=STEP_MS,
    )
    assert characters(page) == []


# ---------------------------------------------------------------- tracker


def test_a_saved_character_joins_with_initiative_and_its_damage_goes_back_to_my_character(page: Any) -> None:
    open_table(page, "tracker", {STORE: store_of(ada())})
    page.locator('[data-field="mine-roll"]').fill("")  # empty: the tracker rolls it
    page.click('[data-action="add-mine"]')
    ada_card = page.locator("[data-combatant]")
    expect(ada_card).to_have_count(1, timeout=STEP_MS)
    expect(ada_card.locator("[data-initiative]")).not_to_have_text("?")
    expect(page.locator("[data-current]")).to_have_text("Ada acts")
    expect(page.locator(".mt-sticky .mt-status")).to_contain_text("Ada joins the fight and rolls")

    ada_card.locator('[data-field="rolls"]').fill("5")
    ada_card.locator('[data-action="hit"]').click()
    expect(ada_card.locator("[data-damage]")).to_have_text("9 damage", timeout=STEP_MS)
    page.locator(".mt-rulings summary").click()
    page.click('[data-action="save-all-damage"]')
    expect(page.locator(".mt-sticky .mt-status")).to_have_text(
        "Saved to My character: Ada damage taken 4 \u2192 9.", timeout=STEP_MS
    )
    assert characters(page)[0]["damage"] == 9


# ---------------------------------------------------------------- storage that fills up (the module's
# tab closed after it), two other sites (a page of their own)


def test_storage_full_is_said_and_nothing_is_lost(page: Any) -> None:
    open_table(page, "character", {STORE: store_of(ada())}, script=QUOTA)
    expect(page.locator('[data-derived="hp"]')).to_have_text("24", timeout=BOOT_MS)
    before = saved(page)
    page.evaluate("() => { window.__full = true; }")
    page.fill('[data-path="name"]', "Ada Lovelace")
    expect(page.locator(".mt-status")).to_have_text(
        "Not saved on this device: this browser's storage is full. Download the file to keep it.",
        timeout=STEP_MS,
    )
    assert saved(page) == before  # nothing half-written
    expect(page.locator('[data-path="name"]')).to_have_value("Ada Lovelace")  # nothing lost on the page
    with page.expect_download() as download:  # and the way out works: the file has the typed name
        page.click('[data-action="export-file"]')
    assert json.loads(Path(download.value.path()).read_text(encoding="utf-8"))["name"] == "Ada Lovelace"
    page.evaluate("() => { window.__full = false; }")
    page.fill('[data-path="notes"]', "space again")
    expect(page.locator(".mt-status")).to_have_text("Saved on this device: Ada Lovelace.", timeout=STEP_MS)
    ada_now = characters(page)[0]
    assert ada_now["name"] == "Ada Lovelace" and ada_now["notes"] == "space again"

    # The tracker says so too, and keeps showing the fight.
    page.goto("table/tracker/")
    expect(page.locator('[data-mneme-table="tracker"]')).to_have_attribute(
        "data-state", "ready", timeout=BOOT_MS
    )
    page.evaluate("() => { window.__full = true; }")
    page.click('[data-action="add-mine"]')
    expect(page.locator(".mt-sticky .mt-status")).to_contain_text(
        "Not saved on this device: this browser's storage is full.", timeout=STEP_MS
    )
    expect(page.locator("[data-combatant]")).to_have_count(1)
    assert stored(page, TRACKER) is None


# ---------------------------------------------------------------- scope: two sites on one origin


class _TwoSites(_Handler):
    """Serves one built site under /a/ and under /b/ (two project sites of one account)."""

    def translate_path(self, path: str) -> str:
        parts = urlsplit(path).path
        for prefix in ("/a/", "/b/"):
            if parts.startswith(prefix):
                return http.server.SimpleHTTPRequestHandler.translate_path(self, "/" + path[len(prefix) :])
        return str(Path(self.directory) / "__outside__")


@pytest.fixture
def two_sites(site_dir: Path) -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_TwoSites, directory=str(site_dir))
    )
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.own_page  # two other sites: the module's tab stays on this one
def test_two_copies_of_the_site_under_two_sub_paths_keep_their_own_characters(
    page: Any, two_sites: str
) -> None:
    page.set_viewport_size(PHONE)
    for site, name in (("a", "Alma"), ("b", "Bert")):
        page.goto(f"{two_sites}/{site}/table/character/")
        expect(page.locator('[data-mneme-table="character"]')).to_have_attribute(
            "data-state", "ready", timeout=BOOT_MS
        )
        expect(page.locator(".mt-empty")).to_be_visible()  # the other site's character is not read
        new_character(page, name)
        expect(page.locator(".mt-status")).to_have_text(f"Saved on this device: {name}.", timeout=BOOT_MS)
    page.goto(f"{two_sites}/a/table/character/")
    expect(page.locator('[data-path="name"]')).to_have_value("Alma", timeout=BOOT_MS)
    expect(page.locator(".mt-picker option")).to_have_text(["Alma"])
    keys = page.evaluate("() => Object.keys(localStorage).filter((k) => k.includes(':character.v1:')).sort()")
    assert [k.split("character.v1:")[0] for k in keys] == ["mneme@/a/:", "mneme@/b/:"]


# ---------------------------------------------------------------- local first


@pytest.mark.first_visit  # no engine at all: nothing of it cached or restored
def test_with_the_engine_blocked_a_new_characters_name_survives_a_reload(page: Any, page_log: Any) -> None:
    page_log.allow(r"wasm|WebAssembly|engine|Failed to fetch|net::ERR")
    page.context.route("**/*.wasm", lambda route: route.abort())
    page.set_viewport_size(PHONE)
    page.goto("table/character/")
    expect(page.locator('[data-mneme-table="character"]')).to_have_attribute("data-state", "ready")
    new_character(page, "Kara")  # written at once, on the keystroke, with no engine to ask
    assert [d["name"] for d in saved(page)["drafts"].values()] == ["Kara"]
    page.reload()
    expect(page.locator('[data-path="name"]')).to_have_value("Kara", timeout=STEP_MS)
    expect(page.locator(".mt-picker option")).to_have_text(["Kara"])
