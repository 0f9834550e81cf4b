"""Nothing lost at the table, in the built site: every tap once, every edit kept, bad data refused.

Each test replays faults a hostile pass found, in as few page visits as it can:

- Taps: "Next turn" tapped twice 150 ms apart advances one turn; "Add my character" tapped twice
  adds one; 15 hits from each of two tabs of one browser, fired at the same moments, all land, each
  with its own undo step, and Undo in either tab then takes back the newest step.
- Two tabs each adding a skill to one character at the same moment keep both skills.
- "Save damage taken" on a calculator reaches the draft a character page keeps waiting (a field
  left invalid): the draft, once fixed, keeps the saved damage instead of reverting it.
- An edit made just before an instant-navigation Back survives the Forward (calculator and
  character editor).
- Bad stored data (a ``__proto__`` id, a junk draft, an unreadable undo step) is kept aside, never
  used; bad imports (a characteristic given as ``{}`` or ``[]``, half an emoji in a name) are refused
  with a sentence, never Python's traceback; with storage full, New asks before dropping typing.

The tests share one context, a returning visitor's, and its one tab, with nothing stored (storage that
fills up is a script run in that tab, which is then closed); the one with calculator settings of its
own (an init script) gets a page of its own.
"""

from __future__ import annotations

import base64
import json
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from table import tracker as table_tracker

from . import _table
from ._table import BOOT_MS, DOCS, SCOPE, STEP_MS, STORE, TRACKER, ada, open_table, saved, store_of, stored
from .conftest import wait_instant_navigation, wait_ready
from .test_storage import QUOTA, backups_of, characters, settled

pytestmark = _table.TABLE_MODULE

UNDO = SCOPE + "tracker.undo.v1"
TYPE_THEN_BACK_JS = """([selector, value]) => {
  const input = document.querySelector(selector);
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  setTimeout(() => history.back(), 50);
}"""
"""Types ``value`` into the field and, 50 ms later (before the page has quietly written it anywhere),
goes Back."""


def a_fight(*names: str) -> dict[str, Any]:
    """A tracker with these adversaries, told their initiative in the order given (first acts first)."""
    tracker = table_tracker.empty_tracker()
    for index, name in enumerate(names):
        combatant = {
            "name": name,
            "side": "adversary",
            "strength": 12,
            "dexterity": 12,
            "endurance": 12,
            "mode": "entered",
            "entered": 20 - index,
        }
        tracker = table_tracker.tracker_action(tracker, {"type": "add", "combatant": combatant})["tracker"]
    return tracker


