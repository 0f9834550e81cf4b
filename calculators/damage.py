"""Damage calculator: damage rolls from an Effect, what armor leaves, the exact total and the injury odds.

Rules: Outcomes § Damage, § Damage Rolls, § Weapons with Limited Rate of Attack,
§ Armor, § Damage Scale, § Armor Scale, § Hit Point Scale, § Injury Conditions,
§ Massive Damage, § Bleeding. All maths is in :mod:`rules_core.damage`,
:mod:`rules_core.dice` and :mod:`rules_core.injury`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from calculators import framework as fw
from calculators import parts
from calculators.format import MINUS, number, percent, plural, signed, two_decimals
from calculators.format import dice as dice_notation
from calculators.parts import threshold_reading_input
from rules_core import damage, dice, injury

__all__ = [
    "CALCULATOR",
    "MAX_CHART_BARS",
    "SCALE_CHOICES",
    "chart_points",
    "compute",
    "damage_steps",
    "dice_text",
    "injury_outputs",
    "per_roll_text",
    "scale_prefix",
]

DAMAGE_ROLLS = fw.RuleLink("Damage rolls", "rules/damage.md#damage-rolls")
RATE = fw.RuleLink("Rate of attack", "rules/damage.md#rate-of-attack")
ARMOR = fw.RuleLink("Armor", "rules/damage.md#armor")
MINIMUM = fw.RuleLink("Minimum damage", "rules/damage.md#minimum-damage")
SCALE = fw.RuleLink("Scale", "rules/damage.md#scale")
IMMUNE = fw.RuleLink("Scale immunity", "rules/damage.md#scale-immunity")
THRESHOLDS = fw.RuleLink("Injury thresholds", "rules/injury.md#thresholds")
HP_SCALE = fw.RuleLink("Hit point scale", "rules/damage.md#scale")
MASSIVE = fw.RuleLink("Massive damage", "rules/injury.md#massive-damage")
BLEEDING = fw.RuleLink("Bleeding", "rules/injury.md#bleeding")
SIGN_RULING = fw.RuleLink("Ruling: fail effects with two signs", "rulings.md#fail-effect-sign")
MINIMUM_RULING = fw.RuleLink("Ruling: minimum damage", "rulings.md#minimum-damage")
THRESHOLD_RULING = fw.RuleLink("Ruling: injury thresholds", "rulings.md#injury-thresholds")

MAX_CHART_BARS = 60
"""A total with more possible values than this is charted (and tabled) in equal ranges."""

SCALE_CHOICES = (
    ("none", "Personal (no prefix)"),
    ("D", "Deka (DAR, DHP)"),
    ("H", "Heka (HAR, HHP)"),
    ("K", "Kilo (KAR, KHP)"),
)
MINIMUM_CHOICES = (
    ("each_roll", "Each roll at least 1 (ruling)"),
    ("whole_attack", "The attack at least 1"),
)
CONDITIONS = (
    ("wounded", injury.InjuryCondition.WOUNDED, "Wounded or worse"),
    ("seriously_wounded", injury.InjuryCondition.SERIOUSLY_WOUNDED, "Seriously wounded or worse"),
    ("critically_wounded", injury.InjuryCondition.CRITICALLY_WOUNDED, "Critically wounded or worse"),
    ("dying", injury.InjuryCondition.DYING, "Dying"),
)


def dice_text(expression: dice.DiceExpression) -> str:
    """Dice as players read them, through :mod:`calculators.format`: ``3d3\u22122``, ``D 3d3``."""
    return dice_notation(expression.count, expression.sides, expression.modifier, expression.scale)


def dice_param(expression: dice.DiceExpression) -> str:
    """Dice as a link writes them for the dice parser (ASCII minus): ``3d3-2``, ``D 3d3``."""
    return dice_text(expression).replace(MINUS, "-")


def per_roll_text(outcome: damage.DamageOutcome) -> str:
    """One roll after armor as a player says it: ``3d3\u22122 \u2212 armor 4 (at least 0 a roll)``.

    Outcomes § Armor: the armor comes off each roll, never below the floor the engine computed.
    """
    if not outcome.armor:
        return dice_text(outcome.expression)
    floor = number(min(outcome.per_roll))
    scale = outcome.expression.scale
    armor = Fraction(outcome.armor, dice.scale_factor(scale) if scale else 1)  # in the dice's own units
    return f"{dice_text(outcome.expression)} {MINUS} armor {number(armor)} (at least {floor} a roll)"


def scale_prefix(choice: str) -> str:
    """The scale prefix of a scale choice (``none`` is the personal scale, no prefix)."""
    return "" if choice == "none" else choice


def chart_points(distribution: Mapping[int, Fraction]) -> tuple[tuple[int | str, Fraction], ...]:
    """Chart points of a distribution: every value, or equal ranges when there are too many."""
    values = sorted(distribution)
    if len(values) <= MAX_CHART_BARS:
        return tuple((v, distribution[v]) for v in values)
    low, high = values[0], values[-1]
    width = -(-(high - low + 1) // MAX_CHART_BARS)
    bins: dict[int, Fraction] = {}
    for v in values:
        start = low + (v - low) // width * width
        bins[start] = bins.get(start, Fraction(0)) + distribution[v]
    return tuple((f"{start}\u2013{min(start + width - 1, high)}", p) for start, p in sorted(bins.items()))


def damage_steps(
    outcome: damage.DamageOutcome, effect: int, rate: int | None, armor_text: str
) -> list[fw.Step]:
    """The itemised working of an attack's damage: rolls, rate of attack, armor, the total."""
    made, kept = outcome.rolls.made, outcome.rolls.kept
    steps: list[fw.Step] = []
    if effect >= 0:
        steps.append(fw.Step(f"Success effect {effect}: 1 + {effect} = {made} damage roll(s).", DAMAGE_ROLLS))
    else:
        steps.append(
            fw.Step(
                f"Effect {signed(effect)} is a fail effect of {-effect}: {made} damage roll(s).", SIGN_RULING
            )
        )
    if rate is not None and made > kept:
        steps.append(
            fw.Step(f"Rate of attack {rate}: only the {kept} highest of the {made} rolls count.", RATE)
        )
    elif rate is not None:
        steps.append(fw.Step(f"Rate of attack {rate}: all {made} roll(s) count.", RATE))
    if outcome.expression.scale:
        steps.append(
            fw.Step(
                f"Scale {outcome.expression.scale}: the whole roll is multiplied by "
                f"{dice.scale_factor(outcome.expression.scale)}.",
                SCALE,
            )
        )
    if outcome.immune:
        steps.append(fw.Step("The target's larger scale ignores this damage: every roll deals 0.", IMMUNE))
    elif not outcome.armor:
        steps.append(fw.Step(f"No armor: one roll deals {per_roll_text(outcome)}.", ARMOR))
    else:
        steps.append(
            fw.Step(
                f"Armor {armor_text} comes off each roll: one roll deals {per_roll_text(outcome)}.", ARMOR
            )
        )
    if outcome.minimum_applies:
        steps.append(fw.Step("An Effect of 6 or more: the hit deals at least 1.", MINIMUM))
    if kept:
        low, high = min(outcome.total), max(outcome.total)
        steps.append(
            fw.Step(
                f"Total of the kept roll(s): {low} to {high}, "
                f"{two_decimals(outcome.expected_total)} on average "
                "(exact, over every way the dice can fall).",
                DAMAGE_ROLLS,
            )
        )
    else:
        steps.append(fw.Step("No damage rolls: no damage.", DAMAGE_ROLLS))
    return steps


