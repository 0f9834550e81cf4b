"""What the table pages' scripts need to know, said once here: the build embeds it in the pages.

``calculators.js`` takes from the same settings the few words and limits of Python's it needs
(``calculators``: what a checkbox reads as yes, the text of an output that does not apply, the
longest value a link may set).

``character.js`` and ``tracker.js`` hold state only; the empty documents, schema names and
versions, the forms' limits, a character's id rule (``character.ID_PATTERN`` and ``RESERVED_IDS``),
the characteristic and choice labels and the few rule sentences they show come from
:func:`page_config`, which ``hooks/calculator_pages.py`` writes into every page
that shows the character page, the tracker or a calculator (where "use my character" reads the
store) as ``<div id="mneme-table-config" data-config='JSON'>``.

Build-time only: nothing but that hook (and the tests) imports this module, and the browser's
wheel leaves it out (``sitebuild/bundle.py``).
"""

from __future__ import annotations

from html import escape
from typing import Any

from calculators.framework import render, spec
from calculators.parts import enum_choices
from rules_core import dice, injury
from rules_core.tables import int_constant
from table import character, prefill, tracker

__all__ = ["STORE_SCHEMA", "STORE_VERSION", "mine_box", "page_config"]

STORE_SCHEMA = "mneme-characters"
"""The device's list of characters (``localStorage``): ``characters`` and the ``active`` id."""
STORE_VERSION = 1
BACKUP_SCHEMA = "mneme-backup"
"""One file of everything a device keeps ("Download a backup"): ``characters`` and the ``tracker``."""
BACKUP_VERSION = 1

NEW_CHARACTER_NAME = "New character"
NEW_CHARACTER_ID = "ch-new"
"""A valid placeholder id; the page gives each new character its own."""

MODE_LABELS = {
    "prepared": "Prepared: 2d6 + DM of the leading characteristic + skill",
    "unprepared": "Unprepared: 2d6 + Dex DM",
    "ambush": "Ambushing: 12 + Dex DM",
    "entered": "Told: the initiative as reported",
}
"""Initiative modes (``tracker.MODES``), with the rule each follows (Actions § Initiative)."""
SIDES = (("adversary", "Adversary"), ("character", "Character"))
NEGATIVE_TACTICS = "A failed Tactics check lowers the unit's initiative"
"""The ruling's checkbox (rulings.md, Tactics and initiative)."""


def _empty_character() -> dict[str, Any]:
    characteristics: dict[str, int | None] = {key: 7 for key in character.CHARACTERISTICS}
    characteristics["psionics"] = None
    return {
        "schema": character.CHARACTER_SCHEMA,
        "version": character.SCHEMA_VERSION,
        "id": NEW_CHARACTER_ID,
        "name": NEW_CHARACTER_NAME,
        "characteristics": characteristics,
        "skills": [],
        "armor": 0,
        "weapons": [],
        "damage": 0,
        "notes": "",
    }


def _new_combatant() -> dict[str, Any]:
    """The add form's starting values: the tracker's own defaults for a combatant given only a name."""
    probe = {**tracker.empty_tracker(), "combatants": [{"id": "new", "name": "New"}]}
    filled = tracker.check_tracker(probe)["combatants"][0]
    return {key: filled[key] for key in ("side", "strength", "dexterity", "endurance", "skill", "mode")}


def _most_hp() -> int:
    """The largest HP a combatant can have (every physical characteristic at its limit)."""
    top = tracker.MAX_CHARACTERISTIC
    hp: int = character.physical_derivations(top, top, top, 0)["hp"]
    return hp


def _modes() -> list[list[str]]:
    if set(MODE_LABELS) != set(tracker.MODES):
        raise ValueError("ui.MODE_LABELS must label every tracker mode exactly")
    return [[mode, MODE_LABELS[mode]] for mode in tracker.MODES]


MINE = {
    "title": "My character",
    "none_link": "Save a character on this device",
    "stored": "Once the engine has loaded, you can use your character on this device",
    "none_rest": " to fill this calculator in from it.",
    "use": "Use my character",
    "save": "Save damage taken",
}
"""The "use my character" box above a calculator: its title, what it says with no character saved (the
link, then the rest), and, ahead of the same rest, what it says while its controls load when one is."""


