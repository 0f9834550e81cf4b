"""At the table: character and tracker documents (validation, derivations, import/export, actions).

Rules pinned: Core Mechanics § Characteristic Modifier (ChM = characteristic // 3 - 2),
§ Competence (ChM + skill, -3 unskilled); Outcomes § Hit Points (Str + Dex + End),
§ Character HP Thresholds (-1 per 3 damage), § Injury Conditions, § Bleeding (1 a minute,
10 rounds a minute), § Dying (End roll against 4), § Massive Damage; Actions § Initiative
(ambush 12 + Dex DM, Tactics Effect added).
"""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculators.framework import registry, runtime
from rules_core import injury
from table import api as table_api
from table import character as table_state
from table import prefill as table_prefill
from table import tracker as table_tracker
from table.character import DocumentError


def ada(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "schema": "mneme-character",
        "version": 1,
        "id": "ada-1",
        "name": "Ada",
        "characteristics": {"strength": 7, "dexterity": 8, "endurance": 9, "intellect": 10},
        "skills": [
            {"name": "Gun Combat", "level": 1, "characteristic": "dexterity"},
            {"name": "Tactics", "level": 2, "characteristic": "intellect"},
        ],
        "armor": 4,
        "weapons": [
            {
                "name": "Pistol",
                "damage": "3d6",
                "rate_of_attack": 2,
                "skill": "Gun Combat",
                "characteristic": "dexterity",
            },
            {
                "name": "Knife",
                "damage": "1d6+1",
                "rate_of_attack": 0,
                "skill": "Melee",
                "characteristic": "strength",
            },
        ],
        "damage": 4,
        "notes": "",
    }
    doc.update(changes)
    return doc


# ---------------------------------------------------------------- character validation


def test_a_valid_character_is_kept_with_optional_characteristics_filled_as_empty() -> None:
    character = table_state.check_character(ada())
    assert character["characteristics"] == {
        "strength": 7,
        "dexterity": 8,
        "endurance": 9,
        "intellect": 10,
        "education": None,
        "social": None,
        "psionics": None,
    }
    assert table_state.check_character(character) == character


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"schema": "something-else"}, "schema"),
        ({"version": 2}, "version"),
        ({"version": "1"}, "version"),
        ({"id": "no spaces allowed"}, "id"),
        ({"name": ""}, "name"),
        ({"name": "x" * 41}, "name"),
        ({"name": "bell\x07"}, "name"),
        ({"characteristics": {"strength": 7, "dexterity": 8}}, "characteristics.endurance"),
        ({"characteristics": {"strength": True, "dexterity": 8, "endurance": 9}}, "characteristics.strength"),
        ({"characteristics": {"strength": -1, "dexterity": 8, "endurance": 9}}, "characteristics.strength"),
        ({"characteristics": {"strength": 0, "dexterity": 0, "endurance": 0}}, "characteristics.strength"),
        ({"characteristics": {"strength": 7, "dexterity": 8, "endurance": 100}}, "characteristics.endurance"),
        ({"armor": 1.5}, "armor"),
        ({"damage": -1}, "damage"),
        ({"damage": 10_000_001}, "damage"),
        ({"skills": {}}, "skills"),
        ({"skills": [{"name": "A", "level": 21, "characteristic": "dexterity"}]}, "skills.0.level"),
        ({"skills": [{"name": "A", "level": 1, "characteristic": "luck"}]}, "skills.0.characteristic"),
        (
            {"skills": [{"name": "Pilot", "level": 1}, {"name": "pilot", "level": 2}]},
            "skills.1.name",
        ),
        ({"skills": [{"name": f"S{i}", "level": 0} for i in range(41)]}, "skills"),
        ({"weapons": [{"name": "Gun", "damage": "3d6*2"}]}, "weapons.0.damage"),
        ({"weapons": [{"name": "Gun", "damage": "51d6"}]}, "weapons.0.damage"),
        ({"weapons": [{"name": "Gun", "damage": "3d6", "rate_of_attack": 51}]}, "weapons.0.rate_of_attack"),
        ({"weapons": [{"name": "Gun", "damage": "3d6", "script": "alert(1)"}]}, "weapons.0"),
        ({"extra": 1}, ""),
    ],
)
def test_a_bad_character_is_refused_with_a_sentence_naming_the_field(
    changes: dict[str, Any], path: str
) -> None:
    with pytest.raises(DocumentError) as caught:
        table_state.check_character(ada(**changes))
    assert caught.value.path == path
    assert str(caught.value)[0].isupper() and str(caught.value).endswith((".", ")"))