def stored_fight(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(stored(page, TRACKER) or "null")
    return found


# Taps fired by the page itself (Playwright's own clicks wait for each other), in one task: the page
# waits out each gap, and while each tap is handled its clock (Date.now, what the tap guard reads) shows
# the tap's intended moment. A loaded machine can stall the page between two taps (a timer fired late,
# a busy-wait preempted); the guard then saw taps meant as one double tap hundreds of ms apart.
TAPS_JS = """([selector, gaps]) => {
  const realNow = Date.now;
  const epoch = realNow.call(Date);
  const start = performance.now();
  let at = 0;
  try {
    for (const gap of gaps) {
      at += gap;
      while (performance.now() - start < at) {}
      const moment = epoch + at;
      Date.now = () => moment;
      document.querySelector(selector).click();
      Date.now = realNow;
    }
  } finally {
    Date.now = realNow;
  }
}"""

# Hits fired at absolute moments (the same clock in both tabs): [id, rolls, epoch ms] each.
HITS_JS = """(hits) => {
  for (const [id, rolls, when] of hits) {
    setTimeout(() => {
      const card = document.querySelector(`[data-combatant="${id}"]`);
      card.querySelector('[data-field="rolls"]').value = rolls;
      card.querySelector('[data-action="hit"]').click();
    }, Math.max(0, when - Date.now()));
  }
}"""


def idle(page: Any) -> None:
    """Wait until the tracker has no action running or waiting: none being applied and none queued (on a
    loaded machine an engine that answers late leaves actions queued for a retry a few seconds on, with
    nothing running meanwhile: slow, not lost)."""
    root = page.locator('[data-mneme-table="tracker"]')
    expect(root).not_to_have_attribute("aria-busy", "", timeout=STEP_MS)
    page.wait_for_timeout(300)
    expect(root.locator("[data-queued]")).to_have_attribute("data-queued", "0", timeout=BOOT_MS)
    expect(root).not_to_have_attribute("aria-busy", "", timeout=STEP_MS)


def test_every_tap_counts_once(page: Any) -> None:
    fight = a_fight("Goon", "Guard", "Thug")
    open_table(page, "tracker", {STORE: store_of(ada()), TRACKER: json.dumps(fight)})
    expect(page.locator("[data-current]")).to_have_text("Goon acts", timeout=STEP_MS)

    # "Next turn" tapped again 120 to 300 ms after the first: one turn (Guard), not two (Thug).
    page.evaluate(TAPS_JS, ['[data-action="next"]', [0, 120, 80, 100, 50]])
    expect(page.locator("[data-current]")).to_have_text("Guard acts", timeout=STEP_MS)
    page.wait_for_timeout(700)
    idle(page)
    expect(page.locator("[data-current]")).to_have_text("Guard acts")
    assert stored_fight(page)["turn"] == 1
    # Tapped again after a moment, it counts again.
    page.click('[data-action="next"]')
    expect(page.locator("[data-current]")).to_have_text("Thug acts", timeout=STEP_MS)

    # "Add my character" twice, 120 ms apart (a double tap; at 200 ms a busy test machine once let the
    # second land past the 400 ms window): Ada joins once.
    page.evaluate(TAPS_JS, ['[data-action="add-mine"]', [0, 120]])
    expect(page.locator("[data-combatant]")).to_have_count(4, timeout=STEP_MS)
    page.wait_for_timeout(700)
    idle(page)
    expect(page.locator("[data-combatant]")).to_have_count(4)
    assert [c["name"] for c in stored_fight(page)["combatants"]].count("Ada") == 1


def test_two_tabs_hits_all_land(page: Any, context: Any) -> None:
    fight = a_fight("Goon", "Guard", "Thug")
    open_table(page, "tracker", {STORE: store_of(ada()), TRACKER: json.dumps(fight)})
    expect(page.locator("[data-current]")).to_have_text("Goon acts", timeout=STEP_MS)

    # Two tabs, 15 hits each, fired at the same moments 40 ms apart: all 30 land. (Each turn holds the
    # tracker's lock; on a starved machine the next tab's localStorage could still hold the fight from
    # before the other's last hit, so each turn also hands its text on: tracker/handoff.js.)
    other = context.new_page()
    open_table(other, "tracker")
    expect(other.locator("[data-combatant]")).to_have_count(3, timeout=STEP_MS)
    ids = [c["id"] for c in fight["combatants"]]
    start = int(time.time() * 1000) + 800
    hits = [
        [cid, str(rolls), start + 40 * (3 * (rolls - 1) + n)]
        for rolls in range(1, 6)
        for n, cid in enumerate(ids)
    ]
    page.evaluate(HITS_JS, hits)
    other.evaluate(HITS_JS, hits)
    page.wait_for_timeout(800 + 40 * len(hits) + 500)
    for tab in (page, other):
        idle(tab)
    want = {cid: 2 * sum(range(1, 6)) for cid in ids}
    settled(
        page, lambda: {c["id"]: c["damage"] for c in stored_fight(page)["combatants"] if c["id"] in ids}, want
    )
    for tab in (page, other):
        for cid in ids:
            expect(tab.locator(f'[data-combatant="{cid}"] [data-damage]')).to_have_text(
                "30 damage", timeout=STEP_MS
            )

    # Every hit left its own undo step (the stack goes from turn to turn with the fight): 30 steps,
    # each taken before a different hit, so the fight's total damage differs from step to step.
    def totals_before() -> list[int]:
        steps = json.loads(stored(page, UNDO) or "[]")
        return [sum(c["damage"] for c in step["tracker"]["combatants"]) for step in steps]

    before = totals_before()
    assert len(before) == 30, before
    assert len(set(before)) == 30 and min(before) == 0, before
    # Undo in one tab, then in the other: each takes back the newest step left, whichever tab made it.
    for tab, left in ((other, 29), (page, 28)):
        tab.locator('[data-action="undo"]').click()
        idle(tab)
        settled(page, lambda: len(totals_before()), left)
        want_total = before[left]
        settled(page, lambda: sum(c["damage"] for c in stored_fight(page)["combatants"]), want_total)
    other.close()


ADD_SKILL_JS = """([name, when]) => {
  setTimeout(() => {
    document.querySelector('[data-action="add-skill"]').click();
    const rows = document.querySelectorAll('[data-item="skills"] [data-path$=".name"]');
    const input = rows[rows.length - 1];
    input.value = name;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }, Math.max(0, when - Date.now()));
}"""


def skill_names(page: Any) -> list[str]:
    names: list[str] = page.evaluate(
        "(s) => [...document.querySelectorAll(s)].map((e) => e.value)",
        '[data-item="skills"] [data-path$=".name"]',
    )
    return sorted(names)


def test_skills_added_at_once_in_two_tabs_both_stay_and_saved_damage_reaches_the_waiting_draft(
    page: Any, context: Any
) -> None:
    open_table(page, "character", {STORE: store_of(ada())})
    expect(page.locator('[data-derived="hp"]')).to_have_text("24", timeout=BOOT_MS)
    other = context.new_page()
    open_table(other, "character")
    expect(other.locator('[data-derived="hp"]')).to_have_text("24", timeout=BOOT_MS)

    # Both tabs add a skill to Ada at the same moment: both skills stay, in both tabs and in storage.
    when = int(time.time() * 1000) + 600
    page.evaluate(ADD_SKILL_JS, ["Melee", when])
    other.evaluate(ADD_SKILL_JS, ["Recon", when])
    page.wait_for_timeout(900)
    want = ["Gun Combat", "Melee", "Recon"]
    settled(page, lambda: skill_names(page), want)
    settled(other, lambda: skill_names(other), want)
    settled(page, lambda: sorted(s["name"] for s in characters(page)[0]["skills"]), want)
    other.close()

    # A field left invalid keeps a draft waiting; a calculator then saves damage taken 4 -> 17.
    page.fill('[data-path="armor"]', "x")
    expect(page.locator(".mt-status")).to_contain_text("not checked yet", timeout=STEP_MS)
    calculator = context.new_page()
    calculator.goto("calculators/thresholds/")
    mine = calculator.locator('[data-mine-for="thresholds"]')
    expect(mine.locator('[data-action="write-back"]')).to_be_visible(timeout=BOOT_MS)
    form = calculator.locator('form[data-calculator="thresholds"]')
    wait_ready(form)
    form.locator('[name="damage"]').fill("17")
    mine.locator('[data-action="write-back"]').click()
    expect(mine.locator(".mt-mine-status")).to_have_text(
        "Saved to Ada: damage taken 4 \u2192 17.", timeout=STEP_MS
    )
    assert saved(calculator)["drafts"]["ada-1"]["damage"] == 17, (
        "the waiting draft still holds the old damage"
    )
    calculator.close()
    # The open editor shows it, and fixing the field keeps it: the saved damage is not reverted.
    expect(page.locator('[data-path="damage"]')).to_have_value("17", timeout=STEP_MS)
    page.fill('[data-path="armor"]', "6")
    expect(page.locator(".mt-status")).to_have_text("Saved on this device: Ada.", timeout=STEP_MS)
    settled(page, lambda: [(c["damage"], c["armor"]) for c in characters(page)], [(17, 6)])
    assert saved(page)["drafts"] == {}


@pytest.mark.own_page  # an init script of its own (the address written late)
def test_an_edit_survives_an_instant_back_and_forward(page: Any) -> None:
    # The address is written only as the page is left (never by the quiet wait): a Back of the
    # theme's instant navigation, with no click, is what is left to keep the edit.
    page.add_init_script("window.mnemeCalculatorConfig = { urlQuietMs: 600000 };")
    page.goto("")
    wait_instant_navigation(page)
    page.locator('a[href$="calculators/effect/"]').first.click()
    form = page.locator('form[data-calculator="effect"]')
    wait_ready(form)
    wait_instant_navigation(page)
    page.evaluate(TYPE_THEN_BACK_JS, ['form[data-calculator="effect"] [name="modifier"]', "4"])
    expect(page.locator('form[data-calculator="effect"]')).to_have_count(0, timeout=STEP_MS)
    page.go_forward()
    wait_ready(form)
    expect(form.locator('[name="modifier"]')).to_have_value("4")

    # The character editor: typing is on the device at once, so Back and Forward keep it too.
    page.evaluate(
        """() => {
          const a = document.createElement("a");
          a.href = new URL("../../table/character/", location.href).href;
          a.textContent = "My character";
          document.querySelector("article").append(a);
          a.click();
        }"""
    )
    root = page.locator('[data-mneme-table="character"]')
    expect(root).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    page.click('[data-action="new"]')
    page.evaluate(TYPE_THEN_BACK_JS, ['[data-path="name"]', "Bea"])
    wait_ready(form)
    page.go_forward()
    expect(root).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    expect(page.locator('[data-path="name"]')).to_have_value("Bea", timeout=STEP_MS)


def link_of(doc: dict[str, Any]) -> str:
    data = json.dumps(doc, separators=(",", ":")).encode()
    return "#character=" + base64.urlsafe_b64encode(data).decode().rstrip("=")


def test_bad_stored_or_imported_data_is_kept_aside_or_refused_with_a_sentence(page: Any) -> None:
    proto = json.dumps({"character": ada(id="__proto__", name="Shadow"), "order": 0})
    junk_draft = json.dumps({"character": ada(), "draft": {"name": {"no": 1}}, "order": 1})
    good_step = {"tracker": a_fight("Goon"), "what": "Goon joins"}
    bad_step = {"tracker": {**a_fight("Goon", "Guard"), "round": "junk"}, "what": "Guard joins"}
    setup = {
        DOCS + "__proto__": proto,
        DOCS + "ada-1": junk_draft,
        TRACKER: json.dumps(a_fight("Goon", "Guard", "Thug")),
        UNDO: json.dumps([good_step, bad_step]),
    }
    open_table(page, "character", setup, script=QUOTA)
    # The reserved id and the junk draft are kept aside; Ada shows whole and takes typing.
    expect(page.locator(".mt-picker option")).to_have_text(["Ada"])
    expect(page.locator('[data-path="name"]')).to_have_value("Ada")
    expect(page.locator('[data-derived="hp"]')).to_have_text("24", timeout=STEP_MS)
    expect(page.locator("[data-backups] [data-backup]")).to_have_count(2)
    assert sorted(json.loads(b)["character"]["name"] for b in kept_texts(page)) == ["Ada", "Shadow"]
    assert stored(page, DOCS + "__proto__") is None
    page.fill('[data-path="notes"]', "kept")
    expect(page.locator(".mt-status")).to_have_text("Saved on this device: Ada.", timeout=STEP_MS)

    # Imports: a characteristic given as {} or [] (file text or link), a reserved id: a sentence each.
    refusals = [
        (
            json.dumps(ada(id="ada-2", skills=[{"name": "X", "level": 1, "characteristic": {}}])),
            "Pick one of",
        ),
        (link_of(ada(id="ada-3", weapons=[{**ada()["weapons"][0], "characteristic": []}])), "Pick one of"),
        (json.dumps(ada(id="constructor")), "The id 'constructor' is a reserved name"),
        ("[" * 7400 + "]" * 7400, "this nests deeper than 16 levels"),
    ]
    for text, words in refusals:
        page.fill(".mt-import-text", text)
        page.click('[data-action="import"]')
        expect(page.locator("[data-import-message]")).to_contain_text(
            f"Not imported: {words}", timeout=STEP_MS
        )
        expect(page.locator("[data-import-message]")).not_to_contain_text("Traceback")
    # Half an emoji in the name, then "Make a link": refused with a sentence.
    page.evaluate(
        """() => {
          const input = document.querySelector('[data-path="name"]');
          input.value = "Ada \\ud83d";
          input.dispatchEvent(new Event("input", { bubbles: true }));
        }"""
    )
    page.click('[data-action="export-link"]')
    expect(page.locator(".mt-status")).to_have_text(
        "No link: The name contains a broken character (half of an emoji or symbol).", timeout=STEP_MS
    )
    page.fill('[data-path="name"]', "Ada")
    expect(page.locator(".mt-status")).to_have_text("Saved on this device: Ada.", timeout=STEP_MS)

    # Storage full: New does not drop what is typed without asking; declined, the typing stays.
    page.evaluate("() => { window.__full = true; }")
    page.fill('[data-path="name"]', "Ada Lovelace")
    expect(page.locator(".mt-status")).to_contain_text("Not saved on this device", timeout=STEP_MS)
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click('[data-action="new"]')
    assert asked and "could not be saved" in asked[0]
    expect(page.locator('[data-path="name"]')).to_have_value("Ada Lovelace")
    expect(page.locator(".mt-status")).to_contain_text("Kept on this page")
    page.evaluate("() => { window.__full = false; }")

    # The tracker: an unreadable undo step is kept aside; the next Undo reaches the step before it.
    page.goto("table/tracker/")
    expect(page.locator('[data-mneme-table="tracker"]')).to_have_attribute(
        "data-state", "ready", timeout=BOOT_MS
    )
    page.click('[data-action="undo"]')
    expect(page.locator("[data-tracker-error]")).to_contain_text(
        "That undo step could not be read", timeout=STEP_MS
    )
    expect(page.locator("[data-backups] [data-backup]")).to_have_count(1)
    assert len(backups_of(page, UNDO)) == 1
    page.wait_for_timeout(700)  # a tap on Undo again at once would be the same tap
    page.click('[data-action="undo"]')
    expect(page.locator(".mt-sticky .mt-status")).to_have_text("Undone: Goon joins.", timeout=STEP_MS)
    expect(page.locator("[data-combatant]")).to_have_count(1)


def kept_texts(page: Any) -> list[str]:
    texts: list[str] = page.evaluate(
        "k => Object.keys(localStorage).filter((x) => x.startsWith(k + ':backup:'))"
        ".map((x) => localStorage.getItem(x))",
        STORE,
    )
    return texts
