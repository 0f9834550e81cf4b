"""Stealth and search in the engine: which look beats which hiding, the two Difficulties, the roll's chance.

Rules: Actions § Quick Scan, § Minor Stealth, § Deliberate Stealth, § Scan/Search; Core Mechanics § Unskilled
Penalty. Rulings: which look beats which hiding, search modifiers copied from stealth, the stealth skill.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from _dice import brute_force_chance
from hypothesis import given
from hypothesis import strategies as st

from rules_core import stealth
from rules_core.stealth import Detection, Hiding, Watching

H, S, R = Detection.HIDDEN, Detection.SEEN, Detection.ROLL


@pytest.mark.parametrize(
    ("hiding", "watching", "found", "always"),
    [
        (Hiding.MINOR, Watching.NONE, H, H),  # Minor Stealth > Effect: unaware unless quick-scanning
        (Hiding.MINOR, Watching.QUICK_SCAN, S, S),  # Quick Scan > Stealth Detection
        (Hiding.MINOR, Watching.SEARCH, S, S),  # Scan/Search > Stealth Detection (ruling: not "unaware")
        (
            Hiding.DELIBERATE,
            Watching.NONE,
            H,
            R,
        ),  # evades anything less than Scan/Search; other reading rolls
        (Hiding.DELIBERATE, Watching.QUICK_SCAN, H, R),  # Deliberate Stealth beats Quick Scan
        (Hiding.DELIBERATE, Watching.SEARCH, R, R),  # the roll decides
    ],
)
def test_the_detection_ladder(
    hiding: Hiding, watching: Watching, found: Detection, always: Detection
) -> None:
    assert stealth.detection(hiding, watching) is found
    assert stealth.detection(hiding.value, watching.value, reading="always") is always


def test_the_stealth_difficulty_is_8_plus_recon_chm_and_conditions_less_what_hides() -> None:
    """Actions § Deliberate Stealth > Roll, > Modifiers: 8 + Recon 1 + ChM 1 + conditions 2 - hiding 3 = 9."""
    assert stealth.deliberate_stealth_difficulty(1, 1, adversary_conditions=2, hiding_factors=3) == 9
    # Core Mechanics § Unskilled Penalty: no Recon counts -3 (ruling search-modifiers).
    assert stealth.deliberate_stealth_difficulty(None, 0) == 5


def test_the_search_difficulty_is_8_plus_stealth_chm_and_what_hides_them() -> None:
    """Actions § Scan/Search > Roll; ruling search-modifiers: what hides them raises it."""
    assert stealth.scan_difficulty(2, 1, conditions=2) == 13
    assert stealth.scan_difficulty(None, -1) == 4


def test_a_stealth_difficulty_below_2_cannot_fail_and_one_past_12_plus_dm_cannot_succeed() -> None:
    assert stealth.roll_chance(0, 1) == 1
    assert stealth.roll_chance(0, -4) == 1
    assert stealth.roll_chance(0, 13) == 0
    assert stealth.roll_chance(-3, 2) == Fraction(30, 36)  # 2d6 - 3 reaches 2 on a 5 or more


@given(st.integers(-20, 20), st.integers(-10, 40), st.integers(-2, 2))
def test_the_roll_chance_matches_brute_force(modifier: int, difficulty: int, net: int) -> None:
    advantage, disadvantage = max(net, 0), max(-net, 0)
    expected = brute_force_chance(modifier, difficulty, net)
    assert stealth.roll_chance(modifier, difficulty, advantage, disadvantage) == expected


def test_bad_values_are_refused_with_a_sentence() -> None:
    with pytest.raises(ValueError, match="hiding factors"):
        stealth.deliberate_stealth_difficulty(0, 0, hiding_factors=stealth.MAX_HIDING_FACTORS + 1)
    with pytest.raises(ValueError, match="must be one of"):
        stealth.detection("invisible", "search")
