"""Mistrunner movement: 5 + coordination metres per move, doubled when running.

Rules: Mistrunner: Combat § Actions (docs/peers/mistrunner.md#movement).
"""

from __future__ import annotations

from fractions import Fraction

from rules_core.peers.mistrunner._figures import check_score, figure


def move_metres(coordination: int, /, *, running: bool = False) -> int:
    """Metres covered by one move action: 5 plus the coordination score, twice that when running.

    Mistrunner: Combat § Actions.

    Raises:
        ValueError: if the coordination score would make the distance negative.
    """
    check_score("Coordination", coordination)
    metres = figure("base_move_metres") + coordination
    if metres < 0:
        raise ValueError(f"Coordination must be at least {-figure('base_move_metres')}.")
    return metres * (figure("run_multiplier") if running else 1)


def move_metres_per_second(coordination: int, /, *, running: bool = False) -> Fraction:
    """One move action spread over the 3-second turn, in metres per second.

    Mistrunner: Combat § Combat (turn length), § Actions.
    """
    return Fraction(move_metres(coordination, running=running), figure("turn_seconds"))
