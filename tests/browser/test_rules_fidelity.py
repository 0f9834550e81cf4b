"""Rules fidelity in headless Chromium: each calculator opened through a shareable link.

Every test opens the link exactly as a player would share it, waits for the live (Pyodide) result and
checks (a) that every output equals CPython's for the same inputs and (b) the corrected number the rule
gives, so a regression in either engine shows. Each docstring names the rule (chapter § section).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from .conftest import outputs, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.returning_visit]

EMPTY = "\u2014"
"""What an output shows when there is no result."""

INJURY_STATES = ("wounded", "seriously_wounded", "critically_wounded", "dying", "bleeding")
"""The character injury outputs of the attack and damage calculators."""


def open_link(page: Any, python_outputs: Any, link: str) -> dict[str, str]:
    """Open ``link`` (``calculators/NAME/?query``) as written, wait for the live result and check that
    every output equals CPython's for the link's inputs; the page's outputs."""
    name = urlsplit(link).path.strip("/").split("/")[-1]
    params = dict(parse_qsl(urlsplit(link).query, keep_blank_values=True))
    page.goto(link)
    form = page.locator(f'form[data-calculator="{name}"]')
    wait_ready(form)
    shown = outputs(form)
    assert shown == python_outputs(name, **params), link
    return shown


def test_defend_with_skill_doubles_the_skill_in_the_roll(page: Any, python_outputs: Any) -> None:
    """Actions § Defend Action > Skill Doubling: defending with skill counts the skill a second time in
    the roll's DM (DM 1 + skill 1 = +2 against 8: 72.22%), and the doubled skill 2 leaves nothing of the
    fail effect of 2 (Core Mechanics § Mitigating Factors)."""
    shown = open_link(
        page,
        python_outputs,
        "calculators/attack/?side=attacked&modifier=1&difficulty=8&roll=4&skill=1&defend=skill",
    )
    assert shown["chance"] == "72.22%"
    assert shown["effect"] == "\u22122"
    assert (shown["remaining"], shown["ordinary_failure"]) == ("0", "yes")
    assert shown["rolls"] == EMPTY


def test_a_successful_defend_deals_no_damage(page: Any, python_outputs: Any) -> None:
    """Actions § Defend Action > Success: a successful Defend takes no damage and deals none, so no
    damage rolls go against the adversary."""
    shown = open_link(
        page,
        python_outputs,
        "calculators/attack/?side=attacked&modifier=1&difficulty=8&roll=9&skill=1&defend=skill",
    )
    assert (shown["outcome"], shown["target"]) == ("success", "nobody")
    assert all(shown[key] == EMPTY for key in ("rolls", "kept", "per_roll", "expected", *INJURY_STATES))


def test_cover_counts_at_most_4_unless_the_cap_only_limits_doubling(page: Any, python_outputs: Any) -> None:
    """Actions § Defend Action > Success: "the maximum modifier of Cover and Concealment is 4", so cover 5
    absorbs 4 of a fail effect of 6 by default; with the cap limiting only the doubling (ruling) it
    counts 5."""
    shown = open_link(page, python_outputs, "calculators/attack/?side=attacked&modifier=0&roll=2&cover=5")
    assert (shown["effect"], shown["cover_absorbs"], shown["remaining"]) == ("\u22126", "4", "2")
    shown = open_link(
        page,
        python_outputs,
        "calculators/attack/?side=attacked&modifier=0&roll=2&cover=5&cover_cap=doubling_only",
    )
    assert (shown["cover_absorbs"], shown["remaining"]) == ("5", "1")


def test_the_cover_takes_the_attacks_it_absorbs(page: Any, python_outputs: Any) -> None:
    """Outcomes § Cover Takes Damage > Mechanic: the 2 attacks the cover absorbs roll the adversary's 3d6
    against its AR 2 and HP 20 (2 x (10.5 - 2) = 17 damage on average)."""
    shown = open_link(
        page,
        python_outputs,
        "calculators/attack/?side=attacked&modifier=0&roll=4&cover=2&adversary_damage=3d6&cover_armor=2&cover_hp=20",
    )
    assert shown["cover_absorbs"] == "2"
    assert (shown["cover_damage"], shown["cover_left"], shown["cover_broken"]) == ("17.00", "3.58", "20.58%")
    assert (shown["remaining"], shown["rolls"], shown["per_roll"]) == ("2", "2", "3d6")


def test_mitigation_caps_cover_at_4(page: Any, python_outputs: Any) -> None:
    """Actions § Defend Action > Success: cover counts at most 4, so cover 5 against a fail effect of 6
    leaves 2 (Core Mechanics § Mitigating Factors)."""
    shown = open_link(page, python_outputs, "calculators/mitigation/?fail_effect=6&cover=5")
    assert shown == {
        "remaining": "2",
        "ordinary_failure": "no",
        "cover_absorbs": "4",
        "summary": "You take 2 damage rolls; the cover takes 4.",
    }