def test_a_character_from_a_newer_site_is_refused_with_advice_to_reload() -> None:
    with pytest.raises(DocumentError, match="newer version"):
        table_state.check_character(ada(version=2))


# ---------------------------------------------------------------- derivations (worked examples)


def test_ada_str_7_dex_8_end_9_has_hp_24_and_thresholds_8_16_25() -> None:
    """Outcomes § Hit Points; § Injury Conditions: a third and two thirds of HP, dying above HP."""
    derived = table_state.derive_character(ada())
    assert derived["hp"] == 24
    assert derived["thresholds"] == {
        "wounded": 1,
        "seriously_wounded": 8,
        "critically_wounded": 16,
        "dying": 25,
    }
    assert derived["state"] == "wounded"
    assert derived["wound_penalty"] == -1  # 4 damage: one full 3
    assert derived["wound_penalty_signed"] == "\u22121"  # shown as is: the page formats no number


def test_characteristic_modifiers_are_a_third_rounded_down_minus_two() -> None:
    """Core Mechanics § Characteristic Modifier: Dex 8 -> 0, End 9 -> +1, Int 10 -> +1, Str 7 -> 0."""
    chm = table_state.derive_character(ada())["chm"]
    assert {k: v["value"] for k, v in chm.items()} == {
        "strength": 0,
        "dexterity": 0,
        "endurance": 1,
        "intellect": 1,
    }
    assert chm["dexterity"]["text"] == "ChM from Dex 8 = +0"
    assert chm["endurance"]["text"] == "ChM from End 9 = +1"


def test_competence_adds_the_skill_and_the_dm_adds_the_wound_penalty() -> None:
    """Core Mechanics § Competence; Outcomes § Character HP Thresholds (-1 to all rolls per 3 damage)."""
    derived = table_state.derive_character(ada())
    pistol, knife = derived["weapons"]
    assert (pistol["competence"], pistol["modifier"]) == (1, 0)  # ChM 0 + Gun Combat 1, wound -1
    assert (knife["competence"], knife["modifier"]) == (-3, -4)  # ChM 0, unskilled -3, wound -1
    assert "unskilled" in knife["competence_text"]
    tactics = derived["skills"][1]
    assert (tactics["competence"], tactics["modifier"]) == (3, 2)


def test_a_characteristic_left_empty_cannot_be_rolled_and_says_so() -> None:
    doc = ada(skills=[{"name": "Science", "level": 1, "characteristic": "education"}])
    with pytest.raises(DocumentError, match="Edu is not filled in"):
        table_state.derive_character(doc)


# ---------------------------------------------------------------- import / export


def test_a_character_survives_the_link_round_trip_whole_url_or_fragment() -> None:
    fragment = table_state.export_link(ada())
    assert fragment.startswith("character=") and "=" not in fragment[len("character=") :]
    expected = table_state.check_character(ada())
    assert table_state.import_character(fragment) == expected
    assert table_state.import_character("https://example.org/mneme/table/character/#" + fragment) == expected
    assert table_state.import_character(json.dumps(ada(), indent=2)) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("{not json", "not valid JSON"),
        ("[" * 5000 + "]" * 5000, "neither"),
        ("{" + '"a":' * 3000 + "1" + "}" * 3000, "not valid JSON"),
        ("character=!!!", "damaged"),
        ("character=" + base64.urlsafe_b64encode(b"\xff\xfe").decode(), "not text"),
        ("character=" + base64.urlsafe_b64encode(b'{"schema": 1}').decode().rstrip("="), "not a character"),
        ("x" * 20_001, "Too large"),
        ("javascript:alert(1)", "neither"),
    ],
)
def test_a_malformed_import_is_refused_with_a_message(text: str, message: str) -> None:
    with pytest.raises(DocumentError, match=message):
        table_state.import_character(text)


