"""docs/peers/minds-eye-theatre.md shows the same figures as the Mind's Eye Theatre data (no drift)."""

from __future__ import annotations

from pathlib import Path

import _page

from rules_core.peers.minds_eye import turn_actions
from rules_core.tables import constant, table

PAGE = Path(__file__).resolve().parents[2] / "docs" / "peers" / "minds-eye-theatre.md"


def page_table(anchor: str) -> list[list[str]]:
    """Body rows of the first markdown table after the heading with ``{#anchor}``."""
    return _page.page_table(PAGE, anchor)


def test_the_tie_break_table_follows_the_data_order():
    rows = page_table("initiative")
    keys = [r["key"] for r in table("minds_eye_initiative_tiebreaks").rows]
    assert [row[0] for row in rows] == ["1", "2", "3", "4"]
    assert [row[1].split()[0].lower() for row in rows] == keys


def test_the_movement_table_has_every_move_with_its_steps():
    steps = [row[1].removeprefix("up to ") for row in page_table("movement")]
    data = [str(r["steps"]) for r in table("minds_eye_movement").rows]
    # The page adds a "both actions" row (6) after the two plain moves.
    assert steps == [data[0], data[1], "6", *data[2:]]


def test_the_celerity_table_matches_turn_actions():
    for row in page_table("celerity-rounds"):
        turn = turn_actions(int(row[0]))
        assert row[1:] == [
            str(turn.rounds),
            f"{turn.standard_actions} + {turn.simple_actions}",
            str(turn.max_steps),
        ]


def test_the_prone_table_matches_the_constants():
    rows = page_table("lying-prone")
    assert rows[0][1].startswith(f"+{constant('minds_eye_constants', 'prone_far_ranged_bonus')}")
    assert rows[1][1] == f"\u2212{-constant('minds_eye_constants', 'prone_close_penalty')}"
