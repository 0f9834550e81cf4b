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
from calculators.format import decimal, number, percent, plural, signed, two_decimals
from calculators.parts import threshold_reading_input
from calculators.parts.damage_parts import (
    DAMAGE_OUTPUTS,
    ROLLED_OUTPUTS,
    chart_points,
    damage_steps,
    dice_input,
    dice_text,
    injury_outputs,
    per_roll_text,
    rate_input,
    rolled_outputs,
    rolls_input,
)
from calculators.parts.injury_parts import state_text
from calculators.parts.links import rule
from rules_core import damage, injury, mitigation
from rules_core.tables import int_constant

__all__ = ["CALCULATOR", "SCALE_CHOICES", "scale_prefix"]


SCALE_CHOICES = (
    ("none", "Personal (no prefix)"),
    ("D", "Deka (DAR, DHP)"),
    ("H", "Heka (HAR, HHP)"),
    ("K", "Kilo (KAR, KHP)"),
)
MINIMUM_CHOICES = parts.enum_choices(
    damage.MinimumDamageReading, least=int_constant("damage_rules", "minimum_damage")
)


def scale_prefix(choice: str) -> str:
    """The scale prefix of a scale choice (``none`` is the personal scale, no prefix)."""
    return "" if choice == "none" else choice


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
    if values["rolled"] is not None:
        with fw.on_field("rolled"):
            more, more_steps = rolled_outputs(outcome, values["rolled"])
        outputs.update(more)
        steps.extend(more_steps)
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
                rule("damage.hp_scale"),
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
        if "taken" in outputs:
            now = values["current_damage"] + int(outputs["taken"])
            with fw.on_field("rolled"):
                state = injury.injury_condition(
                    now, hp, reading=reading, best_physical=values["best_physical"]
                )
            outputs["state_now"] = state_text(state)
            steps.append(
                fw.Step(
                    f"{number(now)} damage in all of {hp} HP: {outputs['state_now']}.", rule("thresholds")
                )
            )
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
        f"Effect {signed(values['effect'])}: {plural(int(out['rolls']), 'roll')} of {out['per_roll']}{kept}"
    )
    if "taken" in out:
        text += f"; your rolls deal {out['taken']} damage (largest roll {out['largest']})"
        if "state_now" in out:
            text += f": {out['state_now']}"
        return text + "."
    text += f", about {decimal(Fraction(out['expected']))} damage on average"
    if "past_hp" in out:
        text += f"; {out['past_hp']} chance it passes its HP"
    elif "seriously_wounded" in out:
        text += f"; {out['seriously_wounded']} chance of seriously wounded or worse"
    return text + "."


def _next(values: Mapping[str, Any], out: Mapping[str, str]) -> tuple[fw.Handoff, ...]:
    """Carry the exact damage of the rolls made (with the largest roll, the HP and the reading) into the
    thresholds calculator; an average is no damage anybody took, so without the rolls nothing is carried."""
    if values["target_scale"] != "none" or "taken" not in out:
        return ()
    taken = values["current_damage"] + int(out["taken"])
    params = [("damage", str(taken)), ("largest_roll", out["largest"])]
    if values["hp"] is not None:
        params.append(("hp", str(values["hp"])))
    params.append(("reading", values["reading"]))
    if values["best_physical"] is not None:
        params.append((parts.BEST_PHYSICAL_KEY, str(values["best_physical"])))
    return (
        fw.Handoff(
            f"the injury state with {number(taken)} damage", "calculators/thresholds.md", tuple(params)
        ),
    )


CALCULATOR = fw.Calculator(
    title="Damage calculator",
    summary="Damage rolls from an Effect, what armor leaves of each, the exact total and the injury odds.",
    inputs=(
        fw.IntInput(
            "effect",
            "Effect",
            2,
            -mitigation.MAX_FAIL_EFFECT,
            mitigation.MAX_FAIL_EFFECT,
            help="0 or more: the attacker's success effect; below 0: a fail effect after mitigation.",
        ),
        dice_input(
            "damage",
            "Damage dice",
            "3d6",
            "3d6, 2d6+2, D 3d3 (scale prefix D, H or K). No weapon lists in the rules: the referee's dice.",
        ),
        rate_input("rate_of_attack", "Rate of attack"),
        rolls_input(),
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
        parts.best_physical_input("Only for the table reading of the thresholds.", placeholder="optional"),
    ),
    outputs=(
        *DAMAGE_OUTPUTS,
        *ROLLED_OUTPUTS,
        fw.Output("massive_damage", "Massive damage"),
        fw.Output("bleeding", "Bleeding"),
        fw.Output("past_hp", "Past its HP (vehicle or object)"),
    ),
    compute=_compute,
    answer=_summary,
    handoffs=_next,
    uses=(
        "rules_core.damage.damage_from_effect",
        "rules_core.damage.armor_after_scale",
        "rules_core.damage.parse_scaled_value",
        "rules_core.damage.injury_chances",
        "rules_core.damage.past_hp_chance",
        "rules_core.injury.injury_thresholds",
    ),
    rules=(
        rule("damage_rolls"),
        rule("rate"),
        rule("armor"),
        rule("minimum"),
        rule("scale"),
        rule("thresholds"),
        rule("damage.minimum_ruling"),
        rule("threshold_ruling"),
    ),
)
