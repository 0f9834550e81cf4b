"""At the table in the built site: "my character", "use my character" on calculators, the combat tracker.

Everything runs through the bundled Pyodide engine (table/character.py in the worker);
pages are driven at phone width (360 px). Waits use Playwright's locator assertions (the site's
CSP forbids the eval that string predicates need). The tests share one context, a returning visitor's
(its engine restored, not booted cold; its service worker registered) and its one tab (each page
reached by a link, the engine started once), and start with nothing stored; the one with an init script
of its own gets a page of its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from table import prefill as table_prefill
from table import tracker as table_tracker

from ._table import (
    BOOT_MS,
    PHONE,
    STEP_MS,
    STORE,
    TRACKER,
    ada,
    open_table,
    saved,
    seed,
    store_of,
    stored,
)
from .test_storage import settled

pytestmark = [
    pytest.mark.browser,
    pytest.mark.returning_visit,
    pytest.mark.offline_copy,  # the tracker offline once visited: the service worker's copy
    pytest.mark.usefixtures("nothing_stored"),
]

WIDTHS = (360, 412, 768, 1280)
"""Phones (ours and Lighthouse's), a tablet and a desktop: the space kept for each app is checked at each."""
HEIGHT = "() => document.querySelector('.mt-app').getBoundingClientRect().height"


def heights(page: Any) -> list[float]:
    out = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        out.append(page.evaluate(HEIGHT))
    return out


@pytest.mark.parametrize("which", ["character", "tracker"])
def test_a_new_sheet_and_an_empty_tracker_fill_the_space_kept_for_them(
    page: Any, browser: Any, site_url: str, which: str
) -> None:
    """Both apps are drawn by script, after the first paint; the text below them must not
    jump when they appear (a layout shift Lighthouse counts). The space kept before the script runs
    (seen with scripts off) is at least what the new app takes, and not much more."""
    no_script = browser.new_context(base_url=site_url, java_script_enabled=False)
    try:
        bare = no_script.new_page()
        bare.goto(f"table/{which}/")
        kept = heights(bare)
    finally:
        no_script.close()
    open_table(page, which)
    drawn = heights(page)
    for width, before, after in zip(WIDTHS, kept, drawn, strict=True):
        assert after <= before + 1, f"{which} at {width} px: {after:.0f} px drawn, {before:.0f} px kept"
        assert before - after <= 40, f"{which} at {width} px: {before:.0f} px kept, only {after:.0f} drawn"


# ---------------------------------------------------------------- my character


def test_a_character_made_on_the_phone_is_checked_saved_and_still_there_after_a_reload(page: Any) -> None:
    open_table(page, "character")
    page.click('[data-action="new"]')
    page.fill('[data-path="name"]', "Bo <script>alert(1)</script>")
    page.fill('[data-path="characteristics.strength"]', "9")
    page.fill('[data-path="characteristics.dexterity"]', "8")
    page.fill('[data-path="characteristics.endurance"]', "6")
    page.fill('[data-path="damage"]', "6")
    expect(page.locator('[data-derived="hp"]')).to_have_text("23", timeout=STEP_MS)
    expect(page.locator('[data-derived="state"]')).to_have_text("wounded")
    page.fill('[data-path="damage"]', "7")  # a third of 23, rounded down
    expect(page.locator('[data-derived="state"]')).to_have_text("seriously wounded", timeout=STEP_MS)
    expect(page.locator('[data-derived="wound_penalty"]')).to_have_text("\u22122")
    expect(page.locator(".mt-status")).to_contain_text("Saved on this device")

    # A bad value is marked beside its field and kept as typed (a draft); the checked character stays.
    page.fill('[data-path="characteristics.endurance"]', "-3")
    expect(page.locator('[data-error-for="characteristics.endurance"]')).to_have_text(
        "End must be between 0 and 99.", timeout=STEP_MS
    )
    expect(page.locator('[data-path="characteristics.endurance"]')).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".mt-status")).to_contain_text("Kept on this device as typed")
    on_device = saved(page)
    assert on_device["characters"][0]["characteristics"]["endurance"] == 6
    assert on_device["drafts"][on_device["characters"][0]["id"]]["characteristics"]["endurance"] == -3

    page.reload()  # the draft comes back, still marked
    expect(page.locator('[data-mneme-table="character"]')).to_have_attribute("data-state", "ready")
    expect(page.locator('[data-path="name"]')).to_have_value("Bo <script>alert(1)</script>")
    expect(page.locator('[data-path="characteristics.endurance"]')).to_have_value("-3")
    expect(page.locator('[data-path="characteristics.endurance"]')).to_have_attribute(
        "aria-invalid", "true", timeout=BOOT_MS
    )
    page.fill('[data-path="characteristics.endurance"]', "6")
    expect(page.locator('[data-derived="hp"]')).to_have_text("23", timeout=BOOT_MS)
    expect(page.locator(".mt-status")).to_have_text("Saved on this device: Bo <script>alert(1)</script>.")
    assert saved(page)["drafts"] == {}
    expect(page.locator('[data-derived="chm"]')).to_contain_text("ChM from Dex 8 = +0")
    assert page.locator("script:text('alert(1)')").count() == 0  # shown as text, never markup


