"""Right at the table: every hand-off carries the whole situation, no answer rests on a value nobody gave.

Replayed in headless Chromium at 360x780 (a phone) and 1280x800, in a few page visits:

- "I'm attacked" on a phone: the short question (side, margin, cover, the adversary's dice, armor, HP, the
  rolls made) answers directly under it, the next link right under the answer (before any output or
  chart); followed link by link through Mitigation, Damage, Thresholds and Healing, each page shows the
  same situation (HP 24, 3 damage before, rolls 8 and 5 less armor 1: 14 damage, largest roll 7,
  seriously wounded, no bleeding) and none of its own defaults (once Str 7 / Dex 8 / End 9, a largest
  roll of 9, the adversary's HP dropped, an average of 6.5 passed on as 6).
- Faults once seen, each gone: Thresholds with 6 damage of 24 HP said "bleeding" from a default largest
  roll of 9; "Chance of success 72.22%" beside an entered Effect; a roll of 13 beside the Effect blanked
  the answer; "+" on an empty roll gave 3 and on the adversary's HP 2; 99.9999% read "100.00%".
- The sign control enters a negative number with one tap (a phone's number pad has no minus key).
- Healing applies first aid, then surgery only while still seriously wounded: one plan.
- "Use my character" on a handed-on Thresholds keeps the damage handed on and fills only the rest; on
  One attack it leaves the roll empty (no "Hit ... about 24 damage" for a roll nobody made) and "Save
  damage taken" saves the damage after the hit.
- At 1280x800 form and answer sit side by side, the answer in view while the first and last fields of the
  short question are edited; an abbreviation explains itself on a tap, on a rules page too.
- Thresholds with only the HP hands healing no default Str/Dex/End: healing asks for End where it needs it.
- A miss while attacking rests on no hidden field: it hands the margin to the "I'm attacked" side.
- The answer bar stays above the on-screen keyboard (a shrunk visual viewport, emulated).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from ._table import ada, seed
from .conftest import outputs, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.returning_visit]

PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 800}
EMPTY = "\u2014"
MINUS = "\u2212"
BOOT_MS = 90_000
STEP_MS = 30_000
STORE = "mneme@/mneme/:characters.v1"
"""The character store's key (named by the test server's sub-path, as in ``test_table.py``)."""

ATTACKED = {
    "side": "attacked",
    "failed_by": "4",
    "cover": "2",
    "adversary_damage": "2d6",
    "own_armor": "1",
    "own_hp": "24",
    "own_damage": "3",
    "rolled": "8 5",
}
"""Failed by 4 behind cover 2: 2 rolls of 2d6 (rolled 8 and 5) against armor 1 and HP 24, 3 damage before."""

FRESH = "f => f.dataset.state === 'ready' && !f.hasAttribute('data-stale')"
GEOMETRY = """f => {
  const box = (el) => el && el.getBoundingClientRect();
  const link = box(f.querySelector('[data-next] a'));
  const summary = box(f.querySelector('[data-summary]'));
  const outputs = box(f.querySelector('.calc-outputs'));
  const chart = box(f.querySelector('[data-chart]'));
  const visible = [...f.querySelectorAll('input[name], select[name]')].filter((e) => e.checkVisibility());
  return {
    linkTop: link ? link.top + scrollY : null,
    outputsTop: outputs.top + scrollY,
    chartTop: chart ? chart.top + scrollY : null,
    summaryTop: summary.top + scrollY,
    formTop: box(f).top + scrollY,
    fields: visible.length,
  };
}"""


def fresh(form: Any) -> None:
    form.page.wait_for_function(FRESH, arg=form.element_handle(), timeout=STEP_MS)


def follow(page: Any, form: Any, name: str) -> Any:
    """Click ``form``'s hand-off link to calculator ``name`` and wait for that calculator's live answer."""
    link = form.locator(f'[data-next] a[data-handoff="{name}"]')
    expect(link).to_be_visible()
    link.click()
    target = page.locator(f'form[data-calculator="{name}"]')
    wait_ready(target)
    fresh(target)
    return target


def test_im_attacked_on_a_phone_follows_link_by_link_with_the_whole_situation(
    page: Any, open_calculator: Any
) -> None:
    page.set_viewport_size(PHONE)
    form = open_calculator("attack", **ATTACKED)
    out = outputs(form)
    assert out["summary"] == (
        f"Miss (Effect {MINUS}4): you take 2 rolls of 2d6 {MINUS} armor 1 (at least 1 a roll), your rolls "
        "deal 11 (largest 7): seriously wounded; your cover takes 2."
    )
    assert (out["chance"], out["damage_now"], out["state_now"]) == (EMPTY, "14", "seriously wounded")
    # The short question: a handful of fields, the rest folded; the next link directly under the answer,
    # before the outputs and any chart.
    where = form.evaluate(GEOMETRY)
    assert where["fields"] <= 14, where
    assert where["summaryTop"] < where["linkTop"] < where["outputsTop"] < where["chartTop"], where
    assert form.locator("details[data-more]").get_attribute("open") is None
    assert not form.locator('[name="advantage"]').is_visible()
    assert not form.locator('[name="damage"]').is_visible()  # the other side's question

    mitigation = follow(page, form, "mitigation")
    assert (outputs(mitigation)["remaining"], outputs(mitigation)["cover_absorbs"]) == ("2", "2")
    damage = follow(page, mitigation, "damage")
    assert damage.locator('[name="hp"]').input_value() == "24"  # the HP travels (it was once dropped)
    assert (outputs(damage)["taken"], outputs(damage)["largest"], outputs(damage)["state_now"]) == (
        "11",
        "7",
        "seriously wounded",
    )
    thresholds = follow(page, damage, "thresholds")
    values = {k: thresholds.locator(f'[name="{k}"]').input_value() for k in ("hp", "damage", "largest_roll")}
    assert values == {"hp": "24", "damage": "14", "largest_roll": "7"}
    assert (outputs(thresholds)["state"], outputs(thresholds)["bleeding"]) == ("seriously wounded", "no")
    assert "to mental and physical rolls" in outputs(thresholds)["summary"]
    healing = follow(page, thresholds, "healing")
    assert healing.locator('[name="hp"]').input_value() == "24"
    assert outputs(healing)["summary"].startswith("Seriously wounded with 14 damage; ")
    # Only the HP were handed on: no default Str 7 / Dex 8 / End 9 came along (once they did, and a
    # failed surgery's harm rested on End 9); healing asks for End where its answer needs it.
    chars = {
        k: healing.locator(f'[name="{k}"]').input_value() for k in ("strength", "dexterity", "endurance")
    }
    assert chars == {"strength": "", "dexterity": "", "endurance": ""}
    healing.locator('[name="surgery_effect"]').fill("-3")
    expect(healing.locator('[data-error-for="endurance"]')).to_have_text(
        "A failed surgery's harm depends on the patient's End: give it.", timeout=STEP_MS
    )
    healing.locator('[name="endurance"]').fill("2")  # Medic 1 leaves 2, above half of End 2: harm 4
    expect(healing.locator('[data-output="surgery_harm"]')).to_have_text("4", timeout=STEP_MS)
    fresh(healing)


def test_the_faults_once_seen_are_gone(page: Any, open_calculator: Any) -> None:
    page.set_viewport_size(PHONE)
    # No default largest roll: 6 damage of 24 HP cannot hold a roll of 8, so no bleeding.
    form = open_calculator("thresholds", damage=6, hp=24)
    assert outputs(form)["summary"] == f"Wounded: 6 damage of 24 HP, {MINUS}2 to mental and physical rolls."
    assert outputs(form)["bleeding"] == "no"
    assert form.locator('[name="largest_roll"]').input_value() == ""
    form.locator('[name="largest_roll"]').fill("9")  # more than the total: refused beside the field
    expect(form.locator('[data-error-for="largest_roll"]')).to_contain_text("more than the damage taken")

    # A certain-looking chance short of certain: 8 rolls of 1d6, bleeding unless all are 1.
    form = open_calculator("damage", effect=-8, damage="1d6", hp=6)
    assert outputs(form)["bleeding"] == "99.99%"
    assert "thresholds" not in (form.locator("[data-next]").inner_text())  # no rolls made: no damage taken

    # The Effect given: no chance of a roll nobody makes, and a roll of 13 beside it does not blank it.
    form = open_calculator("attack", effect=-2, modifier=2, roll=13)
    assert outputs(form)["chance"] == EMPTY and outputs(form)["outcome"] == "failure"
    assert outputs(form)["summary"].startswith(f"Miss (Effect {MINUS}2)")
    assert "between 2 and 12" in form.locator('[data-error-for="roll"]').inner_text()
    # Without it the bare form answers only the chance, at the DM it names.
    form.locator('[name="effect"]').fill("")
    form.locator('[name="roll"]').fill("")
    form.locator('[name="modifier"]').fill("")
    form.locator('[data-field="modifier"] .calc-sign').click()  # one tap: a minus to type after
    form.locator('[name="modifier"]').press_sequentially("1")
    fresh(form)
    assert form.locator('[name="modifier"]').input_value() == "-1"
    assert outputs(form)["summary"].startswith(f"Chance to hit with DM {MINUS}1 against 8:")
    form.locator('[data-field="modifier"] .calc-sign').click()
    fresh(form)
    assert form.locator('[name="modifier"]').input_value() == "1"
    # "+" on an empty field starts at its least value: a roll of 2, HP 1 (once 3 and 2).
    form.locator('[data-field="roll"] .calc-step[data-step="1"]').click()
    assert form.locator('[name="roll"]').input_value() == "2"
    form.locator('[data-field="hp"] .calc-step[data-step="1"]').click()
    assert form.locator('[name="hp"]').input_value() == "1"
    fresh(form)

    # Healing: first aid leaves 8 (still seriously wounded), so surgery applies: 6 left, 6 days.
    form = open_calculator("healing", damage=10, first_aid_effect=2, surgery_effect=1)
    assert outputs(form)["summary"] == (
        "Seriously wounded with 10 damage; first aid removes 2 (8 damage left, seriously wounded); surgery "
        "removes 2 (6 damage left, wounded); 6 days to heal fully, care level light."
    )
    assert not form.locator('[data-output="surgery_harm"]').is_visible()  # no "Surgery harm 0"
    form.locator('[name="damage"]').fill("9")  # first aid leaves 7: wounded, no surgery
    page.wait_for_function(
        "f => f.querySelector('[data-output=\"days\"]').textContent === '7' && !f.hasAttribute('data-stale')",
        arg=form.element_handle(),
    )
    assert not form.locator('[data-output="surgery_heals"]').is_visible()

    # A miss while attacking once rolled the adversary's reply from the hidden I'm attacked fields (their
    # damage 2d6 by default): now it stops at the margin and hands it to that side, where it is shown.
    form = open_calculator("attack", modifier=1, difficulty=9, roll=5)
    assert outputs(form)["summary"] == (
        f"Miss (Effect {MINUS}3): the adversary's fail effect comes at you; follow \u201cwhat comes at "
        "you\u201d to work it out."
    )
    assert outputs(form)["rolls"] == EMPTY
    form.locator('[data-next] a[data-handoff="attack"]').click()  # the same page: wait for its new form
    expect(page.locator('form[data-calculator="attack"] [name="side"]')).to_have_value(
        "attacked", timeout=STEP_MS
    )
    form = page.locator('form[data-calculator="attack"]')
    wait_ready(form)
    fresh(form)
    assert form.locator('[name="failed_by"]').input_value() == "3"
    expect(form.locator('[name="adversary_damage"]')).to_be_visible()  # what the answer reads, in view
    assert outputs(form)["summary"].startswith(f"Miss (Effect {MINUS}3): you take 3 rolls of 2d6")

    # The answer bar above the on-screen keyboard: the viewport lets the keyboard resize the page, and
    # where a browser lays the page under it instead (the visual viewport shrinks, the layout does not),
    # the bar is lifted by the gap. Emulated: a 300 px keyboard over the 780 px screen.
    viewport = page.locator('meta[name="viewport"]').get_attribute("content") or ""
    assert "interactive-widget=resizes-content" in viewport
    form.locator('[name="failed_by"]').focus()
    bar = form.locator(".calc-answer")
    assert bar.bounding_box()["y"] + bar.bounding_box()["height"] == pytest.approx(PHONE["height"], abs=2)
    page.evaluate(
        """() => {
          const v = window.visualViewport;
          Object.defineProperty(v, "height", { configurable: true, get: () => 480 });
          v.dispatchEvent(new Event("resize"));
        }"""
    )
    expect(page.locator("html")).to_have_attribute("style", re.compile(r"--mneme-keyboard: 300px"))
    box = bar.bounding_box()
    assert box["y"] + box["height"] <= 480 + 1, box  # once at 780: under the keys
    page.evaluate(
        """() => {
          const v = window.visualViewport;
          delete v.height;
          v.dispatchEvent(new Event("resize"));
        }"""
    )
    expect(page.locator("html")).to_have_attribute("style", re.compile(r"--mneme-keyboard: 0px"))


def kara() -> dict[str, Any]:
    """The table tests' character as Kara: armor 1, no damage yet."""
    return ada(id="kara-1", name="Kara", armor=1, damage=0)