def injury_outputs(
    outcome: damage.DamageOutcome,
    hp: int,
    current: int,
    reading: injury.ThresholdReading,
    best_physical: int | None,
) -> tuple[dict[str, str], list[fw.Step]]:
    """The chance of each injury condition (or worse), massive damage and bleeding, with the working."""
    limits = injury.injury_thresholds(hp, reading=reading, best_physical=best_physical)
    chances = damage.injury_chances(
        outcome, hp, current_damage=current, reading=reading, best_physical=best_physical
    )
    outputs = {key: percent(getattr(chances, key)) for key, _, _ in CONDITIONS}
    outputs["massive_damage"] = percent(chances.massive_damage)
    outputs["bleeding"] = percent(chances.bleeding)
    already = f", {current} damage already taken" if current else ""
    steps = [
        fw.Step(
            f"HP {hp}{already}: wounded from {limits.wounded} damage, seriously wounded from "
            f"{limits.seriously_wounded}, critically wounded from {limits.critically_wounded}, "
            f"dying from {limits.dying}.",
            THRESHOLDS,
        ),
        fw.Step(
            f"Chance of dying: {outputs['dying']}; of massive damage (more than {hp} from this attack): "
            f"{outputs['massive_damage']}.",
            MASSIVE,
        ),
        fw.Step(
            f"Chance that one roll reaches {limits.seriously_wounded} and starts bleeding: "
            f"{outputs['bleeding']}.",
            BLEEDING,
        ),
    ]
    return outputs, steps


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """Rolls made and kept, one roll after armor, the exact total and, given HP, the injury odds."""
    effect, expression = values["effect"], values["damage"]
    rate = values["rate_of_attack"] or None
    prefix = scale_prefix(values["target_scale"])
    with fw.on_field("armor"):
        armor = damage.armor_after_scale(values["armor"], prefix)
    armor_text = f"{prefix}AR {values['armor']} = {armor}" if prefix else str(armor)
    with fw.on_field("effect"):
        outcome = damage.damage_from_effect(
            expression,
            effect,
            rate_of_attack=rate,
            armor=armor,
            target_scale=prefix,
            minimum_reading=damage.MinimumDamageReading(values["minimum"]),
        )
    outputs = {
        "rolls": str(outcome.rolls.made),
        "kept": str(outcome.rolls.kept),
        "per_roll": per_roll_text(outcome) if not outcome.immune else "0 (immune)",
        "expected": two_decimals(outcome.expected_total),
    }
    steps = damage_steps(outcome, effect, rate, armor_text)
    if values["hp"] is not None and prefix:
        with fw.on_field("hp"):
            hp = damage.parse_scaled_value(f"{values['hp']} {prefix}HP")
        with fw.on_field("current_damage"):
            current = damage.parse_scaled_value(f"{values['current_damage']} {prefix}HP")
            outputs["past_hp"] = percent(damage.past_hp_chance(outcome, hp, current_damage=current))
        already = f", {values['current_damage']} {prefix}HP = {current} already taken" if current else ""
        steps.append(
            fw.Step(
                f"{values['hp']} {prefix}HP = {hp} HP{already}: a vehicle or object, so no wounds, "
                f"bleeding or dying; chance its damage passes its HP: {outputs['past_hp']}.",
                HP_SCALE,
            )
        )
    elif values["hp"] is not None:
        with fw.on_field("hp"):
            hp = damage.parse_scaled_value(f"{values['hp']} {prefix}HP")
        reading = injury.ThresholdReading(values["reading"])
        if reading is injury.ThresholdReading.BEST_PHYSICAL and values["best_physical"] is None:
            with fw.on_field("best_physical"):
                raise ValueError("The table reading needs the best physical characteristic.")
        with fw.on_field("hp"):
            more, more_steps = injury_outputs(
                outcome, hp, values["current_damage"], reading, values["best_physical"]
            )
        outputs.update(more)
        steps.extend(more_steps)
    chart = fw.Chart(
        key="total",
        caption=f"Chance of each damage total ({outcome.rolls.kept} kept roll(s) of {dice_text(expression)})",
        x_label="Total damage",
        y_label="Chance",
        points=chart_points(outcome.total),
    )
    return fw.Result(outputs=outputs, working=tuple(steps), charts=(chart,))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """Damage in one line: the rolls, the armor, about how much in all, the worst odds worth knowing."""
    kept = "" if out["kept"] == out["rolls"] else f", the best {out['kept']} count"
    text = (
        f"Effect {signed(values['effect'])}: {plural(int(out['rolls']), 'roll')} of {out['per_roll']}{kept}, "
        f"about {number(round(Fraction(out['expected'])))} damage in all"
    )
    if "past_hp" in out:
        text += f"; {out['past_hp']} chance it passes its HP"
    elif "seriously_wounded" in out:
        text += f"; {out['seriously_wounded']} chance of seriously wounded or worse"
    return text + "."