# ---------------------------------------------------------------- use my character


@pytest.mark.own_page  # an init script of its own (the box as built, before the script)
def test_a_new_player_s_box_is_built_with_the_page_and_filled_in_place(page: Any) -> None:
    """The "use my character" box above a calculator is in the built page as a player with no
    character sees it (sitebuild/table_ui.py, mine_box); the script fills the same place with the
    same words, so the form below does not move (it was a layout shift of 0.07 on a phone)."""
    page.add_init_script(
        'document.addEventListener("DOMContentLoaded", () => {'
        ' window.__built = document.querySelector(".mt-mine");'
        " window.__builtText = window.__built && window.__built.textContent;"
        ' window.__formTop = document.querySelector("form").getBoundingClientRect().top; }, {once: true});'
    )  # once: the held theme's start may send DOMContentLoaded again, after the box was filled
    page.set_viewport_size(PHONE)
    page.goto("calculators/attack/")
    page.wait_for_function(
        "() => window.__built && !window.__built.isConnected && document.querySelector('.mt-mine')",
        timeout=BOOT_MS,
    )
    built, now, before, after = page.evaluate(
        """() => [window.__builtText, document.querySelector(".mt-mine").textContent, window.__formTop,
                  document.querySelector("form").getBoundingClientRect().top]"""
    )
    assert built == now and "Save a character on this device" in now
    assert before == after
    # The theme makes every link it finds absolute when it starts (instant navigation), and it now starts
    # after the first result, so the link may be seen either way: what matters is where it leads.
    assert page.locator('[data-mine-for="attack"] a').evaluate(
        "a => a.href === new URL('../../table/character/', location.href).href"
    )


def test_the_attack_calculator_is_filled_from_my_pistol_and_computes_live(
    page: Any, python_outputs: Any, outputs: Any
) -> None:
    seed(page, {STORE: store_of(ada())})
    page.goto("calculators/attack/")
    mine = page.locator('[data-mine-for="attack"]')
    expect(mine.locator('[data-action="use-mine"]')).to_be_visible(timeout=BOOT_MS)
    mine.locator("select").nth(1).select_option("weapon:0")
    mine.locator('[data-action="use-mine"]').click()
    expect(mine.locator('[data-note-for="modifier"]')).to_contain_text("ChM from Dex 8 = +0", timeout=STEP_MS)
    expect(mine.locator('[data-note-for="own_hp"]')).to_have_text("Your HP: HP = Str 7 + Dex 8 + End 9 = 24")
    form = page.locator('form[data-calculator="attack"]')
    expected = table_prefill.prefill("attack", ada(), "weapon:0")["values"]
    for key, value in expected.items():
        expect(form.locator(f'[name="{key}"]')).to_have_value(value)
    want = python_outputs("attack", **{**expected})
    expect(form.locator('[data-output="per_roll"]')).to_have_text(want["per_roll"], timeout=STEP_MS)
    expect(form).to_have_attribute("data-state", "ready")
    assert outputs(form) == want