def test_use_my_character_fills_only_what_nobody_gave_and_saves_the_hit_taken(page: Any) -> None:
    store = {"schema": "mneme-characters", "version": 1, "characters": [kara()], "active": "kara-1"}
    seed(page, {STORE: json.dumps(store)})  # a character on the device, written in the tab
    page.set_viewport_size(PHONE)
    # Handed on: 6 damage and HP 24. The sheet's 0 damage must not replace them.
    page.goto("calculators/thresholds/?damage=6&hp=24&reading=fractions_of_hp")
    mine = page.locator('[data-mine-for="thresholds"]')
    expect(mine.locator('[data-action="use-mine"]')).to_be_visible(timeout=BOOT_MS)
    form = page.locator('form[data-calculator="thresholds"]')
    wait_ready(form)
    mine.locator('[data-action="use-mine"]').click()
    expect(mine.locator(".mt-mine-status")).to_contain_text("Filled in from Kara", timeout=STEP_MS)
    expect(mine.locator("[data-kept]")).to_contain_text("Damage taken")
    fresh(form)
    assert form.locator('[name="damage"]').input_value() == "6"
    assert outputs(form)["summary"].startswith("Wounded: 6 damage of 24 HP")

    # One attack: the sheet fills the DM, the weapon, the armor; the roll stays empty, so no hit is claimed.
    page.goto("calculators/attack/?side=attacked&failed_by=3&adversary_damage=2d6")
    mine = page.locator('[data-mine-for="attack"]')
    expect(mine.locator('[data-action="use-mine"]')).to_be_visible(timeout=BOOT_MS)
    form = page.locator('form[data-calculator="attack"]')
    wait_ready(form)
    mine.locator("select").nth(1).select_option("weapon:0")
    mine.locator('[data-action="use-mine"]').click()
    expect(mine.locator(".mt-mine-status")).to_contain_text("Filled in from Kara", timeout=STEP_MS)
    fresh(form)
    assert form.locator('[name="roll"]').input_value() == ""
    assert form.locator('[name="own_hp"]').input_value() == "24"
    assert "about 24 damage" not in outputs(form)["summary"]
    mine.locator('[data-action="write-back"]').click()  # no rolls yet: nothing to save
    expect(mine.locator(".mt-mine-status")).to_have_text(
        "Enter the damage rolls you made to save the hit taken."
    )
    # Failed by 3, less the Gun Combat 1 filled in as skill: 2 rolls; 9 and 4 less armor 1: 8 + 3 = 11.
    assert outputs(form)["rolls"] == "2"
    form.locator('[name="rolled"]').fill("9 4")
    page.wait_for_function(
        "f => f.querySelector('[data-output=\"damage_now\"]').textContent === '11'"
        " && !f.hasAttribute('data-stale')",
        arg=form.element_handle(),
    )
    mine.locator('[data-action="write-back"]').click()
    expect(mine.locator(".mt-mine-status")).to_have_text(
        "Saved to Kara: damage taken 0 \u2192 11.", timeout=STEP_MS
    )


