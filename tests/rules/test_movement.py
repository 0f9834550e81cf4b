"""Movement of a seriously wounded character: 3/4 speed and no Dash.

Rules: Outcomes § Seriously Wounded > Movement Effects; Actions § Movement Table.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core.movement import WoundedRounding, movement


def test_seriously_wounded_moves_at_three_quarters_rounded_down_by_default() -> None:
    """Outcomes § Seriously Wounded: "movement speed is at 3/4"; Run 15 spaces becomes 11 (16.5 m)."""
    run = movement("run", seriously_wounded=True)
    assert (run.spaces, run.metres) == (11, Fraction(33, 2))
    assert movement("move", "medium", seriously_wounded=True).spaces == 2


def test_the_exact_reading_keeps_three_quarters_of_the_distance() -> None:
    run = movement("run", seriously_wounded=True, wounded_rounding=WoundedRounding.EXACT)
    assert (run.spaces, run.metres) == (Fraction(45, 4), Fraction(135, 8))


def test_seriously_wounded_cannot_dash() -> None:
    """Outcomes § Seriously Wounded: "Cannot Dash"."""
    dash = movement("dash", seriously_wounded=True)
    assert (dash.spaces, dash.metres) == (None, None)


def test_an_unknown_rounding_is_refused() -> None:
    with pytest.raises(ValueError, match="rounding"):
        movement("run", seriously_wounded=True, wounded_rounding="up")
