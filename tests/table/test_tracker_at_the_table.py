"""The tracker at the table: damage typed before armor, an incoming attack resolved as Mitigation does,
and who acts passing over those who cannot.

Rules pinned: Outcomes § Armor (each roll less armor, never below 0), § Damage Rolls (one roll per point
of Fail Effect), § Injury Conditions (critically wounded: usually unconscious), § Dying; Core Mechanics
§ Mitigating Factors and Outcomes § Cover Takes Damage (cover removes up to its value and takes those
attacks).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import damage
from table import api
from table import tracker as table_tracker
from table.character import DocumentError


def _fight(armor: int = 4) -> dict[str, Any]:
    doc = table_tracker.empty_tracker()
    for name, roll, extra in (
        ("Ann", 8, {"armor": armor, "side": "character"}),
        ("Bo", 6, {}),
        ("Cy", 4, {}),
    ):
        combatant = {"name": name, "roll": roll, **extra}
        doc = table_tracker.tracker_action(doc, {"type": "add", "combatant": combatant})["tracker"]
    return doc


def _ann(view: dict[str, Any]) -> dict[str, Any]:
    return view["tracker"]["combatants"][0]  # type: ignore[no-any-return]


def test_armor_is_kept_on_a_combatant_and_checked() -> None:
    doc = _fight(armor=4)
    assert _ann({"tracker": doc})["armor"] == 4
    edited = table_tracker.tracker_action(doc, {"type": "update", "id": "c1", "fields": {"armor": 6}})
    assert _ann(edited)["armor"] == 6
    with pytest.raises(DocumentError) as caught:
        table_tracker.tracker_action(doc, {"type": "update", "id": "c1", "fields": {"armor": -1}})
    assert "Armor" in str(caught.value)


def test_rolls_typed_before_armor_lose_the_armor_each_never_below_zero() -> None:
    # Outcomes § Armor: a hit of Effect 1 makes 2 rolls (§ Damage); 3d6 rolls of 3 and 12 against armor 4
    # deal 0 and 8, 8 in all.
    hit = {"type": "hit", "id": "c1", "rolls": "3, 12", "before_armor": True, "dice": "3d6", "effect": 1}
    view = table_tracker.tracker_action(_fight(armor=4), hit)
    assert _ann(view)["damage"] == 8
    assert "takes 8 (8, 0) (rolled 3, 12 less armor 4)" in view["tracker"]["log"][-1]
    # after armor, as before: the rolls are taken as typed
    plain = table_tracker.tracker_action(_fight(armor=4), {"type": "hit", "id": "c1", "rolls": "3, 12"})
    assert _ann(plain)["damage"] == 15


def test_a_roll_the_armor_stops_asks_for_the_effect_and_effect_six_deals_at_least_one() -> None:
    # Outcomes § Armor: a hit of Effect 6 or more deals at least 1 a roll. The 3 on 3d6 against armor 4
    # deals 0 or 1 depending on the Effect: without it the tracker asks (a prompt, not an error) and
    # changes nothing; rolls the armor does not stop need no Effect.
    doc = _fight(armor=4)
    with pytest.raises(table_tracker.Prompt) as asked:
        table_tracker.tracker_action(
            doc, {"type": "hit", "id": "c1", "rolls": "3, 12", "before_armor": True, "dice": "3d6"}
        )
    assert asked.value.path == "effect"
    assert str(asked.value) == (
        "A roll the armor 4 stops deals 0, or 1 if the hit's Effect was 6 or more: give the hit's Effect."
    )
    clear = table_tracker.tracker_action(
        doc, {"type": "hit", "id": "c1", "rolls": "5, 12", "before_armor": True, "dice": "3d6"}
    )
    assert _ann(clear)["damage"] == 1 + 8
    # Effect 6: 7 rolls (1 + 6); 3, 4 and 3 against armor 4 deal 1 each, 12 12 12 12 deal 8 each.
    six = {"type": "hit", "id": "c1", "rolls": "3 4 3 12 12 12 12", "before_armor": True, "dice": "3d6"}
    view = table_tracker.tracker_action(doc, {**six, "effect": 6})
    assert _ann(view)["damage"] == 3 * 1 + 4 * 8
    assert "less armor 4, at least 1 a roll)" in view["tracker"]["log"][-1]
    with pytest.raises(DocumentError) as count:
        table_tracker.tracker_action(doc, {**six, "effect": 5})
    assert count.value.path == "rolls" and "makes 6 damage rolls" in str(count.value)


def test_before_armor_needs_the_dice_and_a_roll_they_can_give() -> None:
    doc = _fight()
    with pytest.raises(DocumentError) as no_dice:
        table_tracker.tracker_action(doc, {"type": "hit", "id": "c1", "rolls": "5", "before_armor": True})
    assert no_dice.value.path == "dice"
    with pytest.raises(DocumentError) as too_high:
        table_tracker.tracker_action(
            doc, {"type": "hit", "id": "c1", "rolls": "19", "before_armor": True, "dice": "3d6"}
        )
    assert too_high.value.path == "rolls" and "3 to 18" in str(too_high.value)


@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    effect=st.integers(min_value=0, max_value=7),
    armor=st.integers(min_value=0, max_value=15),
)
def test_before_armor_agrees_with_rolled_damage(data: st.DataObject, effect: int, armor: int) -> None:
    outcome = damage.damage_outcome("2d6", success_effect=effect, armor=armor)
    rolls = data.draw(st.lists(st.integers(2, 12), min_size=outcome.rolls.made, max_size=outcome.rolls.made))
    hit = {"type": "hit", "id": "c1", "rolls": " ".join(map(str, rolls)), "before_armor": True, "dice": "2d6"}
    view = table_tracker.tracker_action(_fight(armor=armor), {**hit, "effect": effect})
    assert _ann(view)["damage"] == damage.rolled_damage(outcome, rolls).total
    assert 0 <= _ann(view)["damage"] <= sum(rolls)
    if effect >= 6:
        assert _ann(view)["damage"] >= len(rolls)


def test_an_incoming_attack_failed_by_five_with_cover_two_makes_three_rolls() -> None:
    # Core Mechanics § Mitigating Factors: 5 less cover 2 leaves 3, the cover takes 2;
    # Outcomes § Damage Rolls: 3 rolls; § Armor: 10, 3, 9 less 4 are 6, 0, 5 = 11.
    doc = _fight(armor=4)
    action: dict[str, Any] = {"type": "incoming", "id": "c1", "failed_by": 5, "cover": 2}
    with pytest.raises(table_tracker.Prompt) as asks_dice:  # a question, not a mistake
        table_tracker.tracker_action(doc, action)
    assert (
        str(asks_dice.value)
        == "Failed by 5, 3 left; the cover takes 2: 3 damage rolls. Give the damage dice, like 3d6."
    )
    with pytest.raises(table_tracker.Prompt) as asks_rolls:
        table_tracker.tracker_action(doc, {**action, "dice": "3d6"})
    assert asks_rolls.value.path == "rolls" and "3d6-4 after armor 4" in str(asks_rolls.value)
    view = table_tracker.tracker_action(doc, {**action, "dice": "3d6", "rolls": "10 3 9"})
    assert _ann(view)["damage"] == 11
    assert (
        "(failed by 5, 3 left; the cover takes 2; rolled 10, 3, 9 less armor 4)" in view["tracker"]["log"][-1]
    )
    with pytest.raises(DocumentError) as wrong_count:
        table_tracker.tracker_action(doc, {**action, "dice": "3d6", "rolls": "10 3"})
    assert "enter 3" in str(wrong_count.value)


def test_an_incoming_attack_the_cover_takes_whole_does_no_damage_and_armor_can_be_given() -> None:
    doc = _fight(armor=4)
    view = table_tracker.tracker_action(doc, {"type": "incoming", "id": "c1", "failed_by": 2, "cover": 3})
    assert _ann(view)["damage"] == 0
    assert view["tracker"]["log"][-1].endswith("ordinary failure; the cover takes 2: no damage.")
    # armor given for this attack (0) replaces the combatant's 4: one roll of 7 deals 7
    hit = table_tracker.tracker_action(
        doc, {"type": "incoming", "id": "c1", "failed_by": 1, "armor": 0, "dice": "2d6", "rolls": "7"}
    )
    assert _ann(hit)["damage"] == 7


def test_next_passes_over_the_dying_and_the_critically_wounded() -> None:
    # Outcomes § Injury Conditions: HP 21 (7+7+7); damage 22 is dying (more than HP).
    doc = table_tracker.tracker_action(_fight(), {"type": "set_damage", "id": "c2", "damage": 22})["tracker"]
    view = table_tracker.tracker_action(doc, {"type": "next"})
    assert view["rows"]["c2"]["state"] == "dying" and view["rows"]["c2"]["acts"] is False
    assert view["current"] == "c3"
    assert view["tracker"]["log"][-1].endswith("passed over Bo (cannot act).")
    again = table_tracker.tracker_action(view["tracker"], {"type": "next"})
    assert (again["current"], again["round"]) == ("c1", 2)


def test_next_passes_over_the_dead_and_moves_on_when_nobody_can_act() -> None:
    doc = table_tracker.tracker_action(_fight(), {"type": "dead", "id": "c2"})["tracker"]
    assert table_tracker.tracker_action(doc, {"type": "next"})["current"] == "c3"
    for cid in ("c1", "c3"):
        doc = table_tracker.tracker_action(doc, {"type": "dead", "id": cid})["tracker"]
    view = table_tracker.tracker_action(doc, {"type": "next"})
    assert view["current"] == "c1" and view["round"] == 2  # a whole round passes
    assert view["tracker"]["log"][-1].endswith("nobody can act.")


def test_an_incoming_attack_takes_conditions_skill_and_rate_and_keeps_the_effect_six_minimum() -> None:
    # Core Mechanics § Mitigating Factors: failed by 8, conditions 1 and skill 1 leave 6; Outcomes § Damage
    # Rolls: 6 rolls, § Weapons with Limited Rate of Attack: the best 2 count; § Armor: at a Fail Effect
    # of 6 each roll deals at least 1. 2d6 rolls 12 11 3 2 5 4 less armor 4: 8, 7 (then 1s): 15.
    doc = _fight(armor=4)
    action: dict[str, Any] = {
        "type": "incoming",
        "id": "c1",
        "failed_by": 8,
        "conditions": 1,
        "skill": 1,
        "rate_of_attack": 2,
        "dice": "2d6",
    }
    asked = api.call("tracker_action", {"tracker": doc, "action": action})
    assert asked == {
        "ok": False,
        "error": "Failed by 8, 6 left: 6 damage rolls (the best 2 count) of 2d6 (2d6-4 after armor 4, "
        "at least 1 a roll): type them as rolled.",
        "path": "rolls",
        "prompt": True,
    }
    view = table_tracker.tracker_action(doc, {**action, "rolls": "12 11 3 2 5 4"})
    assert _ann(view)["damage"] == 15
    assert (
        "takes 15 (8, 7) (failed by 8, 6 left; rolled 12, 11, 3, 2, 5, 4 less armor 4, at least 1 a roll)"
        in (view["tracker"]["log"][-1])
    )
    # A mistake stays an error (no prompt flag): the count is the rule's.
    wrong = api.call("tracker_action", {"tracker": doc, "action": {**action, "rolls": "12"}})
    assert wrong == {"ok": False, "error": "This attack makes 6 damage rolls: enter 6.", "path": "rolls"}
    with pytest.raises(DocumentError) as bad_rate:
        table_tracker.tracker_action(doc, {**action, "rate_of_attack": -1})
    assert bad_rate.value.path == "rate_of_attack"