def test_the_worker_entry_point_answers_errors_as_data_never_raising() -> None:
    ok = json.loads(table_api.call_json("derive_character", json.dumps({"doc": ada()})))
    assert ok["ok"] is True and ok["value"]["hp"] == 24
    bad = json.loads(table_api.call_json("derive_character", json.dumps({"doc": ada(damage="lots")})))
    assert bad == {"ok": False, "error": "Damage taken must be a whole number.", "path": "damage"}
    assert json.loads(table_api.call_json("os.system", "{}"))["ok"] is False
    assert json.loads(table_api.call_json("derive_character", "[1]"))["ok"] is False
    assert json.loads(table_api.call_json("derive_character", '{"nonsense": 1}'))["error"].startswith("Wrong")


def json_of(max_leaves: int) -> st.SearchStrategy[Any]:
    """Any JSON value (null, booleans, numbers, text, lists, objects) of at most ``max_leaves`` leaves."""
    return st.recursive(
        st.none()
        | st.booleans()
        | st.integers(-(10**6), 10**6)
        | st.floats(allow_nan=False)
        | st.text(max_size=30),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
        max_leaves=max_leaves,
    )


json_values = json_of(25)


def _mutations() -> st.SearchStrategy[dict[str, Any]]:
    """Ada with one field, at any depth, replaced by a hostile value."""
    paths = [
        ("name",),
        ("id",),
        ("armor",),
        ("damage",),
        ("characteristics", "strength"),
        ("characteristics", "psionics"),
        ("skills",),
        ("skills", 0, "level"),
        ("weapons", 0, "damage"),
        ("weapons", 1, "rate_of_attack"),
        ("version",),
    ]

    def apply(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
        doc = ada()
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return doc

    return st.builds(apply, st.sampled_from(paths), json_values)


def _refused_with_a_message_or(read: Callable[[Any], dict[str, Any]], value: Any) -> dict[str, Any] | None:
    """``read(value)``, or None when it refuses ``value`` with a :class:`DocumentError` that has a message."""
    try:
        return read(value)
    except DocumentError as exc:
        assert str(exc)
        return None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=st.one_of(json_values, _mutations()))
def test_a_hostile_character_is_refused_or_normalised_never_crashing(doc: Any) -> None:
    character = _refused_with_a_message_or(table_state.check_character, doc)
    if character is None:
        return
    assert table_state.check_character(character) == character
    derived = table_state.derive_character(character)
    assert derived["hp"] == sum(
        character["characteristics"][k] for k in ("strength", "dexterity", "endurance")
    )
    assert table_state.import_character(table_state.export_link(character)) == character


@settings(max_examples=150, deadline=None)
@given(
    text=st.text(max_size=300)
    | st.binary(max_size=200).map(lambda b: "character=" + base64.urlsafe_b64encode(b).decode())
)
def test_any_imported_text_is_refused_with_a_message_or_gives_a_valid_character(text: str) -> None:
    character = _refused_with_a_message_or(table_state.import_character, text)
    assert character is None or table_state.check_character(character) == character


@settings(max_examples=100, deadline=None)
@given(name=st.text(max_size=20), args=st.text(max_size=200))
def test_the_worker_entry_point_always_answers_json(name: str, args: str) -> None:
    answer = json.loads(table_api.call_json(name, args))
    assert isinstance(answer["ok"], bool)


# ---------------------------------------------------------------- "use my character"


def test_the_attack_calculator_is_filled_from_the_pistol_with_its_derivations() -> None:
    filled = table_prefill.prefill("attack", ada(), "weapon:0")
    assert filled["values"] == {
        "modifier": "0",
        "damage": "3d6",
        "rate_of_attack": "2",
        "skill": "1",
        "own_armor": "4",
        "own_hp": "24",
        "own_damage": "4",
    }
    notes = {n["key"]: n["text"] for n in filled["notes"]}
    assert "ChM from Dex 8 = +0" in notes["modifier"] and "wound penalty \u22121" in notes["modifier"]
    assert notes["own_hp"] == "HP = Str 7 + Dex 8 + End 9 = 24"
    assert "armor" not in filled["values"]  # the adversary's armor is not the character's


