"""At the table: validate a character or combat tracker document and derive its numbers.

The browser keeps characters and the tracker on the device (localStorage); this
module is what it asks, through the worker, whether a document is well formed
(schema, version, types, ranges, sizes) and what follows from it under the
rules. It only holds state: every number comes from ``rules_core``
(Core Mechanics § Characteristic Modifier, § Competence; Outcomes § Hit Points,
§ Character HP Thresholds, § Injury Conditions). Pure: documents in, JSON-able
dicts out, nothing stored or fetched. The worker calls it through :func:`table.api.call_json`.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Mapping
from typing import Any, TypeGuard

from calculators.format import dice as dice_notation
from calculators.format import signed
from calculators.parts import CHARACTERISTICS
from calculators.parts.injury_parts import state_text, wound_penalty_rule_text
from rules_core import checks, dice, injury, limits

__all__ = [
    "CHARACTERISTICS",
    "CHARACTER_SCHEMA",
    "MAX_CALL_CHARS",
    "MAX_IMPORT_CHARS",
    "MAX_NESTING",
    "RESERVED_IDS",
    "SCHEMA_VERSION",
    "DocumentError",
    "check_character",
    "derive_character",
    "export_link",
    "import_character",
    "nesting_within",
    "physical_derivations",
]

CHARACTER_SCHEMA = "mneme-character"
SCHEMA_VERSION = 1
MAX_IMPORT_CHARS = 20_000
"""Longest file or link text accepted for an import (a full character is about 2 000)."""
MAX_NESTING = 16
"""Deepest JSON accepted at the table (a document nests 4 levels; the browser engine dies near 7 000)."""
MAX_CALL_CHARS = 100_000
"""Longest JSON text of one call's arguments (a full tracker is about 25 000 characters)."""
MAX_NAME = limits.MAX_NAME
MAX_NOTES = 500
MAX_SKILLS = 40
MAX_WEAPONS = 12
MAX_CHARACTERISTIC = limits.MAX_CHARACTERISTIC
MAX_ARMOR = limits.MAX_ARMOR
MAX_CHARACTER_DAMAGE = limits.MAX_DAMAGE
DEFAULT_READING = injury.ThresholdReading.FRACTIONS_OF_HP.value
"""The injury-threshold reading used unless the player chooses the other (a ruling)."""
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
"""What an id is; the page's settings give it to the browser (``new RegExp``), so it stays plain."""
RESERVED_IDS = frozenset(
    {
        "__proto__",
        "constructor",
        "prototype",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "toLocaleString",
        "toString",
        "valueOf",
        "__defineGetter__",
        "__defineSetter__",
        "__lookupGetter__",
        "__lookupSetter__",
    }
)
"""Names a browser's objects already carry: never an id, so no stored record can shadow them (the
browser's character store refuses them too, from the page's settings)."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")

PHYSICAL = ("strength", "dexterity", "endurance")

_CHARACTER_KEYS = frozenset(
    {"schema", "version", "id", "name", "characteristics", "skills", "armor", "weapons", "damage", "notes"}
)
_SKILL_KEYS = frozenset({"name", "level", "characteristic"})
_WEAPON_KEYS = frozenset({"name", "damage", "rate_of_attack", "skill", "characteristic"})


class DocumentError(ValueError):
    """A document that is not acceptable; ``path`` names the field (``skills.0.level``) or is empty."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.path = path


# ---------------------------------------------------------------- field checks (shared with the tracker)


def is_int(value: object) -> TypeGuard[int]:
    """A JSON whole number (``True``/``False`` are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_int(value: object, low: int, high: int, path: str, label: str) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``; else :class:`DocumentError`."""
    if not is_int(value):
        raise DocumentError(f"{label} must be a whole number.", path)
    assert isinstance(value, int)
    if not low <= value <= high:
        raise DocumentError(f"{label} must be between {low} and {high}.", path)
    return value


def check_text(value: object, max_length: int, path: str, label: str, *, required: bool = True) -> str:
    """``value`` stripped, if it is text of at most ``max_length`` characters without control characters."""
    if not isinstance(value, str):
        raise DocumentError(f"{label} must be text.", path)
    text = value.strip()
    if required and not text:
        raise DocumentError(f"{label} cannot be empty.", path)
    if len(text) > max_length:
        raise DocumentError(f"{label}: at most {max_length} characters.", path)
    if _CONTROL.search(text.replace("\n", "")):
        raise DocumentError(f"{label} contains control characters.", path)
    if _SURROGATE.search(text):
        raise DocumentError(f"{label} contains a broken character (half of an emoji or symbol).", path)
    return text


