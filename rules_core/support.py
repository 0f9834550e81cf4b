"""Helping another roll: supporting actions, coordination and plan/wait, worked as exact odds.

Rules: Actions § Supporting Actions, § Coordinating Action, § Plan/Wait; Core Mechanics § Modifiers to Rolls
(same kind does not stack). The single-roll figures are :mod:`rules_core.action_options`'; this module
combines them into the chance of the helped roll. Rulings: ``supporting-effect``,
``supporting-several-allies``, ``support-stacking``, ``coordination-offset`` (notes/rulings-core-actions.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from rules_core import action_options, checks
from rules_core._choices import check_whole, choice

MAX_SUPPORTERS = 6
"""Supporters followed at most (bounded work; the odds of six are already exact and quick)."""


class SupportStacking(StrEnum):
    """How the bonuses of several supporters combine (ruling ``support-stacking``).

    ``BEST`` (default): supporting bonuses are one kind of modifier, which does not stack: the best counts.
    ``SUM``: every supporter's Effect is added.
    """

    BEST = "best"
    SUM = "sum"


@dataclass(frozen=True)
class Coordination:
    """A coordinated action's difficulty: the referee's 1 to 4, less the Leadership or Tactics offset."""

    difficulty: int
    added: int
    offset: int


def combined_support(
    effects: Sequence[int], /, *, stacking: SupportStacking | str = SupportStacking.BEST
) -> int:
    """The DM several supporters give: each a success Effect (a failure gives 0), the best or the sum.

    Actions § Supporting Actions; Core Mechanics § Modifiers to Rolls > Important Rules.

    Raises:
        ValueError: for too many supporters, an Effect out of range or an unknown reading.
    """
    how = choice(SupportStacking, stacking, "The support stacking reading")
    if len(effects) > MAX_SUPPORTERS:
        raise ValueError(f"At most {MAX_SUPPORTERS} supporters can be followed.")
    bonuses = [action_options.supporting_bonus(effect) for effect in effects]
    if not bonuses:
        return 0
    return max(bonuses) if how is SupportStacking.BEST else sum(bonuses)


def support_distribution(
    modifier: int,
    difficulty: int,
    supporters: int,
    /,
    *,
    stacking: SupportStacking | str = SupportStacking.BEST,
) -> Mapping[int, Fraction]:
    """Exact distribution of the DM ``supporters`` alike supporters give (each rolls 2d6 + ``modifier``
    against ``difficulty``; a success gives its Effect). Actions § Supporting Actions.

    Raises:
        ValueError: for a count outside 0..MAX_SUPPORTERS, a modifier or difficulty out of range.
    """
    how = choice(SupportStacking, stacking, "The support stacking reading")
    check_whole("The number of supporters", supporters, 0, MAX_SUPPORTERS)
    checks.check_modifier(modifier)
    checks.check_difficulty(difficulty)
    one: dict[int, Fraction] = {}
    for total, chance in checks.check_distribution().items():
        bonus = action_options.supporting_bonus(checks.effect(total + modifier, difficulty))
        one[bonus] = one.get(bonus, Fraction(0)) + chance
    result: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(supporters):
        step: dict[int, Fraction] = {}
        for have, p in result.items():
            for bonus, q in one.items():
                joined = max(have, bonus) if how is SupportStacking.BEST else have + bonus
                step[joined] = step.get(joined, Fraction(0)) + p * q
        result = step
    return dict(sorted(result.items()))


def helped_chance(
    modifier: int,
    difficulty: int,
    bonus: Mapping[int, Fraction],
    /,
    advantage: int = 0,
    disadvantage: int = 0,
) -> Fraction:
    """Exact chance of the helped roll when its support DM follows ``bonus`` (DM -> chance).

    A DM past the check's range is brought within it (the chance is then already certain).

    Raises:
        ValueError: for a modifier or difficulty out of range.
    """
    checks.check_modifier(modifier)
    return sum(
        (
            p
            * checks.success_chance(
                checks.within_check_range(modifier + dm), difficulty, advantage, disadvantage
            )
            for dm, p in bonus.items()
        ),
        Fraction(0),
    )


def coordinated(difficulty: int, added: int, skill: int, /) -> Coordination:
    """A coordinated action: the referee adds 1 to 4; a Leadership or Tactics skill offsets up to its level,
    never below the plain difficulty. Actions § Coordinating Action > Difficulty, > Skills (ruling
    ``coordination-offset``).

    Raises:
        ValueError: for a difficulty out of range, ``added`` outside 1..4 or a negative skill.
    """
    if skill < 0:
        raise ValueError("The Leadership or Tactics skill cannot be negative.")
    offset = min(skill, added)
    return Coordination(action_options.coordination_difficulty(difficulty, added, offset), added, offset)
