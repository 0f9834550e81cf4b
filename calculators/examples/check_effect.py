"""Example calculator (not registered): the chance of a check and the Effect of a roll.

``calculators/README.md`` shows this file whole; ``tests/calculators/test_calculator_readme.py`` checks
that the README block is this file and that it evaluates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators.format import percent, signed
from calculators.parts.links import rule  # rule links by key: calculators/data/rule_links.json
from rules_core import checks, limits

__all__ = ["CALCULATOR"]

ADVANTAGE = {"none": (0, 0), "advantage": (1, 0), "disadvantage": (0, 1)}


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """``values``: the parsed inputs by key (``int``, ``int | None``, ``str``, ``bool``)."""
    modifier, difficulty, roll = values["modifier"], values["difficulty"], values["roll"]
    advantage, disadvantage = ADVANTAGE[values["dice"]]
    with fw.on_field("difficulty"):  # a ValueError raised here shows beside "difficulty"
        chance = checks.success_chance(modifier, difficulty, advantage, disadvantage)
    outputs = {"chance": percent(chance)}  # output key -> text; a key left out is hidden (does not apply)
    working = [fw.Step(f"2d6 {signed(modifier)} reaches {difficulty}: {percent(chance)}.", rule("check"))]
    if roll is not None:
        effect = checks.effect(roll + modifier, difficulty)
        outputs["effect"] = signed(effect)
        working.append(
            fw.Step(
                f"Effect: roll {roll} {signed(modifier)} \u2212 difficulty {difficulty} = {signed(effect)}.",
                rule("effect"),
            )
        )
    charts: tuple[fw.Chart, ...] = ()
    if values["show_chart"]:
        dist = checks.check_distribution(advantage, disadvantage)
        points = tuple((total, dist[total]) for total in sorted(dist))
        highlight = () if roll is None else (roll,)
        charts = (fw.Chart("check", "Chance of each roll", "Dice", "Chance", points, highlight),)
    return fw.Result(outputs=outputs, working=tuple(working), charts=charts)


def _summary(values: Mapping[str, Any], outputs: Mapping[str, str]) -> str:
    """The answer in words, shown first (on a phone, in view while any field is edited)."""
    if "effect" in outputs:
        return f"Effect {outputs['effect']}; this check succeeds {outputs['chance']} of the time."
    return f"This check succeeds {outputs['chance']} of the time."


CALCULATOR = fw.Calculator(  # named after its module: calculators/<name>.py
    title="Check and Effect",
    summary="The chance a check succeeds and the Effect of a roll.",
    inputs=(
        fw.IntInput("modifier", "Modifier (DM)", 0, -checks.MAX_MODIFIER, checks.MAX_MODIFIER),
        fw.IntInput("difficulty", "Difficulty", 8, checks.MIN_DIFFICULTY, checks.MAX_DIFFICULTY),
        fw.OptionalIntInput(
            "roll",
            "Your 2d6",
            limits.CHECK_ROLL_MIN,
            limits.CHECK_ROLL_MAX,
            help="Optional: the dice you rolled.",
        ),
        fw.ChoiceInput("dice", "Dice", tuple((key, key.capitalize()) for key in ADVANTAGE), "none"),
        fw.BoolInput("show_chart", "Show the chart", default=True),
    ),
    outputs=(fw.Output("chance", "Chance of success"), fw.Output("effect", "Effect")),
    compute=_compute,
    answer=_summary,  # the summary output; handoffs=_next adds hand-off links under it
    uses=("rules_core.checks.success_chance", "rules_core.checks.effect"),
    rules=(rule("check"), rule("effect")),  # the links shown under every result
)
