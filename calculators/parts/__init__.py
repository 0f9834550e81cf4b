"""Pieces several calculators share, declared once: input groups and choices built from the rules.

- :func:`enum_choices`: the options of a :class:`~calculators.framework.ChoiceInput` for every member
  of a ``rules_core`` ``StrEnum``, in the enum's order, labelled in ``calculators/data/choice_labels.json``
  (a member without a label is an error, so a new member cannot be forgotten on a form); :func:`rule`:
  a rule link by its key in ``calculators/data/rule_links.json`` (both in :mod:`calculators.parts.links`).
- :func:`characteristic_inputs`: the Strength / Dexterity / Endurance inputs (keys ``strength``,
  ``dexterity``, ``endurance``; "use my character" fills them).
- :func:`threshold_reading_input`: the ``reading`` ruling choice between thirds of HP and the
  threshold table (:class:`rules_core.injury.ThresholdReading`); :func:`hit_points` reads it back.
- :func:`seed_input`: the optional ``seed`` ("roll number") of a calculator that rolls dice.
- :func:`supervised_input`: whether a Medic of :data:`SUPERVISOR_MEDIC` or more supervises the medic.
- :func:`check_dice`, :func:`check_chart`: the dice a check rolls with (dis)advantage, in words, and the
  chart of its dice totals; :func:`chance_chart`: a chart of the chance of each value of a distribution.
- :func:`modifier_input`, :func:`optional_modifier_input`: a DM or an Effect, within the rules' bound on
  modifiers; :func:`difficulty_input`: a check's difficulty within the rules' bounds.
- :func:`factor_input`: one mitigating factor input; :func:`mitigate`: the mitigation of a fail effect
  from the ``conditions`` ... ``cover_cap`` inputs.
- :func:`sentence`: a calculator's answer in words, its clauses shown while their outputs are.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from calculators import framework as fw
from calculators.parts.links import enum_choices
from rules_core import checks, injury, limits, mitigation
from rules_core.tables import int_constant

__all__ = [
    "BEST_PHYSICAL_KEY",
    "CHARACTERISTICS",
    "SUPERVISOR_MEDIC",
    "THRESHOLD_READINGS",
    "advantage_inputs",
    "best_physical_input",
    "chance_chart",
    "characteristic_input",
    "characteristic_inputs",
    "check_chart",
    "check_dice",
    "damage_taken_input",
    "difficulty_input",
    "enum_choices",
    "factor_input",
    "hit_points",
    "hp_input",
    "hp_text",
    "mitigate",
    "modifier_input",
    "optional_characteristic_input",
    "optional_modifier_input",
    "seed_input",
    "sentence",
    "skill_input",
    "supervised_input",
    "threshold_reading_input",
]

CHARACTERISTICS: dict[str, str] = {
    "strength": "Str",
    "dexterity": "Dex",
    "endurance": "End",
    "intellect": "Int",
    "education": "Edu",
    "social": "Soc",
    "psionics": "Psi",
}
"""Characteristic key -> abbreviation. The first three (physical) are required, the others optional."""


THRESHOLD_READINGS = enum_choices(injury.ThresholdReading)
"""The two readings of the injury thresholds, as form choices."""


def threshold_reading_input(label: str = "Thresholds (ruling)") -> fw.ChoiceInput:
    """The ``reading`` input: thirds of HP (the default) or the threshold table."""
    return fw.ChoiceInput("reading", label, THRESHOLD_READINGS, injury.ThresholdReading.FRACTIONS_OF_HP.value)


def characteristic_inputs(
    defaults: tuple[int, int, int] = (7, 7, 7), *, abbreviated: bool = False
) -> tuple[fw.IntInput, fw.IntInput, fw.IntInput]:
    """Strength, Dexterity and Endurance, each from 0 to ``limits.MAX_CHARACTERISTIC``.

    ``abbreviated`` adds the short name to each label ("Strength (Str)").
    """
    names = (
        ("strength", "Strength", "Str"),
        ("dexterity", "Dexterity", "Dex"),
        ("endurance", "Endurance", "End"),
    )
    strength, dexterity, endurance = (
        characteristic_input(key, f"{label} ({short})" if abbreviated else label, default)
        for (key, label, short), default in zip(names, defaults, strict=True)
    )
    return strength, dexterity, endurance


def characteristic_input(key: str, label: str, default: int = 7, help: str = "") -> fw.IntInput:
    """A characteristic's score (not its DM), 0 to ``limits.MAX_CHARACTERISTIC``."""
    return fw.IntInput(key, label, default, 0, limits.MAX_CHARACTERISTIC, help=help)


