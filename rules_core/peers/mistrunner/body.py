"""Mistrunner body levels: life points, wound penalties, knock-outs, lasting injuries, recovery.

Rules: Mistrunner: Combat § Applying Damage, § Non-Lethal Combat
(docs/peers/mistrunner.md#body-levels).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules_core.peers.mistrunner._figures import MAX_SCORE, check_score, figure
from rules_core.tables import table

_MAX_DAMAGE = MAX_SCORE * MAX_SCORE


@dataclass(frozen=True)
class WoundState:
    """Where damage leaves a character: body level reached (``unhurt`` to ``unconscious``) and dice lost."""

    damage: int
    level: str
    name: str
    dice_penalty: int
    unconscious: bool


def life_points_per_level(con: int, /) -> int:
    """Life points in each body level: 10 plus the CON score.

    Mistrunner: Combat § Applying Damage.

    Raises:
        ValueError: if CON would leave a level with no life points.
    """
    check_score("CON", con)
    points = figure("life_points_base") + con
    if points < 1:
        lowest = 1 - figure("life_points_base")
        raise ValueError(f"CON must be at least {lowest} so that each body level has a point.")
    return points


def body_point_total(con: int, /) -> int:
    """All three body levels together: 3 x (10 + CON).

    Mistrunner: Combat § Applying Damage (see notes/rulings-peers.md, "Body points and life points").
    """
    return figure("body_levels") * life_points_per_level(con)


def wound_state(damage: int, con: int, /) -> WoundState:
    """The body level a total of lethal damage reaches, and its dice penalty.

    The levels fill in order; a level is entered once the one before it is
    full and one more point is lost. Moderate costs 2 dice, heavy 4; damage
    past the heavy level knocks the character out.
    Mistrunner: Combat § Applying Damage.
    """
    check_score("Damage", damage, minimum=0, maximum=_MAX_DAMAGE)
    per_level = life_points_per_level(con)
    levels = table("mistrunner_body_levels").rows
    if damage == 0:
        return WoundState(0, "unhurt", "Unhurt", 0, False)
    index = (damage - 1) // per_level
    if index >= len(levels):
        heavy = levels[-1]
        return WoundState(damage, "unconscious", "Unconscious", heavy["dice_penalty"], True)
    row = levels[index]
    return WoundState(damage, row["key"], row["name"], row["dice_penalty"], False)


def non_lethal_save_target(non_lethal_damage: int, con: int, /) -> int | None:
    """Target number of the save against a non-lethal knock-out, or ``None`` while no save is due.

    Once non-lethal damage reaches the body point total the target must save:
    the target number is the damage over that total.
    Mistrunner: Combat § Non-Lethal Combat.
    """
    check_score("Non-lethal damage", non_lethal_damage, minimum=0, maximum=_MAX_DAMAGE)
    total = body_point_total(con)
    if non_lethal_damage < total:
        return None
    return non_lethal_damage - total


def non_lethal_save_chance(non_lethal_damage: int, con: int, /) -> Fraction:
    """Exact chance of staying conscious: 1d10 + CON meeting the save's target number (1 if no save is due).

    Mistrunner: Combat § Non-Lethal Combat (see notes/rulings-peers.md, "Save roll: meet or beat").
    """
    target = non_lethal_save_target(non_lethal_damage, con)
    if target is None:
        return Fraction(1)
    sides = figure("save_die_sides")
    successes = sum(1 for face in range(1, sides + 1) if face + con >= target)
    return Fraction(successes, sides)


def serious_injury_chance(damage_to_part: int, con: int, /) -> Fraction:
    """Chance that one hit on one body part leaves a permanent or serious injury.

    5% for every point over half the body point total; a part of a point
    counts as a point; never above 100%. Mistrunner: Combat § Applying Damage
    (see notes/rulings-peers.md, "Half of an odd body point total").
    """
    check_score("Damage", damage_to_part, minimum=0, maximum=_MAX_DAMAGE)
    total = body_point_total(con)
    points_over = damage_to_part - total // 2
    if 2 * damage_to_part <= total:
        return Fraction(0)
    return min(Fraction(1), Fraction(points_over * figure("injury_percent_per_point"), 100))


def recovery_days(damage: int, /, *, complete_rest: bool = False) -> int:
    """Days to recover lost body points naturally: 1 a day of mild activity, 2 a day of complete rest.

    Mistrunner: Combat § Applying Damage.
    """
    check_score("Damage", damage, minimum=0, maximum=_MAX_DAMAGE)
    per_day = figure("heal_per_day_complete_rest" if complete_rest else "heal_per_day_mild_activity")
    return -(-damage // per_day)
