"""The difficulty ladder and the exact odds of a check.

Rules: Core Mechanics § Difficulty, § Difficulty Number Table, § Advantage and
Disadvantage (docs/rules/checks.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import islice

from rules_core.checks import check_difficulty, check_modifier, success_chance
from rules_core.tables import table

MAX_ODDS_ENTRIES = 200
"""An odds table listing more difficulties or more modifiers than this is rejected (bounded work)."""


@dataclass(frozen=True)
class DifficultyStep:
    """A named difficulty of the ladder (Easy 4 ... Formidable 14)."""

    difficulty: int
    label: str
    source: str


def difficulty_ladder() -> tuple[DifficultyStep, ...]:
    """The named difficulties, easiest first. Core Mechanics § Difficulty Number Table."""
    rows = table("difficulty_ladder").rows
    return tuple(DifficultyStep(r["difficulty"], r["label"], r["source"]) for r in rows if r["label"])


def difficulty_label(difficulty: int, /) -> str | None:
    """The ladder's name for a difficulty (8 is "Challenging"), or ``None`` for an unnamed one.

    Core Mechanics § Difficulty Number Table.
    """
    check_difficulty(difficulty)
    for step in difficulty_ladder():
        if step.difficulty == difficulty:
            return step.label
    return None


@dataclass(frozen=True)
class OddsRow:
    """Exact chances of success at one difficulty and modifier: plain, with advantage, with disadvantage."""

    difficulty: int
    modifier: int
    label: str | None
    plain: Fraction
    advantage: Fraction
    disadvantage: Fraction


def odds_table(
    difficulties: Iterable[int] = range(2, 21), modifiers: Iterable[int] = (0,)
) -> tuple[OddsRow, ...]:
    """Exact odds of success for every difficulty x modifier, with advantage and disadvantage.

    Without modifiers it reproduces the source's Difficulty Number Table
    (difficulty 8: 41.67%). Core Mechanics § Difficulty Number Table, § Advantage
    and Disadvantage.

    Raises:
        ValueError: for an out-of-range difficulty or modifier, or more than
            :data:`MAX_ODDS_ENTRIES` difficulties or modifiers.
    """
    listed_difficulties = tuple(islice(difficulties, MAX_ODDS_ENTRIES + 1))
    listed_modifiers = tuple(islice(modifiers, MAX_ODDS_ENTRIES + 1))
    if max(len(listed_difficulties), len(listed_modifiers)) > MAX_ODDS_ENTRIES:
        raise ValueError(f"An odds table lists at most {MAX_ODDS_ENTRIES} difficulties and modifiers.")
    diffs = tuple(dict.fromkeys(check_difficulty(d) for d in listed_difficulties))
    mods = tuple(dict.fromkeys(check_modifier(m) for m in listed_modifiers))
    return tuple(
        OddsRow(
            difficulty=d,
            modifier=m,
            label=difficulty_label(d),
            plain=success_chance(m, d),
            advantage=success_chance(m, d, 1, 0),
            disadvantage=success_chance(m, d, 0, 1),
        )
        for d in diffs
        for m in mods
    )
