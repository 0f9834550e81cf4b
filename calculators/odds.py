"""Odds table: the exact chance of a check for a window of difficulties x modifiers.

Rules: Core Mechanics § Difficulty Number Table, § Dice Roll, § Advantage and
Disadvantage. All maths is in :mod:`rules_core.odds` (which uses :mod:`rules_core.checks`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators.format import number, percent, signed
from calculators.parts.links import rule
from rules_core import checks, odds

__all__ = ["CALCULATOR"]


MAX_GRID_DIFFICULTY = 30
"""Highest difficulty the form accepts."""

MAX_GRID_MODIFIER = 20
"""Largest modifier (either sign) the form accepts."""

ROWS_EACH_SIDE = 4
COLUMNS_EACH_SIDE = 1

MODES = (
    ("plain", "Plain 2d6"),
    ("advantage", "With advantage"),
    ("disadvantage", "With disadvantage"),
)
"""The ways to roll the check (the fields of an :class:`rules_core.odds.OddsRow`): the grid's choice, and
one output each, the chance that way."""


def _window(centre: int, each_side: int, low: int, high: int) -> range:
    """``2 * each_side + 1`` consecutive values around ``centre``, shifted to stay within [low, high]."""
    start = max(low, min(centre - each_side, high - 2 * each_side))
    return range(start, min(high, start + 2 * each_side) + 1)


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """Chances at the chosen difficulty and modifier (plain, advantage, disadvantage) and a grid around it."""
    difficulty, modifier, mode = values["difficulty"], values["modifier"], values["mode"]
    difficulties = _window(difficulty, ROWS_EACH_SIDE, checks.MIN_DIFFICULTY, checks.MAX_DIFFICULTY)
    modifiers = _window(modifier, COLUMNS_EACH_SIDE, -checks.MAX_MODIFIER, checks.MAX_MODIFIER)
    with fw.on_field("difficulty"):
        rows = odds.odds_table(difficulties, modifiers)
    cell = next(r for r in rows if r.difficulty == difficulty and r.modifier == modifier)
    name = f" ({cell.label})" if cell.label else ""
    mode_label = dict(MODES)[mode]
    steps = (
        fw.Step(
            f"Difficulty {difficulty}{name}, modifier {signed(modifier)}: the check succeeds when the two "
            "kept dice plus the modifier reach the difficulty.",
            rule("check"),
        ),
        fw.Step(f"Plain 2d6: {percent(cell.plain)} (exact {number(cell.plain)}).", rule("odds.ladder")),
        fw.Step(
            f"Advantage rolls 3d6 and keeps the two highest: {percent(cell.advantage)}; disadvantage keeps "
            f"the two lowest: {percent(cell.disadvantage)}.",
            rule("advantage"),
        ),
        fw.Step(
            f"The tables below show the {mode_label.lower()} chance for difficulties "
            f"{difficulties[0]} to {difficulties[-1]}, one table per modifier "
            f"{signed(modifiers[0])} to {signed(modifiers[-1])}.",
            None,
        ),
    )
    charts = tuple(
        fw.Chart(
            key=f"modifier{m:+d}",  # an identifier (ASCII), not text a player reads
            caption=f"Modifier {signed(m)}: {mode_label.lower()} chance by difficulty",
            x_label="Difficulty",
            y_label="Chance",
            points=tuple((r.difficulty, getattr(r, mode)) for r in rows if r.modifier == m),
            highlight=(difficulty,) if m == modifier else (),
        )
        for m in modifiers
    )
    outputs = {way: percent(getattr(cell, way)) for way, _ in MODES}
    return fw.Result(outputs=outputs, working=steps, charts=charts)


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """The three chances in one line."""
    return (
        f"Reaching {number(values['difficulty'])} at DM {signed(values['modifier'])}: {out['plain']}; "
        f"{out['advantage']} with advantage, {out['disadvantage']} with disadvantage."
    )


CALCULATOR = fw.Calculator(
    title="Odds table",
    summary="Exact chance of a check by difficulty and modifier, plain and with (dis)advantage.",
    inputs=(
        fw.IntInput(
            "difficulty",
            "Difficulty",
            8,
            checks.MIN_DIFFICULTY,
            MAX_GRID_DIFFICULTY,
            help=f"{checks.default_difficulty()} is {odds.difficulty_label(checks.default_difficulty())}.",
        ),
        fw.IntInput(
            "modifier",
            "Modifier (DM)",
            0,
            -MAX_GRID_MODIFIER,
            MAX_GRID_MODIFIER,
            help="Total of every DM on the roll.",
        ),
        fw.ChoiceInput("mode", "Grid shows", MODES, "plain", help="Which chance the tables below list."),
    ),
    outputs=tuple(fw.Output(way, label) for way, label in MODES),
    compute=_compute,
    answer=_summary,
    uses=("rules_core.odds.odds_table",),
    rules=(rule("check"), rule("odds.ladder"), rule("advantage")),
)