def optional_characteristic_input(
    key: str, label: str, help: str, placeholder: str = "optional"
) -> fw.OptionalIntInput:
    """A characteristic's score that may be left empty (worked out from others, or not needed)."""
    return fw.OptionalIntInput(key, label, 0, limits.MAX_CHARACTERISTIC, help=help, placeholder=placeholder)


def skill_input(key: str, label: str, help: str, default: int | None = None) -> fw.OptionalIntInput:
    """A skill level, 0 to ``limits.MAX_SKILL``; blank: the character lacks the skill (unskilled)."""
    return fw.OptionalIntInput(key, label, 0, limits.MAX_SKILL, default=default, help=help)


def advantage_inputs(
    advantage_help: str = "", disadvantage_help: str = ""
) -> tuple[fw.IntInput, fw.IntInput]:
    """The ``advantage`` and ``disadvantage`` counts of a check, 0 to the rules' most (Core Mechanics §
    Advantage and Disadvantage)."""
    return (
        fw.IntInput("advantage", "Advantage", 0, 0, checks.MAX_ADVANTAGE, help=advantage_help),
        fw.IntInput("disadvantage", "Disadvantage", 0, 0, checks.MAX_ADVANTAGE, help=disadvantage_help),
    )


def damage_taken_input(
    key: str = "damage", label: str = "Damage taken", default: int = 0, help: str = ""
) -> fw.IntInput:
    """The damage a character has taken, 0 to ``limits.MAX_DAMAGE`` (Outcomes § Hit Points)."""
    return fw.IntInput(key, label, default, 0, limits.MAX_DAMAGE, help=help)


def hp_input() -> fw.OptionalIntInput:
    """The optional ``hp``: the character's HP when known (a hand-off carries it); empty: Str + Dex + End."""
    return fw.OptionalIntInput(
        "hp",
        "HP, if you know them",
        1,
        injury.MAX_HIT_POINTS,
        help="Empty: Str + Dex + End. Given: these HP count, the characteristics only for the table reading.",
        placeholder="Str + Dex + End",
    )


def injury_hp_input(key: str, label: str) -> fw.OptionalIntInput:
    """An optional HP that only the injury odds need (Outcomes § Hit Points)."""
    return fw.OptionalIntInput(key, label, 1, injury.MAX_HIT_POINTS, help="Optional, for the injury odds.")


def best_physical_input(
    help: str = "Only for the table reading; empty: the best of Str, Dex and End.",
    placeholder: str = "from Str, Dex, End",
) -> fw.OptionalIntInput:
    """The optional ``best_physical`` for the table reading of the thresholds; empty: the best of the
    characteristics (a hand-off carries it with the HP), or, where no characteristics are asked,
    nothing (say so in ``help``, with the ``placeholder`` "optional")."""
    return optional_characteristic_input("best_physical", "Best physical characteristic", help, placeholder)


BEST_PHYSICAL_KEY: str = best_physical_input().key
"""The best physical characteristic's input key, as a hand-off names it."""


def hp_text(values: Mapping[str, Any], hp: int) -> str:
    """The HP in the working: ``HP = Str 7 + Dex 8 + End 9 = 24`` or ``HP 24 (given)``
    (Outcomes § Hit Points)."""
    if values.get("hp") is not None:
        return f"HP {hp} (given)"
    return f"HP = Str {values['strength']} + Dex {values['dexterity']} + End {values['endurance']} = {hp}"


def hit_points(values: Mapping[str, Any]) -> tuple[int, injury.ThresholdReading, int | None]:
    """HP (the ``hp`` input when given, else from the characteristics), the ``reading`` chosen, and the
    best physical characteristic it may need.

    The HP are computed first, so a caller's ``fw.on_field`` around this places an HP error.
    """
    strength, dexterity, endurance = values["strength"], values["dexterity"], values["endurance"]
    given = values.get("hp")
    hp = given if given is not None else injury.hit_points(strength, dexterity, endurance)
    reading = injury.ThresholdReading(values["reading"])
    best = None
    if reading is injury.ThresholdReading.BEST_PHYSICAL:
        best = values.get("best_physical")
        if best is None:
            best = injury.best_physical(strength, dexterity, endurance)
    return hp, reading, best


SUPERVISOR_MEDIC: int = int_constant("medical", "supervisor_minimum_medic")
"""The least Medic level that supervises another medic, doubling its care capacity (Outcomes § Medical
Care)."""


