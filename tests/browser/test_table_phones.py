"""A table of phones: the fight and the characters shown from the device before the engine starts,
a fight shown to the players through a link and its QR code, what keeps the data between sessions
(persistent storage, install, backups), the screen kept awake, and the character sheet on paper.

Phones at 360 x 780. A second browser context stands for a player's phone. Waits use Playwright's
locator assertions (the site's CSP forbids the eval that string predicates need). The referee's tests
share one context, a returning visitor's, and its one tab, with nothing stored (a phone's browser is a
script run in that tab, which is then closed); the two that show the page before any engine get a fresh
context (a first visit).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from table import character as table_character
from table import tracker as table_tracker

from . import _table
from ._table import BOOT_MS, PHONE, SCOPE, STEP_MS, STORE, TRACKER, run_first, seed, store_of
from ._table import ada as table_ada

pytestmark = _table.TABLE_MODULE

KEPT = SCOPE + "kept.v1"
ENGINE_ERRORS = r"net::ERR_FAILED|Failed to fetch|WebAssembly|wasm|pyodide|engine"

KNIFE = {
    "name": "Knife",
    "damage": "1d6+1",
    "rate_of_attack": 0,
    "skill": "Melee",
    "characteristic": "strength",
}


def ada(**changes: Any) -> dict[str, Any]:
    """The table tests' Ada with two more characteristics, two more skills, a knife and a note."""
    base = table_ada()
    return table_ada(
        **{
            "characteristics": {**base["characteristics"], "intellect": 8, "education": 7},
            "skills": [
                *base["skills"],
                {"name": "Recon", "level": 2, "characteristic": "intellect"},
                {"name": "Medic", "level": 1, "characteristic": "education"},
            ],
            "weapons": [*base["weapons"], KNIFE],
            "notes": "Keeps a spare magazine.",
            **changes,
        }
    )


def a_fight() -> dict[str, Any]:
    """Round 2 of a fight worked out by CPython: Ada (a character) and two adversaries, Ork hurt."""
    t = table_tracker.empty_tracker()
    for combatant in (
        {"name": "Ada", "side": "character", "dexterity": 8, "mode": "entered", "entered": 9},
        {"name": "Ork", "side": "adversary", "dexterity": 9, "mode": "ambush"},
        {"name": "Guard", "side": "adversary", "mode": "entered", "entered": 5},
    ):
        t = table_tracker.tracker_action(t, {"type": "add", "combatant": combatant})["tracker"]
    t = table_tracker.tracker_action(t, {"type": "hit", "id": "c2", "rolls": "9"})["tracker"]
    for _ in range(3):
        t = table_tracker.tracker_action(t, {"type": "next"})["tracker"]
    return t


def ready(page: Any, which: str) -> None:
    root = page.locator(f'[data-mneme-table="{which}"]')
    expect(root).to_have_attribute("data-state", "ready", timeout=BOOT_MS)


def drawn_at(page: Any, mark: str) -> float:
    """When the page made performance mark ``mark``, in ms from the start of its navigation."""
    at: float = page.evaluate("m => performance.getEntriesByName(m)[0].startTime", mark)
    return at


def stored(page: Any, key: str) -> Any:
    text = page.evaluate("k => localStorage.getItem(k)", key)
    return None if text is None else json.loads(text)


STUBS = """(() => {
  window.__wake = [];
  Object.defineProperty(navigator, "wakeLock", { configurable: true, value: { request: async (kind) => {
    const lock = new EventTarget();
    lock.release = async () => {
      window.__wake.push("release");
      lock.dispatchEvent(new Event("release"));
    };
    window.__wake.push("request:" + kind);
    return lock;
  } } });
  window.__persist = 0;
  if (navigator.storage) navigator.storage.persist = async () => { window.__persist += 1; return true; };
})()"""
"""Stand-ins that record what the page asks of the browser: the screen wake lock and persistent storage."""


