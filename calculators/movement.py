"""Movement: how far a Move, Dash or Run takes a character by load, stance and grid scale; changing stance.

Rules: Actions § Movement Actions, § Movement Table, § Minor Move, § Dash, § Running,
§ List of Minor Actions (Changing Stance). Rulings: Dash metres, stance changes not listed.
All maths is in :mod:`rules_core.movement` and :mod:`rules_core.actions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from calculators import framework as fw
from calculators.format import fraction_text, metres
from rules_core import actions, checks, limits
from rules_core import movement as rules
from rules_core.tables import constant

__all__ = ["CALCULATOR", "compute"]

TABLE = fw.RuleLink("Movement table", "rules/movement.md#movement-table")
SPACES = fw.RuleLink("Spaces and scale", "rules/movement.md#spaces")
STANCE = fw.RuleLink("Changing stance", "rules/movement.md#stance")
DASH = fw.RuleLink("Dash", "rules/movement.md#dash")
RUN = fw.RuleLink("Run", "rules/movement.md#run")
CRAWL = fw.RuleLink("Crawl", "rules/movement.md#crawl")
DASH_METRES = fw.RuleLink("ruling: dash metres", "rulings.md#dash-metres")
STANCE_RULING = fw.RuleLink("ruling: stance changes", "rulings.md#stance-prone-to-standing")

ACTIONS = (
    ("move", "Move (minor action)"),
    ("dash", "Dash (significant action)"),
    ("run", "Run (full action)"),
)
LOADS = (("light", "Light"), ("medium", "Medium"), ("heavy", "Heavy"))
STANCES = (("standing", "Standing"), ("crouching", "Crouching"), ("prone", "Prone (crawling)"))
SCALES = (("1.5", "1.5 m spaces"), ("4.5", "4.5 m spaces"))
READINGS = (("spaces", "7 spaces = 10.5 m"), ("printed", "As printed: 10 m"))
STANCE_READINGS = (
    ("listed_steps", "Through the listed changes"),
    ("down_is_one", "Any lower stance for 1"),
)
INJURY_CHOICES = (
    ("unhurt", "Unhurt or wounded"),
    ("seriously_wounded", "Seriously wounded"),
    ("critically_wounded", "Critically wounded (if still moving)"),
)
ROUNDING_CHOICES = (
    ("down", "Whole spaces, rounded down (ruling)"),
    ("exact", "Exactly \u00be of the distance"),
)
WOUNDED = fw.RuleLink("Seriously wounded", "rules/injury.md#seriously-wounded")
ROUNDING_RULING = fw.RuleLink("ruling: \u00be speed on the grid", "rulings.md#wounded-movement")
NAMED = {"move": "minor_move", "dash": "dash", "run": "run"}
RULE_OF = {"move": TABLE, "dash": DASH, "run": RUN}


def _metres(value: Fraction) -> str:
    return metres(value)


def _spaces(value: int | Fraction) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """Spaces and metres of the action, its cost, the cost of a stance change and a dash's Athletics roll."""
    action, load, stance = values["action"], values["load"], values["stance"]
    hurt = values["injury"] != "unhurt"
    with fw.on_field("scale"):
        move = rules.movement(
            action,
            load,
            stance,
            scale_m=Fraction(values["scale"]),
            reading=values["reading"],
            seriously_wounded=hurt,
            wounded_rounding=values["wounded_rounding"],
        )
        whole = rules.movement(
            action, load, stance, scale_m=Fraction(values["scale"]), reading=values["reading"]
        )
    named = actions.named_action(NAMED[action])
    with fw.on_field("new_stance"):
        cost = rules.stance_change_cost(stance, values["new_stance"], values["stance_reading"])
    with fw.on_field("conditions"):
        athletics = rules.dash_athletics_difficulty(values["conditions"])
    label = dict(ACTIONS)[action].split(" (")[0]
    per_round = actions.minor_actions_per_round()
    share = f"{named.minor_actions} of the round's {per_round} minor actions"
    outputs = {
        "cost": f"{named.minor_actions} of {per_round} minor actions",
        "stance_cost": f"{cost} minor action{'s' if cost != 1 else ''}" if cost else "none",
    }
    steps = [
        fw.Step(f"{label} is a {named.action_type.value} action: {share}.", TABLE),
    ]
    if hurt and action == "dash" and whole.spaces is not None:
        outputs["spaces"] = "not possible"
        outputs["metres"] = "not possible"
        steps.append(fw.Step("Seriously wounded or worse: no Dash.", WOUNDED))
    elif move.spaces is None:
        outputs["spaces"] = "not possible"
        outputs["metres"] = "not possible"
        steps.append(
            fw.Step(f"The table gives NA for a {label.lower()} {stance}, {load} load: not possible.", CRAWL)
        )
    elif hurt:
        outputs["spaces"] = _spaces(move.spaces)
        outputs["metres"] = _metres(move.metres) if move.metres is not None else "not possible"
        exact = values["wounded_rounding"] == "exact"
        share = fraction_text(constant("injury", "seriously_wounded_movement"))
        steps.append(
            fw.Step(
                f"Table, {values['scale']} m scale, {load} load, {stance}: {whole.spaces} spaces "
                f"= {_metres(whole.metres) if whole.metres is not None else 'not possible'}.",
                RULE_OF[action],
            )
        )
        steps.append(
            fw.Step(
                f"Seriously wounded or worse: {share} speed, {share} \u00d7 {whole.spaces} = "
                f"{outputs['spaces']} spaces"
                f"{'' if exact else ' (whole spaces, rounded down)'} = {outputs['metres']}.",
                ROUNDING_RULING if not exact else WOUNDED,
            )
        )
    else:
        outputs["spaces"] = str(move.spaces)
        outputs["metres"] = _metres(move.metres) if move.metres is not None else "not possible"
        steps.append(
            fw.Step(
                f"Table, {values['scale']} m scale, {load} load, {stance}: {move.spaces} spaces "
                f"= {outputs['metres']}.",
                RULE_OF[action],
            )
        )
        if values["reading"] == "printed":
            steps.append(fw.Step("Metres as printed in the text where it differs.", DASH_METRES))
    if action == "dash" and not hurt:
        outputs["athletics"] = f"Athletics against {athletics}"
        steps.append(
            fw.Step(
                f"Obstacles or bad footing: Athletics against {checks.default_difficulty()} + conditions "
                f"= {athletics}.",
                DASH,
            )
        )
    if values["new_stance"] != stance:
        steps.append(
            fw.Step(f"From {stance} to {values['new_stance']}: {outputs['stance_cost']}.", STANCE_RULING),
        )
    return fw.Result(outputs=outputs, working=tuple(steps))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """How far, and what it costs, in one line."""
    text = f"{out['spaces']} spaces ({out['metres']}), costs {out['cost']}"
    if out.get("stance_cost") not in (None, "none"):
        text += f"; stance change: {out['stance_cost']}"
    return text + "."


compute = fw.answered(_compute, _summary)
"""The calculation, then its answer in one line (and hand-offs carrying its numbers)."""


CALCULATOR = fw.Calculator(
    name="movement",
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
            "injury", "Injury", INJURY_CHOICES, "unhurt", help="Seriously wounded: \u00be speed, no Dash."
        ),
        fw.ChoiceInput("wounded_rounding", "\u00be speed (ruling)", ROUNDING_CHOICES, "down"),
    ),
    outputs=(
        fw.Output("spaces", "Spaces"),
        fw.Output("metres", "Distance"),
        fw.Output("cost", "Costs"),
        fw.Output("athletics", "Dash over obstacles"),
        fw.Output("stance_cost", "Stance change"),
    ),
    compute=compute,
    uses=(
        "rules_core.movement.movement",
        "rules_core.movement.stance_change_cost",
        "rules_core.movement.dash_athletics_difficulty",
        "rules_core.actions.named_action",
        "rules_core.actions.minor_actions_per_round",
    ),
    rules=(SPACES, TABLE, STANCE, DASH, RUN, CRAWL),
)
