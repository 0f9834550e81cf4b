"""Thresholds calculator: a character's HP, injury thresholds, state, wound penalty and bleeding.

Rules: Outcomes § Hit Points (HP), § Character HP Thresholds, § Injury Conditions,
§ Bleeding, § Targeted Damage. Rulings: injury thresholds (thirds of HP or the
table's characteristics), targeted damage rounding. All maths is in
:mod:`rules_core.injury` and :mod:`rules_core.targeting`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators import parts
from calculators.format import number, signed
from calculators.parts import (
    best_physical_input,
    characteristic_inputs,
    enum_choices,
    hp_input,
    hp_text,
    threshold_reading_input,
)
from calculators.parts.injury_parts import state_text, wound_penalty_rule_text
from calculators.parts.links import rule
from rules_core import injury, limits, targeting

__all__ = ["CALCULATOR", "MAX_CHARACTERISTIC"]

MAX_CHARACTERISTIC = limits.MAX_CHARACTERISTIC
"""Largest characteristic the form takes (bounded input; far above any character)."""


STATE_RULES: dict[injury.InjuryCondition, fw.RuleLink] = {
    injury.InjuryCondition.UNHURT: rule("thresholds"),
    injury.InjuryCondition.WOUNDED: rule("thresholds.wounded"),
    injury.InjuryCondition.SERIOUSLY_WOUNDED: rule("serious"),
    injury.InjuryCondition.CRITICALLY_WOUNDED: rule("thresholds.critically_wounded"),
    injury.InjuryCondition.DYING: rule("dying"),
}
CHARACTERISTIC_KEYS = ("strength", "dexterity", "endurance")
"""The characteristics' input keys (Outcomes § Hit Points: HP = Str + Dex + End)."""
ROUNDING_CHOICES = enum_choices(targeting.Rounding)


def _location_choices() -> tuple[tuple[str, str], ...]:
    areas = tuple((e.area, e.label) for e in targeting.targeted_effects(1))
    return (("none", "Not targeted"), *areas)


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """HP, the thresholds, the state a damage total gives, its wound penalty and bleeding."""
    taken, largest, location = values["damage"], values["largest_roll"], values["location"]
    with fw.on_field("hp" if values["hp"] is not None else "strength"):
        hp, reading, best = parts.hit_points(values)
    if largest is not None and largest > taken:
        raise fw.FieldError(
            f"One roll cannot be more than the damage taken ({number(taken)}).", field="largest_roll"
        )
    limits = injury.injury_thresholds(hp, reading=reading, best_physical=best)
    with fw.on_field("damage"):
        condition = injury.injury_condition(taken, hp, reading=reading, best_physical=best)
        penalty = injury.wound_penalty(taken)
    by = (
        "the best physical characteristic and twice it"
        if best is not None
        else "a third and two thirds of HP"
    )
    steps = [
        fw.Step(f"{hp_text(values, hp)}.", rule("hit_points")),
        fw.Step(
            f"Thresholds ({by}): wounded from {limits.wounded}, seriously wounded from "
            f"{limits.seriously_wounded}, critically wounded from {limits.critically_wounded}, "
            f"dying from {limits.dying} (more than HP).",
            rule("threshold_ruling") if best is not None else rule("thresholds"),
        ),
        fw.Step(f"{taken} damage: {state_text(condition)}.", STATE_RULES[condition]),
        fw.Step(
            f"Wound penalty: {signed(penalty)} to mental and physical rolls ({wound_penalty_rule_text()}).",
            rule("penalties"),
        ),
    ]
    outputs = {
        "hp": str(hp),
        "state": state_text(condition),
        "wound_penalty": signed(penalty),
        "wounded": str(limits.wounded),
        "seriously_wounded": str(limits.seriously_wounded),
        "critically_wounded": str(limits.critically_wounded),
        "dying": str(limits.dying),
    }
    move = injury.movement(condition)
    if condition is not injury.InjuryCondition.UNHURT:
        dash = "a dash is allowed" if move.can_dash else "no dash"
        share = f"{move.factor} of normal" if move.factor else "none"
        steps.append(fw.Step(f"Movement: {share}, {dash}.", STATE_RULES[condition]))
    if largest is None and taken < limits.seriously_wounded:
        outputs["bleeding"] = "no"
        steps.append(
            fw.Step(
                f"{number(taken)} damage in all is below the serious threshold "
                f"{limits.seriously_wounded}, so no single roll reached it: no bleeding.",
                rule("bleeding"),
            )
        )
    elif largest is None:
        steps.append(
            fw.Step(
                f"Bleeding if one damage roll reached {limits.seriously_wounded}: give the largest single "
                "roll to know.",
                rule("bleeding"),
            )
        )
    else:
        bleeds = injury.bleeds_from_roll(largest, hp, reading=reading, best_physical=best)
        outputs["bleeding"] = "yes" if bleeds else "no"
        verdict = "reaches" if bleeds else "is below"
        steps.append(
            fw.Step(
                f"Largest single roll {largest} {verdict} the serious threshold {limits.seriously_wounded}: "
                f"{'bleeding' if bleeds else 'no bleeding'}.",
                rule("bleeding"),
            )
        )
    if location != "none":
        rounding = targeting.Rounding(values["rounding"])
        hit = largest if largest is not None else taken
        threshold = targeting.area_threshold(location, hp, rounding=rounding)
        effect = targeting.targeted_effect(location, hit, hp, rounding=rounding)
        outputs["targeted"] = effect or "none"
        outputs["targeted_threshold"] = str(threshold)
        which = "largest single roll" if largest is not None else "damage"
        steps.append(
            fw.Step(
                f"Targeted {location}: {threshold} damage from one hit causes its effect; the {which} "
                f"{hit} gives {effect or 'no extra effect'}.",
                rule("targeted_damage"),
            )
        )
    return fw.Result(outputs=outputs, working=tuple(steps))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """The state, the wound penalty and bleeding, in one line."""
    text = (
        f"{out['state'].capitalize()}: {number(values['damage'])} damage of {out['hp']} HP, "
        f"{out['wound_penalty']} to mental and physical rolls"
    )
    if out.get("bleeding") == "yes":
        text += ", bleeding"
    elif "bleeding" not in out:
        text += f", bleeding if one roll reached {out['seriously_wounded']} (give the largest roll)"
    return parts.sentence(text, out, targeted="{targeted}")