@pytest.mark.first_visit
def test_a_stored_fight_shows_before_the_engine_and_a_turn_tapped_then_is_applied_once(
    page: Any, page_log: Any
) -> None:
    page_log.allow(ENGINE_ERRORS)
    page.set_viewport_size(PHONE)
    fight = a_fight()
    derived = table_tracker.derive_tracker(fight)
    seed(page, {TRACKER: json.dumps(fight)})
    page.add_init_script(STUBS)
    root = page.locator('[data-mneme-table="tracker"]')
    # A first visit with the engine working: the engine's view is kept beside the stored fight.
    page.goto("table/tracker/")
    expect(root).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    expect(page.locator("[data-current]")).to_have_text("Ork acts")
    assert page.evaluate("window.__wake") == ["request:screen"]  # a fight is open: the screen stays on

    page.route("**/*.wasm", lambda route: route.abort())
    # From storage, before any engine: the round, the order and the numbers of the last engine view,
    # drawn within 2 s of the reload by the page's own clock (the best of two reloads: the machine is
    # shared, and about 0.5 s is usual).
    for _ in range(2):
        page.reload()
        expect(page.locator("[data-round]")).to_have_text("2", timeout=STEP_MS)
        if drawn_at(page, "mneme:tracker-stored") < 2000:
            break
    assert drawn_at(page, "mneme:tracker-stored") < 2000  # ms after the reload began
    expect(page.locator("[data-combatant] [data-name]")).to_have_text(["Ork", "Ada", "Guard"])
    expect(root).to_have_attribute("data-pending", "")
    expect(page.locator("[data-current]")).to_have_text("Ork acts")
    ork = derived["rows"]["c2"]
    expect(page.locator('[data-combatant="c2"] [data-state]')).to_have_text(ork["state"].replace("_", " "))
    undo, nxt = page.locator('[data-action="undo"]'), page.locator('[data-action="next"]')
    expect(nxt).to_be_enabled()
    expect(undo).to_be_disabled()  # nothing was done on this device: Undo would do nothing
    nxt.click()
    waiting = page.locator("[data-queued]")
    expect(waiting).to_have_attribute("data-queued", "1")
    expect(waiting).to_contain_text("next turn")
    expect(undo).to_be_enabled()  # it takes the waiting turn back
    page.wait_for_timeout(1500)
    assert stored(page, TRACKER) == fight  # not applied by guesswork: it waits for the rules
    page.reload()  # a reload before the engine answers keeps what waits (this tab's session storage)
    expect(waiting).to_have_attribute("data-queued", "1", timeout=2000)
    expect(page.locator("[data-combatant] [data-name]")).to_have_text(["Ork", "Ada", "Guard"])
    page.unroute("**/*.wasm")
    expect(page.locator("[data-current]")).to_have_text("Ada acts", timeout=BOOT_MS)
    expect(root).not_to_have_attribute("data-pending", "")
    expect(waiting).to_be_hidden()
    after = stored(page, TRACKER)
    assert (after["round"], after["turn"]) == (2, 1)  # applied once, not dropped, not twice
    # The first save asked the browser to keep the data, and the page says what it answered.
    expect(page.locator('[data-persist="yes"]')).to_be_visible()
    assert page.evaluate("window.__persist") == 1
    # Leaving the fight lets the screen sleep.
    page.locator('.md-content a[href$="/character/"]').first.click()
    expect(page.locator('[data-mneme-table="character"]')).to_be_visible(timeout=STEP_MS)
    page.wait_for_function("() => window.__wake.includes('release')", timeout=STEP_MS)


