"""Effect calculator: the chance to succeed at a check and, given a roll, its Effect.

Rules: Core Mechanics § Dice Roll, § Effect, § Advantage and Disadvantage.
All maths is in :mod:`rules_core.checks`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators.render import percent
from calculators.spec import (
    Calculator,
    Chart,
    IntInput,
    OptionalIntInput,
    Output,
    Result,
    RuleLink,
    Step,
    on_field,
)
from rules_core import checks

__all__ = ["CALCULATOR", "compute"]

CHECK = RuleLink("The check", "rules/checks.md#dice-roll")
EFFECT = RuleLink("Effect", "rules/checks.md#effect")
ADVANTAGE = RuleLink("Advantage and disadvantage", "rules/checks.md#advantage")


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def compute(values: Mapping[str, Any]) -> Result:
    """Chance of success (exact, as a percentage) and, when a roll is given, the Effect and outcome."""
    modifier, difficulty = values["modifier"], values["difficulty"]
    advantage, disadvantage, roll = values["advantage"], values["disadvantage"], values["roll"]
    with on_field("advantage"):
        net = checks.net_advantage(advantage, disadvantage)
    with on_field("difficulty"):
        chance = checks.success_chance(modifier, difficulty, advantage, disadvantage)
    dice = "2d6" if net == 0 else ("3d6, keep the two highest" if net > 0 else "3d6, keep the two lowest")
    steps = [
        Step(f"Advantage {advantage} and disadvantage {disadvantage} cancel: net {_signed(net)}.", ADVANTAGE),
        Step(f"Roll {dice}.", ADVANTAGE),
        Step(
            f"Succeed when dice {_signed(modifier)} reach difficulty {difficulty}: "
            f"chance {percent(chance)} (exact: {chance.numerator}/{chance.denominator}).",
            CHECK,
        ),
    ]
    outputs = {"chance": percent(chance)}
    if roll is not None:
        total = roll + modifier
        eff = checks.effect(total, difficulty)
        outputs["effect"] = _signed(eff)
        outputs["outcome"] = "success" if eff >= 0 else "failure"
        steps.append(
            Step(
                f"Effect = roll {roll} {_signed(modifier)} \u2212 difficulty {difficulty} = {_signed(eff)}: "
                f"{outputs['outcome']}.",
                EFFECT,
            )
        )
    dist = checks.check_distribution(advantage, disadvantage)
    chart = Chart(
        key="dice",
        caption=f"Chance of each dice total ({dice})",
        x_label="Dice total",
        y_label="Chance",
        points=tuple(dist.items()),
        highlight=(roll,) if roll is not None else (),
    )
    return Result(outputs=outputs, working=tuple(steps), charts=(chart,))


CALCULATOR = Calculator(
    name="effect",
    title="Effect calculator",
    summary="Chance to succeed at a check and, for a roll, its Effect.",
    inputs=(
        IntInput(
            "modifier",
            "Modifier (DM)",
            0,
            -checks.MAX_MODIFIER,
            checks.MAX_MODIFIER,
            help="Total of every DM on the roll.",
        ),
        IntInput(
            "difficulty",
            "Difficulty",
            8,
            checks.MIN_DIFFICULTY,
            checks.MAX_DIFFICULTY,
            help="8 unless the referee sets another.",
        ),
        IntInput("advantage", "Advantage", 0, 0, checks.MAX_ADVANTAGE, help="Count of advantages."),
        IntInput("disadvantage", "Disadvantage", 0, 0, checks.MAX_ADVANTAGE, help="Count of disadvantages."),
        OptionalIntInput(
            "roll",
            "Roll (two kept dice)",
            2,
            12,
            help="Optional: the total of the two dice you kept, before modifiers.",
            placeholder="not rolled",
        ),
    ),
    outputs=(
        Output("chance", "Chance of success"),
        Output("effect", "Effect"),
        Output("outcome", "Outcome"),
    ),
    compute=compute,
    uses=("rules_core.checks.success_chance", "rules_core.checks.effect", "rules_core.checks.net_advantage"),
    rules=(CHECK, EFFECT, ADVANTAGE),
)