def test_a_skill_choice_fills_the_effect_modifier_and_a_missing_weapon_is_reported() -> None:
    assert table_prefill.prefill("effect", ada(), "skill:Tactics")["values"] == {"modifier": "2"}
    damage = table_prefill.prefill("damage", ada(), "skill:Tactics")
    assert damage["values"] == {} and damage["skipped"] == ["Damage dice", "Rate of attack"]
    with pytest.raises(DocumentError):
        table_prefill.prefill("effect", ada(), "weapon:7")


def test_the_mapping_tells_damage_dice_from_damage_taken_by_the_input_kind() -> None:
    assert table_prefill.prefill("thresholds", ada())["values"] == {
        "strength": "7",
        "dexterity": "8",
        "endurance": "9",
        "damage": "4",
    }
    assert table_prefill.prefill("damage", ada(), "weapon:1")["values"] == {
        "damage": "1d6+1",
        "rate_of_attack": "0",
    }


@pytest.mark.parametrize("name", registry.names())
def test_every_value_a_character_fills_is_accepted_by_the_calculator(name: str) -> None:
    plan = table_prefill.prefill_plan(name)
    for using in ("", "weapon:0", "skill:Gun Combat"):
        filled = table_prefill.prefill(name, ada(), using)
        assert set(filled["values"]) <= set(plan["keys"])
        payload = runtime.compute(name, filled["values"])
        wrong = {k: v for k, v in payload["errors"].items() if k in filled["values"]}
        assert not wrong, (name, using, wrong)


def test_damage_taken_is_written_back_from_the_thresholds_calculator_and_checked() -> None:
    result = table_prefill.write_back("thresholds", ada(), {"damage": "10", "strength": "99"})
    assert result["character"]["damage"] == 10
    assert result["character"]["characteristics"]["strength"] == 7  # only write-back fields change
    assert result["changes"] == ["damage taken 4 \u2192 10"]
    with pytest.raises(DocumentError) as caught:
        table_prefill.write_back("attack", ada(), {"own_damage": "-3"})
    assert caught.value.path == "own_damage"
    assert table_prefill.prefill_plan("effect")["write_back"] == []


# ---------------------------------------------------------------- tracker


def fight() -> dict[str, Any]:
    """Ada (rolled 8, Tactics 2 with Int 10), a goon ambushing with Dex 9, a guard told 9, in that order."""
    t = table_tracker.empty_tracker()
    t = table_tracker.tracker_action(
        t, {"type": "add", "combatant": table_tracker.combatant_from_character(ada())}
    )["tracker"]
    t = table_tracker.tracker_action(
        t, {"type": "add", "combatant": {"name": "Goon", "mode": "ambush", "dexterity": 9}}
    )["tracker"]
    t = table_tracker.tracker_action(
        t, {"type": "add", "combatant": {"name": "Guard", "mode": "entered", "entered": 9}}
    )["tracker"]
    return table_tracker.tracker_action(t, {"type": "update", "id": "c1", "fields": {"roll": 8}})["tracker"]


def test_initiative_orders_the_ambusher_first_and_waits_for_missing_rolls() -> None:
    """Actions § Initiative: ambush 12 + Dex DM (+1, Dex 9) = 13; Ada, prepared, leads with Tactics, rolled
    with Int 10: 8 + Int DM +1 + skill 2 = 11 (rulings: initiative formula); Guard told 9."""
    view = table_tracker.derive_tracker(fight())
    assert view["order"] == ["c2", "c1", "c3"]
    assert [view["rows"][c]["initiative"] for c in view["order"]] == [13, 11, 9]
    assert view["rows"]["c1"]["initiative_text"] == "roll 8 + Int DM +1 + skill 2 = 11"
    assert [view["rows"][c]["initiative_shown"] for c in view["order"]] == ["13", "11", "9"]
    waiting = table_tracker.tracker_action(fight(), {"type": "update", "id": "c1", "fields": {"roll": None}})
    assert waiting["order"] == ["c2", "c3", "c1"] and waiting["rows"]["c1"]["initiative"] is None
    assert waiting["rows"]["c1"]["initiative_shown"] == "?"


