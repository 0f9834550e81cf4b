"""Dice roller: roll any dice expression (``2d6``, ``3d6-2``, ``H 2d6``) for players without dice,
showing each die, and a check roll with advantage or disadvantage.

Rules: Core Mechanics § Dice Roll, § Advantage and Disadvantage; Outcomes § Damage Rolls, § Damage Scale.
Rolling uses a ``random.Random`` seeded from the ``seed`` input, so a roll can be
shared as a link; all maths is in :mod:`rules_core.dice`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators import parts
from calculators.format import dice as dice_notation
from calculators.format import number, plural, term, two_decimals
from calculators.parts import chance_chart
from calculators.parts.damage_parts import dice_input
from calculators.parts.links import rule
from rules_core import dice as rules
from rules_core import limits

__all__ = ["CALCULATOR", "CHECK_ROLLS", "MAX_CHART_VALUES", "MAX_SEED", "MAX_TIMES"]


CHECK_ROLLS = (
    ("none", "No check"),
    ("plain", "Plain 2d6"),
    ("advantage", "Advantage: best 2 of 3d6"),
    ("disadvantage", "Disadvantage: worst 2 of 3d6"),
)
"""The check roll offered beside the dice; advantage and disadvantage are net (they cancel one for one)."""
_CHECK_COUNTS = {"plain": (0, 0), "advantage": (1, 0), "disadvantage": (0, 1)}

MAX_SEED = limits.MAX_SEED
"""Largest seed; the page draws a fresh one below it when the field is empty."""

MAX_TIMES = 20
MAX_CHART_VALUES = 61
"""Distributions with more distinct totals are not charted (the working says so)."""


def _faces(rolled: rules.RolledDice) -> str:
    return "[" + ", ".join(str(face) for face in rolled.faces) + "]"


def _joined(faces: tuple[int, ...]) -> str:
    return ", ".join(str(face) for face in faces)


def _check_roll(check: str, rng: random.Random) -> tuple[dict[str, str], fw.Step]:
    """Roll the chosen check after the dice; its outputs and its working step."""
    advantage, disadvantage = _CHECK_COUNTS[check]
    found = rules.roll_check(rng, advantage, disadvantage)
    kept = " + ".join(str(face) for face in found.kept)
    if check == "plain":
        step = fw.Step(f"Check: 2d6 rolled {kept} = {found.total}.", rule("check"))
        return {"check": str(found.total), "check_dice": kept}, step
    dropped = list(found.rolled)
    for face in found.kept:
        dropped.remove(face)
    which = "highest" if check == "advantage" else "lowest"
    step = fw.Step(
        f"Check with {check}: 3d6 rolled {_joined(found.rolled)}, the two {which} kept: "
        f"{kept} = {found.total}.",
        rule("advantage"),
    )
    return {"check": str(found.total), "check_dice": f"{kept}, dropped {_joined(tuple(dropped))}"}, step


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """Roll the expression ``times`` times from the seed, each die shown, then the chosen check roll;
    the expression's range, exact average and distribution."""
    expression: rules.DiceExpression = values["dice"]
    times, seed, check = values["times"], values["seed"], values["check"]
    totals = expression.count * (expression.sides - 1) + 1
    text = dice_notation(expression.count, expression.sides, expression.modifier, expression.scale)
    distribution = expression.distribution() if totals <= MAX_CHART_VALUES else None
    outputs = {
        "range": f"{number(expression.minimum)} to {number(expression.maximum)}",
        "expected": two_decimals(expression.mean),
    }
    steps = []
    rolls: list[int] = []
    if expression.scale:
        steps.append(
            fw.Step(
                f"Scale {expression.scale}: the whole roll is multiplied by {expression.factor}.",
                rule("scale"),
            )
        )
    if seed is None:
        steps.append(fw.Step("Press Roll to roll.", rule("check")))
    else:
        rng = random.Random(seed)
        rolled = [rules.roll_faces(expression, rng) for _ in range(times)]
        rolls = [r.total for r in rolled]
        outputs["rolls"] = ", ".join(number(r) for r in rolls)
        outputs["faces"] = ", ".join(_faces(r) for r in rolled)
        outputs["total"] = number(sum(rolls))
        steps.append(fw.Step(f"Rolled {text} {plural(times, 'time')} (seed {seed}).", rule("check")))
        modifier = term(expression.modifier)
        for index, r in enumerate(rolled, 1):
            sum_text = " + ".join(map(str, r.faces)) + modifier
            if expression.scale:
                sum_text = f"({sum_text}) x {expression.factor}"
            steps.append(fw.Step(f"Roll {index}: {sum_text} = {number(r.total)}.", rule("damage_rolls")))
        if check != "none":
            check_outputs, step = _check_roll(check, rng)
            outputs.update(check_outputs)
            steps.append(step)
    steps.append(
        fw.Step(
            f"Every total from {outputs['range']}; average {outputs['expected']}.",
            rule("damage_rolls"),
        )
    )
    charts: tuple[fw.Chart, ...] = ()
    if distribution is not None:
        charts = (
            chance_chart(
                "totals", f"Chance of each total of {text}", "Total", distribution, tuple(sorted(set(rolls)))
            ),
        )
    else:
        steps.append(fw.Step(f"{totals} possible totals: too many to chart.", None))
    return fw.Result(outputs=outputs, working=tuple(steps), charts=charts)


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """The roll in one line: what came up, else the range and the average."""
    spread = f"range {out['range']}, average {out['expected']}"
    if "total" in out and out["total"] != out["rolls"]:
        return f"Rolled {out['rolls']}: {out['total']} in all ({spread})."
    if "rolls" in out:
        return f"Rolled {out['rolls']} ({spread})."
    expression = values["dice"]
    text = dice_notation(expression.count, expression.sides, expression.modifier, expression.scale)
    return f"{text}: {out['range']}, {out['expected']} on average."


CALCULATOR = fw.Calculator(
    title="Dice roller",
    summary="Roll any dice expression, with its range, average and the chance of each total.",
    inputs=(
        dice_input("dice", "Dice", "2d6", "Like 2d6, 3d6-2, d6 or H 2d6 (scale prefix D, H or K)."),
        fw.IntInput("times", "How many rolls", 1, 1, MAX_TIMES),
        parts.seed_input(),
        fw.ChoiceInput(
            "check",
            "Check roll",
            CHECK_ROLLS,
            "none",
            help="Rolled after the dice. Advantages and disadvantages cancel one for one: pick what is left.",
        ),
    ),
    outputs=(
        fw.Output("rolls", "Rolled"),
        fw.Output("faces", "Dice faces"),
        fw.Output("total", "Total of the rolls"),
        fw.Output("range", "Range"),
        fw.Output("expected", "Average roll"),
        fw.Output("check", "Check roll"),
        fw.Output("check_dice", "Check dice kept"),
    ),
    compute=_compute,
    answer=_summary,
    uses=(
        "rules_core.dice.parse_dice",
        "rules_core.dice.roll_faces",
        "rules_core.dice.roll_check",
        "rules_core.dice.DiceExpression.distribution",
    ),
    rules=(rule("check"), rule("advantage"), rule("damage_rolls"), rule("scale")),
)
