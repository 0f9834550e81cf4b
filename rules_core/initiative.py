"""Initiative: the roll, the ambush, the Tactics bonus and the order of action.

Rules: Actions § Combat Round Summary, § Initiative (docs/rules/actions.md).
Rulings: notes/rulings-core-actions.md.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core import limits
from rules_core.checks import MAX_SKILL, check_modifier
from rules_core.tables import constant

MAX_COMBATANTS = limits.MAX_COMBATANTS
"""Ordering more combatants than this is rejected (bounded input)."""


def _check_roll(roll: int) -> None:
    if not 2 <= roll <= 12:
        raise ValueError("The initiative roll (2d6) must be between 2 and 12.")


def initiative(roll: int, characteristic_modifier: int, skill: int = 0, /, tactics_bonus: int = 0) -> int:
    """Initiative: 2d6 plus the characteristic modifier and the relevant skill (Recon, Tactics or a weapon).

    Add a unit's Tactics bonus when the character hears their tactician.
    Actions § Combat Round Summary > Initiative; § Initiative.

    Raises:
        ValueError: for a roll outside 2 to 12 or an out-of-range modifier.
    """
    _check_roll(roll)
    check_modifier(characteristic_modifier, "The characteristic modifier")
    if not 0 <= skill <= MAX_SKILL:
        raise ValueError(f"A skill level must be between 0 and {MAX_SKILL}.")
    check_modifier(tactics_bonus, "The Tactics bonus")
    return roll + characteristic_modifier + skill + tactics_bonus


def unprepared_initiative(roll: int, dexterity_modifier: int, /, tactics_bonus: int = 0) -> int:
    """Initiative when everyone is caught unprepared: 2d6 plus the Dexterity DM.

    Actions § Initiative.

    Raises:
        ValueError: for a roll outside 2 to 12 or an out-of-range modifier.
    """
    _check_roll(roll)
    check_modifier(dexterity_modifier, "The Dexterity DM")
    check_modifier(tactics_bonus, "The Tactics bonus")
    return roll + dexterity_modifier + tactics_bonus


def ambush_initiative(dexterity_modifier: int, /, tactics_bonus: int = 0) -> int:
    """Initiative of a combatant ready for combat when others are not (an ambush): 12 plus the Dexterity DM.

    Actions § Initiative.

    Raises:
        ValueError: for an out-of-range modifier.
    """
    check_modifier(dexterity_modifier, "The Dexterity DM")
    check_modifier(tactics_bonus, "The Tactics bonus")
    roll: int = constant("initiative", "ambush_roll")
    return roll + dexterity_modifier + tactics_bonus


def tactics_initiative_bonus(tactics_effect: int, /, *, negative_counts: bool = True) -> int:
    """The Effect of a Tactics check, added to the initiative of the tactician's unit in direct contact.

    The source says to add "the Effect"; by default a negative Effect lowers the
    unit's initiative (``negative_counts=False`` counts only a success).
    Actions § Initiative.

    Raises:
        ValueError: for an out-of-range Effect.
    """
    check_modifier(tactics_effect, "The Tactics Effect")
    return tactics_effect if negative_counts else max(tactics_effect, 0)


def initiative_order(scores: Mapping[str, int], /) -> tuple[str, ...]:
    """Combatants in the order they act: highest initiative first; ties keep the order given.

    Actions § Combat Round Summary > Action Order (the source does not break ties).

    Raises:
        ValueError: for more than 500 combatants.
    """
    if len(scores) > MAX_COMBATANTS:
        raise ValueError(f"At most {MAX_COMBATANTS} combatants can be ordered.")
    return tuple(sorted(scores, key=lambda name: -scores[name]))