def _next(values: Mapping[str, Any], out: Mapping[str, str]) -> tuple[fw.Handoff, ...]:
    """Carry the characteristics (or the HP), the damage and the reading into healing and the dying rolls.

    With the HP given, the characteristics on this form are not what the answer read (they may be the
    form's own defaults): healing gets them empty, and asks for End only where its answer needs it."""
    keys = ("strength", "dexterity", "endurance", "hp", "damage", "reading", parts.BEST_PHYSICAL_KEY)
    params = tuple((key, str(values[key])) for key in keys if values[key] is not None)
    dying = tuple((key, text) for key, text in params if key not in {"hp", parts.BEST_PHYSICAL_KEY})
    if out.get("bleeding") == "yes":
        dying += (("bleeding", "1"),)
    healing = params
    if values["hp"] is not None:
        unknown = tuple((key, "") for key in CHARACTERISTIC_KEYS)
        healing = unknown + tuple((key, text) for key, text in params if key not in CHARACTERISTIC_KEYS)
    links = [fw.Handoff("healing from here", "calculators/healing.md", healing)]
    if values["hp"] is None:  # the dying rolls read the characteristics, not given HP
        links.append(fw.Handoff("the dying rolls", "calculators/dying.md", dying))
    return tuple(links)


CALCULATOR = fw.Calculator(
    title="Injury thresholds calculator",
    summary="HP, injury thresholds, the state a damage total gives, its wound penalty and bleeding.",
    inputs=(
        *characteristic_inputs((7, 8, 9), abbreviated=True),
        hp_input(),
        fw.IntInput(
            "damage", "Damage taken", 10, 0, injury.MAX_DAMAGE, help="Total damage the character has taken."
        ),
        fw.OptionalIntInput(
            "largest_roll",
            "Largest single roll",
            0,
            injury.MAX_DAMAGE,
            help="The largest one damage roll after armor (for bleeding); at most the damage taken.",
            placeholder="not known",
        ),
        fw.ChoiceInput(
            "location",
            "Targeted area",
            _location_choices(),
            "none",
            help="For a targeted attack, where it hit.",
        ),
        threshold_reading_input(),
        best_physical_input(),
        fw.ChoiceInput("rounding", "Targeted thresholds (ruling)", ROUNDING_CHOICES, "down"),
    ),
    outputs=(
        fw.Output("hp", "HP"),
        fw.Output("state", "State"),
        fw.Output("wound_penalty", "Wound penalty"),
        fw.Output("bleeding", "Bleeding"),
        fw.Output("wounded", "Wounded from"),
        fw.Output("seriously_wounded", "Seriously wounded from"),
        fw.Output("critically_wounded", "Critically wounded from"),
        fw.Output("dying", "Dying from"),
        fw.Output("targeted", "Targeted effect"),
        fw.Output("targeted_threshold", "Targeted effect from"),
    ),
    compute=_compute,
    answer=_summary,
    handoffs=_next,
    uses=(
        "rules_core.injury.hit_points",
        "rules_core.injury.injury_thresholds",
        "rules_core.injury.injury_condition",
        "rules_core.injury.wound_penalty",
        "rules_core.injury.bleeds_from_roll",
        "rules_core.injury.movement",
        "rules_core.targeting.area_threshold",
        "rules_core.targeting.targeted_effect",
    ),
    rules=(
        rule("hit_points"),
        rule("thresholds"),
        rule("penalties"),
        rule("bleeding"),
        rule("targeted_damage"),
        rule("threshold_ruling"),
        rule("thresholds.rounding_ruling"),
    ),
)