def test_on_a_wide_screen_form_and_answer_sit_side_by_side(page: Any, open_calculator: Any) -> None:
    page.set_viewport_size(DESKTOP)
    form = open_calculator("attack", **ATTACKED)
    summary = form.locator("[data-summary]")
    first = form.locator('[name="side"]')
    fields = form.locator(".calc-fields")
    assert summary.bounding_box()["x"] >= fields.bounding_box()["x"] + fields.bounding_box()["width"] - 1
    for name in ("side", "modifier", "rolled"):
        form.locator(f'[name="{name}"]').focus()
        box = summary.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"], (name, box)
    assert first.bounding_box()["y"] < DESKTOP["height"]
    next_link = form.locator('[data-next] a[data-handoff="mitigation"]')
    box = next_link.bounding_box()
    assert box and box["y"] + box["height"] <= DESKTOP["height"]
    # An abbreviation explains itself on a tap (no hover on a phone), and a second tap hides it again.
    abbr = page.locator("article abbr[title]").first
    title = abbr.get_attribute("title")
    abbr.click()
    expect(page.locator("article .mneme-abbr-tip").first).to_have_text(f" ({title})")
    abbr.click()
    expect(page.locator("article .mneme-abbr-tip")).to_have_count(0)
    # On a rules page too (once they did nothing there): no calculator, no engine needed.
    page.set_viewport_size(PHONE)
    page.goto("rules/checks/")
    dm = page.locator("article abbr", has_text="DM").first
    dm.click()
    expect(page.locator("article .mneme-abbr-tip").first).to_have_text(
        " (Dice modifier: a number added to or subtracted from a roll)"
    )
    assert page.locator("form[data-calculator]").count() == 0
