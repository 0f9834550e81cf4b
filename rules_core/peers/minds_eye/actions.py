"""Mind's Eye Theatre actions: standard and simple actions, movement in steps, lying prone.

Rules: Mind's Eye Theatre: Complex Scenarios § Actions, § Movement, § Advanced Movement,
§ Lying Prone (docs/peers/minds-eye-theatre.md#actions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules_core.peers.minds_eye._figures import check_whole, figure
from rules_core.tables import table


@dataclass(frozen=True)
class ActionBudget:
    """Actions a character may take in one round."""

    standard: int
    simple: int


def round_actions(*, forgo_standard: bool = False) -> ActionBudget:
    """One standard and one simple action; giving up the standard buys a second simple action.

    The reverse trade (a simple action for a second standard) is not allowed.
    Mind's Eye Theatre: Complex Scenarios § Actions.
    """
    standard, simple = figure("standard_actions_per_round"), figure("simple_actions_per_round")
    if forgo_standard:
        return ActionBudget(0, simple + standard)
    return ActionBudget(standard, simple)


def action_kind(*, needs_challenge: bool, needs_full_attention: bool = False) -> str:
    """``"standard"`` for anything needing a static or opposed challenge or full attention, else ``"simple"``.

    Mind's Eye Theatre: Complex Scenarios § Actions.
    """
    return "standard" if needs_challenge or needs_full_attention else "simple"


def movement_steps(moves: Sequence[str], /, *, prone: bool = False, forgo_standard: bool = False) -> int:
    """Steps covered by the movement actions of one round (keys of ``minds_eye_movement.json``).

    Moving costs a simple or a standard action for up to 3 steps each (6 with
    both); jumping, climbing or swimming needs the standard action; while prone
    a simple action crawls 1 step, or stands up and moves 1 step.
    Mind's Eye Theatre: Complex Scenarios § Movement, § Advanced Movement, § Lying Prone.

    Raises:
        ValueError: for an unknown move, more actions than the round allows, or a
            prone-only move while standing (or a standing move while prone).
    """
    rows = {row["key"]: row for row in table("minds_eye_movement").rows}
    budget = round_actions(forgo_standard=forgo_standard)
    spent = {"standard": 0, "simple": 0}
    steps = 0
    lying = prone
    for move in moves:
        if move not in rows:
            raise ValueError(f"Unknown move {move!r}; use one of {', '.join(rows)}.")
        row = rows[move]
        if row["needs_prone"] != lying and move != "drop_prone":
            raise ValueError(
                "Crawling or standing up needs a prone character; other moves need a standing one."
            )
        if move == "drop_prone" and lying:
            raise ValueError("The character is already prone.")
        spent[row["action"]] += 1
        steps += row["steps"]
        if move == "drop_prone":
            lying = True
        elif move == "stand_and_step":
            lying = False
    if (
        spent["standard"] > budget.standard
        or spent["standard"] + spent["simple"] > budget.standard + budget.simple
    ):
        raise ValueError(f"A round allows {budget.standard} standard and {budget.simple} simple action(s).")
    return steps


def prone_defence_modifier(distance_steps: int, /, *, ranged: bool) -> int:
    """Change to a prone defender's defense test pool against a physical attack.

    +2 against a Physical ranged attack from more than 3 steps away; -2 against
    any physical attack from within 3 steps. Mind's Eye Theatre: Complex
    Scenarios § Lying Prone.
    """
    check_whole("The distance in steps", distance_steps)
    if distance_steps <= figure("prone_threshold_steps"):
        return figure("prone_close_penalty")
    return figure("prone_far_ranged_bonus") if ranged else 0