def test_a_prepared_roll_takes_the_leading_characteristic_s_dm_not_always_dexterity() -> None:
    """Rulings, initiative formula: prepared, 2d6 + the DM of whichever characteristic fits how they
    lead + the skill; unprepared and ambushing, Dexterity. Dex 3 (DM -1) against Int 12 (DM +2)."""
    t = table_tracker.empty_tracker()
    scout = {"name": "Scout", "dexterity": 3, "skill": 1, "roll": 7, "lead": "intellect", "lead_score": 12}
    t = table_tracker.tracker_action(t, {"type": "add", "combatant": scout})
    row = t["rows"]["c1"]
    assert (row["initiative"], row["initiative_text"]) == (10, "roll 7 + Int DM +2 + skill 1 = 10")
    strong = table_tracker.tracker_action(
        t["tracker"], {"type": "update", "id": "c1", "fields": {"lead": "strength", "strength": 9}}
    )
    assert strong["rows"]["c1"]["initiative_text"] == "roll 7 + Str DM +1 + skill 1 = 9"
    assert strong["tracker"]["combatants"][0]["lead_score"] is None  # Str is the combatant's own
    caught = table_tracker.tracker_action(
        t["tracker"], {"type": "update", "id": "c1", "fields": {"mode": "unprepared"}}
    )
    assert caught["rows"]["c1"]["initiative_text"] == "roll 7 + Dex DM \u22121 = 6"
    with pytest.raises(DocumentError, match="Give the Int score that leads the roll, or let Dex lead"):
        table_tracker.tracker_action(
            t["tracker"], {"type": "update", "id": "c1", "fields": {"lead_score": None}}
        )
    # From a saved character: the skill they lead with and the characteristic it is rolled with.
    made = table_tracker.combatant_from_character(ada())
    assert (made["skill"], made["lead"], made["lead_score"]) == (2, "intellect", 10)
    plain = table_tracker.combatant_from_character(ada(skills=[]))
    assert (plain["skill"], plain["lead"], plain["lead_score"]) == (0, "dexterity", None)


def test_a_failed_tactics_check_lowers_initiative_unless_the_ruling_says_otherwise() -> None:
    t = table_tracker.tracker_action(
        fight(), {"type": "update", "id": "c2", "fields": {"tactics_effect": -5}}
    )
    assert t["rows"]["c2"]["initiative"] == 8 and t["order"] == ["c1", "c3", "c2"]
    t = table_tracker.tracker_action(t["tracker"], {"type": "ruling", "negative_tactics": False})
    assert t["rows"]["c2"]["initiative"] == 13


def test_equal_initiatives_keep_the_order_the_combatants_were_added() -> None:
    t = table_tracker.tracker_action(fight(), {"type": "update", "id": "c3", "fields": {"entered": 11}})
    assert t["order"] == ["c2", "c1", "c3"]


def test_turns_run_down_the_order_and_a_new_round_begins_after_the_last() -> None:
    t = fight()
    seen = []
    for _ in range(4):
        view = table_tracker.derive_tracker(t)
        seen.append((view["round"], view["current"]))
        t = table_tracker.tracker_action(t, {"type": "next"})["tracker"]
    assert seen == [(1, "c2"), (1, "c1"), (1, "c3"), (2, "c2")]


def test_a_hit_sets_state_penalty_and_bleeding_and_bleeding_adds_one_a_minute() -> None:
    """Ada HP 24: 4 + 5 + 9 = 18 damage is critically wounded (16+), penalty -6; the 9 reaches 8: bleeding."""
    view = table_tracker.tracker_action(fight(), {"type": "hit", "id": "c1", "rolls": "5, 9"})
    row, ada_now = view["rows"]["c1"], view["tracker"]["combatants"][0]
    assert (ada_now["damage"], row["state"], row["wound_penalty"]) == (18, "critically_wounded", -6)
    assert row["wound_penalty_signed"] == "\u22126"
    assert ada_now["bleeding_since"] == 1
    assert [r["kind"] for r in row["reminders"]] == ["critical", "bleeding"]
    t = view["tracker"]
    damage_by_round = {}
    while t["round"] < 22:
        t = table_tracker.tracker_action(t, {"type": "next"})["tracker"]
        damage_by_round[t["round"]] = t["combatants"][0]["damage"]
    # Outcomes § Bleeding: 1 damage a minute from the minute after; a minute is 10 rounds.
    assert (damage_by_round[10], damage_by_round[11], damage_by_round[20], damage_by_round[21]) == (
        18,
        19,
        19,
        20,
    )


