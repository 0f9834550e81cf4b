"""Skill check: competence from a characteristic and a skill (or unskilled), combined difficulties, modifiers
that do not stack, the wound penalty, and the chance and Effect of the roll.

Rules: Core Mechanics § Characteristic Modifier (ChM), § Skill Modifier (Unskilled Penalty), § Competence,
§ Modifiers to Rolls (Important Rules), § Combined Difficulties, § Advantage and Disadvantage; Outcomes
§ Character HP Thresholds (wound penalty). Rulings: combined difficulty or unskilled penalty, same kind of
modifier, wound penalty rolls. All maths is in :mod:`rules_core.checks` and :mod:`rules_core.injury`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators.format import percent, plural, signed, term
from calculators.parts import (
    characteristic_input,
    check_chart,
    check_dice,
    damage_taken_input,
    difficulty_input,
    roll_input,
    sentence,
    skill_input,
)
from calculators.parts.check_parts import chm_text
from calculators.parts.links import rule
from rules_core import checks, injury, limits

__all__ = ["CALCULATOR"]

DICE = (("none", "2d6"), ("advantage", "Advantage"), ("disadvantage", "Disadvantage"))


def _modifier_steps(found: checks.ModifierTotal) -> list[fw.Step]:
    if not found.counted:
        return []
    counted = ", ".join(f"{m.label} {signed(m.value)}" for m in found.counted)
    text = f"Modifiers counted: {counted} = {signed(found.total)}"
    if found.dropped:
        dropped = ", ".join(f"{m.label} {signed(m.value)}" for m in found.dropped)
        text += f"; left out (a better one of the same kind counts): {dropped}"
    return [fw.Step(text + ".", rule("check.same_kind") if found.dropped else rule("check.modifiers"))]


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """ChM, competence, modifiers, wound penalty and Difficulty; the chance, and the Effect of a roll."""
    with fw.on_field("characteristic"):
        chm = checks.characteristic_modifier(values["characteristic"])
    competence = checks.competence(chm, values["skill"])
    steps = [fw.Step(f"{chm_text('Characteristic', values['characteristic'])}.", rule("chm"))]
    if values["skill"] is None:
        steps.append(
            fw.Step(
                f"No skill: competence = DM {signed(chm)}{term(checks.unskilled_penalty())} = "
                f"{signed(competence)}.",
                rule("check.unskilled"),
            )
        )
    else:
        steps.append(
            fw.Step(
                f"Competence = DM {signed(chm)} + skill {values['skill']} = {signed(competence)}.",
                rule("competence"),
            )
        )
    with fw.on_field("modifiers"):
        found = checks.combine_modifiers(values["modifiers"] or ())
    steps.extend(_modifier_steps(found))
    penalty = injury.wound_penalty(values["damage"])
    if penalty:
        steps.append(
            fw.Step(
                f"{plural(values['damage'], 'point')} of damage: wound penalty {signed(penalty)}.",
                rule("penalties"),
            )
        )
    modifier = checks.within_check_range(competence + found.total + penalty)
    with fw.on_field("missing_skills"):
        difficulty = checks.combined_difficulty(values["difficulty"], values["missing_skills"])
    if values["missing_skills"]:
        steps.append(
            fw.Step(
                f"Combined task, {plural(values['missing_skills'], 'further skill')} lacking: difficulty "
                f"{values['difficulty']}{term(difficulty - values['difficulty'])} = {difficulty}.",
                rule("check.combined_ruling"),
            )
        )
    advantage = int(values["dice"] == "advantage")
    disadvantage = int(values["dice"] == "disadvantage")
    chance = checks.success_chance(modifier, difficulty, advantage, disadvantage)
    net = checks.net_advantage(advantage, disadvantage)
    steps.append(
        fw.Step(
            f"{check_dice(net)} {signed(modifier)} against {difficulty}: succeeds {percent(chance)} "
            "of the time.",
            rule("competence"),
        )
    )
    outputs = {
        "competence": signed(competence),
        "modifier": signed(modifier),
        "difficulty": str(difficulty),
        "chance": percent(chance),
    }
    if values["roll"] is not None:
        effect = checks.effect(values["roll"] + modifier, difficulty)
        outputs["effect"] = signed(effect)
        steps.append(
            fw.Step(
                f"Effect: roll {values['roll']} {signed(modifier)} \u2212 difficulty {difficulty} = "
                f"{signed(effect)}.",
                rule("effect"),
            )
        )
    chart = check_chart(advantage, disadvantage, values["roll"])
    return fw.Result(outputs=outputs, working=tuple(steps), charts=(chart,))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """The roll to make and its odds, in one line."""
    dice = check_dice(
        checks.net_advantage(int(values["dice"] == "advantage"), int(values["dice"] == "disadvantage"))
    )
    head = f"Roll {dice} {out['modifier']} against {out['difficulty']}: {out['chance']} to succeed"
    return sentence(head, out, effect="Effect {effect}")


CALCULATOR = fw.Calculator(
    title="Skill check",
    summary="Build a check: competence, unskilled, combined difficulties, modifiers of one kind, wounds.",
    inputs=(
        characteristic_input("characteristic", "Characteristic"),
        skill_input("skill", "Skill level", "Blank: you do not have the skill.", default=0),
        fw.TextInput(
            "modifiers",
            "Modifiers",
            "",
            max_length=120,
            required=False,
            parser=checks.parse_modifiers,
            placeholder="scope +2, aim +1",
            help="Kind and DM, separated by commas; of two of one kind only the better counts.",
        ),
        difficulty_input(),
        fw.IntInput(
            "missing_skills",
            "Further skills lacking",
            0,
            0,
            limits.MAX_SKILL,
            help="In a task that combines skills: each one you lack beyond the roll's own adds 1.",
        ),
        damage_taken_input(help="Sets the wound penalty."),
        fw.ChoiceInput("dice", "Dice", DICE, "none"),
        roll_input(),
    ),
    outputs=(
        fw.Output("competence", "Competence"),
        fw.Output("modifier", "Total DM"),
        fw.Output("difficulty", "Difficulty"),
        fw.Output("chance", "Chance of success"),
        fw.Output("effect", "Effect"),
    ),
    compute=_compute,
    answer=_summary,
    uses=(
        "rules_core.checks.characteristic_modifier_working",
        "rules_core.checks.competence",
        "rules_core.checks.parse_modifiers",
        "rules_core.checks.combine_modifiers",
        "rules_core.checks.combined_difficulty",
        "rules_core.checks.success_chance",
        "rules_core.injury.wound_penalty",
    ),
    rules=(
        rule("chm"),
        rule("competence"),
        rule("check.unskilled"),
        rule("check.modifiers"),
        rule("check.combined"),
        rule("penalties"),
    ),
)
