"""The Tactics skill: risk, the advantage or disadvantage rolls it grants, and re-attempts.

Rules: Actions § Tactics Skill, § List of Significant Actions (Use Tactics)
(docs/rules/actions.md). Rulings: notes/rulings-core-actions.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules_core._choices import choice
from rules_core.checks import MAX_SKILL, check_modifier
from rules_core.tables import constant, table


class TacticsReading(StrEnum):
    """How many rolls a Tactics check grants (ruling ``tactics-count``).

    ``EFFECT`` (default): The Effect capped by the risk: advantage rolls on a success, disadvantage on a
        failure.
    ``SKILL_PLUS_ONE``: Skill + 1 rolls, as the Use Tactics line of the significant actions table says.
    """

    EFFECT = "effect"
    SKILL_PLUS_ONE = "skill_plus_one"


@dataclass(frozen=True)
class TacticsRolls:
    """Advantage and disadvantage rolls a Tactics check grants for the battle."""

    difficulty: int
    effect: int
    advantage_rolls: int
    disadvantage_rolls: int


def _check_skill(skill: int) -> None:
    if not 0 <= skill <= MAX_SKILL:
        raise ValueError(f"A skill level must be between 0 and {MAX_SKILL}.")


def tactics_difficulties() -> tuple[int, ...]:
    """The risks a tactician may declare: difficulty 6, 8, 10 or 12. Actions § Tactics Skill > Procedure."""
    return tuple(table("tactics_risk").column("difficulty"))


def tactics_max_effect(difficulty: int, /) -> int:
    """Largest success or fail effect at a declared risk: 6 gives 1, 8 gives 2, 10 gives 4, 12 gives 8.

    Actions § Tactics Skill > Procedure.

    Raises:
        ValueError: for a difficulty that is not a declared risk.
    """
    for row in table("tactics_risk").rows:
        if row["difficulty"] == difficulty:
            value: int = row["max_effect"]
            return value
    allowed = ", ".join(str(d) for d in tactics_difficulties())
    raise ValueError(f"Tactics is rolled at difficulty {allowed}.")


def tactics_rolls(
    effect: int,
    difficulty: int,
    /,
    *,
    skill: int = 0,
    reading: TacticsReading | str = TacticsReading.EFFECT,
) -> TacticsRolls:
    """Advantage rolls from a Tactics success, or disadvantage rolls from a failure, capped by the risk.

    Actions § Tactics Skill > Procedure; § List of Significant Actions (Use Tactics).

    Raises:
        ValueError: for a difficulty that is not a declared risk, an absurd Effect or skill.
    """
    how = choice(TacticsReading, reading, "The tactics reading")
    cap = tactics_max_effect(difficulty)
    check_modifier(effect, "The Tactics Effect")
    _check_skill(skill)
    capped = max(-cap, min(effect, cap))
    if how is TacticsReading.SKILL_PLUS_ONE:
        count = tactics_attempts(skill)
        return TacticsRolls(difficulty, capped, count if effect >= 0 else 0, count if effect < 0 else 0)
    return TacticsRolls(difficulty, capped, max(capped, 0), max(-capped, 0))


def tactics_attempts(skill: int, /) -> int:
    """Tactics attempts per battle: skill level + 1 (skill 1 tries twice).

    Actions § Tactics Skill > Re-attempting.

    Raises:
        ValueError: for an out-of-range skill.
    """
    _check_skill(skill)
    extra: int = constant("tactics", "extra_attempts")
    return skill + extra


def may_retry_tactics(attempts_made: int, skill: int, /, *, battle_changed: bool = False) -> bool:
    """Whether a tactician whose rolls are used up may roll again.

    Yes when the battle has changed a lot (the referee's call) or when fewer
    attempts than skill + 1 have been made. Actions § Tactics Skill > Re-attempting.

    Raises:
        ValueError: for a negative or absurd count or skill.
    """
    if not 0 <= attempts_made <= 100:
        raise ValueError("Attempts made must be between 0 and 100.")
    return battle_changed or attempts_made < tactics_attempts(skill)