def test_a_small_roll_does_not_start_bleeding_and_first_aid_stops_it() -> None:
    view = table_tracker.tracker_action(fight(), {"type": "hit", "id": "c2", "rolls": "3 4"})
    assert view["tracker"]["combatants"][1]["bleeding_since"] is None  # Goon HP 23: serious from 7
    view = table_tracker.tracker_action(view["tracker"], {"type": "hit", "id": "c2", "rolls": "7"})
    assert view["tracker"]["combatants"][1]["bleeding_since"] == 1
    view = table_tracker.tracker_action(view["tracker"], {"type": "first_aid", "id": "c2"})
    assert view["tracker"]["combatants"][1]["bleeding_since"] is None
    assert "bleeding stopped" in view["tracker"]["log"][-1]
    assert view["tracker"]["combatants"][1]["damage"] == 13  # 14 less the minimum of 1


def test_first_aid_removes_damage_equal_to_the_effect_at_least_1() -> None:
    """Outcomes § First Aid: "reduces an amount of damage equal to the Effect of the Medic check, at
    minimum 1"."""
    t = table_tracker.tracker_action(fight(), {"type": "set_damage", "id": "c2", "damage": 10})["tracker"]
    cases = {None: 9, 0: 9, 1: 9, 3: 7, 12: 0}
    for effect, left in cases.items():
        action = {"type": "first_aid", "id": "c2"} | ({} if effect is None else {"effect": effect})
        view = table_tracker.tracker_action(t, action)
        assert view["tracker"]["combatants"][1]["damage"] == left, effect
    log = table_tracker.tracker_action(t, {"type": "first_aid", "id": "c2", "effect": 3})["tracker"]["log"]
    assert "3 damage removed (now 7)" in log[-1]
    for bad in (-1, "two", 1.5):
        with pytest.raises(DocumentError):
            table_tracker.tracker_action(t, {"type": "first_aid", "id": "c2", "effect": bad})


def test_dying_shows_the_end_roll_chance_and_first_aid_stabilises() -> None:
    """Outcomes § Dying: End 9 (DM +1) with 25 damage (penalty -8): dice need 11+, 3/36."""
    t = table_tracker.tracker_action(fight(), {"type": "set_damage", "id": "c1", "damage": 25})
    dying = [r for r in t["rows"]["c1"]["reminders"] if r["kind"] == "dying"]
    assert dying and "dice 11+" in dying[0]["text"] and "8.33%" in dying[0]["text"]
    assert injury.dying_roll_chance(9, 25) == Fraction(3, 36)
    healed = table_tracker.tracker_action(t["tracker"], {"type": "first_aid", "id": "c1"})
    # Outcomes § First Aid: the minimum 1 takes Ada (HP 24) from 25 to 24: no longer dying.
    assert healed["tracker"]["combatants"][0]["damage"] == 24
    assert "stabilised" not in [r["kind"] for r in healed["rows"]["c1"]["reminders"]]
    assert not healed["tracker"]["combatants"][0]["stabilised"]
    t = table_tracker.tracker_action(t["tracker"], {"type": "set_damage", "id": "c1", "damage": 27})
    t = table_tracker.tracker_action(t["tracker"], {"type": "first_aid", "id": "c1", "effect": 2})
    assert t["tracker"]["combatants"][0]["damage"] == 25
    assert [r["kind"] for r in t["rows"]["c1"]["reminders"]] == ["stabilised"]
    assert "9 hours" in t["rows"]["c1"]["reminders"][0]["text"]


def test_more_than_hp_from_one_attack_asks_for_the_massive_damage_roll_this_round_only() -> None:
    t = table_tracker.tracker_action(fight(), {"type": "hit", "id": "c3", "rolls": "12, 10"})  # Guard HP 21
    assert "massive" in [r["kind"] for r in t["rows"]["c3"]["reminders"]]
    for _ in range(3):
        t = table_tracker.tracker_action(t["tracker"], {"type": "next"})
    assert "massive" not in [r["kind"] for r in t["rows"]["c3"]["reminders"]]