def _next(values: Mapping[str, Any], out: Mapping[str, str]) -> tuple[fw.Handoff, ...]:
    """Carry about this much damage into the thresholds calculator."""
    if values["target_scale"] != "none":
        return ()
    taken = values["current_damage"] + round(Fraction(out["expected"]))
    return (
        fw.Handoff(
            f"the injury state with about {number(taken)} damage",
            "calculators/thresholds.md",
            (("damage", str(taken)),),
        ),
    )


compute = fw.answered(_compute, _summary, _next)
"""The calculation, then its answer in one line (and hand-offs carrying its numbers)."""


CALCULATOR = fw.Calculator(
    name="damage",
    title="Damage calculator",
    summary="Damage rolls from an Effect, what armor leaves of each, the exact total and the injury odds.",
    inputs=(
        fw.IntInput(
            "effect",
            "Effect",
            2,
            -100,
            100,
            help="0 or more: the attacker's success effect; below 0: a fail effect after mitigation.",
        ),
        fw.TextInput(
            "damage",
            "Damage dice",
            "3d6",
            max_length=dice.MAX_EXPRESSION_LENGTH,
            parser=dice.parse_dice,
            help="As written on the weapon: 3d6, 2d6+2, D 3d3 (scale prefix D, H or K).",
            placeholder="3d6",
        ),
        fw.IntInput("rate_of_attack", "Rate of attack", 0, 0, dice.MAX_ROLLS, help="0 for no limit."),
        fw.IntInput(
            "armor", "Armor", 0, 0, damage.MAX_ARMOR, help="The target's armor, in its own scale (DAR 2: 2)."
        ),
        fw.ChoiceInput("target_scale", "Target's scale", SCALE_CHOICES, "none"),
        fw.OptionalIntInput(
            "hp",
            "Target HP",
            1,
            injury.MAX_HIT_POINTS,
            help="Optional: the target's HP (in its scale) for the injury odds.",
            placeholder="optional",
        ),
        fw.IntInput(
            "current_damage",
            "Damage already taken",
            0,
            0,
            injury.MAX_DAMAGE,
            help="In the target's scale, like its HP (2 with a Deka target is 20).",
        ),
        fw.ChoiceInput("minimum", "Minimum damage (ruling)", MINIMUM_CHOICES, "each_roll"),
        threshold_reading_input("Injury thresholds (ruling)"),
        fw.OptionalIntInput(
            "best_physical",
            "Best physical characteristic",
            0,
            100,
            help="Only for the table reading of the thresholds.",
        ),
    ),
    outputs=(
        *parts.DAMAGE_OUTPUTS,
        fw.Output("massive_damage", "Massive damage"),
        fw.Output("bleeding", "Bleeding"),
        fw.Output("past_hp", "Past its HP (vehicle or object)"),
    ),
    compute=compute,
    uses=(
        "rules_core.damage.damage_from_effect",
        "rules_core.damage.armor_after_scale",
        "rules_core.damage.parse_scaled_value",
        "rules_core.damage.injury_chances",
        "rules_core.damage.past_hp_chance",
        "rules_core.injury.injury_thresholds",
    ),
    rules=(DAMAGE_ROLLS, RATE, ARMOR, MINIMUM, SCALE, THRESHOLDS, MINIMUM_RULING, THRESHOLD_RULING),
)
