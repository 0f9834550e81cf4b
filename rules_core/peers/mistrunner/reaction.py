"""Mistrunner turn order: reaction rolls, extra actions, dodging.

Rules: Mistrunner: Combat § Combat Sequence, § Reaction Rolls, § Dodging
(docs/peers/mistrunner.md#reaction-rolls).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules_core.peers.mistrunner._figures import check_score, figure
from rules_core.tables import table


@dataclass(frozen=True)
class ActionSlot:
    """One action of a turn: its number, the segment it acts on, and dice lost from its roll."""

    action: int
    segment: int
    dice_penalty: int


@dataclass(frozen=True)
class Combatant:
    """A character in the turn: reaction result, perception score (tie-break) and actions wanted."""

    name: str
    reaction_result: int
    perception: int = 0
    actions: int = 1


@dataclass(frozen=True)
class ScheduledAction:
    """An action placed in the turn's order.

    ``simultaneous_with_previous`` is true when it shares both segment and
    perception with the action before it: the seed breaks no further tie.
    """

    name: str
    slot: ActionSlot
    simultaneous_with_previous: bool


def reaction_result(die: int, reaction_score: int, /) -> int:
    """Reaction result: one d10 plus the reaction score.

    Mistrunner: Combat § Reaction Rolls (a 7 rolled with score 2 gives 9).

    Raises:
        ValueError: if the die is not a face of a d10 or the score is absurd.
    """
    check_score("The reaction die", die, minimum=1, maximum=figure("reaction_die_sides"))
    check_score("The reaction score", reaction_score)
    return die + reaction_score


def action_slots(reaction_result: int, /, actions: int = 1) -> tuple[ActionSlot, ...]:
    """When each of up to three actions acts, and its dice penalty.

    The first acts on the reaction result, the second on half of it, the third
    on a quarter, always rounded down; they lose 0, 2 and 4 dice.
    Mistrunner: Combat § Reaction Rolls (result 9 acts on 9, 4 and 2).

    Raises:
        ValueError: if ``actions`` is not between 1 and 3.
    """
    check_score("The reaction result", reaction_result)
    check_score("The number of actions", actions, minimum=1, maximum=figure("max_actions"))
    rows = table("mistrunner_extra_actions").rows[:actions]
    return tuple(
        ActionSlot(row["action"], reaction_result // row["divisor"], row["dice_penalty"]) for row in rows
    )


def turn_schedule(combatants: Sequence[Combatant], /) -> tuple[ScheduledAction, ...]:
    """Every action of the turn in the order it happens.

    Higher segment first; on equal segments the higher perception acts first.
    Actions still tied are marked simultaneous and keep the order given.
    Mistrunner: Combat § Combat Sequence, § Reaction Rolls.

    Raises:
        ValueError: if names repeat or a combatant's figures are out of range.
    """
    names = [c.name for c in combatants]
    if len(set(names)) != len(names):
        raise ValueError("Each combatant needs a different name.")
    if len(combatants) > 100:
        raise ValueError("At most 100 combatants can be ordered.")
    entries = []
    for index, combatant in enumerate(combatants):
        check_score(f"{combatant.name}'s perception", combatant.perception)
        for slot in action_slots(combatant.reaction_result, actions=combatant.actions):
            entries.append((-slot.segment, -combatant.perception, index, slot.action, combatant.name, slot))
    entries.sort()
    schedule: list[ScheduledAction] = []
    previous: tuple[int, int] | None = None
    for segment, perception, _index, _action, name, slot in entries:
        schedule.append(ScheduledAction(name, slot, previous == (segment, perception)))
        previous = (segment, perception)
    return tuple(schedule)


def may_dodge(defender_reaction: int, attacker_reaction: int, /, *, able_to_react: bool = True) -> bool:
    """A hit target may dodge if its reaction result is at least the attacker's and it is free to react.

    Mistrunner: Combat § Dodging.
    """
    check_score("The defender's reaction", defender_reaction)
    check_score("The attacker's reaction", attacker_reaction)
    return able_to_react and defender_reaction >= attacker_reaction


def dodged_attack_total(attack_total: int, dodge_total: int, /) -> int | None:
    """The attack total left after a dodge, or ``None`` if the dodge defeats the attack.

    The dodge total is subtracted from the attack total; a dodge that meets or
    exceeds it leaves nothing, so the attack fails (see notes/rulings-peers.md,
    "Dodge equal to the attack"). Mistrunner: Combat § Dodging.
    """
    check_score("The attack total", attack_total, minimum=0)
    check_score("The dodge total", dodge_total, minimum=0)
    left = attack_total - dodge_total
    return left if left > 0 else None


def dodge_penalty_dice(dodges: int, /) -> int:
    """Dice lost on every other (non-dodge) roll of the turn: one per dodge attempted.

    Mistrunner: Combat § Dodging.
    """
    check_score("The number of dodges", dodges, minimum=0)
    return dodges * figure("dodge_penalty_dice")
