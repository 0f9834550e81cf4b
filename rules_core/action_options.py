"""Action options: reckless, supporting, coordinating and plan/wait.

Rules: Actions § Action Options, § Reckless Action, § Supporting Actions,
§ Coordinating Action, § Plan/Wait (docs/rules/actions.md). The costly success
lives in :mod:`rules_core.checks`. Rulings: notes/rulings-core-actions.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules_core._choices import choice
from rules_core.checks import check_difficulty, check_modifier
from rules_core.tables import int_constant


def _c(key: str) -> int:
    return int_constant("action_options", key)


class RecklessReading(StrEnum):
    """What a reckless success is worth (ruling ``reckless-twice``).

    ``FULL_SUCCESS`` (default): The success counts at its full Effect; the Effect less 3, if negative, is
        also suffered.
    ``REDUCED_SUCCESS``: The success counts at its Effect less 3 (at least 0); a negative result is also
        suffered.
    """

    FULL_SUCCESS = "full_success"
    REDUCED_SUCCESS = "reduced_success"


@dataclass(frozen=True)
class RecklessOutcome:
    """A reckless action resolved: whether it succeeded, its success effect and the fail effect suffered."""

    effect: int
    success: bool
    success_effect: int
    fail_degree: int


def reckless_roll_modifier() -> int:
    """DM gained by acting recklessly: +2. Actions § Reckless Action > Effect."""
    return _c("reckless_roll_modifier")


def reckless_action(
    effect: int, /, reading: RecklessReading | str = RecklessReading.FULL_SUCCESS
) -> RecklessOutcome:
    """Resolve a reckless action from the Effect of its roll (made with the +2 DM).

    A success is resolved, then its Effect is taken 3 lower: below 0, the
    failure's harm is suffered as well (an Effect of 1 also brings a fail effect
    of 2). A failure is 3 worse. Actions § Action Options; § Reckless Action > Effect.

    Raises:
        ValueError: for an Effect beyond plus or minus 50 or an unknown reading.
    """
    check_modifier(effect, "The Effect")
    how = choice(RecklessReading, reading, "The reckless reading")
    if effect < 0:
        return RecklessOutcome(effect, False, 0, -effect + _c("reckless_fail_penalty"))
    after = effect - _c("reckless_effect_penalty")
    success_effect = effect if how is RecklessReading.FULL_SUCCESS else max(after, 0)
    return RecklessOutcome(effect, True, success_effect, max(-after, 0))


def supporting_bonus(effect: int, /) -> int:
    """DM a supporting action gives the allies it aids: its success Effect (nothing on a failure).

    Actions § Supporting Actions.

    Raises:
        ValueError: for an Effect beyond plus or minus 50.
    """
    check_modifier(effect, "The Effect")
    return max(effect, 0)


def coordination_difficulty(difficulty: int, coordination: int, /, offset: int = 0) -> int:
    """Difficulty of a coordinated action: the referee adds 1 to 4, which Leadership or Tactics may offset.

    Actions § Coordinating Action > Difficulty, > Skills.

    Raises:
        ValueError: for a coordination modifier outside 1 to 4 or an offset outside 0 to it.
    """
    check_difficulty(difficulty)
    low, high = _c("coordination_min"), _c("coordination_max")
    if not low <= coordination <= high:
        raise ValueError(f"The coordination modifier must be between {low} and {high}.")
    if not 0 <= offset <= coordination:
        raise ValueError(f"The offset must be between 0 and the coordination modifier ({coordination}).")
    return difficulty + coordination - offset


def plan_rolls(prediction_correct: bool, /) -> tuple[int, int]:
    """A planned action rolls with 1 advantage if the prediction was right, else 1 disadvantage.

    Actions § Plan/Wait.
    """
    rolls = _c("plan_rolls")
    return (rolls, 0) if prediction_correct else (0, rolls)


def plan_difficulty(difficulty: int, shift: int, /) -> int:
    """Difficulty when the referee resolves a divulged prediction by moving the difficulty 1 to 4 either way.

    A likely prediction lowers the difficulty (negative shift), an unlikely one
    raises it. Actions § Plan/Wait > Alternative Resolution.

    Raises:
        ValueError: for a shift beyond 4 either way.
    """
    check_difficulty(difficulty)
    most = _c("plan_shift_max")
    if not -most <= shift <= most:
        raise ValueError(f"The difficulty moves by at most {most} either way.")
    return difficulty + shift


def coordination_max() -> int:
    """Most difficulty the referee adds to a coordinated action (4). Actions § Coordinating Action."""
    return _c("coordination_max")
