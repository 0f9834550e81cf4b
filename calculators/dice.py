"""Dice roller: roll any dice expression (``2d6``, ``3d6-2``, ``H 2d6``) for players without dice.

Rules: Core Mechanics § Dice Roll; Outcomes § Damage Rolls, § Damage Scale.
Rolling uses a ``random.Random`` seeded from the ``seed`` input, so a roll can be
shared as a link; all maths is in :mod:`rules_core.dice`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from calculators.spec import (
    Calculator,
    Chart,
    IntInput,
    OptionalIntInput,
    Output,
    Result,
    RuleLink,
    Step,
    TextInput,
)
from rules_core import dice as rules

__all__ = ["CALCULATOR", "MAX_CHART_VALUES", "MAX_SEED", "MAX_TIMES", "compute"]

CHECK = RuleLink("The check", "rules/checks.md#dice-roll")
DAMAGE = RuleLink("Damage rolls", "rules/damage.md#damage-rolls")
SCALE = RuleLink("Scale", "rules/damage.md#scale")

MAX_SEED = 999_999_999
"""Largest seed; the page draws a fresh one below it when the field is empty."""

MAX_TIMES = 20
MAX_CHART_VALUES = 61
"""Distributions with more distinct totals are not charted (the working says so)."""


def _two_decimals(value: Fraction) -> str:
    """``value`` with two decimals, rounded half away from zero."""
    hundredths = (abs(value) * 200 + 1) // 2
    sign = "-" if value < 0 and hundredths else ""
    return f"{sign}{hundredths // 100}.{hundredths % 100:02d}"


def compute(values: Mapping[str, Any]) -> Result:
    """Roll the expression ``times`` times from the seed; its range, average and exact distribution."""
    expression: rules.DiceExpression = values["dice"]
    times, seed = values["times"], values["seed"]
    totals = expression.count * (expression.sides - 1) + 1
    distribution = expression.distribution() if totals <= MAX_CHART_VALUES else None
    if distribution is not None:
        average = rules.mean(distribution)
    else:  # the average of a sum is the sum of the averages: one die's, count times, plus the modifier
        average = (
            rules.mean(rules.die(expression.sides)) * expression.count + expression.modifier
        ) * expression.factor
    outputs = {
        "range": f"{expression.minimum} to {expression.maximum}",
        "expected": _two_decimals(average),
    }
    steps = []
    rolls: list[int] = []
    if expression.scale:
        steps.append(
            Step(f"Scale {expression.scale}: the whole roll is multiplied by {expression.factor}.", SCALE)
        )
    if seed is None:
        steps.append(Step("Press Roll to roll.", CHECK))
    else:
        rng = random.Random(seed)
        rolls = [rules.roll(expression, rng) for _ in range(times)]
        outputs["rolls"] = ", ".join(str(r) for r in rolls)
        outputs["total"] = str(sum(rolls))
        steps.append(
            Step(f"Rolled {expression} {times} time{'s' if times != 1 else ''} (seed {seed}).", CHECK)
        )
    steps.append(
        Step(
            f"Every total from {expression.minimum} to {expression.maximum}; average {outputs['expected']}.",
            DAMAGE,
        )
    )
    charts: tuple[Chart, ...] = ()
    if distribution is not None:
        charts = (
            Chart(
                key="totals",
                caption=f"Chance of each total of {expression}",
                x_label="Total",
                y_label="Chance",
                points=tuple(distribution.items()),
                highlight=tuple(sorted(set(rolls))),
            ),
        )
    else:
        steps.append(Step(f"{totals} possible totals: too many to chart.", None))
    return Result(outputs=outputs, working=tuple(steps), charts=charts)


CALCULATOR = Calculator(
    name="dice",
    title="Dice roller",
    summary="Roll any dice expression, with its range, average and the chance of each total.",
    inputs=(
        TextInput(
            "dice",
            "Dice",
            "2d6",
            max_length=rules.MAX_EXPRESSION_LENGTH,
            placeholder="2d6",
            help="Like 2d6, 3d6-2, d6 or H 2d6 (scale prefix D, H or K).",
            parser=rules.parse_dice,
        ),
        IntInput("times", "How many rolls", 1, 1, MAX_TIMES),
        OptionalIntInput(
            "seed",
            "Roll number",
            0,
            MAX_SEED,
            placeholder="new roll",
            help="Each number is one roll; share the link to share it. Empty: a new roll.",
        ),
    ),
    outputs=(
        Output("rolls", "Rolled"),
        Output("total", "Total of the rolls"),
        Output("range", "Range"),
        Output("expected", "Average roll"),
    ),
    compute=compute,
    uses=(
        "rules_core.dice.parse_dice",
        "rules_core.dice.roll",
        "rules_core.dice.mean",
        "rules_core.dice.die",
        "rules_core.dice.DiceExpression.distribution",
    ),
    rules=(CHECK, DAMAGE, SCALE),
)
