"""Movement: how far a Move, Dash or Run takes a character by load, stance and grid scale; changing stance.

Rules: Actions § Movement Actions, § Movement Table, § Minor Move, § Dash, § Running,
§ List of Minor Actions (Changing Stance). Rulings: Dash metres, stance changes not listed, wounded
movement, the Run roll.
All maths is in :mod:`rules_core.movement` and :mod:`rules_core.actions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from calculators import framework as fw
from calculators import parts
from calculators.format import NOT_POSSIBLE, counted, fraction_text, metres, number, percent, plural, signed
from calculators.parts.check_parts import chm_text
from calculators.parts.links import rule
from rules_core import actions, checks, injury, limits
from rules_core import movement as rules

__all__ = ["CALCULATOR"]


ACTIONS = parts.enum_choices(rules.MoveAction)
LOADS = parts.enum_choices(rules.Load)
STANCES = parts.enum_choices(rules.Stance)
SCALES = (("1.5", "1.5 m spaces"), ("4.5", "4.5 m spaces"))
STANCE_READINGS = parts.enum_choices(
    rules.StanceReading,
    cost=rules.stance_change_cost(
        rules.Stance.CROUCHING, rules.Stance.PRONE, rules.StanceReading.DOWN_IS_ONE
    ),
)
INJURY_CHOICES = (
    ("unhurt", "Unhurt or wounded"),
    ("seriously_wounded", "Seriously wounded"),
    ("critically_wounded", "Critically wounded or dying"),
)
ROUNDING_CHOICES = parts.enum_choices(
    rules.WoundedRounding,
    share=fraction_text(injury.movement(injury.InjuryCondition.SERIOUSLY_WOUNDED).factor),
)
RUN_CHARACTERISTICS = parts.enum_choices(rules.RunCharacteristic)
NAMED = {"move": "minor_move", "dash": "dash", "run": "run"}
DANGERS = {"dash": "Obstacles or bad footing", "run": "Obstacles, hazards or fire"}
RULE_OF = {"move": rule("movement.table"), "dash": rule("movement.dash"), "run": rule("movement.run")}


def _metres(value: Fraction | None) -> str:
    return NOT_POSSIBLE if value is None else metres(value)


def _spaces(value: int | Fraction | None) -> str:
    return plural(value, "space")


_DASH = {
    r: rules.movement(rules.MoveAction.DASH, rules.Load.MEDIUM, reading=r) for r in rules.DistanceReading
}
"""A Dash under medium load by each distance reading: the example the readings are told by (ruling
``dash-metres``)."""
READINGS = parts.enum_choices(
    rules.DistanceReading,
    spaces=_spaces(_DASH[rules.DistanceReading.SPACES].spaces),
    metres=_metres(_DASH[rules.DistanceReading.SPACES].metres),
    printed=_metres(_DASH[rules.DistanceReading.PRINTED].metres),
)


def _distance(action: str, load: str, stance: str, values: Mapping[str, Any]) -> list[fw.Step]:
    """The table's line for the action, load and stance, then what the injury makes of it."""
    label = dict(ACTIONS)[action].split(" (")[0]
    scale = Fraction(values["scale"])
    whole = rules.movement(action, load, stance, scale_m=scale, reading=values["reading"])
    if whole.spaces is None:
        return [
            fw.Step(
                f"The table gives NA for a {label.lower()} {stance}, {load} load: not possible.",
                rule("movement.crawl"),
            )
        ]
    steps = [
        fw.Step(
            f"Table, {values['scale']} m scale, {load} load, {stance}: {_spaces(whole.spaces)} "
            f"= {_metres(whole.metres)}.",
            RULE_OF[action],
        )
    ]
    if values["reading"] == "printed" and values["injury"] == "unhurt":
        steps.append(fw.Step("Metres as printed in the text where it differs.", rule("movement.dash_metres")))
    limit = injury.movement(values["injury"])
    if not limit.factor:
        steps.append(
            fw.Step("Critically wounded or dying: no movement at all.", rule("movement.critical_ruling"))
        )
    elif limit.factor != 1 and action == "dash" and not limit.can_dash:
        steps.append(fw.Step("Seriously wounded: no Dash.", rule("serious")))
    elif limit.factor != 1:
        exact = values["wounded_rounding"] == "exact"
        move = rules.movement(
            action,
            load,
            stance,
            scale_m=scale,
            reading=values["reading"],
            condition=values["injury"],
            wounded_rounding=values["wounded_rounding"],
        )
        share = fraction_text(limit.factor)
        steps.append(
            fw.Step(
                f"Seriously wounded: {share} speed, {share} \u00d7 {number(whole.spaces)} = "
                f"{_spaces(move.spaces)}{'' if exact else ' (whole spaces, rounded down)'} "
                f"= {_metres(move.metres)}.",
                rule("serious") if exact else rule("movement.rounding_ruling"),
            )
        )
        if action == "run":
            steps.append(fw.Step("The Run stays allowed, at the same share.", rule("movement.run_ruling")))
    return steps


