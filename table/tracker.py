"""The combat tracker's document: combatants, initiative, round and turn, damage and its consequences.

The tracker only records what the table reports (the referee never rolls,
Core Mechanics § The Referee Does Not Roll); every consequence comes from
``rules_core``: initiative with the ambush and Tactics bonus (Actions § Initiative),
the order of action (Actions § Combat Round Summary), injury state and wound
penalty (Outcomes § Character HP Thresholds, § Injury Conditions), bleeding
(§ Bleeding), massive damage (§ Massive Damage) and dying rolls (§ Dying).
Pure: :func:`tracker_action` returns a new document, never changes its argument.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Mapping
from typing import Any

from calculators.format import fraction_text, number, percent, signed
from rules_core import checks, damage, dice, healing, injury, limits, mitigation
from rules_core import initiative as rules_initiative
from rules_core.tables import constant
from table.character import (
    CHARACTERISTICS,
    SCHEMA_VERSION,
    DocumentError,
    check_character,
    check_header,
    check_id,
    check_int,
    check_keys,
    check_list,
    check_text,
    is_int,
    physical_derivations,
)

__all__ = [
    "MAX_TRACKED",
    "MODES",
    "TRACKER_SCHEMA",
    "Prompt",
    "can_act",
    "check_tracker",
    "combatant_from_character",
    "derive_tracker",
    "empty_tracker",
    "parse_rolls",
    "tracker_action",
]

TRACKER_SCHEMA = "mneme-tracker"
MAX_TRACKED = 40
"""Most combatants one tracker holds (a table's fight, with room to spare)."""
MAX_ROUND = 100_000
MAX_LOG = 40
MAX_LOG_TEXT = 200
MAX_NAME = limits.MAX_NAME
MAX_ROLLS_PER_HIT = dice.MAX_ROLLS
MAX_ROLLS_TEXT = 400
"""Characters of the damage rolls typed for one hit."""
MAX_DICE_TEXT = dice.MAX_EXPRESSION_LENGTH
"""Characters of a damage dice expression typed (``D 3d6+2``)."""
MAX_ROLL_DIGITS = 4
"""Digits of one damage roll typed (0 to 9999)."""
MAX_COMBATANT_DAMAGE = limits.MAX_DAMAGE
MAX_CHARACTERISTIC = limits.MAX_CHARACTERISTIC
MODES = ("prepared", "unprepared", "ambush", "entered")
"""How a combatant's initiative is found: rolled with a skill, rolled unprepared, ambushing, or told."""
READINGS = tuple(reading.value for reading in injury.ThresholdReading)
"""The injury-threshold readings a tracker may hold (:class:`rules_core.injury.ThresholdReading`)."""
DEFAULT_READING = injury.ThresholdReading.FRACTIONS_OF_HP.value

_TRACKER_KEYS = frozenset(
    {"schema", "version", "round", "turn", "negative_tactics", "reading", "combatants", "log"}
)
_COMBATANT_DEFAULTS: dict[str, Any] = {
    "side": "adversary",
    "character_id": "",
    "strength": 7,
    "dexterity": 7,
    "endurance": 7,
    "skill": 0,
    "mode": "prepared",
    "lead": "dexterity",
    "lead_score": None,
    "roll": None,
    "entered": None,
    "tactics_effect": 0,
    "damage": 0,
    "armor": 0,
    "bleeding_since": None,
    "bleeding_applied": 0,
    "stabilised": False,
    "dead": False,
    "massive_round": None,
}
_COMBATANT_KEYS = frozenset({"id", "name", *_COMBATANT_DEFAULTS})
_EDITABLE = frozenset(
    {
        "name",
        "side",
        "strength",
        "dexterity",
        "endurance",
        "skill",
        "mode",
        "lead",
        "lead_score",
        "roll",
        "entered",
        "tactics_effect",
        "armor",
    }
)
_HELD = ("strength", "dexterity", "endurance")
"""The characteristics a combatant holds; another one leading a prepared roll brings its score along."""


def empty_tracker() -> dict[str, Any]:
    """A tracker with nobody in it, at round 1."""
    return {
        "schema": TRACKER_SCHEMA,
        "version": SCHEMA_VERSION,
        "round": 1,
        "turn": 0,
        "negative_tactics": True,
        "reading": DEFAULT_READING,
        "combatants": [],
        "log": [],
    }


def _optional_int(value: object, low: int, high: int, path: str, label: str) -> int | None:
    return None if value is None else check_int(value, low, high, path, label)


def _check_bool(value: object, path: str, label: str) -> bool:
    if not isinstance(value, bool):
        raise DocumentError(f"{label} must be true or false.", path)
    return value


def _check_combatant(raw: object, index: int) -> dict[str, Any]:
    path = f"combatants.{index}"
    doc = check_keys(raw, _COMBATANT_KEYS, path, "A combatant")
    full = {**_COMBATANT_DEFAULTS, **doc}
    side = full["side"]
    if side not in ("character", "adversary"):
        raise DocumentError("A combatant is a character or an adversary.", f"{path}.side")
    mode = full["mode"]
    if mode not in MODES:
        raise DocumentError(f"Initiative mode must be one of {', '.join(MODES)}.", f"{path}.mode")
    character_id = full["character_id"]
    if character_id != "":
        check_id(character_id, f"{path}.character_id")
    out: dict[str, Any] = {
        "id": check_id(full.get("id"), f"{path}.id"),
        "name": check_text(full.get("name"), MAX_NAME, f"{path}.name", "The name"),
        "side": side,
        "character_id": character_id,
    }
    for key, short in (("strength", "Str"), ("dexterity", "Dex"), ("endurance", "End")):
        out[key] = check_int(full[key], 0, MAX_CHARACTERISTIC, f"{path}.{key}", short)
    if out["strength"] + out["dexterity"] + out["endurance"] < 1:
        raise DocumentError("Str + Dex + End (the HP) must be at least 1.", f"{path}.strength")
    out["skill"] = check_int(full["skill"], 0, checks.MAX_SKILL, f"{path}.skill", "The initiative skill")
    out["mode"] = mode
    lead = full["lead"]
    if not isinstance(lead, str) or lead not in CHARACTERISTICS:
        raise DocumentError(f"Pick one of {', '.join(CHARACTERISTICS.values())}.", f"{path}.lead")
    out["lead"] = lead
    out["lead_score"] = None
    if lead not in _HELD:
        out["lead_score"] = _optional_int(
            full["lead_score"], 0, MAX_CHARACTERISTIC, f"{path}.lead_score", CHARACTERISTICS[lead]
        )
        if out["lead_score"] is None and mode == "prepared":
            raise DocumentError(
                f"Give the {CHARACTERISTICS[lead]} score that leads the roll, or let Dex lead.",
                f"{path}.lead_score",
            )
    out["roll"] = _optional_int(
        full["roll"],
        limits.CHECK_ROLL_MIN,
        limits.CHECK_ROLL_MAX,
        f"{path}.roll",
        "The initiative roll (2d6)",
    )
    out["entered"] = _optional_int(
        full["entered"], -limits.MAX_INITIATIVE, limits.MAX_INITIATIVE, f"{path}.entered", "The initiative"
    )
    out["tactics_effect"] = check_int(
        full["tactics_effect"],
        -checks.MAX_MODIFIER,
        checks.MAX_MODIFIER,
        f"{path}.tactics_effect",
        "Tactics Effect",
    )
    out["damage"] = check_int(full["damage"], 0, MAX_COMBATANT_DAMAGE, f"{path}.damage", "Damage taken")
    out["armor"] = check_int(full["armor"], 0, damage.MAX_ARMOR, f"{path}.armor", "Armor")
    out["bleeding_since"] = _optional_int(
        full["bleeding_since"], 1, MAX_ROUND, f"{path}.bleeding_since", "Bleeding"
    )
    out["bleeding_applied"] = check_int(
        full["bleeding_applied"], 0, MAX_COMBATANT_DAMAGE, f"{path}.bleeding_applied", "Bleeding damage"
    )
    out["stabilised"] = _check_bool(full["stabilised"], f"{path}.stabilised", "Stabilised")
    out["dead"] = _check_bool(full["dead"], f"{path}.dead", "Dead")
    out["massive_round"] = _optional_int(
        full["massive_round"], 1, MAX_ROUND, f"{path}.massive_round", "Massive"
    )
    return out


def check_tracker(doc: object) -> dict[str, Any]:
    """The tracker, normalised, or :class:`DocumentError` naming the field at fault.

    Schema ``mneme-tracker`` version 1: ``round``, ``turn`` (position in the
    order of action), ``negative_tactics`` (ruling: a failed Tactics check
    lowers initiative), ``reading`` (ruling: injury thresholds),
    ``combatants`` (at most 40) and a short ``log``.
    """
    data = check_keys(doc, _TRACKER_KEYS, "", "A tracker")
    check_header(data, TRACKER_SCHEMA, "tracker")
    combatants_raw = check_list(data.get("combatants", []), MAX_TRACKED, "combatants", "combatants")
    combatants = [_check_combatant(raw, index) for index, raw in enumerate(combatants_raw)]
    if len({c["id"] for c in combatants}) != len(combatants):
        raise DocumentError("Two combatants share an id.", "combatants")
    log_raw = data.get("log", [])
    if not isinstance(log_raw, list) or len(log_raw) > MAX_LOG:
        raise DocumentError(f"The log must be a list of at most {MAX_LOG} lines.", "log")
    log = [check_text(line, MAX_LOG_TEXT, f"log.{i}", "A log line") for i, line in enumerate(log_raw)]
    reading = data.get("reading", DEFAULT_READING)
    if reading not in READINGS:
        raise DocumentError("Unknown injury threshold reading.", "reading")
    turn = check_int(data.get("turn", 0), 0, MAX_TRACKED, "turn", "The turn")
    return {
        "schema": TRACKER_SCHEMA,
        "version": SCHEMA_VERSION,
        "round": check_int(data.get("round", 1), 1, MAX_ROUND, "round", "The round"),
        "turn": min(turn, max(len(combatants) - 1, 0)),
        "negative_tactics": _check_bool(data.get("negative_tactics", True), "negative_tactics", "The ruling"),
        "reading": reading,
        "combatants": combatants,
        "log": log,
    }


# ---------------------------------------------------------------- derivations


def _initiative(c: Mapping[str, Any], negative_tactics: bool) -> tuple[int | None, str]:
    """A combatant's initiative by ``rules_core.initiative`` and how it was found (Actions § Initiative)."""
    if c["mode"] == "entered":
        if c["entered"] is None:
            return None, "initiative not told yet"
        return c["entered"], f"told: {number(c['entered'])}"
    dex_dm = checks.characteristic_modifier(c["dexterity"])
    bonus = rules_initiative.tactics_initiative_bonus(c["tactics_effect"], negative_counts=negative_tactics)
    tactics = f", Tactics {signed(bonus)}" if c["tactics_effect"] else ""
    if c["mode"] == "ambush":
        score = rules_initiative.ambush_initiative(dex_dm, bonus)
        ambush_roll: int = constant("initiative", "ambush_roll")
        return score, f"ambush {ambush_roll} + Dex DM {signed(dex_dm)}{tactics} = {number(score)}"
    if c["roll"] is None:
        return None, "waiting for the 2d6 roll"
    if c["mode"] == "unprepared":
        score = rules_initiative.unprepared_initiative(c["roll"], dex_dm, bonus)
        return score, f"roll {c['roll']} + Dex DM {signed(dex_dm)}{tactics} = {number(score)}"
    # Prepared: the characteristic that fits how they lead, not only Dexterity (rulings: initiative formula).
    lead = c["lead"]
    lead_dm = checks.characteristic_modifier(c[lead] if lead in _HELD else c["lead_score"])
    score = rules_initiative.initiative(c["roll"], lead_dm, c["skill"], tactics_bonus=bonus)
    short = CHARACTERISTICS[lead]
    return (
        score,
        f"roll {c['roll']} + {short} DM {signed(lead_dm)} + skill {c['skill']}{tactics} = {number(score)}",
    )


def _order(tracker: Mapping[str, Any]) -> tuple[list[str], dict[str, tuple[int | None, str]]]:
    scores = {c["id"]: _initiative(c, tracker["negative_tactics"]) for c in tracker["combatants"]}
    known = {cid: s for cid, (s, _) in scores.items() if s is not None}
    order = list(rules_initiative.initiative_order(known))
    order += [c["id"] for c in tracker["combatants"] if c["id"] not in known]
    return order, scores


def _body(c: Mapping[str, Any], reading: str) -> dict[str, Any]:
    return physical_derivations(c["strength"], c["dexterity"], c["endurance"], c["damage"], reading=reading)


def _bleeding_due(since: int, round_: int) -> int:
    per_minute: int = constant("injury", "rounds_per_minute")
    return injury.bleeding_damage_after(max(0, round_ - since) // per_minute)


def _next_bleed_round(since: int, round_: int) -> int:
    per_minute: int = constant("injury", "rounds_per_minute")
    due = _bleeding_due(since, round_)
    minute = max(0, round_ - since) // per_minute + 1
    while injury.bleeding_damage_after(minute) <= due:
        minute += 1
    return since + minute * per_minute


def _needs(modifier: int, difficulty: int) -> str:
    need = difficulty - modifier
    if need <= limits.CHECK_ROLL_MIN:
        return "any roll"
    if need > limits.CHECK_ROLL_MAX:
        return "no roll can do it"
    return f"dice {need}+"


def _reminders(c: Mapping[str, Any], body: Mapping[str, Any], round_: int) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    if c["dead"]:
        return [{"kind": "dead", "text": "Dead: out of the fight."}]
    state = injury.InjuryCondition(body["state"])
    end_dm = injury.end_roll_modifier(c["endurance"], c["damage"])
    if c["massive_round"] == round_:
        difficulty: int = constant("injury", "massive_damage_difficulty")
        chance = injury.massive_damage_survival_chance(c["endurance"], c["damage"])
        out.append(
            {
                "kind": "massive",
                "text": f"Massive damage (more than HP from one attack): one End roll against {difficulty}, "
                f"DM {signed(end_dm)} with wounds: {_needs(end_dm, difficulty)} ({percent(chance)}); "
                "failing it is fatal.",
            }
        )
    if state is injury.InjuryCondition.DYING:
        if c["stabilised"]:
            hours = injury.stabilised_hours(c["endurance"])
            out.append(
                {
                    "kind": "stabilised",
                    "text": f"Dying, stabilised by first aid: no dying rolls for {hours} hours; "
                    "needs medical treatment.",
                }
            )
        else:
            difficulty = constant("injury", "dying_roll_difficulty")
            chance = injury.dying_roll_chance(c["endurance"], c["damage"])
            out.append(
                {
                    "kind": "dying",
                    "text": f"Dying: End roll this round against {difficulty}, "
                    f"DM {signed(end_dm)} with wounds: {_needs(end_dm, difficulty)} ({percent(chance)}). "
                    "A failure is death.",
                }
            )
    elif state is injury.InjuryCondition.CRITICALLY_WOUNDED:
        out.append(
            {"kind": "critical", "text": "Critically wounded: usually unconscious and helpless; no movement."}
        )
    elif state is injury.InjuryCondition.SERIOUSLY_WOUNDED:
        share = fraction_text(constant("injury", "seriously_wounded_movement"))
        out.append({"kind": "serious", "text": f"Seriously wounded: {share} movement, no dash."})
    if c["bleeding_since"] is not None:
        nxt = _next_bleed_round(c["bleeding_since"], round_)
        bleed, rounds = (
            constant("injury", "bleeding_damage_per_minute"),
            constant("injury", "rounds_per_minute"),
        )
        out.append(
            {
                "kind": "bleeding",
                "text": f"Bleeding since round {c['bleeding_since']}: "
                f"{bleed} more damage each minute ({rounds} rounds), "
                f"next at the start of round {nxt}. First aid stops it.",
            }
        )
    return out


def derive_tracker(tracker: object) -> dict[str, Any]:
    """The tracker with the order of action, whose turn it is, and each combatant's numbers and reminders."""
    doc = check_tracker(tracker)
    order, scores = _order(doc)
    rows = {}
    for c in doc["combatants"]:
        body = _body(c, doc["reading"])
        score, text = scores[c["id"]]
        rows[c["id"]] = {
            **body,
            "initiative": score,
            "initiative_shown": "?" if score is None else number(score),
            "initiative_text": text,
            "reminders": _reminders(c, body, doc["round"]),
            "acts": can_act(c, body),
        }
    current = order[doc["turn"]] if order else None
    return {"tracker": doc, "order": order, "current": current, "round": doc["round"], "rows": rows}


# ---------------------------------------------------------------- actions


def parse_rolls(text: object) -> tuple[int, ...]:
    """Damage rolls as the table reports them, after armor: ``9``, ``5, 9`` or ``5 9``."""
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str) or len(text) > MAX_ROLLS_TEXT:
        raise DocumentError("Write the damage rolls as numbers, like 5, 9.", "rolls")
    parts = [p for p in re.split(r"[\s,;+]+", text.strip()) if p]
    if not parts:
        raise DocumentError("Write the damage rolls as numbers, like 5, 9.", "rolls")
    if len(parts) > MAX_ROLLS_PER_HIT:
        raise DocumentError(f"At most {MAX_ROLLS_PER_HIT} rolls in one attack.", "rolls")
    rolls = []
    for part in parts:
        if not part.isascii() or not part.isdigit() or len(part) > MAX_ROLL_DIGITS:
            raise DocumentError(
                f"{part[:12]!r} is not a damage roll (0 to {'9' * MAX_ROLL_DIGITS}).", "rolls"
            )
        rolls.append(int(part))
    return tuple(rolls)


def _find(doc: Mapping[str, Any], cid: object) -> dict[str, Any]:
    for c in doc["combatants"]:
        if c["id"] == cid:
            return c  # type: ignore[no-any-return]
    raise DocumentError("No such combatant (it may have been removed).", "id")


def _log(doc: dict[str, Any], text: str) -> None:
    doc["log"] = [*doc["log"], f"R{doc['round']}: {text}"[:MAX_LOG_TEXT]][-MAX_LOG:]


def _new_id(doc: Mapping[str, Any]) -> str:
    used = {c["id"] for c in doc["combatants"]}
    number = len(used) + 1
    while f"c{number}" in used:
        number += 1
    return f"c{number}"


def _add(doc: dict[str, Any], fields: object) -> str:
    if len(doc["combatants"]) >= MAX_TRACKED:
        raise DocumentError(f"At most {MAX_TRACKED} combatants.", "combatants")
    if not isinstance(fields, dict):
        raise DocumentError("A combatant must be an object.", "combatant")
    raw = {k: v for k, v in fields.items() if k not in ("id", "seed")}
    combatant = _check_combatant({**raw, "id": _new_id(doc)}, len(doc["combatants"]))
    doc["combatants"].append(combatant)
    rolls = combatant["roll"] is None and combatant["mode"] in _ROLLED and "seed" in fields
    if rolls:
        _roll(doc, combatant["id"], fields["seed"])
        return f"{combatant['name']} joins the fight and rolls {combatant['roll']} for initiative."
    return f"{combatant['name']} joins the fight."


_ROLLED = ("prepared", "unprepared")
"""Initiative modes that need a 2d6 roll (Actions § Initiative); ambushing and told need none."""


def _update(doc: dict[str, Any], cid: object, fields: object) -> str:
    c = _find(doc, cid)
    if not isinstance(fields, dict) or not set(fields) <= _EDITABLE:
        raise DocumentError("Only the name, characteristics, skill and initiative can be edited.", "fields")
    index = doc["combatants"].index(c)
    doc["combatants"][index] = _check_combatant({**c, **fields}, index)
    return ""


class Prompt(DocumentError):
    """Not a mistake: what the tracker needs next to go on (how many rolls to make, the hit's Effect).
    The action is not applied; the page shows the sentence as a question, not as an error."""

    prompt = True


def _outcome(
    expression: object,
    armor: int,
    *,
    fail_effect: int | None = None,
    success_effect: int = 0,
    rate: int | None = None,
) -> damage.DamageOutcome:
    """:func:`rules_core.damage.damage_outcome` of the dice typed, its error as an inline message:
    from a Fail Effect when given, else from a Success Effect (0 by default: one roll, no minimum)."""
    if not isinstance(expression, str) or not expression.strip() or len(expression) > MAX_DICE_TEXT:
        raise Prompt("Give the damage dice, like 3d6, to take armor off the rolls.", "dice")
    try:
        if fail_effect is None:
            return damage.damage_outcome(
                expression.strip(), armor=armor, success_effect=success_effect, rate_of_attack=rate
            )
        return damage.damage_outcome(
            expression.strip(), armor=armor, fail_effect=fail_effect, rate_of_attack=rate
        )
    except ValueError as error:
        raise DocumentError(str(error), "dice") from None


def _after_armor(rolls: tuple[int, ...], expression: object, armor: int) -> tuple[int, ...]:
    """Each roll less the armor, never below 0 (Outcomes § Armor, § Damage Rolls), one roll at a time
    through :func:`rules_core.damage.rolled_damage`, which also checks the dice can give it."""
    outcome = _outcome(expression, armor)
    try:
        return tuple(damage.rolled_damage(outcome, (value,)).total for value in rolls)
    except ValueError as error:
        raise DocumentError(str(error), "rolls") from None


def _armor_text(raw: tuple[int, ...], armor: int, more: str = "") -> str:
    return f" (rolled {', '.join(map(str, raw))} less armor {armor}{more})"


def _minimum_text(outcome: damage.DamageOutcome) -> str:
    least: int = constant("damage_rules", "minimum_damage")
    return f", at least {least} a roll" if outcome.minimum_applies else ""


def _hit(doc: dict[str, Any], cid: object, action: Mapping[str, Any]) -> str:
    """Damage rolls on a combatant: after armor as typed, or (``before_armor``) as made with the ``dice``,
    the combatant's armor off each. The hit's ``effect``, when given, counts the rolls and brings the
    Effect 6+ minimum (Outcomes § Armor, § Damage) by :func:`rules_core.damage.rolled_damage`; without
    it, a roll the armor stops is asked about, since the Effect decides whether it deals 0 or 1."""
    c = _find(doc, cid)
    rolls = parse_rolls(action.get("rolls"))
    if not _check_bool(action.get("before_armor", False), "before_armor", "Before armor"):
        return _take(doc, c, rolls, "")
    armor, effect = c["armor"], action.get("effect")
    if effect in (None, ""):
        after = _after_armor(rolls, action.get("dice"), armor)
        if 0 in after:
            least = constant("damage_rules", "minimum_damage_effect")
            raise Prompt(
                f"A roll the armor {armor} stops deals 0, or 1 if the hit's Effect was {least} or more: "
                "give the hit's Effect.",
                "effect",
            )
        return _take(doc, c, after, _armor_text(rolls, armor))
    hit_effect = check_int(effect, 0, checks.MAX_MODIFIER, "effect", "The hit's Effect")
    outcome = _outcome(action.get("dice"), armor, success_effect=hit_effect)
    try:
        rolled = damage.rolled_damage(outcome, rolls)
    except ValueError as error:
        raise DocumentError(str(error), "rolls") from None
    return _take(doc, c, rolled.kept, _armor_text(rolls, armor, _minimum_text(outcome)))


def _incoming(doc: dict[str, Any], cid: object, action: Mapping[str, Any]) -> str:
    """An attack the combatant failed to avoid: ``failed_by`` (the Fail Effect's degree) less the
    mitigating factors by :func:`rules_core.mitigation.mitigate` (Core Mechanics § Mitigating Factors;
    Outcomes § Cover Takes Damage), then one damage roll per point left, the best ``rate_of_attack``
    counting (Outcomes § Damage Rolls, § Weapons with Limited Rate of Attack), each less the
    combatant's armor, at least 1 at a Fail Effect of 6+, by :func:`rules_core.damage.rolled_damage`
    (Outcomes § Armor). Without ``rolls`` it says how many to roll; ``armor`` given replaces the
    combatant's."""
    c = _find(doc, cid)
    failed_by = check_int(action.get("failed_by"), 0, mitigation.MAX_FAIL_EFFECT, "failed_by", "Failed by")
    factors = {
        key: check_int(action.get(key) or 0, 0, mitigation.MAX_MITIGATION, key, label)
        for key, label in (("cover", "Cover"), ("conditions", "Conditions"), ("skill", "Defence skill"))
    }
    rate = check_int(action.get("rate_of_attack") or 0, 0, dice.MAX_ROLLS, "rate_of_attack", "Rate of attack")
    armor = (
        c["armor"]
        if action.get("armor") is None
        else check_int(action.get("armor"), 0, damage.MAX_ARMOR, "armor", "Armor")
    )
    mitigated = mitigation.mitigate(
        failed_by, cover=factors["cover"], conditions=factors["conditions"], skill=factors["skill"]
    )
    cover = f"; the cover takes {mitigated.cover_absorbed}" if mitigated.cover_absorbed else ""
    if mitigated.ordinary_failure:
        return f"{c['name']}: failed by {failed_by}, mitigated to an ordinary failure{cover}: no damage."
    try:
        count = damage.rolls_from_fail_effect(mitigated.remaining, rate or None)
    except ValueError as error:
        raise DocumentError(str(error), "failed_by") from None
    plural = "s" if count.made != 1 else ""
    best = f" (the best {count.kept} count)" if count.kept < count.made else ""
    left = f"Failed by {failed_by}, {mitigated.remaining} left{cover}: {count.made} damage roll{plural}{best}"
    if action.get("dice") in (None, ""):
        raise Prompt(f"{left}. Give the damage dice, like 3d6.", "dice")
    outcome = _outcome(action.get("dice"), armor, fail_effect=mitigated.remaining, rate=rate or None)
    if action.get("rolls") in (None, ""):
        raise Prompt(
            f"{left} of {outcome.expression} ({outcome.per_roll_text} after armor {armor}"
            f"{_minimum_text(outcome)}): type them as rolled.",
            "rolls",
        )
    raw = parse_rolls(action.get("rolls"))
    try:
        rolled = damage.rolled_damage(outcome, raw)
    except ValueError as error:
        raise DocumentError(str(error), "rolls") from None
    more = _minimum_text(outcome)
    said = f" (failed by {failed_by}, {mitigated.remaining} left{cover}; {_armor_text(raw, armor, more)[2:]}"
    return _take(doc, c, rolled.kept, said)


def _take(doc: dict[str, Any], c: dict[str, Any], rolls: tuple[int, ...], how: str) -> str:
    """Damage rolls after armor taken: state, bleeding from one roll, massive damage, wound penalty."""
    total = sum(rolls)
    if c["damage"] + total > MAX_COMBATANT_DAMAGE:
        raise DocumentError(f"Damage taken cannot go above {MAX_COMBATANT_DAMAGE}.", "rolls")
    before = _body(c, doc["reading"])
    c["damage"] += total
    after = _body(c, doc["reading"])
    reading = injury.ThresholdReading(doc["reading"])
    best = (
        injury.best_physical(c["strength"], c["dexterity"], c["endurance"])
        if reading is injury.ThresholdReading.BEST_PHYSICAL
        else None
    )
    notes = [f"{c['name']} takes {total} ({', '.join(map(str, rolls))}){how}: {after['state_text']}"]
    if (
        rolls
        and c["bleeding_since"] is None
        and injury.bleeds_from_roll(max(rolls), after["hp"], reading=reading, best_physical=best)
    ):
        c["bleeding_since"] = doc["round"]
        c["bleeding_applied"] = 0
        notes.append(f"bleeding (a roll of {max(rolls)} reaches {after['thresholds']['seriously_wounded']})")
    if injury.is_massive_damage(total, after["hp"]):
        c["massive_round"] = doc["round"]
        notes.append("massive damage")
    if after["severity"] < injury.InjuryCondition.DYING.severity:
        c["stabilised"] = False
    if before["wound_penalty"] != after["wound_penalty"]:
        notes.append(f"wound penalty {signed(after['wound_penalty'])}")
    return "; ".join(notes) + "."


def _set_damage(doc: dict[str, Any], cid: object, damage: object) -> str:
    c = _find(doc, cid)
    c["damage"] = check_int(damage, 0, MAX_COMBATANT_DAMAGE, "damage", "Damage taken")
    after = _body(c, doc["reading"])
    if after["severity"] < injury.InjuryCondition.DYING.severity:
        c["stabilised"] = False
    return f"{c['name']}'s damage set to {c['damage']}: {after['state_text']}."


def _first_aid(doc: dict[str, Any], cid: object, effect: object) -> str:
    """Outcomes § First Aid: removes damage equal to the Effect of the Medic check, at least 1;
    it also stops bleeding (§ Bleeding) and stabilises the dying (§ Dying). No Effect given: the minimum."""
    c = _find(doc, cid)
    if effect is None:
        effect = 0
    effect = check_int(effect, 0, checks.MAX_MODIFIER, "effect", "The first aid Effect")
    healed = min(healing.first_aid_healing(effect), c["damage"])
    c["damage"] -= healed
    said = [f"{healed} damage removed (now {c['damage']})"]
    if c["bleeding_since"] is not None:
        c["bleeding_since"] = None
        c["bleeding_applied"] = 0
        said.append("bleeding stopped")
    if _body(c, doc["reading"])["state"] == injury.InjuryCondition.DYING.value and not c["stabilised"]:
        c["stabilised"] = True
        said.append(f"stabilised for {injury.stabilised_hours(c['endurance'])} hours")
    if _body(c, doc["reading"])["severity"] < injury.InjuryCondition.DYING.severity:
        c["stabilised"] = False
    return f"First aid on {c['name']}: {', '.join(said)}."


def _bleed(doc: dict[str, Any]) -> None:
    for c in doc["combatants"]:
        if c["bleeding_since"] is None or c["dead"]:
            continue
        due = _bleeding_due(c["bleeding_since"], doc["round"])
        more = min(due - c["bleeding_applied"], MAX_COMBATANT_DAMAGE - c["damage"])
        if more > 0:
            c["damage"] += more
            c["bleeding_applied"] = due
            _log(
                doc,
                f"{c['name']} bleeds {more} (now {c['damage']}: {_body(c, doc['reading'])['state_text']}).",
            )


def can_act(c: Mapping[str, Any], row: Mapping[str, Any]) -> bool:
    """False for the dead, the dying and the critically wounded (usually unconscious and helpless):
    Outcomes § Injury Conditions, § Dying. ``row`` is the combatant's derived body."""
    return not c["dead"] and row["severity"] < injury.InjuryCondition.CRITICALLY_WOUNDED.severity


def _next(doc: dict[str, Any]) -> str:
    """The next combatant in order who can act; those who cannot are passed over (a new round
    crossed on the way applies bleeding). When nobody can act, a whole round passes (bleeding goes on)."""
    count = len(doc["combatants"])
    if count == 0:
        raise DocumentError("Add combatants first.", "combatants")
    passed = []
    for _ in range(count):
        _step(doc)
        order, _ = _order(doc)
        c = _find(doc, order[doc["turn"]])
        if can_act(c, _body(c, doc["reading"])):
            break
        passed.append(c["name"])
    else:
        return "nobody can act."
    return f"passed over {', '.join(passed)} (cannot act)." if passed else ""


def _step(doc: dict[str, Any]) -> None:
    count = len(doc["combatants"])
    if doc["turn"] + 1 < count:
        doc["turn"] += 1
        return
    if doc["round"] >= MAX_ROUND:
        raise DocumentError("That is a very long fight: start a new one.", "round")
    doc["turn"] = 0
    doc["round"] += 1
    _log(doc, f"round {doc['round']} begins.")
    _bleed(doc)


def _roll(doc: dict[str, Any], cid: object, seed: object) -> str:
    c = _find(doc, cid)
    if not is_int(seed):
        raise DocumentError("A roll needs a whole-number seed.", "seed")
    assert isinstance(seed, int)
    c["roll"] = dice.roll(dice.parse_dice("2d6"), random.Random(seed))
    return f"{c['name']} rolls {c['roll']} for initiative."


def tracker_action(tracker: object, action: object) -> dict[str, Any]:
    """Apply one action to a copy of the tracker; the new tracker derived (as :func:`derive_tracker`).

    Actions (``type``): ``add`` (``combatant``; with a ``seed`` in it and no ``roll``, its 2d6
    initiative roll is made at once), ``update`` (``id``, ``fields``),
    ``remove`` (``id``), ``hit`` (``id``, ``rolls`` after armor; with ``before_armor`` true and the
    damage ``dice``, the rolls as made, less the combatant's ``armor`` each, and the hit's ``effect``
    when known), ``incoming`` (``id``, ``failed_by``, optional ``cover``, ``conditions``, ``skill``,
    ``rate_of_attack``, ``armor``, ``dice`` and ``rolls``:
    an attack the combatant failed against, mitigated, its damage rolls less armor), ``set_damage``
    (``id``, ``damage``), ``first_aid`` (``id``, optional ``effect`` of the Medic
    check, 0 or more; without it the minimum of 1 damage is removed), ``dead`` (``id``, ``value``),
    ``roll`` (``id``, ``seed``: 2d6 from ``random.Random(seed)``), ``next``
    (the next who can act, see :func:`can_act`; a new round applies bleeding),
    ``ruling`` (``negative_tactics``,
    ``reading``), ``new_fight`` (an empty tracker at round 1, the rulings kept).
    """
    doc = copy.deepcopy(check_tracker(tracker))
    if not isinstance(action, dict):
        raise DocumentError("An action must be an object.", "action")
    kind = action.get("type")
    cid = action.get("id")
    said = ""
    before, _ = _order(doc)
    acting = before[doc["turn"]] if before else None
    if kind == "add":
        said = _add(doc, action.get("combatant"))
    elif kind == "update":
        said = _update(doc, cid, action.get("fields"))
    elif kind == "remove":
        c = _find(doc, cid)
        doc["combatants"].remove(c)
        said = f"{c['name']} leaves the fight."
    elif kind == "hit":
        said = _hit(doc, cid, action)
    elif kind == "incoming":
        said = _incoming(doc, cid, action)
    elif kind == "set_damage":
        said = _set_damage(doc, cid, action.get("damage"))
    elif kind == "first_aid":
        said = _first_aid(doc, cid, action.get("effect"))
    elif kind == "dead":
        c = _find(doc, cid)
        c["dead"] = _check_bool(action.get("value", True), "value", "Dead")
        said = f"{c['name']} {'is dead' if c['dead'] else 'is not dead after all'}."
    elif kind == "roll":
        said = _roll(doc, cid, action.get("seed"))
    elif kind == "next":
        said = _next(doc)
    elif kind == "ruling":
        doc["negative_tactics"] = _check_bool(
            action.get("negative_tactics", doc["negative_tactics"]), "negative_tactics", "The ruling"
        )
        reading = action.get("reading", doc["reading"])
        if reading not in READINGS:
            raise DocumentError("Unknown injury threshold reading.", "reading")
        doc["reading"] = reading
    elif kind == "new_fight":
        fresh = empty_tracker()
        fresh["negative_tactics"], fresh["reading"] = doc["negative_tactics"], doc["reading"]
        doc = fresh
    else:
        raise DocumentError("Unknown tracker action.", "type")
    under_way = doc["round"] > 1 or doc["turn"] > 0  # while setting up, the top of the order acts first
    if under_way and kind not in ("next", "new_fight"):
        _keep_turn(doc, acting)
    if said:
        _log(doc, said)
    return derive_tracker(doc)


def _keep_turn(doc: dict[str, Any], acting: str | None) -> None:
    """Keep the turn with the combatant who was acting when the order changes (a combatant joins,
    leaves or has their initiative changed mid-round); if they left, the next in order acts."""
    order, _ = _order(doc)
    if acting in order:
        doc["turn"] = order.index(acting)
    else:
        doc["turn"] = min(doc["turn"], max(len(order) - 1, 0))


def combatant_from_character(character: object) -> dict[str, Any]:
    """A tracker combatant made from a saved character: name, Str/Dex/End, damage and initiative skill.

    The initiative skill is the character's best of Recon, Tactics and their weapons' skills
    (Actions § Combat Round Summary > Initiative: the relevant skill); the characteristic that skill
    is rolled with leads the prepared roll (rulings: initiative formula); Dexterity without one, or
    when the character has no score for it.
    """
    char = check_character(character)
    chars = char["characteristics"]
    wanted = {"recon", "tactics"} | {w["skill"].casefold() for w in char["weapons"] if w["skill"]}
    found = [s for s in char["skills"] if s["name"].casefold() in wanted]
    best = max(found, key=lambda s: s["level"], default=None)
    lead = best["characteristic"] if best and chars[best["characteristic"]] is not None else "dexterity"
    return {
        "name": char["name"],
        "side": "character",
        "character_id": char["id"],
        "strength": chars["strength"],
        "dexterity": chars["dexterity"],
        "endurance": chars["endurance"],
        "skill": best["level"] if best else 0,
        "lead": lead,
        "lead_score": None if lead in _HELD else chars[lead],
        "damage": min(char["damage"], MAX_COMBATANT_DAMAGE),
    }