def test_damage_taken_is_written_back_from_the_thresholds_calculator(page: Any) -> None:
    seed(page, {STORE: store_of(ada())})
    page.set_viewport_size(PHONE)
    page.goto("calculators/thresholds/")
    mine = page.locator('[data-mine-for="thresholds"]')
    expect(mine.locator('[data-action="use-mine"]')).to_be_visible(timeout=BOOT_MS)
    mine.locator('[data-action="use-mine"]').click()
    form = page.locator('form[data-calculator="thresholds"]')
    expect(form.locator('[name="damage"]')).to_have_value("4", timeout=STEP_MS)
    form.locator('[name="damage"]').fill("17")
    mine.locator('[data-action="write-back"]').click()
    expect(mine.locator(".mt-mine-status")).to_have_text(
        "Saved to Ada: damage taken 4 \u2192 17.", timeout=STEP_MS
    )
    assert saved(page)["characters"][0]["damage"] == 17


# ---------------------------------------------------------------- export / import


def test_a_character_goes_out_as_a_file_and_a_link_and_comes_back_the_same(page: Any, tmp_path: Path) -> None:
    open_table(page, "character", {STORE: store_of(ada())})
    expect(page.locator('[data-derived="hp"]')).to_have_text("24", timeout=BOOT_MS)
    with page.expect_download() as download:
        page.click('[data-action="export-file"]')
    file = tmp_path / "ada.json"
    download.value.save_as(file)
    exported = json.loads(file.read_text(encoding="utf-8"))
    assert exported["name"] == "Ada" and exported["weapons"][0]["damage"] == "3d6"

    page.click('[data-action="export-link"]')
    link = page.locator(".mt-link")
    expect(link).not_to_have_value("", timeout=STEP_MS)
    url = link.input_value()
    assert "#character=" in url and "/table/character/" in url

    # Import the file: a second Ada (new id), identical otherwise.
    page.set_input_files(".mt-file", str(file))
    expect(page.locator(".mt-status")).to_have_text("Imported Ada.", timeout=STEP_MS)
    characters = saved(page)["characters"]
    assert len(characters) == 2
    assert {**characters[1], "id": "ada-1"} == {**exported, "id": "ada-1"}

    # Open the link: the character is offered, added only when accepted, and the fragment dropped.
    page.goto(url)
    expect(page.locator(".mt-offer")).to_contain_text("This link carries a character: Ada.", timeout=BOOT_MS)
    page.click('[data-action="accept-link"]')
    expect(page.locator(".mt-status")).to_have_text("Imported Ada.", timeout=STEP_MS)
    # The status already said so after the file: the third Ada is waited for, not raced.
    settled(page, lambda: len(saved(page)["characters"]), 3)
    assert "#character=" not in page.url


BAD_FILES = {
    "not JSON": ("{not json", "not valid JSON"),
    "a script where a number goes": (
        json.dumps(
            ada(characteristics={"strength": 7, "dexterity": 8, "endurance": "<img src=x onerror=alert(1)>"})
        ),
        "End must be a whole number.",
    ),
    "from a future version": (json.dumps({**ada(), "version": 99}), "newer version of the site"),
    "too large": ("{" + " " * 30_000 + "}", "too large"),
}


def test_a_malformed_import_is_refused_with_a_message_and_loses_nothing(page: Any, tmp_path: Path) -> None:
    open_table(page, "character", {STORE: store_of(ada())})
    expect(page.locator('[data-derived="hp"]')).to_have_text("24", timeout=BOOT_MS)
    before = saved(page)
    message = page.locator("[data-import-message]")
    for label, (content, says) in BAD_FILES.items():
        bad = tmp_path / f"{label}.json"
        bad.write_text(content, encoding="utf-8")
        page.set_input_files(".mt-file", str(bad))
        expect(message).to_contain_text(says, timeout=STEP_MS)
        expect(message).to_contain_text("Not imported")
        page.evaluate("() => { document.querySelector('[data-import-message]').textContent = ''; }")
    page.fill(".mt-import-text", "https://example.org/#character=%%%")
    page.click('[data-action="import"]')
    expect(message).to_contain_text("Not imported: The link is damaged", timeout=STEP_MS)
    assert saved(page) == before
    expect(page.locator('[data-path="name"]')).to_have_value("Ada")
    assert page.locator("img[src='x']").count() == 0