def check_keys(doc: object, allowed: frozenset[str], path: str, label: str) -> dict[str, Any]:
    """``doc`` as a dict if it is a JSON object with only ``allowed`` keys."""
    if not isinstance(doc, dict):
        raise DocumentError(f"{label} must be an object.", path)
    unknown = sorted(str(k) for k in doc if k not in allowed)
    if unknown:
        raise DocumentError(f"{label} has an unknown field {unknown[0][:30]!r}.", path)
    return doc


def check_list(value: object, limit: int, path: str, label: str) -> list[Any]:
    """``value`` if it is a JSON list of at most ``limit`` items; else :class:`DocumentError`."""
    if not isinstance(value, list):
        raise DocumentError(f"The {label} must be a list.", path)
    if len(value) > limit:
        raise DocumentError(f"At most {limit} {label}.", path)
    return value


def check_id(value: object, path: str) -> str:
    """An identifier: 1 to 40 letters, digits, ``-`` or ``_``."""
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
        raise DocumentError("The id must be 1 to 40 letters, digits, - or _.", path)
    if value in RESERVED_IDS:
        raise DocumentError(f"The id {value!r} is a reserved name; pick another.", path)
    return value


def check_header(doc: dict[str, Any], schema: str, label: str) -> None:
    """The ``schema`` and ``version`` fields: this schema, a version this site reads."""
    if doc.get("schema") != schema:
        raise DocumentError(f"This is not a {label} (schema {schema!r} expected).", "schema")
    version = doc.get("version")
    if not is_int(version) or version < 1:
        raise DocumentError("The schema version must be a whole number from 1.", "version")
    if version > SCHEMA_VERSION:
        raise DocumentError(
            f"This {label} was saved by a newer version of the site (schema {version}); "
            "reload the site to update it.",
            "version",
        )


def _characteristic_key(value: object, path: str) -> str:
    if not isinstance(value, str) or value not in CHARACTERISTICS:
        raise DocumentError(f"Pick one of {', '.join(CHARACTERISTICS.values())}.", path)
    return value


# ---------------------------------------------------------------- character


def _check_characteristics(value: object) -> dict[str, int | None]:
    doc = check_keys(value, frozenset(CHARACTERISTICS), "characteristics", "The characteristics")
    out: dict[str, int | None] = {}
    for key, short in CHARACTERISTICS.items():
        path = f"characteristics.{key}"
        raw = doc.get(key)
        if raw is None and key not in PHYSICAL:
            out[key] = None
            continue
        if raw is None:
            raise DocumentError(f"{short} is needed (HP and the injury thresholds use it).", path)
        out[key] = check_int(raw, 0, MAX_CHARACTERISTIC, path, short)
    strength, dexterity, endurance = (out[k] for k in PHYSICAL)
    assert strength is not None and dexterity is not None and endurance is not None
    if strength + dexterity + endurance < 1:
        raise DocumentError("Str + Dex + End (the HP) must be at least 1.", "characteristics.strength")
    return out


def _check_skills(value: object) -> list[dict[str, Any]]:
    skills: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index, raw in enumerate(check_list(value, MAX_SKILLS, "skills", "skills")):
        path = f"skills.{index}"
        doc = check_keys(raw, _SKILL_KEYS, path, "A skill")
        name = check_text(doc.get("name"), MAX_NAME, f"{path}.name", "The skill's name")
        if name.casefold() in seen:
            raise DocumentError(f"The skill {name!r} is listed twice.", f"{path}.name")
        seen.add(name.casefold())
        level = check_int(doc.get("level"), 0, checks.MAX_SKILL, f"{path}.level", "A skill level")
        characteristic = _characteristic_key(doc.get("characteristic", "dexterity"), f"{path}.characteristic")
        skills.append({"name": name, "level": level, "characteristic": characteristic})
    return skills


