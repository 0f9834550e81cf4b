"""One character, three systems: turn order, actions, speed and hit damage in Mneme, Mistrunner and MET.

Rules: docs/peers/comparison.md § One character, three systems; each working step
cites the rule it applies. All maths is in :mod:`rules_core.peers.comparison`
(and the Mneme, Mistrunner and Mind's Eye Theatre modules it calls).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from calculators import framework as fw
from calculators.format import MINUS, decimal, signed
from calculators.format import dice as dice_notation
from calculators.parts.links import rule
from rules_core import checks, damage, dice, limits
from rules_core.peers import minds_eye, mistrunner
from rules_core.peers.comparison import (
    MAX_MARGIN,
    MAX_MNEME_ARMOR,
    MAX_WEAPON_DICE,
    MAX_WEAPON_SIDES,
    Comparison,
    DamageDice,
    OneCharacter,
    SystemSummary,
    compare,
)
from rules_core.tables import int_constant

__all__ = ["CALCULATOR", "compute", "parse_weapon"]


CM_PER_METRE = 100
MISS = "0 (miss)"
MAX_SHOWN = 10_000
"""Exact averages are shown as a fraction only when the denominator is at most this."""
MAX_STEP_CM = limits.MAX_PEER_STEP_METRES * CM_PER_METRE
PEER = limits.MAX_PEER_SCORE
MISTRUNNER_DIE = int_constant("mistrunner_constants", "reaction_die_sides")
MISTRUNNER_ACTIONS = int_constant("mistrunner_constants", "max_actions")
MISTRUNNER_MOVE = int_constant("mistrunner_constants", "base_move_metres")
MET_CELERITY_ROUNDS = int_constant("minds_eye_constants", "max_celerity_rounds")


def parse_weapon(text: str) -> DamageDice:
    """A Mneme weapon's damage dice written like ``3d6`` or ``2d6+1`` (no scale prefix)."""
    expression = dice.parse_dice(text)
    if expression.scale:
        raise ValueError("Scale prefixes are not compared; write plain dice like 3d6-2.")
    return DamageDice(expression.count, expression.sides, expression.modifier)


def _plus(value: int) -> str:
    """A term added in a sum: ``+ 2``, ``\u2212 1``, ``+ 0``."""
    return f"{MINUS} {-value}" if value < 0 else f"+ {value}"


def _segments(row: SystemSummary) -> str:
    word = "segment" if len(row.acts_on) == 1 else "segments"
    return f"{word} " + ", ".join(str(s) for s in row.acts_on)