def supervised_input() -> fw.BoolInput:
    """The ``supervised`` flag: a Medic of :data:`SUPERVISOR_MEDIC` or more supervises the medic."""
    return fw.BoolInput("supervised", f"Supervised by a Medic {SUPERVISOR_MEDIC}+")


def seed_input() -> fw.OptionalIntInput:
    """The optional ``seed``: each number is one roll, empty draws a new one."""
    return fw.OptionalIntInput(
        "seed",
        "Roll number",
        0,
        limits.MAX_SEED,
        placeholder="new roll",
        help="Each number is one roll; share the link to share it. Empty: a new roll.",
    )


def modifier_input(key: str, label: str, default: int = 0, help: str = "") -> fw.IntInput:
    """A DM or an Effect, a whole number within the rules' bound on modifiers (Core Mechanics § Modifiers)."""
    return fw.IntInput(key, label, default, -limits.MAX_MODIFIER, limits.MAX_MODIFIER, help=help)


def optional_modifier_input(
    key: str, label: str, help: str = "", placeholder: str = "optional"
) -> fw.OptionalIntInput:
    """A DM or an Effect that may be left empty (a roll not made yet), within the same bound."""
    return fw.OptionalIntInput(
        key, label, -limits.MAX_MODIFIER, limits.MAX_MODIFIER, help=help, placeholder=placeholder
    )


def roll_input(
    label: str = "Your 2d6", help: str = "Optional: the dice rolled.", placeholder: str = "optional"
) -> fw.OptionalIntInput:
    """The optional ``roll``: the total of the two dice kept, 2 to 12 (Core Mechanics § Dice Roll)."""
    return fw.OptionalIntInput(
        "roll", label, limits.CHECK_ROLL_MIN, limits.CHECK_ROLL_MAX, help=help, placeholder=placeholder
    )


def difficulty_input(help: str = "", default: int | None = None) -> fw.IntInput:
    """The ``difficulty`` of a check, between the rules' least and greatest, by default the rules' own
    (Core Mechanics § Difficulty)."""
    start = checks.default_difficulty() if default is None else default
    return fw.IntInput(
        "difficulty", "Difficulty", start, checks.MIN_DIFFICULTY, checks.MAX_DIFFICULTY, help=help
    )


def check_dice(net: int) -> str:
    """The dice of a check with net advantage ``net``: ``2d6`` or 3d6 keeping the two highest or lowest
    (Core Mechanics § Advantage and Disadvantage)."""
    if net == 0:
        return "2d6"
    return "3d6, keep the two highest" if net > 0 else "3d6, keep the two lowest"


def chance_chart(
    key: str, caption: str, x_label: str, chances: Mapping[int, Fraction], highlight: tuple[int, ...] = ()
) -> fw.Chart:
    """A chart of the chance of each value in ``chances`` (value -> exact probability)."""
    return fw.Chart(key, caption, x_label, "Chance", tuple(chances.items()), highlight)


def check_chart(advantage: int, disadvantage: int, roll: int | None) -> fw.Chart:
    """The chance of each dice total of a check, the reader's ``roll`` (if any) marked."""
    net = checks.net_advantage(advantage, disadvantage)
    return chance_chart(
        "dice",
        f"Chance of each dice total ({check_dice(net)})",
        "Dice total",
        checks.check_distribution(advantage, disadvantage),
        () if roll is None else (roll,),
    )


def factor_input(key: str, label: str, default: int = 0, help: str = "") -> fw.IntInput:
    """One mitigating factor (``conditions``, ``concealment``, ``cover``, ``skill``), 0 to the rules' bound
    (Outcomes § Mitigating Factors); :func:`mitigate` reads them."""
    return fw.IntInput(key, label, default, 0, mitigation.MAX_MITIGATION, help=help)


def mitigate(values: Mapping[str, Any], degree: int) -> mitigation.Mitigation:
    """:func:`rules_core.mitigation.mitigate` of ``degree`` with the form's factors and rulings."""
    return mitigation.mitigate(
        degree,
        conditions=values["conditions"],
        concealment=values["concealment"],
        cover=values["cover"],
        skill=values["skill"],
        defend=mitigation.Defend(values["defend"]),
        cover_cap=mitigation.CoverCap(values["cover_cap"]),
        order=mitigation.MitigationOrder(values["order"]),
    )


def sentence(head: str, out: Mapping[str, str], **clauses: str) -> str:
    """``head``, then each clause whose output is in ``out`` (keyword: the output key; the clause is
    filled from ``out``, ``"aim {aim}"``), joined by semicolons, with a full stop: an answer in words."""
    said = [head, *(clause.format_map(out) for key, clause in clauses.items() if key in out)]
    return "; ".join(said) + "."
