"""The stealth and search calculator: the matchup, the Difficulty built term by term, the chance.

Rules: Actions § Quick Scan, § Minor Stealth, § Deliberate Stealth, § Scan/Search. Rulings: which look beats
which hiding, search modifiers, the stealth skill.
"""

from __future__ import annotations

from functools import partial

import _calc
import pytest

outputs = partial(_calc.outputs, "stealth")


@pytest.mark.parametrize(
    ("params", "outcome", "chance"),
    [
        ({"hiding": "minor", "watching": "none"}, "hidden", "100%"),
        ({"hiding": "minor", "watching": "search"}, "seen", "0%"),
        ({"hiding": "deliberate", "watching": "quick_scan"}, "hidden", "100%"),
        ({"hiding": "deliberate", "watching": "quick_scan", "reading": "always"}, "roll", "41.67%"),
        ({"side": "search", "hiding": "minor", "watching": "quick_scan"}, "seen", "100%"),  # found: you win
        ({"side": "search", "hiding": "deliberate", "watching": "quick_scan"}, "hidden", "0%"),
    ],
)
def test_the_ladder_decides_without_a_roll(params: dict[str, str], outcome: str, chance: str) -> None:
    found = outputs(**params)
    assert (found["outcome"], found["chance"]) == (outcome, chance)


def test_sneaking_past_a_searching_sentry() -> None:
    """Actions § Deliberate Stealth > Roll: 8 + Recon 1 + ChM 1 + conditions 0 - hiding 2 = 8; +2: 72.22%."""
    found = outputs(modifier=2, adversary_skill=1, adversary_chm=1, hiding_factors=2)
    assert (found["outcome"], found["difficulty"], found["chance"]) == ("roll", "8", "72.22%")
    assert found["summary"] == "Roll against 8: you stay hidden 72.22% of the time."


def test_searching_for_an_unskilled_hider() -> None:
    """Actions § Scan/Search > Roll: 8 + no stealth (-3) + ChM 0 + conditions 1 = 6; DM +1 needs 5: 83.33%."""
    found = outputs(side="search", modifier=1, adversary_skill="", conditions=1)
    assert (found["difficulty"], found["chance"]) == ("6", "83.33%")


def test_a_difficulty_below_2_cannot_fail() -> None:
    found = outputs(adversary_skill="", adversary_chm=-2, hiding_factors=5)
    assert (found["difficulty"], found["chance"]) == ("-2", "100%")