def test_a_rolled_initiative_comes_from_the_seeded_generator() -> None:
    rolls = {
        table_tracker.tracker_action(fight(), {"type": "roll", "id": "c1", "seed": s})["tracker"][
            "combatants"
        ][0]["roll"]
        for s in range(60)
    }
    assert rolls <= set(range(2, 13)) and len(rolls) > 5
    once = table_tracker.tracker_action(fight(), {"type": "roll", "id": "c1", "seed": 7})
    assert once == table_tracker.tracker_action(fight(), {"type": "roll", "id": "c1", "seed": 7})


def test_actions_never_change_the_tracker_they_are_given() -> None:
    t = fight()
    before = copy.deepcopy(t)
    for action in (
        {"type": "hit", "id": "c1", "rolls": "9"},
        {"type": "next"},
        {"type": "remove", "id": "c2"},
    ):
        table_tracker.tracker_action(t, action)
    assert t == before


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "hit", "id": "c1", "rolls": "five"}, "not a damage roll"),
        ({"type": "hit", "id": "c1", "rolls": ""}, "numbers"),
        ({"type": "hit", "id": "c1", "rolls": "1 " * 51}, "At most 50"),
        ({"type": "hit", "id": "nobody", "rolls": "3"}, "No such combatant"),
        ({"type": "update", "id": "c1", "fields": {"damage": 3}}, "Only the name"),
        ({"type": "update", "id": "c1", "fields": {"roll": 13}}, "between 2 and 12"),
        ({"type": "add", "combatant": {"name": ""}}, "cannot be empty"),
        ({"type": "explode"}, "Unknown tracker action"),
    ],
)
def test_a_bad_action_is_refused_with_a_message(action: dict[str, Any], message: str) -> None:
    with pytest.raises(DocumentError, match=message):
        table_tracker.tracker_action(fight(), action)


def test_a_tracker_holds_at_most_40_combatants() -> None:
    t = table_tracker.empty_tracker()
    t["combatants"] = [{"id": f"c{i}", "name": f"N{i}"} for i in range(40)]
    with pytest.raises(DocumentError, match="At most 40"):
        table_tracker.tracker_action(t, {"type": "add", "combatant": {"name": "One more"}})


field_values = json_of(8)
"""``json_values`` with fewer leaves: an action carries up to eight such fields, each drawn at every step of
a sequence, so the larger values cost most of the property's time for no more kinds of value."""

actions = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            [
                "add",
                "update",
                "remove",
                "hit",
                "set_damage",
                "first_aid",
                "dead",
                "roll",
                "next",
                "ruling",
                "x",
            ]
        ),
    },
    optional={
        "id": st.sampled_from(["c1", "c2", "c3", "c9", ""]) | field_values,
        "rolls": st.text(max_size=20) | field_values,
        "damage": field_values,
        "seed": st.integers(-(2**40), 2**40) | field_values,
        "fields": field_values,
        "combatant": field_values,
        "value": field_values,
        "effect": field_values,
    },
)
"""An action of any type, each other field missing or any value: a missing field is refused as well."""


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(actions, max_size=6))
def test_any_sequence_of_hostile_actions_leaves_a_valid_tracker(steps: list[dict[str, Any]]) -> None:
    t = fight()
    for action in steps:
        try:
            t = table_tracker.tracker_action(t, action)["tracker"]
        except DocumentError as exc:
            assert str(exc)
    assert table_tracker.check_tracker(t) == t
    view = table_tracker.derive_tracker(t)
    assert sorted(view["order"]) == sorted(c["id"] for c in t["combatants"])


@settings(max_examples=100, deadline=None)
@given(doc=json_values)
def test_a_hostile_saved_tracker_is_refused_or_read(doc: Any) -> None:
    try:
        table_tracker.derive_tracker(doc)
    except DocumentError as exc:
        assert str(exc)


def test_a_combatant_joining_mid_round_does_not_move_whose_turn_it_is() -> None:
    """Order c2 (13), c1 (10), c3 (9); on Ada's turn a newcomer told 12 sorts before her: still her turn."""
    t = table_tracker.tracker_action(fight(), {"type": "next"})["tracker"]
    assert table_tracker.derive_tracker(t)["current"] == "c1"
    joined = table_tracker.tracker_action(
        t, {"type": "add", "combatant": {"name": "Scout", "mode": "entered", "entered": 12}}
    )
    assert joined["order"] == ["c2", "c4", "c1", "c3"] and joined["current"] == "c1"