def _check_weapons(value: object) -> list[dict[str, Any]]:
    weapons: list[dict[str, Any]] = []
    for index, raw in enumerate(check_list(value, MAX_WEAPONS, "weapons", "weapons")):
        path = f"weapons.{index}"
        doc = check_keys(raw, _WEAPON_KEYS, path, "A weapon")
        name = check_text(doc.get("name"), MAX_NAME, f"{path}.name", "The weapon's name")
        damage = check_text(doc.get("damage"), dice.MAX_EXPRESSION_LENGTH, f"{path}.damage", "Damage dice")
        try:
            dice.parse_dice(damage)
        except ValueError as exc:
            raise DocumentError(f"Damage dice: {exc}", f"{path}.damage") from exc
        rate = check_int(
            doc.get("rate_of_attack", 0), 0, dice.MAX_ROLLS, f"{path}.rate_of_attack", "The rate of attack"
        )
        skill = check_text(
            doc.get("skill", ""), MAX_NAME, f"{path}.skill", "The weapon's skill", required=False
        )
        characteristic = _characteristic_key(doc.get("characteristic", "dexterity"), f"{path}.characteristic")
        weapons.append(
            {
                "name": name,
                "damage": damage,
                "rate_of_attack": rate,
                "skill": skill,
                "characteristic": characteristic,
            }
        )
    return weapons


def check_character(doc: object) -> dict[str, Any]:
    """The character, normalised (texts stripped, optional fields filled), or :class:`DocumentError`.

    Schema ``mneme-character`` version 1: ``id``, ``name``, ``characteristics``
    (Str, Dex, End required; Int, Edu, Soc, Psi optional), ``skills``
    (name, level, characteristic), ``armor`` (plain points), ``weapons`` (name,
    damage dice, rate of attack with 0 for none, skill, characteristic),
    ``damage`` (taken so far) and ``notes``.
    """
    data = check_keys(doc, _CHARACTER_KEYS, "", "A character")
    check_header(data, CHARACTER_SCHEMA, "character")
    character = {
        "schema": CHARACTER_SCHEMA,
        "version": SCHEMA_VERSION,
        "id": check_id(data.get("id"), "id"),
        "name": check_text(data.get("name"), MAX_NAME, "name", "The name"),
        "characteristics": _check_characteristics(data.get("characteristics")),
        "skills": _check_skills(data.get("skills", [])),
        "armor": check_int(data.get("armor", 0), 0, MAX_ARMOR, "armor", "Armor"),
        "weapons": _check_weapons(data.get("weapons", [])),
        "damage": check_int(data.get("damage", 0), 0, MAX_CHARACTER_DAMAGE, "damage", "Damage taken"),
        "notes": check_text(data.get("notes", ""), MAX_NOTES, "notes", "The notes", required=False),
    }
    return character


def physical_derivations(
    strength: int, dexterity: int, endurance: int, damage: int, *, reading: str = DEFAULT_READING
) -> dict[str, Any]:
    """HP, injury thresholds, injury state, wound penalty and movement for a body and its damage.

    Outcomes § Hit Points (HP), § Character HP Thresholds, § Injury Conditions.
    """
    hp = injury.hit_points(strength, dexterity, endurance)
    how = injury.ThresholdReading(reading)
    best = (
        injury.best_physical(strength, dexterity, endurance)
        if how is injury.ThresholdReading.BEST_PHYSICAL
        else None
    )
    limits = injury.injury_thresholds(hp, reading=how, best_physical=best)
    condition = injury.injury_condition(damage, hp, reading=how, best_physical=best)
    penalty = injury.wound_penalty(damage)
    move = injury.movement(condition)
    return {
        "hp": hp,
        "hp_text": f"HP = Str {strength} + Dex {dexterity} + End {endurance} = {hp}",
        "thresholds": {
            "wounded": limits.wounded,
            "seriously_wounded": limits.seriously_wounded,
            "critically_wounded": limits.critically_wounded,
            "dying": limits.dying,
        },
        "state": condition.value,
        "state_text": state_text(condition),
        "severity": condition.severity,
        "wound_penalty": penalty,
        "wound_penalty_signed": signed(penalty),
        "wound_penalty_text": f"Wound penalty {signed(penalty)} "
        f"({damage} damage: {wound_penalty_rule_text()})",
        "movement": (
            "normal"
            if move.factor == 1
            else ("none" if not move.factor else f"{move.factor} of normal, no dash")
        ),
    }


def _chm_text(key: str, value: int) -> str:
    return f"ChM from {CHARACTERISTICS[key]} {value} = {signed(checks.characteristic_modifier(value))}"


