"""Damage parts shared by the calculators that roll damage (Damage, One attack): outputs, steps, charts."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from calculators import framework as fw
from calculators.format import MINUS, number, percent, signed, two_decimals
from calculators.format import dice as dice_notation
from calculators.framework.spec import MAX_DIGITS
from calculators.parts.links import rule
from rules_core import damage, dice, injury
from rules_core.tables import int_constant

__all__ = [
    "DAMAGE_OUTPUTS",
    "MAX_CHART_BARS",
    "ROLLED_OUTPUTS",
    "chart_points",
    "damage_steps",
    "dice_input",
    "dice_param",
    "dice_text",
    "injury_outputs",
    "per_roll_text",
    "rate_input",
    "rolled_outputs",
    "rolls_input",
]


MAX_CHART_BARS = 60
"""A total with more possible values than this is charted (and tabled) in equal ranges."""

MINIMUM_DAMAGE_EFFECT = int_constant("damage_rules", "minimum_damage_effect")
MINIMUM_DAMAGE = int_constant("damage_rules", "minimum_damage")
"""A hit with at least this Effect deals at least this damage, whatever the armor (Outcomes § Armor)."""


INJURY_OUTPUTS = (
    fw.Output("wounded", "Wounded or worse"),
    fw.Output("seriously_wounded", "Seriously wounded or worse"),
    fw.Output("critically_wounded", "Critically wounded or worse"),
    fw.Output("dying", "Dying"),
)
"""The chance of each injury condition or worse, filled by :func:`injury_outputs` (keys as in
:class:`rules_core.damage.InjuryChances`)."""

DAMAGE_OUTPUTS = (
    fw.Output("rolls", "Damage rolls made"),
    fw.Output("kept", "Rolls kept"),
    fw.Output("per_roll", "One roll after armor"),
    fw.Output("expected", "Expected total"),
    *INJURY_OUTPUTS,
)
"""The damage rolls, their total and the injury odds, in the order both damage forms show them."""

ROLLED_OUTPUTS = (
    fw.Output("taken", "Damage of your rolls"),
    fw.Output("largest", "Largest roll"),
    fw.Output("state_now", "State after it"),
)
"""The exact damage of the rolls a player made (:func:`rolled_outputs`), the largest of them and the state
it leaves."""


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
        steps.append(
            fw.Step(f"Success effect {effect}: 1 + {effect} = {made} damage roll(s).", rule("damage_rolls"))
        )
    else:
        steps.append(
            fw.Step(
                f"Effect {signed(effect)} is a fail effect of {-effect}: {made} damage roll(s).",
                rule("sign_ruling"),
            )
        )
    if rate is not None and made > kept:
        steps.append(
            fw.Step(
                f"Rate of attack {rate}: only the {kept} highest of the {made} rolls count.", rule("rate")
            )
        )
    elif rate is not None:
        steps.append(fw.Step(f"Rate of attack {rate}: all {made} roll(s) count.", rule("rate")))
    if outcome.expression.scale:
        steps.append(
            fw.Step(
                f"Scale {outcome.expression.scale}: the whole roll is multiplied by "
                f"{dice.scale_factor(outcome.expression.scale)}.",
                rule("scale"),
            )
        )
    if outcome.immune:
        steps.append(
            fw.Step("The target's larger scale ignores this damage: every roll deals 0.", rule("immune"))
        )
    elif not outcome.armor:
        steps.append(fw.Step(f"No armor: one roll deals {per_roll_text(outcome)}.", rule("armor")))
    else:
        steps.append(
            fw.Step(
                f"Armor {armor_text} comes off each roll: one roll deals {per_roll_text(outcome)}.",
                rule("armor"),
            )
        )
    if outcome.minimum_applies:
        steps.append(
            fw.Step(
                f"An Effect of {MINIMUM_DAMAGE_EFFECT} or more: the hit deals at least {MINIMUM_DAMAGE}.",
                rule("minimum"),
            )
        )
    if kept:
        low, high = min(outcome.total), max(outcome.total)
        steps.append(
            fw.Step(
                f"Total of the kept roll(s): {low} to {high}, "
                f"{two_decimals(outcome.expected_total)} on average "
                "(exact, over every way the dice can fall).",
                rule("damage_rolls"),
            )
        )
    else:
        steps.append(fw.Step("No damage rolls: no damage.", rule("damage_rolls")))
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
    outputs = {o.key: percent(getattr(chances, o.key)) for o in INJURY_OUTPUTS}
    outputs["massive_damage"] = percent(chances.massive_damage)
    outputs["bleeding"] = percent(chances.bleeding)
    already = f", {current} damage already taken" if current else ""
    steps = [
        fw.Step(
            f"HP {hp}{already}: wounded from {limits.wounded} damage, seriously wounded from "
            f"{limits.seriously_wounded}, critically wounded from {limits.critically_wounded}, "
            f"dying from {limits.dying}.",
            rule("thresholds"),
        ),
        fw.Step(
            f"Chance of dying: {outputs['dying']}; of massive damage (more than {hp} from this attack): "
            f"{outputs['massive_damage']}.",
            rule("massive"),
        ),
        fw.Step(
            f"Chance that one roll reaches {limits.seriously_wounded} and starts bleeding: "
            f"{outputs['bleeding']}.",
            rule("bleeding"),
        ),
    ]
    return outputs, steps


ROLLS_MAX_LENGTH = dice.MAX_ROLLS * (MAX_DIGITS + 1)
"""Longest text of a list of rolls: the most rolls an attack makes, each a number and a space."""


def parse_rolls(text: str) -> tuple[int, ...]:
    """Whole numbers separated by spaces or commas: ``11 7 14`` (each damage roll's dice total; a dice
    expression with a negative modifier may roll below 0, written ``-1`` or with a true minus)."""
    items = text.replace(",", " ").replace(MINUS, "-").split()
    if len(items) > dice.MAX_ROLLS:
        raise ValueError(f"at most {dice.MAX_ROLLS} rolls.")
    digits = [item.removeprefix("-") for item in items]
    if not all(d.isascii() and d.isdigit() and len(d) <= MAX_DIGITS for d in digits):
        raise ValueError("whole numbers separated by spaces, like 11 7 14.")
    return tuple(int(item) for item in items)


def dice_input(
    key: str, label: str, default: str, help: str, *, required: bool = True, placeholder: str | None = None
) -> fw.TextInput:
    """A dice expression such as ``3d6`` or ``D 2d6+1`` (Core Mechanics § Dice Notation), read by
    :func:`rules_core.dice.parse_dice`; its placeholder is the default unless given."""
    return fw.TextInput(
        key,
        label,
        default,
        max_length=dice.MAX_EXPRESSION_LENGTH,
        parser=dice.parse_dice,
        required=required,
        help=help,
        placeholder=default if placeholder is None else placeholder,
    )


def rate_input(key: str, label: str) -> fw.IntInput:
    """A weapon's rate of attack: the most damage rolls that count, 0 for no limit (Outcomes § Weapons with
    Limited Rate of Attack)."""
    return fw.IntInput(key, label, 0, 0, dice.MAX_ROLLS, help="0 for no limit.")


def rolls_input(key: str = "rolled", label: str = "The damage rolls you made") -> fw.TextInput:
    """The optional rolls made at the table, each as rolled (before armor): the damage becomes exact."""
    return fw.TextInput(
        key,
        label,
        "",
        max_length=ROLLS_MAX_LENGTH,
        parser=parse_rolls,
        required=False,
        help="Optional: each roll's dice as rolled, before armor (11 7 14). Then the damage is exact.",
        placeholder="not rolled yet",
    )


def rolled_outputs(
    outcome: damage.DamageOutcome, rolls: tuple[int, ...]
) -> tuple[dict[str, str], list[fw.Step]]:
    """The exact damage of the rolls made (``taken``) and the largest roll (``largest``), with the working
    (Outcomes § Armor, § Weapons with Limited Rate of Attack, § Bleeding)."""
    done = damage.rolled_damage(outcome, rolls)
    listed = ", ".join(number(v) for v in rolls)  # a true minus on a roll below 0
    after = ", ".join(number(v) for v in done.after_armor)
    text = f"Your rolls {listed}"
    if outcome.armor or outcome.immune:
        text += f" after armor: {after}"
    if len(done.kept) < len(done.after_armor):
        text += f"; the {len(done.kept)} highest count: {', '.join(number(v) for v in done.kept)}"
    text += f". Damage {number(done.total)}, the largest roll {number(done.largest)}."
    return {"taken": number(done.total), "largest": number(done.largest)}, [fw.Step(text, rule("armor"))]