def _times(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _attacks(row: SystemSummary, turn: str) -> str:
    return f"{_times(row.attacks_per_turn, 'attack')} a {turn}, {decimal(row.attacks_per_minute)} a minute"


def _pace(row: SystemSummary, turn: str) -> str:
    """The top speed in metres a turn and a second: ``22.5 m a round, 3.75 m/s``."""
    return f"{decimal(row.metres_per_turn or 0)} m a {turn}, {decimal(row.metres_per_second or 0)} m/s"


def _character(values: Mapping[str, Any]) -> OneCharacter:
    step_cm = values["met_step_cm"]
    return OneCharacter(
        margin=values["margin"],
        mneme_dexterity=values["mneme_dexterity"],
        mneme_initiative_skill=values["mneme_initiative_skill"],
        mneme_initiative_roll=values["mneme_initiative_roll"],
        mneme_heavy_load=values["mneme_load"] == "heavy",
        mneme_weapon=values["mneme_weapon"],
        mneme_rate_of_attack=values["mneme_rate_of_attack"],
        mneme_armor=values["mneme_armor"],
        mistrunner_reaction_score=values["mistrunner_reaction_score"],
        mistrunner_reaction_die=values["mistrunner_reaction_die"],
        mistrunner_coordination=values["mistrunner_coordination"],
        mistrunner_actions=values["mistrunner_actions"],
        mistrunner_damage_code=values["mistrunner_damage_code"],
        mistrunner_melee=values["mistrunner_melee"],
        mistrunner_strength=values["mistrunner_strength"],
        mistrunner_armor=values["mistrunner_armor"],
        met_physical=values["met_physical"],
        met_mental=values["met_mental"],
        met_celerity_rounds=values["met_celerity_rounds"],
        met_damage_bonus=values["met_damage_bonus"],
        met_damage_reduction=values["met_damage_reduction"],
        met_step_metres=None if step_cm is None else Fraction(step_cm, CM_PER_METRE),
    )


def _compare(character: OneCharacter) -> Comparison:
    """``compare`` with each of its messages put beside the input it is about."""
    fields = (
        ("Mneme initiative roll", "mneme_initiative_roll"),
        ("Mneme initiative skill", "mneme_initiative_skill"),
        ("Mneme Dexterity", "mneme_dexterity"),
        ("rate of attack", "mneme_rate_of_attack"),
        ("Armor must", "mneme_armor"),
        ("reaction die", "mistrunner_reaction_die"),
        ("reaction score", "mistrunner_reaction_score"),
        ("number of actions", "mistrunner_actions"),
        ("Coordination", "mistrunner_coordination"),
        ("damage code", "mistrunner_damage_code"),
        ("Strength", "mistrunner_strength"),
        ("armor value", "mistrunner_armor"),
        ("Physical", "met_physical"),
        ("Mental", "met_mental"),
        ("Celerity", "met_celerity_rounds"),
        ("damage bonus", "met_damage_bonus"),
        ("damage reduction", "met_damage_reduction"),
        ("step length", "met_step_cm"),
        ("hit margin", "margin"),
    )
    try:
        return compare(character)
    except ValueError as exc:
        message = str(exc)
        for needle, key in fields:
            if needle in message:
                raise fw.FieldError(message, key) from exc
        raise


def _mneme_steps(values: Mapping[str, Any], row: SystemSummary) -> list[fw.Step]:
    dex, skill, roll = (
        values["mneme_dexterity"],
        values["mneme_initiative_skill"],
        values["mneme_initiative_roll"],
    )
    chm = checks.characteristic_modifier(dex)
    load = "medium or heavy" if values["mneme_load"] == "heavy" else "light"
    margin, weapon, armor = values["margin"], values["mneme_weapon"], values["mneme_armor"]
    steps = [
        fw.Step(
            f"Mneme initiative: 2d6 roll {roll} {_plus(chm)} (Dexterity {dex}) {_plus(skill)} (skill) "
            f"= {row.initiative}, kept for the whole fight.",
            rule("comparison.mneme_initiative"),
        ),
        fw.Step(f"Dexterity {dex} gives a characteristic modifier of {signed(chm)}.", rule("chm")),
        fw.Step(
            f"A {row.seconds_per_turn}-second round holds {row.minor_actions} minor actions; an attack costs "
            f"{row.attack_cost}: {_attacks(row, 'round')}.",
            rule("comparison.mneme_actions"),
        ),
        fw.Step(
            f"Fastest movement with a {load} load: {_pace(row, 'round')}.",
            rule("comparison.mneme_movement"),
        ),
    ]
    if margin < 0:
        steps.append(fw.Step(f"Effect {margin} is a miss: no damage rolls.", rule("comparison.mneme_damage")))
        return steps
    rolls = damage.rolls_from_success_effect(margin, values["mneme_rate_of_attack"])
    made = f"Effect {margin} makes {_times(rolls.made, 'damage roll')} of {_dice(weapon)} (1 + 1 per point)"
    if rolls.kept < rolls.made:
        steps.append(fw.Step(f"{made}; the rate of attack keeps the best {rolls.kept}.", rule("rate")))
    else:
        steps.append(fw.Step(f"{made}.", rule("comparison.mneme_damage")))
    if armor:
        steps.append(
            fw.Step(f"Armor {armor} comes off each roll, never below 0.", rule("comparison.mneme_armor"))
        )
    if damage.minimum_damage_applies(margin):
        steps.append(fw.Step(f"Effect {margin} is 6 or more: every roll does at least 1.", rule("minimum")))
    exact = row.damage
    shown = f" (exactly {exact.numerator}/{exact.denominator})" if 1 < exact.denominator <= MAX_SHOWN else ""
    steps.append(
        fw.Step(f"Average damage of the hit: {decimal(exact)}{shown}.", rule("comparison.mneme_damage"))
    )
    return steps


def _dice(weapon: DamageDice) -> str:
    return dice_notation(weapon.count, weapon.sides, weapon.bonus)


def _mistrunner_steps(values: Mapping[str, Any], row: SystemSummary) -> list[fw.Step]:
    die, score = values["mistrunner_reaction_die"], values["mistrunner_reaction_score"]
    coordination, margin = values["mistrunner_coordination"], values["margin"]
    lost = [f"action {n} loses {p} dice" for n, p in enumerate(row.dice_penalties, start=1) if p]
    penalties = ("; " + ", ".join(lost)) if lost else ""
    steps = [
        fw.Step(
            f"Mistrunner reaction: d10 roll {die} {_plus(score)} (reaction score) = {row.initiative}, "
            "rolled again every turn.",
            rule("comparison.mist_reaction"),
        ),
        fw.Step(
            f"{_times(len(row.acts_on), 'action')}, on {_segments(row)}{penalties}.",
            rule("comparison.mist_extra"),
        ),
        fw.Step(
            f"A {row.seconds_per_turn}-second turn: {_attacks(row, 'turn')}.", rule("comparison.mist_turn")
        ),
        fw.Step(
            f"A move covers {mistrunner.move_metres(coordination)} m at coordination {coordination}; running "
            f"doubles it: {_pace(row, 'turn')}.",
            rule("comparison.mist_movement"),
        ),
    ]
    if margin < 0:
        steps.append(
            fw.Step(
                f"A total {-margin} under the target number misses: no damage.",
                rule("comparison.mist_damage"),
            )
        )
        return steps
    code, strength, melee = (
        values["mistrunner_damage_code"],
        values["mistrunner_strength"],
        values["mistrunner_melee"],
    )
    raw = mistrunner.attack_damage(code, margin, 0, strength=strength, melee=melee)
    base = mistrunner.attack_damage(code, margin, 0)
    steps.append(
        fw.Step(f"Damage code {code} \u00d7 (margin {margin} + 1) = {base}.", rule("comparison.mist_damage"))
    )
    if melee:
        steps.append(
            fw.Step(
                f"Melee adds strength: {base} {_plus(strength)} = {raw} (never below 0).",
                rule("comparison.mist_strength"),
            )
        )
    hit = mistrunner.apply_hit(raw, armor=mistrunner.Armor(values["mistrunner_armor"]))
    if hit.absorbed or values["mistrunner_armor"]:
        worn = (
            f"; the armor wears to AV {hit.armor_after.value}"
            if hit.armor_after != mistrunner.Armor(values["mistrunner_armor"])
            else ""
        )
        steps.append(
            fw.Step(
                f"Armor AV {values['mistrunner_armor']} absorbs {hit.absorbed}: "
                f"{hit.life_points_lost} life points lost{worn}.",
                rule("comparison.mist_armor"),
            )
        )
    return steps


def _met_steps(values: Mapping[str, Any], row: SystemSummary) -> list[fw.Step]:
    physical, mental, rounds = values["met_physical"], values["met_mental"], values["met_celerity_rounds"]
    steps = [
        fw.Step(
            f"Mind's Eye Theatre initiative: the higher of Physical {physical} and Mental {mental} "
            f"= {row.initiative}, fixed for the scene.",
            rule("comparison.met_initiative"),
        ),
        fw.Step(
            f"{_times(len(row.acts_on), 'round')} a {row.seconds_per_turn}-second turn "
            f"({_rounds(rounds)}): {_attacks(row, 'turn')}.",
            rule("comparison.met_celerity") if rounds else rule("comparison.met_turns"),
        ),
        fw.Step("Each round gives 1 standard and 1 simple action.", rule("comparison.met_actions")),
    ]
    per_second = Fraction(row.steps_per_turn or 0, row.seconds_per_turn)
    speed = f"{row.steps_per_turn} steps a turn, {decimal(per_second)} steps/s"
    if row.metres_per_turn is None:
        steps.append(
            fw.Step(
                f"Moving with both actions: {speed}; the chapter gives no step length.",
                rule("comparison.met_movement"),
            )
        )
    else:
        steps.append(
            fw.Step(
                f"Moving with both actions: {speed}; at your step length that is {_pace(row, 'turn')}.",
                rule("comparison.met_movement"),
            )
        )
    if values["margin"] < 0:
        steps.append(fw.Step("A lost challenge does no damage.", rule("comparison.met_damage")))
    else:
        steps.append(
            fw.Step(
                f"A won challenge does {minds_eye.BASE_DAMAGE} "
                f"{_plus(values['met_damage_bonus'])} (powers) "
                f"{MINUS} {values['met_damage_reduction']} (reductions) = {decimal(row.damage)}, "
                "whatever the margin.",
                rule("comparison.met_damage"),
            )
        )
    return steps


def _rounds(celerity: int) -> str:
    if not celerity:
        return "the everyman round only"
    return f"the everyman round and {_times(celerity, 'Celerity round')}"


def _speed(row: SystemSummary) -> str:
    if row.metres_per_second is None:
        return f"{decimal(Fraction(row.steps_per_turn or 0, row.seconds_per_turn))} steps/s"
    return f"{decimal(row.metres_per_second)} m/s"


GAMES = (("mneme", "Mneme"), ("mistrunner", "Mistrunner"), ("met", "MET"))
"""Each game's output-key prefix and short name, in the order of ``Comparison.rows``."""


def _most(figures: list[tuple[str, Fraction]], unit: str) -> str:
    """Which games lead on a figure, e.g. ``Mneme (3.75 m/s; Mistrunner 3.33 m/s)``."""
    best = max(figure for _, figure in figures)
    leaders = [name for name, figure in figures if figure == best]
    rest = "; ".join(f"{name} {decimal(figure)}{unit}" for name, figure in figures if figure != best)
    named = "all three" if len(leaders) == len(GAMES) else " and ".join(leaders)
    return f"{named} ({decimal(best)}{unit}" + (f"; {rest})" if rest else ")")


def _summary(rows: tuple[SystemSummary, ...], hit: bool) -> str:
    """The three games side by side in one line: attack rate, top speed in metres, the hit's damage."""
    named = [(name, row) for (_, name), row in zip(GAMES, rows, strict=True)]
    attacks = _most([(name, row.attacks_per_minute) for name, row in named], " a minute")
    speeds = [(name, row.metres_per_second) for name, row in named if row.metres_per_second is not None]
    speed = _most([(name, figure) for name, figure in speeds if figure is not None], " m/s")
    if hit:
        damages = [f"{decimal(row.damage)} in {name}" for name, row in named]
        damage = f"the hit does {', '.join(damages[:-1])} and {damages[-1]}"
    else:
        damage = "the miss does no damage in any of them"
    return f"This fighter attacks most often in {attacks}, moves fastest in {speed}, and {damage}."


def compute(values: Mapping[str, Any]) -> fw.Result:
    """Each system's initiative, actions, top speed and hit damage for the one character, and in words."""
    rows = _compare(_character(values)).rows
    hit = values["margin"] >= 0
    outputs: dict[str, str] = {}
    for (key, _), row in zip(GAMES, rows, strict=True):
        acts_on = row.acts_on if key == "mistrunner" else (row.initiative,)  # Mistrunner acts on segments
        outputs[f"{key}_initiative"] = ", ".join(str(count) for count in acts_on)
        outputs[f"{key}_attacks"] = decimal(row.attacks_per_minute)
        outputs[f"{key}_speed"] = _speed(row)
        outputs[f"{key}_damage"] = decimal(row.damage) if hit else MISS
    mneme, mist, met = rows
    steps = _mneme_steps(values, mneme) + _mistrunner_steps(values, mist) + _met_steps(values, met)
    return fw.answer(fw.Result(outputs=outputs, working=tuple(steps)), _summary(rows, hit))


CALCULATOR = fw.Calculator(
    title="One character, three systems",
    summary="Turn order, attacks, top speed and hit damage of one fighter in Mneme, Mistrunner and MET.",
    note=(
        "One fighter written up in each game, and one hit. The margin is the Mneme Effect and the points a "
        "Mistrunner attack beats its target number by; Mind's Eye Theatre only asks whether the challenge "
        "was won (margin 0 or more). A negative margin is a miss everywhere."
    ),
    inputs=(
        fw.IntInput(
            "margin",
            "Hit margin",
            2,
            -MAX_MARGIN,
            MAX_MARGIN,
            help="Mneme Effect; Mistrunner points over the target number; below 0 misses.",
        ),
        fw.IntInput(
            "mneme_dexterity",
            "Mneme: Dexterity",
            7,
            0,
            limits.MAX_CHARACTERISTIC,
            help="Sets the characteristic modifier.",
        ),
        fw.IntInput(
            "mneme_initiative_skill",
            "Mneme: initiative skill",
            0,
            checks.unskilled_penalty(),
            limits.MAX_SKILL,
            help="Recon, Tactics, ...",
        ),
        fw.IntInput(
            "mneme_initiative_roll",
            "Mneme: initiative roll (2d6)",
            7,
            limits.CHECK_ROLL_MIN,
            limits.CHECK_ROLL_MAX,
            help="7 is the median.",
        ),
        fw.ChoiceInput(
            "mneme_load", "Mneme: load", (("light", "Light"), ("heavy", "Medium or heavy")), default="light"
        ),
        fw.TextInput(
            "mneme_weapon",
            "Mneme: weapon damage",
            default="3d6",
            max_length=20,
            parser=parse_weapon,
            help=f"Dice like 3d6 or 2d6+1 (at most {MAX_WEAPON_DICE} dice of up to {MAX_WEAPON_SIDES} "
            "sides).",
        ),
        fw.OptionalIntInput(
            "mneme_rate_of_attack",
            "Mneme: rate of attack",
            1,
            MAX_MARGIN + 1,
            help="Optional: the most damage rolls that can count.",
            placeholder="unlimited",
        ),
        fw.IntInput(
            "mneme_armor", "Mneme: target's armor", 0, 0, MAX_MNEME_ARMOR, help="Comes off every damage roll."
        ),
        fw.IntInput("mistrunner_reaction_score", "Mistrunner: reaction score", 2, 0, PEER - MISTRUNNER_DIE),
        fw.IntInput(
            "mistrunner_reaction_die", f"Mistrunner: reaction die (d{MISTRUNNER_DIE})", 6, 1, MISTRUNNER_DIE
        ),
        fw.IntInput(
            "mistrunner_actions",
            "Mistrunner: actions taken",
            1,
            1,
            MISTRUNNER_ACTIONS,
            help="Extra actions lose dice.",
        ),
        fw.IntInput(
            "mistrunner_coordination",
            "Mistrunner: coordination",
            0,
            -MISTRUNNER_MOVE,
            PEER,
            help=f"A move is {MISTRUNNER_MOVE} m + this; running doubles it.",
        ),
        fw.IntInput("mistrunner_damage_code", "Mistrunner: damage code", 2, 0, PEER),
        fw.BoolInput("mistrunner_melee", "Mistrunner: melee attack (adds strength)"),
        fw.IntInput("mistrunner_strength", "Mistrunner: strength", 0, -PEER, PEER),
        fw.IntInput("mistrunner_armor", "Mistrunner: target's armor (AV)", 0, 0, PEER),
        fw.IntInput("met_physical", "MET: Physical", 5, 0, PEER),
        fw.IntInput("met_mental", "MET: Mental", 5, 0, PEER),
        fw.IntInput(
            "met_celerity_rounds",
            "MET: Celerity rounds",
            0,
            0,
            MET_CELERITY_ROUNDS,
            help="Extra rounds a turn.",
        ),
        fw.IntInput("met_damage_bonus", "MET: damage bonus (Potence ...)", 0, 0, PEER),
        fw.IntInput("met_damage_reduction", "MET: target's damage reduction (Fortitude ...)", 0, 0, PEER),
        fw.OptionalIntInput(
            "met_step_cm",
            "MET: step length",
            1,
            MAX_STEP_CM,
            unit="cm",
            help="Optional: the chapter gives none; yours puts its speed in metres.",
            placeholder="not given",
        ),
    ),
    outputs=(
        fw.Output("mneme_initiative", "Mneme initiative"),
        fw.Output("mistrunner_initiative", "Mistrunner acts on"),
        fw.Output("met_initiative", "MET initiative"),
        fw.Output("mneme_attacks", "Mneme attacks a minute"),
        fw.Output("mistrunner_attacks", "Mistrunner attacks a minute"),
        fw.Output("met_attacks", "MET attacks a minute"),
        fw.Output("mneme_speed", "Mneme top speed"),
        fw.Output("mistrunner_speed", "Mistrunner top speed"),
        fw.Output("met_speed", "MET top speed"),
        fw.Output("mneme_damage", "Mneme average damage"),
        fw.Output("mistrunner_damage", "Mistrunner damage"),
        fw.Output("met_damage", "MET damage"),
    ),
    compute=compute,
    uses=(
        "rules_core.peers.comparison.compare",
        "rules_core.checks.characteristic_modifier",
        "rules_core.damage.rolls_from_success_effect",
        "rules_core.damage.minimum_damage_applies",
        "rules_core.dice.parse_dice",
        "rules_core.peers.mistrunner.attack_damage",
        "rules_core.peers.mistrunner.apply_hit",
    ),
    rules=(
        rule("comparison.comparison"),
        rule("comparison.mneme_initiative"),
        rule("comparison.mist_reaction"),
        rule("comparison.met_initiative"),
    ),
)
