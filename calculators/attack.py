"""One attack, start to finish: roll, Effect, mitigation, damage rolls, armor, the injury odds.

On a success the attacker's weapon rolls damage against the adversary; on a
failure the adversary hits back: the fail effect is mitigated by conditions,
cover and skill, and what is left rolls the adversary's damage against the
character. Rules: Core Mechanics § Dice Roll, § Effect, § Mitigating Factors;
Actions § Attack Basics; Outcomes § Damage Rolls, § Armor, § Injury Conditions.
All maths is in :mod:`rules_core` (checks, mitigation, damage, injury).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators import parts
from calculators.damage import chart_points, damage_steps, injury_outputs, per_roll_text, two_decimals
from calculators.format import percent, signed
from calculators.mitigation import (
    CAP_CHOICES,
    DEFEND,
    DEFEND_CHOICES,
    FACTOR_RULES,
    ORDER_CHOICES,
    cap_steps,
    yes_no,
)
from calculators.parts import ADVANTAGE, CHECK, EFFECT, ORDINARY
from rules_core import checks, damage, dice, injury, mitigation

__all__ = ["CALCULATOR", "compute"]

ATTACK = fw.RuleLink("Attack basics", "rules/attacks.md#attack-basics")
ON_SUCCESS = fw.RuleLink("On a success", "rules/attacks.md#attack-success")
ON_FAILURE = fw.RuleLink("On a failure", "rules/attacks.md#attack-failure")
COVER_DAMAGE = fw.RuleLink("Cover takes the damage", "rules/mitigation.md#cover-takes-damage")
DAMAGE_ROLLS = fw.RuleLink("Damage rolls", "rules/damage.md#damage-rolls")
THRESHOLDS = fw.RuleLink("Injury thresholds", "rules/injury.md#thresholds")


def _roll_modifier(values: Mapping[str, Any]) -> tuple[int, list[fw.Step]]:
    """The roll's DM: a Defend with skill counts the skill a second time (Actions § Defend Action)."""
    modifier, skill = values["modifier"], values["skill"]
    if values["defend"] != mitigation.Defend.SKILL or not skill:
        return modifier, []
    with fw.on_field("skill"):
        dm = checks.check_modifier(
            mitigation.defend_roll_modifier(modifier - skill, skill, mitigation.Defend.SKILL),
            "The roll's DM with the doubled skill",
        )
    text = (
        f"Defending with skill doubles it in the roll too: DM {signed(modifier)} + skill {skill} = "
        f"{signed(dm)}."
    )
    return dm, [fw.Step(text, DEFEND)]


def _check(values: Mapping[str, Any], modifier: int) -> tuple[dict[str, str], list[fw.Step], fw.Chart]:
    difficulty = values["difficulty"]
    advantage, disadvantage, roll = values["advantage"], values["disadvantage"], values["roll"]
    with fw.on_field("advantage"):
        net = checks.net_advantage(advantage, disadvantage)
    with fw.on_field("difficulty"):
        chance = checks.success_chance(modifier, difficulty, advantage, disadvantage)
    dice_text = (
        "2d6" if net == 0 else ("3d6, keep the two highest" if net > 0 else "3d6, keep the two lowest")
    )
    steps = [
        fw.Step(
            f"Roll {dice_text} {signed(modifier)} against difficulty {difficulty}: success chance "
            f"{percent(chance)}.",
            CHECK if net == 0 else ADVANTAGE,
        )
    ]
    chart = fw.Chart(
        key="dice",
        caption=f"Chance of each dice total ({dice_text})",
        x_label="Dice total",
        y_label="Chance",
        points=tuple(checks.check_distribution(advantage, disadvantage).items()),
        highlight=(roll,) if roll is not None else (),
    )
    return {"chance": percent(chance)}, steps, chart


def _mitigate(values: Mapping[str, Any], degree: int) -> tuple[mitigation.Mitigation, list[fw.Step]]:
    with fw.on_field("conditions"):
        result = parts.mitigate(values, degree)
    steps = [fw.Step(f"The adversary hits back with a fail effect of {degree}.", ON_FAILURE)]
    for step in result.steps:
        if step.modifier:
            steps.append(
                fw.Step(
                    f"{step.name.capitalize()} {step.modifier} removes {step.reduced_by}: "
                    f"{step.remaining} left.",
                    FACTOR_RULES[step.name],
                )
            )
    steps[1:1] = cap_steps(values, result)
    if result.cover_absorbed:
        steps.append(fw.Step(f"The cover takes {result.cover_absorbed} attack(s).", COVER_DAMAGE))
    if result.ordinary_failure:
        steps.append(fw.Step("Nothing left: an ordinary failure, no damage to the character.", ORDINARY))
    return result, steps