# ---------------------------------------------------------------- combat tracker


def add_combatant(
    page: Any, name: str, mode: str, dexterity: str = "7", roll: str = "", told: str = ""
) -> None:
    form = page.locator("[data-add]")
    form.locator('[data-field="name"]').fill(name)
    form.locator('[data-field="dexterity"]').fill(dexterity)
    form.locator('[data-field="mode"]').select_option(mode)
    form.locator('[data-field="roll"]').fill(roll)
    form.locator('[data-field="entered"]').fill(told)
    count = page.locator("[data-combatant]").count()
    form.locator('[data-action="add"]').click()
    expect(page.locator("[data-combatant]")).to_have_count(count + 1, timeout=STEP_MS)


def order(page: Any) -> list[str]:
    names: list[str] = page.locator("[data-combatant] [data-name]").all_inner_texts()
    return names


def card(page: Any, name: str) -> Any:
    return page.locator("[data-combatant]").filter(has=page.locator(f'[data-name]:text-is("{name}")'))


def test_a_fight_keeps_order_states_and_penalties_across_rounds_a_reload_and_undo(page: Any) -> None:
    open_table(page, "tracker", {STORE: store_of(ada())})
    page.click('[data-action="add-mine"]')  # Ada: Dex 8, best skill Gun Combat 1
    expect(page.locator("[data-combatant]")).to_have_count(1, timeout=STEP_MS)
    add_combatant(page, "Goon", "ambush", dexterity="9")  # 12 + 1 = 13
    add_combatant(page, "Guard", "entered", told="7")
    ada_card = card(page, "Ada")
    ada_card.locator('[data-action="more"]').click()
    ada_card.locator('[data-field="roll"]').fill("9")
    ada_card.locator('[data-action="apply"]').click()  # 9 + 0 + 1 = 10
    expect(page.locator("[data-combatant] [data-initiative]")).to_have_text(
        ["13", "10", "7"], timeout=STEP_MS
    )
    assert order(page) == ["Goon", "Ada", "Guard"]
    expect(page.locator("[data-current]")).to_have_text("Goon acts")

    # Goon shoots Ada: 4 + 5 + 9 = 18 of HP 24 -> critically wounded, -6, and the 9 starts bleeding.
    card(page, "Ada").locator('[data-field="rolls"]').fill("5, 9")
    card(page, "Ada").locator('[data-action="hit"]').click()
    expect(card(page, "Ada").locator("[data-state]")).to_have_text("critically wounded", timeout=STEP_MS)
    expect(card(page, "Ada").locator("[data-penalty]")).to_have_text("\u22126")
    expect(card(page, "Ada").locator('[data-reminder="bleeding"]')).to_be_visible()
    card(page, "Guard").locator('[data-field="rolls"]').fill("12 10")  # 22 > HP 21: massive damage
    card(page, "Guard").locator('[data-action="hit"]').click()
    expect(card(page, "Guard").locator('[data-reminder="massive"]')).to_be_visible(timeout=STEP_MS)
    expect(card(page, "Guard").locator('[data-reminder="dying"]')).to_contain_text("against 4")

    turn = (
        "() => document.querySelector('[data-round]').textContent"
        " + '|' + document.querySelector('[data-current]').textContent"
    )
    # Ada (critically wounded, usually unconscious) and Guard (dying) cannot act: one tap passes over
    # both and a new round begins with Goon (Outcomes § Injury Conditions, § Dying).
    before = page.evaluate(turn)
    page.click('[data-action="next"]')
    page.wait_for_function(f"before => ({turn})() !== before", arg=before, timeout=STEP_MS)
    expect(page.locator("[data-round]")).to_have_text("2")
    expect(page.locator("[data-current]")).to_have_text("Goon acts")
    expect(page.locator(".mt-sticky .mt-status")).to_contain_text("passed over Ada, Guard (cannot act)")
    expect(card(page, "Ada")).to_have_attribute("data-acts", "false")
    expect(card(page, "Guard").locator("[data-skipped]")).to_be_visible()
    expect(card(page, "Goon")).to_have_attribute("data-acts", "true")
    expect(card(page, "Guard").locator('[data-reminder="massive"]')).to_have_count(0)

    page.reload()
    expect(page.locator('[data-mneme-table="tracker"]')).to_have_attribute(
        "data-state", "ready", timeout=BOOT_MS
    )
    assert order(page) == ["Goon", "Ada", "Guard"]
    expect(page.locator("[data-round]")).to_have_text("2")
    expect(card(page, "Ada").locator("[data-penalty]")).to_have_text("\u22126")
    expect(card(page, "Ada").locator("[data-damage]")).to_have_text("18 damage")
    saved = json.loads(stored(page, TRACKER) or "")
    assert table_tracker.derive_tracker(saved)["order"] == ["c2", "c1", "c3"]

    # Undo: one more hit, then back to exactly the tracker before it.
    card(page, "Goon").locator('[data-field="rolls"]').fill("8")
    card(page, "Goon").locator('[data-action="hit"]').click()
    expect(card(page, "Goon").locator("[data-state]")).to_have_text("seriously wounded", timeout=STEP_MS)
    page.click('[data-action="undo"]')
    expect(card(page, "Goon").locator("[data-state]")).to_have_text("unhurt", timeout=STEP_MS)
    expect(page.locator(".mt-sticky .mt-status")).to_contain_text(
        "Undone: Goon takes 8 (8): seriously wounded"
    )
    assert json.loads(stored(page, TRACKER) or "") == saved

    # An incoming attack on Goon, failed by 5 behind cover 2, armor 2 (Core Mechanics § Mitigating
    # Factors; Outcomes § Damage Rolls, § Armor): 3 rolls of 2d6 asked for, then 7, 3, 9 deal 5, 1, 7.
    box = card(page, "Goon").locator("[data-incoming]")
    box.locator("summary").click()
    box.locator('[data-field="failed_by"]').fill("5")
    box.locator('[data-field="cover"]').fill("2")
    box.locator('[data-field="incoming_armor"]').fill("2")
    box.locator('[data-field="incoming_dice"]').fill("2d6")
    box.locator('[data-action="incoming"]').click()
    expect(card(page, "Goon").locator("[data-card-error]")).to_contain_text(
        "3 left; the cover takes 2: 3 damage rolls of 2d6", timeout=STEP_MS
    )
    box.locator('[data-field="incoming_rolls"]').fill("7 3 9")
    box.locator('[data-action="incoming"]').click()
    expect(card(page, "Goon").locator("[data-damage]")).to_have_text("13 damage", timeout=STEP_MS)
    expect(page.locator(".mt-sticky .mt-status")).to_contain_text("rolled 7, 3, 9 less armor 2")