def competence_for(character: Mapping[str, Any], skill_name: str, characteristic: str) -> dict[str, Any]:
    """Competence (ChM + skill, or ChM - 3 unskilled) and the roll's DM with the wound penalty.

    Core Mechanics § Competence (Cmp), § Unskilled Penalty; Outcomes § Character HP Thresholds.
    """
    value = character["characteristics"].get(characteristic)
    short = CHARACTERISTICS[characteristic]
    if value is None:
        raise DocumentError(
            f"{short} is not filled in for {character['name']}.", f"characteristics.{characteristic}"
        )
    chm = checks.characteristic_modifier(value)
    level = next(
        (s["level"] for s in character["skills"] if s["name"].casefold() == skill_name.casefold()), None
    )
    cmp = checks.competence(chm, level)
    penalty = injury.wound_penalty(character["damage"])
    skill_text = (
        f"{skill_name} {level}"
        if level is not None
        else f"unskilled {signed(checks.unskilled_penalty())}" + (f" (no {skill_name})" if skill_name else "")
    )
    modifier = cmp + penalty
    text = f"Cmp {signed(cmp)} = {_chm_text(characteristic, value)}, {skill_text}"
    dm_text = f"DM {signed(modifier)} = Cmp {signed(cmp)}, wound penalty {signed(penalty)}"
    return {
        "chm": chm,
        "level": level,
        "competence": cmp,
        "modifier": modifier,
        "competence_text": text,
        "modifier_text": dm_text,
    }


def derive_character(doc: object, reading: str = DEFAULT_READING) -> dict[str, Any]:
    """Everything the character page shows, derived by ``rules_core`` from a valid character."""
    character = check_character(doc)
    chars = character["characteristics"]
    body = physical_derivations(
        chars["strength"], chars["dexterity"], chars["endurance"], character["damage"], reading=reading
    )
    chm = {
        key: {"value": checks.characteristic_modifier(v), "text": _chm_text(key, v)}
        for key, v in chars.items()
        if v is not None
    }
    skills = [
        {"name": s["name"], **competence_for(character, s["name"], s["characteristic"])}
        for s in character["skills"]
    ]
    weapons = []
    for w in character["weapons"]:
        expression = dice.parse_dice(w["damage"])
        weapons.append(
            {
                "name": w["name"],
                "damage": dice_notation(
                    expression.count, expression.sides, expression.modifier, expression.scale
                ),
                "rate_text": str(w["rate_of_attack"]) if w["rate_of_attack"] else "no limit",
                **competence_for(character, w["skill"], w["characteristic"]),
            }
        )
    return {"character": character, **body, "chm": chm, "skills": skills, "weapons": weapons}


# ---------------------------------------------------------------- import / export


def _b64url_decode(text: str) -> bytes:
    if not re.fullmatch(r"[A-Za-z0-9_-]*={0,2}", text):
        raise DocumentError("The link is damaged: it has characters a shared character never has.")
    text = text.rstrip("=")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:
        raise DocumentError("The link is damaged: its data cannot be decoded.") from exc


def export_link(doc: object) -> str:
    """The URL fragment that carries a character: ``character=`` + base64url of its compact JSON."""
    character = check_character(doc)
    data = json.dumps(character, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return "character=" + base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def nesting_within(text: str, limit: int = MAX_NESTING) -> bool:
    """Whether JSON ``text`` nests no deeper than ``limit`` arrays and objects: one pass, no recursion.

    Checked before any parse, since the parser recurses (and in the browser's engine a deep enough
    document overflows the stack instead of raising ``RecursionError``).
    """
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return False
        elif char in "]}":
            depth -= 1
    return True


def _parse_json(text: str) -> object:
    if not nesting_within(text):
        raise DocumentError(f"This is not a character: it nests deeper than {MAX_NESTING} levels.")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise DocumentError("This is not a character file: it is not valid JSON.") from exc


def import_character(text: object) -> dict[str, Any]:
    """Read an imported character from a file's text, a shared link or its fragment; never trusted.

    Accepts JSON text, ``#character=...``, or a whole URL ending with that
    fragment. Size-limited, decoded, parsed as data only and validated by
    :func:`check_character`.
    """
    if not isinstance(text, str):
        raise DocumentError("Nothing to import.")
    if len(text) > MAX_IMPORT_CHARS:
        raise DocumentError(f"Too large to be a character (at most {MAX_IMPORT_CHARS} characters).")
    body = text.strip()
    if not body:
        raise DocumentError("Nothing to import: the file or link is empty.")
    if body.startswith("{"):
        return check_character(_parse_json(body))
    fragment = body.rpartition("#")[2] if "#" in body else body
    key, sep, value = fragment.partition("=")
    if not sep or key != "character":
        raise DocumentError("This is neither a character file (JSON) nor a character link.")
    try:
        decoded = _b64url_decode(value).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DocumentError("The link is damaged: its data is not text.") from exc
    return check_character(_parse_json(decoded))