def _cover_damage(values: Mapping[str, Any], attacks: int, outputs: dict[str, str]) -> list[fw.Step]:
    """The attacks the cover absorbed, rolled against its AR and HP (Outcomes § Cover Takes Damage)."""
    with fw.on_field("cover_hp"):
        hit = damage.protection_damage(
            values["adversary_damage"], attacks, armor=values["cover_armor"], hp=values["cover_hp"]
        )
    outputs["cover_damage"] = two_decimals(hit.outcome.expected_total)
    outputs["cover_left"] = two_decimals(hit.expected_left)
    outputs["cover_broken"] = percent(hit.past_hp)
    return [
        fw.Step(
            f"The cover takes {attacks} attack(s) of {per_roll_text(hit.outcome)} after its armor "
            f"{values['cover_armor']}: {outputs['cover_damage']} damage on average; of its "
            f"{values['cover_hp']} HP, {outputs['cover_left']} left on average, "
            f"{outputs['cover_broken']} chance its damage passes its HP.",
            COVER_DAMAGE,
        )
    ]


def compute(values: Mapping[str, Any]) -> fw.Result:
    """The check's chance; given a roll, its Effect and everything that follows from it."""
    modifier, defend_steps = _roll_modifier(values)
    outputs, steps, dice_chart = _check(values, modifier)
    steps[:0] = defend_steps
    charts = [dice_chart]
    roll = values["roll"]
    if roll is None:
        steps.append(fw.Step("Enter the two kept dice to follow the attack through.", ATTACK))
        return fw.Result(outputs=outputs, working=tuple(steps), charts=tuple(charts))
    total = roll + modifier
    with fw.on_field("roll"):
        outcome = checks.resolve_check(total, values["difficulty"])
    outputs["effect"] = signed(outcome.effect)
    outputs["outcome"] = "success" if outcome.success else "failure"
    steps.append(
        fw.Step(
            f"Effect = {roll} {signed(modifier)} \u2212 {values['difficulty']} = "
            f"{signed(outcome.effect)}: {outputs['outcome']}.",
            EFFECT,
        )
    )
    if outcome.success and values["defend"] != mitigation.Defend.NONE:
        outputs["target"] = "nobody"
        steps.append(fw.Step("A successful Defend: you take no damage and deal none.", DEFEND))
        return fw.Result(outputs=outputs, working=tuple(steps), charts=tuple(charts))
    if outcome.success:
        expression, rate_raw, armor, hp_key, current = (
            values["damage"],
            values["rate_of_attack"],
            values["armor"],
            "hp",
            0,
        )
        effect_for_damage, field = outcome.effect, "damage"
        outputs["target"] = "adversary"
        steps.append(fw.Step("A hit: your weapon rolls damage against the adversary.", ON_SUCCESS))
    else:
        mitigated, more = _mitigate(values, outcome.fail_degree)
        steps.extend(more)
        outputs["remaining"] = str(mitigated.remaining)
        outputs["ordinary_failure"] = yes_no(mitigated.ordinary_failure)
        outputs["cover_absorbs"] = str(mitigated.cover_absorbed)
        if mitigated.cover_absorbed and values["cover_hp"] is not None:
            steps.extend(_cover_damage(values, mitigated.cover_absorbed, outputs))
        outputs["target"] = "you"
        if mitigated.ordinary_failure:
            return fw.Result(outputs=outputs, working=tuple(steps), charts=tuple(charts))
        expression, rate_raw, armor, hp_key, current = (
            values["adversary_damage"],
            values["adversary_rate"],
            values["own_armor"],
            "own_hp",
            values["own_damage"],
        )
        effect_for_damage, field = -mitigated.remaining, "adversary_damage"
    rate = rate_raw or None
    with fw.on_field(field):
        hit = damage.damage_outcome(
            expression,
            success_effect=effect_for_damage if effect_for_damage >= 0 else None,
            fail_effect=-effect_for_damage if effect_for_damage < 0 else None,
            rate_of_attack=rate,
            armor=armor,
        )
    outputs.update(
        {
            "rolls": str(hit.rolls.made),
            "kept": str(hit.rolls.kept),
            "per_roll": per_roll_text(hit),
            "expected": two_decimals(hit.expected_total),
        }
    )
    steps.extend(damage_steps(hit, effect_for_damage, rate, str(armor)))
    hp = values[hp_key]
    if hp is not None:
        if values["reading"] == "best_physical" and values["best_physical"] is None:
            with fw.on_field("best_physical"):
                raise ValueError("The table reading needs the best physical characteristic.")
        with fw.on_field(hp_key):
            more_out, more_steps = injury_outputs(
                hit, hp, current, injury.ThresholdReading(values["reading"]), values["best_physical"]
            )
        outputs.update({k: v for k, v in more_out.items() if k in _OUTPUT_KEYS})
        steps.extend(more_steps)
    whom = "the adversary" if outcome.success else "the character"
    charts.append(
        fw.Chart(
            key="total",
            caption=f"Chance of each damage total against {whom}",
            x_label="Total damage",
            y_label="Chance",
            points=chart_points(hit.total),
        )
    )
    return fw.Result(outputs=outputs, working=tuple(steps), charts=tuple(charts))


