"""The tracker at the table, what was left: an incoming attack told whole, prompts that are questions.

Replayed at 360x780 in one page visit (a fight seeded on the device):

- An incoming attack once had no field for the conditions, the defence skill or the attacker's rate of
  attack, and its "how many to roll" answer was shown in the red error style: now all three are asked,
  the count is a question (calm style, ``role="status"``, the rolls field focused), and a Fail Effect of
  6 or more keeps its minimum of 1 a roll (Core Mechanics § Mitigating Factors; Outcomes § Damage Rolls,
  § Weapons with Limited Rate of Attack, § Armor).
- Damage typed before armor once ignored the Effect 6+ minimum: a roll the armor stops now asks for the
  hit's Effect, and the Effect given counts the rolls and brings the minimum (Outcomes § Armor, § Damage).
- A real mistake (a roll the dice cannot give) is still an error (``role="alert"``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from table import tracker as table_tracker

pytestmark = pytest.mark.browser

BOOT_MS = 90_000
STEP_MS = 30_000
TRACKER = "mneme@/mneme/:tracker.v1"
"""The tracker's storage key (named by the test server's sub-path, as in ``test_table.py``)."""
PHONE = {"width": 360, "height": 780}
ERROR_RED = "rgb(176, 0, 32)"
"""The error line's colour in the light scheme (``table.css``: ``.mt-error``)."""


def fight() -> dict[str, Any]:
    doc = table_tracker.empty_tracker()
    for combatant in (
        {"name": "Kara", "roll": 9, "armor": 4, "side": "character", "strength": 8, "endurance": 9},
        {"name": "Goon", "roll": 6, "armor": 2},
    ):
        doc = table_tracker.tracker_action(doc, {"type": "add", "combatant": combatant})["tracker"]
    return doc


def card(page: Any, name: str) -> Any:
    return page.locator("[data-combatant]").filter(has=page.locator(f'[data-name]:text-is("{name}")'))


def test_an_incoming_attack_told_whole_and_prompts_that_are_questions(page: Any) -> None:
    page.context.add_init_script(
        f"localStorage.getItem({json.dumps(TRACKER)}) === null && "
        f"localStorage.setItem({json.dumps(TRACKER)}, {json.dumps(json.dumps(fight()))})"
    )
    page.set_viewport_size(PHONE)
    page.goto("table/tracker/")
    expect(page.locator('[data-mneme-table="tracker"]')).to_have_attribute(
        "data-state", "ready", timeout=BOOT_MS
    )

    kara = card(page, "Kara")
    box = kara.locator("[data-incoming]")
    box.locator("summary").click()
    # Failed by 8, conditions 1 and skill 1 leave 6: 6 rolls of 2d6, the best 2 count, at least 1 each.
    for field, value in (
        ("failed_by", "8"),
        ("incoming_conditions", "1"),
        ("incoming_skill", "1"),
        ("incoming_rate_of_attack", "2"),
        ("incoming_dice", "2d6"),
    ):
        box.locator(f'[data-field="{field}"]').fill(value)
    box.locator('[data-action="incoming"]').click()
    said = kara.locator("[data-card-error]")
    expect(said).to_have_text(
        "Failed by 8, 6 left: 6 damage rolls (the best 2 count) of 2d6 (2d6-4 after armor 4, at least 1 a "
        "roll): type them as rolled.",
        timeout=STEP_MS,
    )
    # A question, not an error: not the red error style, announced politely, the rolls field focused.
    expect(said).to_have_class("mt-error mt-prompt")
    expect(said).to_have_attribute("role", "status")
    assert said.evaluate("e => getComputedStyle(e).color") != ERROR_RED
    expect(box.locator('[data-field="incoming_rolls"]')).to_be_focused()
    assert kara.locator("[data-damage]").inner_text() == "0 damage"  # nothing applied yet
    box.locator('[data-field="incoming_rolls"]').fill("12 11 3 2 5 4")  # less 4: 8, 7, then 1s
    box.locator('[data-action="incoming"]').click()
    expect(kara.locator("[data-damage]")).to_have_text("15 damage", timeout=STEP_MS)
    expect(page.locator(".mt-sticky .mt-status")).to_contain_text("less armor 4, at least 1 a roll")

    # Rolls as made on Goon (armor 2): a roll of 2 the armor stops deals 0, or 1 at Effect 6+: asked.
    goon = card(page, "Goon")
    goon.locator('[data-field="before_armor"]').check()
    goon.locator('[data-field="dice"]').fill("2d6")
    goon.locator('[data-field="rolls"]').fill("2 9")
    goon.locator('[data-action="hit"]').click()
    said = goon.locator("[data-card-error]")
    expect(said).to_have_text(
        "A roll the armor 2 stops deals 0, or 1 if the hit's Effect was 6 or more: give the hit's Effect.",
        timeout=STEP_MS,
    )
    expect(said).to_have_class("mt-error mt-prompt")
    expect(goon.locator('[data-field="hit_effect"]')).to_be_focused()
    # A roll 2d6 cannot give is a mistake: the error style again.
    goon.locator('[data-field="hit_effect"]').fill("1")
    goon.locator('[data-field="rolls"]').fill("2 13")
    goon.locator('[data-action="hit"]').click()
    expect(said).to_have_text("2d6 rolls 2 to 12, not 13.", timeout=STEP_MS)
    expect(said).to_have_class("mt-error")
    expect(said).to_have_attribute("role", "alert")
    # Effect 1: 2 rolls (Outcomes § Damage); 2 and 9 less armor 2: 0 and 7.
    goon.locator('[data-field="rolls"]').fill("2 9")
    goon.locator('[data-action="hit"]').click()
    expect(goon.locator("[data-damage]")).to_have_text("7 damage", timeout=STEP_MS)
    expect(said).to_have_text("")