def test_care_follows_the_injury_state(page: Any, python_outputs: Any) -> None:
    """Outcomes § Care Levels (ruling: care levels by injury state): 8 damage with best physical 9 is only
    wounded (Outcomes § Character HP Thresholds), so the care is light, not moderate."""
    shown = open_link(
        page,
        python_outputs,
        "calculators/healing/?strength=7&dexterity=8&endurance=9&damage=8&reading=best_physical",
    )
    assert (shown["state"], shown["care_level"]) == ("wounded", "light")
    assert shown["days"] == "8"


def test_unsupervised_intensive_care_and_therapy(page: Any, python_outputs: Any) -> None:
    """Outcomes § Intensive Care > Without Supervision: 2d6 + 1 against 8 heals (58.33%), a failure forces
    a dying roll (death 38.19% in all); Outcomes § Healing and Mental Characteristics: 1 point per 3 days,
    so 2 points take 6 days of therapy once fully healed."""
    shown = open_link(
        page, python_outputs, "calculators/healing/?damage=25&intensive_modifier=1&characteristic_damage=2"
    )
    assert (shown["state"], shown["care_level"]) == ("dying", "intensive")
    assert (shown["intensive_heal"], shown["intensive_death"]) == ("58.33%", "38.19%")
    assert (shown["characteristic_days"], shown["characteristic_done"]) == ("6", "99")


def test_a_prepared_character_uses_the_chosen_characteristic(page: Any, python_outputs: Any) -> None:
    """Actions § Combat Round Summary > Initiative: a prepared character may lead with any characteristic,
    so Intellect 12 (DM +2) rather than Dexterity 7 (DM 0): 8 + 2 + skill 2 = 12."""
    shown = open_link(
        page,
        python_outputs,
        "calculators/initiative/?dexterity=7&skill=2&roll=8&characteristic=intellect&score=12",
    )
    assert shown["initiative"] == "12"


def test_an_object_has_no_injury_states(page: Any, python_outputs: Any) -> None:
    """Outcomes § Hit Points (HP) > Definition: a vehicle's or object's HP is only a threshold (D-scale
    damage against a D-scale target, § Damage Scale); the injury conditions are the character's
    (§ Character HP Thresholds), so only the chance of passing HP 30 shows: 71.81%."""
    shown = open_link(
        page,
        python_outputs,
        "calculators/damage/?effect=2&damage=D%203d6&target_scale=D&hp=30&current_damage=2",
    )
    assert shown["per_roll"] == "D 3d6"
    assert shown["past_hp"] == "71.81%"
    assert all(shown[key] == EMPTY for key in (*INJURY_STATES, "massive_damage"))


def test_a_seriously_wounded_character_runs_at_three_quarters_and_cannot_dash(
    page: Any, python_outputs: Any
) -> None:
    """Outcomes § Seriously Wounded > Movement Effects: 3/4 of normal movement and no Dash; a Run of 15
    spaces (Actions § Movement Table) is 11 whole spaces (ruling: rounded down) or exactly 11.25."""
    shown = open_link(page, python_outputs, "calculators/movement/?action=run&injury=seriously_wounded")
    assert (shown["spaces"], shown["metres"]) == ("11", "16.5 m")
    shown = open_link(
        page,
        python_outputs,
        "calculators/movement/?action=run&injury=seriously_wounded&wounded_rounding=exact",
    )
    assert (shown["spaces"], shown["metres"]) == ("11.25", "16.875 m")
    shown = open_link(page, python_outputs, "calculators/movement/?action=dash&injury=seriously_wounded")
    assert (shown["spaces"], shown["metres"]) == ("not possible", "not possible")


def test_the_adversarys_cover_takes_the_rolls_it_cost_you(page: Any, python_outputs: Any) -> None:
    """Outcomes § Cover Takes Damage > Application to Adversaries ("This rule also applies to
    Adversaries"), ruling #adversary-cover-success: a cover of 2 in the Difficulty (10 = 8 + 2) costs a
    hit at DM +2 rolling 9 two damage rolls, which go against the cover (AR 2, 5 HP); the adversary
    keeps 1 + Effect 1 = 2 rolls."""
    shown = open_link(
        page,
        python_outputs,
        "calculators/attack/?modifier=2&difficulty=10&roll=9&damage=1d6"
        "&adversary_cover=2&adversary_cover_armor=2&adversary_cover_hp=5",
    )
    assert (shown["effect"], shown["rolls"], shown["adversary_cover_rolls"]) == ("+1", "2", "2")
    assert (shown["adversary_cover_damage"], shown["adversary_cover_broken"]) == ("3.33", "16.67%")