OUTPUTS = (
    fw.Output("chance", "Chance of success"),
    fw.Output("effect", "Effect"),
    fw.Output("outcome", "Outcome"),
    fw.Output("remaining", "Fail effect left"),
    fw.Output("ordinary_failure", "Ordinary failure"),
    fw.Output("cover_absorbs", "Attacks the cover takes"),
    fw.Output("cover_damage", "Damage to the cover (average)"),
    fw.Output("cover_left", "Cover HP left (average)"),
    fw.Output("cover_broken", "Cover past its HP"),
    fw.Output("target", "Damage goes to"),
    *parts.DAMAGE_OUTPUTS,
    fw.Output("bleeding", "Bleeding"),
)
_OUTPUT_KEYS = frozenset(o.key for o in OUTPUTS)


def _dice(key: str, label: str, default: str, help_: str) -> fw.TextInput:
    return fw.TextInput(
        key,
        label,
        default,
        max_length=dice.MAX_EXPRESSION_LENGTH,
        parser=dice.parse_dice,
        help=help_,
        placeholder=default,
    )


def _factor(key: str, label: str, default: int) -> fw.IntInput:
    return fw.IntInput(key, label, default, 0, mitigation.MAX_MITIGATION)


CALCULATOR = fw.Calculator(
    name="attack",
    title="One attack, start to finish",
    summary="Roll, Effect, mitigation, damage rolls, armor and the injury odds of one attack.",
    inputs=(
        fw.IntInput(
            "modifier",
            "Modifier (DM)",
            2,
            -checks.MAX_MODIFIER,
            checks.MAX_MODIFIER,
            help="Every DM on the roll, your skill counted once (a skill Defend adds it again).",
        ),
        fw.IntInput(
            "difficulty",
            "Difficulty",
            8,
            checks.MIN_DIFFICULTY,
            checks.MAX_DIFFICULTY,
            help="8 + the conditions.",
        ),
        fw.IntInput("advantage", "Advantage", 0, 0, checks.MAX_ADVANTAGE),
        fw.IntInput("disadvantage", "Disadvantage", 0, 0, checks.MAX_ADVANTAGE),
        fw.OptionalIntInput(
            "roll",
            "Roll (two kept dice)",
            2,
            12,
            default=9,
            help="The two dice you kept.",
            placeholder="not rolled",
        ),
        _dice("damage", "Your weapon's damage", "3d6", "Rolled against the adversary on a success."),
        fw.IntInput("rate_of_attack", "Your rate of attack", 0, 0, dice.MAX_ROLLS, help="0 for no limit."),
        fw.IntInput(
            "armor", "Adversary's armor", 0, 0, damage.MAX_ARMOR, help="In plain points (DAR 2 is 20)."
        ),
        fw.OptionalIntInput(
            "hp", "Adversary's HP", 1, injury.MAX_HIT_POINTS, help="Optional, for the injury odds."
        ),
        _factor("conditions", "Conditions", 0),
        _factor("concealment", "Concealment", 0),
        _factor("cover", "Your cover", 0),
        fw.IntInput(
            "cover_armor", "Your cover's armor", 0, 0, damage.MAX_ARMOR, help="Its AR, in plain points."
        ),
        fw.OptionalIntInput(
            "cover_hp",
            "Your cover's HP",
            1,
            injury.MAX_HIT_POINTS,
            help="Optional: roll the attacks it absorbs against it.",
        ),
        _factor("skill", "Your defensive skill", 0),
        fw.ChoiceInput("defend", "Defend action", DEFEND_CHOICES, "none"),
        _dice("adversary_damage", "Adversary's damage", "2d6", "Rolled against you on a failure."),
        fw.IntInput(
            "adversary_rate", "Adversary's rate of attack", 0, 0, dice.MAX_ROLLS, help="0 for no limit."
        ),
        fw.IntInput("own_armor", "Your armor", 0, 0, damage.MAX_ARMOR, help="In plain points."),
        fw.OptionalIntInput(
            "own_hp", "Your HP", 1, injury.MAX_HIT_POINTS, help="Optional, for the injury odds."
        ),
        fw.IntInput("own_damage", "Damage you already have", 0, 0, injury.MAX_DAMAGE),
        fw.ChoiceInput("order", "Order (ruling)", ORDER_CHOICES, "priority"),
        fw.ChoiceInput("cover_cap", "Cap of 4 (ruling)", CAP_CHOICES, "always"),
        fw.ChoiceInput(
            "reading",
            "Injury thresholds (ruling)",
            (
                ("fractions_of_hp", "Thirds of HP (ruling)"),
                ("best_physical", "Characteristics (table)"),
            ),
            "fractions_of_hp",
        ),
        fw.OptionalIntInput(
            "best_physical", "Best physical characteristic", 0, 100, help="Only for the table reading."
        ),
    ),
    outputs=OUTPUTS,
    compute=compute,
    uses=(
        "rules_core.checks.success_chance",
        "rules_core.checks.resolve_check",
        "rules_core.checks.check_distribution",
        "rules_core.mitigation.mitigate",
        "rules_core.damage.damage_outcome",
        "rules_core.damage.protection_damage",
        "rules_core.damage.injury_chances",
    ),
    rules=(ATTACK, ON_SUCCESS, ON_FAILURE, EFFECT, DAMAGE_ROLLS, THRESHOLDS),
)