def test_when_the_acting_combatant_leaves_the_next_in_order_acts() -> None:
    t = table_tracker.tracker_action(fight(), {"type": "next"})["tracker"]
    left = table_tracker.tracker_action(t, {"type": "remove", "id": "c1"})
    assert left["order"] == ["c2", "c3"] and left["current"] == "c3"


# ---------------------------------------------------------------- bounded input


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


@given(json_values, st.integers(0, 6))
def test_the_nesting_scan_agrees_with_the_parsed_depth(value: Any, limit: int) -> None:
    text = json.dumps(value)
    assert table_state.nesting_within(text, limit) == (_depth(value) <= limit)


def test_brackets_inside_strings_and_escaped_quotes_do_not_count_as_nesting() -> None:
    assert table_state.nesting_within(json.dumps({"a": '[[[{{{"\\'}), 1)
    assert not table_state.nesting_within('{"a": "\\"", "b": [[]]}', 2)


def test_a_7400_deep_link_is_refused_before_it_is_parsed() -> None:
    deep = "[" * 7400 + "]" * 7400
    link = "character=" + base64.urlsafe_b64encode(deep.encode()).decode().rstrip("=")
    assert len(link) < table_state.MAX_IMPORT_CHARS
    with pytest.raises(DocumentError, match=f"nests deeper than {table_state.MAX_NESTING} levels"):
        table_state.import_character(link)


def test_the_entry_point_refuses_deep_or_huge_arguments_before_parsing() -> None:
    deep = '{"tracker": ' + "[" * 7400 + "]" * 7400 + "}"
    huge = json.dumps({"tracker": "x" * table_state.MAX_CALL_CHARS})
    for args in (deep, huge):
        answer = json.loads(table_api.call_json("derive_tracker", args))
        assert answer == {"ok": False, "error": "Too large or too deeply nested to be read.", "path": ""}


def test_the_largest_documents_fit_the_call_limits() -> None:
    """The limits never refuse a real document: a full tracker with a full log, a full character."""
    doc = table_tracker.empty_tracker()
    for n in range(table_tracker.MAX_TRACKED):
        doc = table_tracker.tracker_action(doc, {"type": "add", "combatant": {"name": f"{'W' * 36}{n:02d}"}})[
            "tracker"
        ]
    doc["log"] = ["L" * table_tracker.MAX_LOG_TEXT] * table_tracker.MAX_LOG
    full = ada(
        skills=[{"name": "S" * 40, "level": 1, "characteristic": "dexterity"}] * table_state.MAX_SKILLS,
        notes="N" * table_state.MAX_NOTES,
    )
    for args in ({"tracker": doc, "action": {"type": "next"}}, {"doc": full}, {"character": full}):
        text = json.dumps(args, separators=(",", ":"), ensure_ascii=False)
        assert len(text) < table_state.MAX_CALL_CHARS and table_state.nesting_within(text)
    assert table_api.call("check_tracker", {"doc": doc})["ok"]


def test_a_combatant_added_with_a_seed_rolls_initiative_at_once_unless_a_roll_is_given() -> None:
    joined = table_tracker.tracker_action(
        table_tracker.empty_tracker(), {"type": "add", "combatant": {"name": "Kara", "seed": 5}}
    )
    kara = joined["tracker"]["combatants"][0]
    assert kara["roll"] in range(2, 13) and joined["rows"]["c1"]["initiative"] is not None
    assert (
        joined["tracker"]["log"][-1] == f"R1: Kara joins the fight and rolls {kara['roll']} for initiative."
    )
    typed = table_tracker.tracker_action(
        table_tracker.empty_tracker(), {"type": "add", "combatant": {"name": "Kara", "seed": 5, "roll": 9}}
    )
    assert typed["tracker"]["combatants"][0]["roll"] == 9
    ambush = table_tracker.tracker_action(
        table_tracker.empty_tracker(),
        {"type": "add", "combatant": {"name": "Kara", "seed": 5, "mode": "ambush"}},
    )
    assert ambush["tracker"]["combatants"][0]["roll"] is None
