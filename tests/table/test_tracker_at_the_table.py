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
    # Outcomes § Armor: 3d6 rolls of 3 and 12 against armor 4 deal 0 and 8, 8 in all.
    view = table_tracker.tracker_action(
        _fight(armor=4), {"type": "hit", "id": "c1", "rolls": "3, 12", "before_armor": True, "dice": "3d6"}
    )
    assert _ann(view)["damage"] == 8
    assert "takes 8 (0, 8) (rolled 3, 12 less armor 4)" in view["tracker"]["log"][-1]
    # after armor, as before: the rolls are taken as typed
    plain = table_tracker.tracker_action(_fight(armor=4), {"type": "hit", "id": "c1", "rolls": "3, 12"})
    assert _ann(plain)["damage"] == 15


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
    rolls=st.lists(st.integers(min_value=2, max_value=12), min_size=1, max_size=5),
    armor=st.integers(min_value=0, max_value=15),
)
def test_before_armor_agrees_with_rolled_damage(rolls: list[int], armor: int) -> None:
    text = " ".join(map(str, rolls))
    view = table_tracker.tracker_action(
        _fight(armor=armor), {"type": "hit", "id": "c1", "rolls": text, "before_armor": True, "dice": "2d6"}
    )
    one = damage.damage_outcome("2d6", success_effect=0, armor=armor)
    assert _ann(view)["damage"] == sum(damage.rolled_damage(one, (r,)).total for r in rolls)
    assert 0 <= _ann(view)["damage"] <= sum(rolls)


def test_an_incoming_attack_failed_by_five_with_cover_two_makes_three_rolls() -> None:
    # Core Mechanics § Mitigating Factors: 5 less cover 2 leaves 3, the cover takes 2;
    # Outcomes § Damage Rolls: 3 rolls; § Armor: 10, 3, 9 less 4 are 6, 0, 5 = 11.
    doc = _fight(armor=4)
    action: dict[str, Any] = {"type": "incoming", "id": "c1", "failed_by": 5, "cover": 2}
    with pytest.raises(DocumentError) as asks_dice:
        table_tracker.tracker_action(doc, action)
    assert (
        str(asks_dice.value)
        == "Failed by 5, 3 left; the cover takes 2: 3 damage rolls. Give the damage dice, like 3d6."
    )
    with pytest.raises(DocumentError) as asks_rolls:
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
