"""Mind's Eye Theatre turns: the everyman round, then up to three Celerity rounds.

Rules: Mind's Eye Theatre: Complex Scenarios § Measuring Time, § Step Four: Celerity Rounds
(docs/peers/minds-eye-theatre.md#celerity-rounds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules_core.peers.minds_eye._figures import check_whole, figure
from rules_core.peers.minds_eye.actions import movement_steps
from rules_core.peers.minds_eye.initiative import Character, initiative_order

_KINDS = ("physical", "mental", "social")


@dataclass(frozen=True)
class Round:
    """One round of a turn: 0 is the everyman round, 1 to 3 the Celerity rounds; who acts, in order."""

    number: int
    name: str
    acting: tuple[str, ...]


@dataclass(frozen=True)
class TurnActions:
    """What one character can do in a whole turn."""

    rounds: int
    standard_actions: int
    simple_actions: int
    max_steps: int
    seconds: int


def turn_rounds(characters: Sequence[Character], /) -> tuple[Round, ...]:
    """The rounds of a turn: everyone in the everyman round, then each Celerity round with only those able.

    Each round follows initiative order, skipping characters who cannot act in
    it; the turn ends after the last Celerity round anyone can use.
    Mind's Eye Theatre: Complex Scenarios § Measuring Time, § Step Four: Celerity Rounds.
    """
    order = [entry.name for entry in initiative_order(characters)]
    reach = {c.name: c.celerity_rounds for c in characters}
    last = max((c.celerity_rounds for c in characters), default=0)
    rounds = [Round(0, "Everyman round", tuple(order))]
    for number in range(1, last + 1):
        acting = tuple(name for name in order if reach[name] >= number)
        rounds.append(Round(number, f"Celerity round {number}", acting))
    return tuple(rounds)


def action_allowed_in_round(kind: str, round_number: int, /) -> bool:
    """Only Physical actions (moving, attacking, Physical powers) may be taken in a Celerity round.

    Mind's Eye Theatre: Complex Scenarios § Step Four: Celerity Rounds.
    """
    if kind not in _KINDS:
        raise ValueError(f"Action kind must be one of {', '.join(_KINDS)}.")
    check_whole("The round number", round_number, maximum=figure("max_celerity_rounds"))
    return round_number == 0 or kind == "physical"


def turn_actions(celerity_rounds: int = 0, /) -> TurnActions:
    """Rounds, actions and the most steps one character gets in a turn of about 3 seconds.

    Each round gives one standard and one simple action (6 steps if both move).
    Mind's Eye Theatre: Complex Scenarios § Measuring Time, § Actions, § Movement.
    """
    check_whole("Celerity rounds", celerity_rounds, maximum=figure("max_celerity_rounds"))
    rounds = 1 + celerity_rounds
    steps_per_round = movement_steps(("move_standard", "move_simple"))
    return TurnActions(
        rounds,
        rounds * figure("standard_actions_per_round"),
        rounds * figure("simple_actions_per_round"),
        rounds * steps_per_round,
        figure("turn_seconds"),
    )