@pytest.mark.first_visit
def test_a_character_link_shows_its_character_before_the_engine(page: Any, page_log: Any) -> None:
    page_log.allow(ENGINE_ERRORS)
    page.set_viewport_size(PHONE)
    page.route("**/*.wasm", lambda route: route.abort())
    fragment = table_character.export_link(ada(name="Zo\u00eb"))
    page.goto(f"table/character/#{fragment}")
    expect(page.locator("[data-link-character]")).to_have_text(
        "This link carries a character: Zo\u00eb.", timeout=STEP_MS
    )
    if drawn_at(page, "mneme:character-link-shown") >= 2000:  # the best of two (a shared machine)
        page.reload()  # the link is still in the address until it is taken or ignored
        expect(page.locator("[data-link-character]")).to_be_visible(timeout=STEP_MS)
    assert drawn_at(page, "mneme:character-link-shown") < 2000  # ms after the navigation began
    expect(page.locator(".mt-offer")).to_contain_text("Str 7")
    expect(page.locator(".mt-empty")).to_have_text(
        "No character on this device yet: the link above carries one."
    )


def test_the_referee_shows_the_fight_and_a_player_s_phone_sees_it_read_only(
    page: Any, browser: Any, site_url: str
) -> None:
    page.set_viewport_size(PHONE)
    fight = a_fight()
    seed(page, {TRACKER: json.dumps(fight), STORE: store_of(ada())})
    page.goto("table/tracker/")
    ready(page, "tracker")
    players = page.locator("[data-players]")
    players.locator("summary").click()
    expect(players.locator('[data-field="adversary-hp"]')).not_to_be_checked()  # state only, unless chosen
    players.locator('[data-action="show-players"]').click()
    qr = players.locator("svg.mt-qr")
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box["width"] >= 280  # big enough for a camera across the table
    link = players.locator('[data-field="players-link"]').input_value()
    assert link.startswith(f"{site_url}table/fight/#fight=")
    assert qr.get_attribute("data-qr-text") == str(len(link))
    assert int(qr.get_attribute("data-qr-version")) <= 15

    # The fight on paper: the order of action on one page, without the controls.
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1
    page.emulate_media(media="print")
    assert page.locator('[data-action="next"]').is_hidden() and page.locator("[data-players]").is_hidden()
    expect(page.locator("[data-combatant]")).to_have_count(3)
    page.emulate_media(media="screen")

    # A player's phone: its own browser, nothing of the referee's.
    player = browser.new_context(viewport=PHONE)
    try:
        phone = player.new_page()
        phone.goto(link)
        view = phone.locator('[data-mneme-table="tracker"]')
        expect(view).to_have_attribute("data-state", "ready", timeout=STEP_MS)
        expect(view.locator("[data-round]")).to_have_text("2")
        expect(view.locator("[data-current]")).to_have_text("Ork acts")
        expect(view.locator("[data-name]")).to_have_text(["Ork", "Ada", "Guard"])
        rows = table_tracker.derive_tracker(fight)["rows"]
        states = [rows[cid]["state"].replace("_", " ") for cid in ("c2", "c1", "c3")]
        assert states == ["seriously wounded", "unhurt", "unhurt"]
        expect(view.locator("[data-state]")).to_have_text(states)
        expect(view.locator("[data-age]")).to_contain_text("As the referee showed it just now")
        # Ada is a character: her numbers show; the adversaries' damage and HP do not.
        expect(view.locator("[data-damage]")).to_have_count(1)
        expect(view.locator(".mt-card").nth(1).locator("[data-damage]")).to_have_text("0 damage")
        assert "HP" not in view.locator(".mt-card").nth(0).inner_text()
        # Read-only: no control that changes the fight, nothing written on this phone.
        assert view.locator("button, input, select, textarea, form").count() == 0
        assert phone.evaluate("() => Object.keys(localStorage).filter((k) => k.includes('tracker'))") == []
        # A damaged link is refused with the reason, whole.
        phone.goto(link[:-7] + "%%%%%%%")
        expect(phone.locator("[data-fight-error]")).to_contain_text("damaged")
    finally:
        player.close()

    # The referee chooses to show adversaries' HP; on the referee's own phone the view leaves the fight alone.
    players.locator('[data-field="adversary-hp"]').check()
    players.locator('[data-action="show-players"]').click()
    link = players.locator('[data-field="players-link"]').input_value()
    before = stored(page, TRACKER)
    page.goto(link)
    expect(page.locator("[data-damage]")).to_have_count(3, timeout=STEP_MS)
    expect(page.locator(".mt-card").nth(0).locator("[data-damage]")).to_have_text("9 damage")
    assert stored(page, TRACKER) == before


