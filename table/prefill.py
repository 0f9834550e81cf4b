"""'Use my character' on calculators: which inputs a character fills, with the derivations shown.

One mapping table, :data:`FIELD_LINKS`, says which character value feeds which
calculator input key (and of which kind, since ``damage`` is damage dice in one
calculator and damage taken in another); :data:`SOMEONE_ELSE` lists inputs that
describe the other side (an adversary's armor). Every number comes from
``rules_core`` (Core Mechanics § Characteristic Modifier, § Competence;
Outcomes § Hit Points, § Character HP Thresholds).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from calculators.framework import registry
from rules_core import injury
from table.character import (
    CHARACTERISTICS,
    DocumentError,
    check_character,
    competence_for,
)

__all__ = [
    "FIELD_LINKS",
    "PREFERRED_SKILL",
    "SOMEONE_ELSE",
    "FieldLink",
    "prefill",
    "prefill_plan",
    "write_back",
]


@dataclass(frozen=True)
class FieldLink:
    """A calculator input ``key`` (of input ``kind``) filled from the character's ``source``.

    Sources: a characteristic key, ``damage`` (taken), ``armor``, ``hp``,
    ``weapon_damage``, ``weapon_rate``, ``skill_level``, ``modifier``.
    ``write_back``: the calculator's value may be saved to the character.
    """

    key: str
    source: str
    kind: str = "int"
    write_back: bool = False


FIELD_LINKS: tuple[FieldLink, ...] = (
    FieldLink("strength", "strength"),
    FieldLink("dexterity", "dexterity"),
    FieldLink("endurance", "endurance"),
    FieldLink("mneme_dexterity", "dexterity"),
    FieldLink("damage", "damage", "int", write_back=True),
    FieldLink("own_damage", "damage", "int", write_back=True),
    FieldLink("damage", "weapon_damage", "text"),
    FieldLink("mneme_weapon", "weapon_damage", "text"),
    FieldLink("rate_of_attack", "weapon_rate"),
    FieldLink("mneme_rate_of_attack", "weapon_rate", "optional_int"),
    FieldLink("armor", "armor"),
    FieldLink("own_armor", "armor"),
    FieldLink("own_hp", "hp", "optional_int"),
    FieldLink("skill", "skill_level"),
    FieldLink("mneme_initiative_skill", "skill_level"),
    FieldLink("modifier", "modifier"),
)
"""Character value -> calculator input key (matched by key and input kind)."""

SOMEONE_ELSE: dict[str, frozenset[str]] = {
    "attack": frozenset({"armor"}),  # the adversary's armor; "own_armor" is the character's
    "damage": frozenset({"armor"}),  # the target's armor; the character supplies the weapon
}
"""Calculator -> input keys that describe someone other than the character."""

PREFERRED_SKILL: dict[str, str] = {"tactics": "Tactics", "initiative": "Recon"}
"""Calculator -> the skill offered first, when the character has it."""

_NEEDS_CHOICE = frozenset({"weapon_damage", "weapon_rate", "skill_level", "modifier"})
_WEAPON_SOURCES = frozenset({"weapon_damage", "weapon_rate"})


def _links(name: str) -> list[tuple[FieldLink, Any]]:
    calc = registry.get(name)
    skip = SOMEONE_ELSE.get(name, frozenset())
    found = []
    for spec in calc.inputs:
        if spec.key in skip:
            continue
        for link in FIELD_LINKS:
            if link.key == spec.key and link.kind == spec.kind:
                found.append((link, spec))
                break
    return found


def prefill_plan(calculator: str) -> dict[str, Any]:
    """What 'use my character' can do on ``calculator``: keys filled, choices needed, keys written back."""
    links = _links(calculator)
    sources = {link.source for link, _ in links}
    return {
        "keys": [link.key for link, _ in links],
        "needs_choice": bool(sources & _NEEDS_CHOICE),
        "weapons": bool(sources & _WEAPON_SOURCES),
        "write_back": [link.key for link, _ in links if link.write_back],
        "preferred_skill": PREFERRED_SKILL.get(calculator, ""),
    }


def _choice(character: Mapping[str, Any], using: str) -> tuple[dict[str, Any] | None, str, str]:
    """(weapon or None, skill name, characteristic) for ``weapon:N`` / ``skill:NAME`` / ``""``."""
    kind, _, value = using.partition(":")
    if kind == "weapon":
        weapons = character["weapons"]
        if not value.isdigit() or int(value) >= len(weapons):
            raise DocumentError("That weapon is not on this character.", "using")
        weapon = weapons[int(value)]
        return weapon, weapon["skill"], weapon["characteristic"]
    if kind == "skill":
        skill = next((s for s in character["skills"] if s["name"] == value), None)
        if skill is None:
            raise DocumentError("That skill is not on this character.", "using")
        return None, skill["name"], skill["characteristic"]
    if using:
        raise DocumentError("Pick a skill or a weapon.", "using")
    return None, "", ""


def prefill(calculator: str, character: object, using: str = "") -> dict[str, Any]:
    """The calculator inputs a character fills, as form texts, each with the derivation shown.

    ``using`` picks what the roll is made with: ``weapon:INDEX`` (its damage,
    rate of attack, skill and characteristic) or ``skill:NAME``.
    """
    char = check_character(character)
    weapon, skill_name, characteristic = _choice(char, using)
    chars = char["characteristics"]
    values: dict[str, str] = {}
    notes: list[dict[str, str]] = []
    skipped: list[str] = []

    def put(spec: Any, value: int | str, text: str) -> None:
        values[spec.key] = str(value)
        notes.append({"key": spec.key, "label": spec.label, "text": text})

    for link, spec in _links(calculator):
        source = link.source
        if source in CHARACTERISTICS:
            put(spec, chars[source], f"{CHARACTERISTICS[source]} {chars[source]}")
        elif source == "damage":
            put(spec, char["damage"], f"{char['damage']} damage taken so far")
        elif source == "armor":
            put(spec, char["armor"], f"armor {char['armor']}")
        elif source == "hp":
            hp = injury.hit_points(chars["strength"], chars["dexterity"], chars["endurance"])
            put(
                spec,
                hp,
                f"HP = Str {chars['strength']} + Dex {chars['dexterity']} + End {chars['endurance']} = {hp}",
            )
        elif source in _WEAPON_SOURCES:
            if weapon is None:
                skipped.append(spec.label)
            elif source == "weapon_damage":
                put(spec, weapon["damage"], f"{weapon['name']}: {weapon['damage']}")
            else:
                rate = weapon["rate_of_attack"]
                if link.kind == "optional_int" and rate == 0:
                    put(spec, "", f"{weapon['name']}: no rate of attack")
                else:
                    put(spec, rate, f"{weapon['name']}: rate of attack {rate or 'none (0)'}")
        elif not characteristic:
            skipped.append(spec.label)
        else:
            derived = competence_for(char, skill_name, characteristic)
            if source == "skill_level":
                level = derived["level"]
                put(
                    spec,
                    level or 0,
                    f"{skill_name} {level}" if level is not None else f"no {skill_name or 'skill'}: 0",
                )
            else:
                put(spec, derived["modifier"], derived["modifier_text"] + f" ({derived['competence_text']})")
    return {"values": values, "notes": notes, "skipped": skipped, "name": char["name"]}


def write_back(calculator: str, character: object, values: Mapping[str, Any]) -> dict[str, Any]:
    """The character with the calculator's write-back inputs saved (damage taken), and what changed."""
    char = check_character(character)
    changes: list[str] = []
    for link, spec in _links(calculator):
        if not link.write_back or link.key not in values:
            continue
        raw = values[link.key]
        try:
            value = spec.parse(raw if isinstance(raw, str) else str(raw))
        except ValueError as exc:
            raise DocumentError(str(exc), link.key) from exc
        if link.source == "damage" and value != char["damage"]:
            changes.append(f"damage taken {char['damage']} \u2192 {value}")
            char["damage"] = value
    return {"character": check_character(char), "changes": changes}