def _roll(action: str, values: Mapping[str, Any]) -> tuple[dict[str, str], list[fw.Step]]:
    """The Athletics roll of a risky Dash or Run: its Difficulty and, with the runner's figures, its odds."""
    with fw.on_field("conditions"):
        found = rules.run_roll(
            values["endurance"],
            values["dexterity"],
            values["athletics"],
            values["conditions"],
            damage=values["damage"],
            characteristic=values["run_characteristic"],
        )
    name = "End" if found.characteristic == "endurance" else "Dex"
    skill = "unskilled" if values["athletics"] is None else f"Athletics {values['athletics']}"
    outputs = {
        "athletics": f"Athletics against {found.difficulty}",
        "roll_chance": percent(found.chance),
    }
    steps = [
        fw.Step(
            f"{DANGERS[action]}: Athletics against {checks.default_difficulty()} + conditions "
            f"{values['conditions']} = {found.difficulty}.",
            rule("movement.dash") if action == "dash" else rule("movement.run_roll"),
        ),
        fw.Step(
            f"Roll: {chm_text(name, values[found.characteristic])}; "
            f"2d6 + {name} DM {signed(found.characteristic_modifier)} + {skill} = "
            f"competence {signed(found.competence)}"
            + (f", wound penalty {signed(found.wound_penalty)}" if found.wound_penalty else "")
            + f": 2d6 {signed(found.modifier)} against {found.difficulty} succeeds "
            f"{percent(found.chance)} of the time.",
            rule("movement.run_roll"),
        ),
    ]
    return outputs, steps


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """Spaces and metres of the action, its cost, the cost of a stance change and the Athletics roll."""
    action, load, stance = values["action"], values["load"], values["stance"]
    with fw.on_field("scale"):
        move = rules.movement(
            action,
            load,
            stance,
            scale_m=Fraction(values["scale"]),
            reading=values["reading"],
            condition=values["injury"],
            wounded_rounding=values["wounded_rounding"],
        )
        steps_distance = _distance(action, load, stance, values)
    named = actions.named_action(NAMED[action])
    with fw.on_field("new_stance"):
        cost = rules.stance_change_cost(stance, values["new_stance"], values["stance_reading"])
    label = dict(ACTIONS)[action].split(" (")[0]
    per_round = actions.minor_actions_per_round()
    share = f"{named.minor_actions} of the round's {per_round} minor actions"
    outputs = {
        "spaces": NOT_POSSIBLE if move.spaces is None else _spaces(move.spaces).split(" ")[0],
        "metres": _metres(move.metres),
        "cost": f"{named.minor_actions} of {per_round} minor actions",
        "stance_cost": plural(cost, "minor action") if cost else "none",
    }
    steps = [
        fw.Step(f"{label} is a {named.action_type.value} action: {share}.", rule("movement.table")),
        *steps_distance,
    ]
    if action != "move" and move.spaces is not None:
        found, roll_steps = _roll(action, values)
        outputs.update(found)
        steps.extend(roll_steps)
    if values["new_stance"] != stance:
        steps.append(
            fw.Step(
                f"From {stance} to {values['new_stance']}: {outputs['stance_cost']}.",
                rule("movement.stance_ruling"),
            ),
        )
    return fw.Result(outputs=outputs, working=tuple(steps))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """How far, and what it costs, in one line."""
    label = dict(ACTIONS)[values["action"]].split(" (")[0]
    if out["spaces"] == NOT_POSSIBLE:
        text = f"{label}: not possible"
    else:
        text = f"{counted(out['spaces'], 'space')} ({out['metres']}), costs {out['cost']}"
    if out.get("stance_cost") not in (None, "none"):
        text += f"; stance change: {out['stance_cost']}"
    return text + "."


CALCULATOR = fw.Calculator(
    title="Movement",
    summary="How far a Move, Dash or Run takes you by load, stance and scale; what a stance change costs.",
    inputs=(
        fw.ChoiceInput("action", "Action", ACTIONS, "move"),
        fw.ChoiceInput("load", "Load", LOADS, "light"),
        fw.ChoiceInput("stance", "Stance", STANCES, "standing"),
        fw.ChoiceInput("scale", "Grid scale", SCALES, "1.5"),
        fw.ChoiceInput(
            "new_stance", "Change stance to", STANCES, "standing", help="Cost of changing stance."
        ),
        fw.IntInput(
            "conditions",
            "Dash conditions",
            0,
            0,
            limits.MAX_MODIFIER,
            help="Obstacles or bad footing (Dash only).",
        ),
        fw.ChoiceInput("reading", "Dash metres (ruling)", READINGS, "spaces"),
        fw.ChoiceInput("stance_reading", "Unlisted stance changes (ruling)", STANCE_READINGS, "listed_steps"),
        fw.ChoiceInput(
            "injury",
            "Injury",
            INJURY_CHOICES,
            "unhurt",
            help="Seriously wounded: \u00be speed, no Dash. Critically wounded or dying: no movement.",
        ),
        fw.ChoiceInput("wounded_rounding", "\u00be speed (ruling)", ROUNDING_CHOICES, "down"),
        parts.skill_input(
            "athletics", "Athletics skill", help="For the Dash or Run roll; blank: no Athletics (unskilled)."
        ),
        *(parts.characteristic_inputs()[1:]),
        parts.damage_taken_input(help="Sets the wound penalty on the Dash or Run roll."),
        fw.ChoiceInput("run_characteristic", "Run roll characteristic (ruling)", RUN_CHARACTERISTICS, "best"),
    ),
    outputs=(
        fw.Output("spaces", "Spaces"),
        fw.Output("metres", "Distance"),
        fw.Output("cost", "Costs"),
        fw.Output("athletics", "Dash or Run over obstacles"),
        fw.Output("roll_chance", "Chance of that roll"),
        fw.Output("stance_cost", "Stance change"),
    ),
    compute=_compute,
    answer=_summary,
    uses=(
        "rules_core.movement.movement",
        "rules_core.movement.stance_change_cost",
        "rules_core.movement.run_roll",
        "rules_core.injury.movement",
        "rules_core.actions.named_action",
        "rules_core.actions.minor_actions_per_round",
    ),
    rules=(
        rule("movement.spaces"),
        rule("movement.table"),
        rule("movement.stance"),
        rule("movement.dash"),
        rule("movement.run"),
        rule("movement.crawl"),
        rule("movement.run_roll"),
    ),
)