def mine_box(calculator: str, root: str) -> str:
    """The "use my character" box a calculator is built with, before its script: both openings of its
    sentence, the stylesheet showing the one for this device (``browser/calculators.css``:
    ``data-mneme-characters`` on <html>, set in <head> when a character is kept here), and the row of
    controls to come, unseen: with a character kept, it holds their place from the first paint. The
    script fills the same box in place, so nothing below it moves. "" where no character applies."""
    plan = prefill.prefill_plan(calculator)
    if not plan["keys"]:
        return ""
    return (
        f'<div class="mt-mine" data-mine-for="{escape(calculator)}">'
        f'<span class="mt-mine-title">{escape(MINE["title"])}</span> '
        f"{_controls_to_come(plan)}"
        f'<span class="mt-mine-stored">{escape(MINE["stored"])}</span>'
        f'<a href="{escape(root)}table/character/">{escape(MINE["none_link"])}</a>'
        f"{escape(MINE['none_rest'])}</div>"
    )


def _controls_to_come(plan: dict[str, Any]) -> str:
    """The row character.js builds with a character kept (``browser/character/use-mine.js``), as its
    place: the same selects and buttons (a second select where the calculator asks which skill or
    weapon, the second button where it writes back), inert and unseen."""
    select = "<select disabled></select>"
    button = '<button type="button" class="mt-button{}" disabled>{}</button>'
    return (
        '<div class="mt-row mt-mine-later" aria-hidden="true" inert>'
        + select * (2 if plan["needs_choice"] else 1)
        + button.format("", escape(MINE["use"]))
        + (button.format(" mt-quiet", escape(MINE["save"])) if plan["write_back"] else "")
        + "</div>"
    )


def page_config() -> dict[str, Any]:
    """Everything the table scripts take from Python, as JSON-ready data."""
    empty_tracker = tracker.empty_tracker()
    return {
        "calculators": {
            "true": sorted(spec.TRUE_TEXTS),
            "empty": render.EMPTY_OUTPUT,
            "url_text_limit": render.URL_TEXT_LIMIT,
        },
        "schemas": {
            "character": {"name": character.CHARACTER_SCHEMA, "version": character.SCHEMA_VERSION},
            "store": {"name": STORE_SCHEMA, "version": STORE_VERSION},
            "tracker": {"name": empty_tracker["schema"], "version": empty_tracker["version"]},
            "backup": {"name": BACKUP_SCHEMA, "version": BACKUP_VERSION},
        },
        "empty": {
            "character": _empty_character(),
            "store": {"schema": STORE_SCHEMA, "version": STORE_VERSION, "characters": [], "active": ""},
            "tracker": empty_tracker,
        },
        "limits": {
            "name": character.MAX_NAME,
            "notes": character.MAX_NOTES,
            "dice": dice.MAX_EXPRESSION_LENGTH,
            "import_chars": character.MAX_IMPORT_CHARS,
            "call_chars": character.MAX_CALL_CHARS,
            "call_depth": character.MAX_NESTING,
            "tracked": tracker.MAX_TRACKED,
            "round": tracker.MAX_ROUND,
            "damage": tracker.MAX_COMBATANT_DAMAGE,
            "hp": _most_hp(),
        },
        # A hit with at least this Effect deals 1 a roll whatever the armor (Outcomes § Armor).
        "minimum_damage_effect": int_constant("damage_rules", "minimum_damage_effect"),
        "ids": {"pattern": character.ID_PATTERN.pattern, "reserved": sorted(character.RESERVED_IDS)},
        "characteristics": [[key, short] for key, short in character.CHARACTERISTICS.items()],
        "states": {c.value: c.value.replace("_", " ") for c in injury.InjuryCondition},
        "modes": _modes(),
        "sides": [list(side) for side in SIDES],
        "new_combatant": _new_combatant(),
        "mine": MINE,
        "rulings": {
            "negative_tactics": NEGATIVE_TACTICS,
            "reading": {
                "label": "Injury thresholds (ruling)",
                "options": [list(option) for option in enum_choices(injury.ThresholdReading, "tracker")],
            },
        },
    }