def test_the_tracker_works_offline_once_visited(page: Any, context: Any, site_dir: Path) -> None:
    if not (site_dir / "sw.js").is_file():
        pytest.skip("the site has no service worker")
    fight = table_tracker.tracker_action(
        table_tracker.empty_tracker(),
        {"type": "add", "combatant": {"name": "Scout", "mode": "ambush", "dexterity": 10}},
    )["tracker"]
    seed(page, {TRACKER: json.dumps(fight)})
    page.set_viewport_size(PHONE)
    page.goto("table/tracker/")
    # The service worker precaches the whole site (Pyodide included) before it activates.
    active = page.evaluate(
        """() => Promise.race([
          window.mnemeOffline.ready.then((registration) => Boolean(registration && registration.active)),
          new Promise((resolve) => setTimeout(() => resolve("timeout"), 120000)),
        ])"""
    )
    assert active is True, f"the service worker did not activate: {active}"
    context.set_offline(True)
    try:
        page.reload()
        expect(page.locator('[data-mneme-table="tracker"]')).to_have_attribute(
            "data-state", "ready", timeout=BOOT_MS
        )
        expect(card(page, "Scout").locator("[data-initiative]")).to_have_text("13")  # 12 + Dex DM +1
    finally:
        context.set_offline(False)
