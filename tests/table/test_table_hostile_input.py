"""Bad stored or imported data never reaches Python's traceback: every field of a character, a tracker
and a tracker action replaced by every kind of wrong JSON value, through the worker's entry point
(``table.api.call_json``); each call answers JSON, a refusal being a sentence naming the field.
Reserved names are refused as ids; a lone surrogate (half of an emoji) is refused as text.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from table import api as table_api
from table import tracker as table_tracker
from table.character import RESERVED_IDS

JUNK: tuple[Any, ...] = (
    {},
    [],
    None,
    True,
    1.5,
    -1,
    10**30,
    "",
    "\ud800",
    "x" * 300,
    "__proto__",
    {"a": 1},
    [1],
)
"""One of each wrong kind: objects, lists, null, booleans, fractions, huge numbers, empty, broken and
too-long text, a reserved name."""


def character() -> dict[str, Any]:
    return {
        "schema": "mneme-character",
        "version": 1,
        "id": "al-1",
        "name": "Al",
        "characteristics": {"strength": 7, "dexterity": 7, "endurance": 7, "intellect": None},
        "skills": [{"name": "Melee", "level": 1, "characteristic": "strength"}],
        "armor": 2,
        "weapons": [
            {
                "name": "Axe",
                "damage": "2d6",
                "rate_of_attack": 0,
                "skill": "Melee",
                "characteristic": "strength",
            }
        ],
        "damage": 3,
        "notes": "",
    }


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON document, the whole document first."""
    yield prefix
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, value in items:
        yield from paths(value, (*prefix, key))


def replaced(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    out = copy.deepcopy(doc)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


def answer(name: str, args: dict[str, Any]) -> dict[str, Any]:
    reply = json.loads(table_api.call_json(name, json.dumps(args)))
    assert isinstance(reply, dict) and isinstance(reply["ok"], bool), reply
    if not reply["ok"]:
        assert reply["error"].endswith((".", "?")) and "Traceback" not in reply["error"], reply
    return reply


def a_fight() -> dict[str, Any]:
    first = answer("combatant_from_character", {"character": character()})["value"]
    tracker = table_tracker.empty_tracker()
    for combatant in (
        first,
        {"name": "Bo", "side": "adversary", "strength": 6, "dexterity": 6, "endurance": 6},
    ):
        tracker = answer(
            "tracker_action", {"tracker": tracker, "action": {"type": "add", "combatant": combatant}}
        )["value"]["tracker"]
    return tracker


@pytest.mark.parametrize("path", list(paths(character())), ids=lambda p: ".".join(map(str, p)) or "whole")
def test_any_wrong_value_anywhere_in_a_character_is_refused_with_a_sentence(path: tuple[Any, ...]) -> None:
    for junk in JUNK:
        doc = replaced(character(), path, junk)
        for name in ("check_character", "derive_character", "export_link"):
            answer(name, {"doc": doc})
        answer("import_character", {"text": json.dumps(doc)})
        answer("combatant_from_character", {"character": doc})
        answer("prefill", {"calculator": "attack", "character": doc, "using": "weapon:0"})
        answer("write_back", {"calculator": "damage", "character": doc, "values": {"damage": "5"}})


def test_a_characteristic_given_as_an_object_or_a_list_is_refused_naming_the_field() -> None:
    for junk in ({}, []):
        for path in (("skills", 0, "characteristic"), ("weapons", 0, "characteristic")):
            reply = answer("import_character", {"text": json.dumps(replaced(character(), path, junk))})
            assert reply == {
                "ok": False,
                "error": "Pick one of Str, Dex, End, Int, Edu, Soc, Psi.",
                "path": ".".join(map(str, path)),
            }


def test_a_name_with_half_an_emoji_is_refused_before_a_link_is_made() -> None:
    reply = answer("export_link", {"doc": replaced(character(), ("name",), "Al \ud83d")})
    assert reply["ok"] is False and reply["path"] == "name"
    assert "broken character" in reply["error"]
    whole = answer("export_link", {"doc": replaced(character(), ("name",), "Al \U0001f600")})
    assert whole["ok"] is True


@pytest.mark.parametrize("reserved", sorted(RESERVED_IDS))
def test_reserved_names_are_refused_as_character_and_combatant_ids(reserved: str) -> None:
    reply = answer("check_character", {"doc": replaced(character(), ("id",), reserved)})
    assert reply == {
        "ok": False,
        "error": f"The id {reserved!r} is a reserved name; pick another.",
        "path": "id",
    }
    tracker = replaced(a_fight(), ("combatants", 0, "character_id"), reserved)
    assert answer("derive_tracker", {"tracker": tracker})["path"] == "combatants.0.character_id"


def test_any_wrong_value_anywhere_in_a_tracker_or_an_action_is_refused_with_a_sentence() -> None:
    fight = a_fight()
    for path in paths(fight):
        for junk in JUNK:
            broken = replaced(fight, path, junk)
            answer("derive_tracker", {"tracker": broken})
            answer("tracker_action", {"tracker": broken, "action": {"type": "next"}})
    kinds = ("add", "update", "remove", "hit", "set_damage", "first_aid", "dead", "roll", "next", "ruling")
    fields = ("type", "id", "combatant", "fields", "rolls", "damage", "effect", "value", "seed", "reading")
    for kind in kinds:
        for field in fields:
            for junk in JUNK:
                answer(
                    "tracker_action", {"tracker": fight, "action": {"type": kind, "id": "c1", field: junk}}
                )


def test_the_plain_arguments_are_checked_before_use() -> None:
    for junk in JUNK:
        for args in (
            {"calculator": junk},
            {"calculator": "attack", "character": character(), "using": junk},
            {"calculator": "damage", "character": character(), "values": junk},
            {"calculator": "damage", "character": character(), "values": {"damage": junk}},
            {"doc": character(), "reading": junk},
        ):
            for name in ("prefill_plan", "prefill", "write_back", "derive_character"):
                answer(name, args)
    assert answer("prefill_plan", {"calculator": "nothing-like-it"}) == {
        "ok": False,
        "error": "Unknown calculator.",
        "path": "calculator",
    }