def test_a_player_shows_a_character_and_the_referee_adds_it_to_the_fight(page: Any) -> None:
    page.set_viewport_size(PHONE)
    seed(page, {STORE: store_of(ada())})
    page.goto("table/character/")
    ready(page, "character")
    page.click('[data-action="show-referee"]')  # the QR code is drawn on the page for showing things
    expect(page.locator("[data-shown-character]")).to_have_text("For the referee: Ada", timeout=STEP_MS)
    expect(page.locator("svg.mt-qr")).to_be_visible()
    assert "/table/fight/#character=" in page.url
    link = page.locator('[data-field="referee-link"]').input_value()
    assert "/table/tracker/#character=" in link
    page.evaluate("k => localStorage.removeItem(k)", TRACKER)
    page.goto(link)
    offer = page.locator("[data-link-offer]")
    expect(offer).to_contain_text("A player shows a character: Ada.")
    offer.locator('[data-action="add-linked"]').click()
    expect(page.locator("[data-combatant] [data-name]")).to_have_text(["Ada"], timeout=STEP_MS)
    expect(offer).to_be_hidden()
    assert "#character=" not in page.url
    added = stored(page, TRACKER)["combatants"][0]
    assert (added["side"], added["dexterity"], added["skill"], added["damage"]) == ("character", 8, 2, 4)


def test_backups_install_and_the_home_screen_are_offered_and_the_sheet_prints_on_one_page(
    page: Any, tmp_path: Path
) -> None:
    page.set_viewport_size(PHONE)
    long_ago = (datetime.now(UTC) - timedelta(days=40)).isoformat()
    seed(page, {STORE: store_of(ada()), KEPT: json.dumps({"firstSaved": long_ago, "persist": "no"})})
    run_first(  # a phone's browser
        page,
        "Object.defineProperty(navigator, 'userAgent', {get: () => "
        "'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'})",
    )
    page.goto("table/character/")
    ready(page, "character")
    expect(page.locator('[data-derived="hp"]')).to_be_visible(timeout=BOOT_MS)
    keep = page.locator("[data-keep]")
    expect(keep.locator('[data-persist="no"]')).to_contain_text("did not promise to keep")
    expect(keep.locator("[data-home-screen]")).to_contain_text("Add to Home Screen")
    expect(keep.locator("[data-home-screen]")).to_contain_text("seven days")
    reminder = keep.locator("[data-backup-reminder]")
    expect(reminder).to_contain_text(f"No backup since you started on {long_ago[:10]}")
    with page.expect_download() as got:
        reminder.locator('[data-action="backup-now"]').click()
    target = tmp_path / "backup.json"
    got.value.save_as(target)
    backup = json.loads(target.read_text(encoding="utf-8"))
    assert backup["schema"] == "mneme-backup" and [c["name"] for c in backup["characters"]] == ["Ada"]
    expect(reminder).to_have_count(0)
    assert stored(page, KEPT)["lastBackup"] >= long_ago

    # Where the browser offers installation, the page's Install button asks it.
    page.evaluate(
        """() => { const e = new Event("beforeinstallprompt", { cancelable: true });
          e.prompt = () => { window.__prompted = true; return Promise.resolve(); };
          window.dispatchEvent(e); }"""
    )
    keep.locator('[data-action="install"]').click()
    assert page.evaluate("window.__prompted") is True

    # The sheet on paper: one page, the derived numbers on it, none of the page's controls.
    page.emulate_media(media="print")
    assert page.locator('[data-action="new"]').is_hidden()
    expect(page.locator('[data-derived="hp"]')).to_be_visible()
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1
    letter = page.pdf(format="Letter")
    assert len(re.findall(rb"/Type\s*/Page\b", letter)) == 1
