"""The time checks calculator: the median duration moved by the Effect, floors and combat rounds.

Rules: Core Mechanics § Time and Checks; Actions § Extended Actions; rulings: the median, the floor.
"""

from __future__ import annotations

from functools import partial
from itertools import product

import _calc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.framework import runtime

outputs = partial(_calc.outputs, "time")


@pytest.mark.parametrize(("effect", "duration"), [(1, "2 s"), (0, "3 s"), (-1, "4 s"), (-3, "6 s")])
def test_a_1d6_second_task_follows_the_sources_example(effect: int, duration: str) -> None:
    # Core Mechanics § Time and Checks: median 3 s; +1 -> 2 s, -1 -> 4 s, fail effect of three -> 6 s.
    found = outputs(die="1d6", effect=effect)
    assert found["median"] == "3 s" and found["duration"] == duration


def test_a_task_is_never_quicker_than_the_lowest_roll_unless_the_ruling_says_one_unit() -> None:
    # Ruling: time-floor. 2d6 minutes: lowest roll 2; one-unit floor: 1.
    assert outputs(die="2d6", unit="minutes", effect=20)["duration"] == "2 min"
    assert outputs(die="2d6", unit="days", effect=20, floor="one_unit")["duration"] == "1 day"


def test_large_duration_dice_are_accepted_within_bounds_without_listing_nearby_effects() -> None:
    found = runtime.compute("time", {"die": "3d100", "effect": "-2", "unit": "days"})
    assert found["ok"] and found["outputs"]["duration"] == "153 days"
    assert "Nearby" not in found["details"]
    assert runtime.compute("time", {"die": "6d20"})["ok"]


def test_first_aids_3_minutes_are_30_combat_rounds() -> None:
    # Actions § Extended Actions: first aid's 3 minutes are 30 rounds of 6 s.
    assert outputs(die="1d6", unit="minutes")["rounds"] == "30 rounds"
    assert outputs(die="1d6", effect=-4)["rounds"] == "2 rounds"
    assert outputs(die="1d6", unit="hours")["rounds"] == "\u2014"


@settings(max_examples=30, deadline=None)
@given(count=st.integers(1, 3), sides=st.integers(2, 12), effect=st.integers(-50, 50))
def test_the_duration_is_the_lower_median_moved_by_the_effect_brute_force(
    count: int, sides: int, effect: int
) -> None:
    totals = sorted(sum(f) for f in product(range(1, sides + 1), repeat=count))
    median = totals[(len(totals) - 1) // 2]
    found = outputs(die=f"{count}d{sides}", effect=effect, unit="days")
    assert found["median"] == f"{median} day{'s' if median != 1 else ''}"
    expected = max(median - effect, count)
    assert found["duration"] == f"{expected} day{'s' if expected != 1 else ''}"


@pytest.mark.parametrize("die", ["x", "2d6+1", "D 1d6", "1d1", "7d6", "4d100", "21d6", "", "3d"])
def test_a_duration_roll_that_is_not_plain_dice_is_flagged(die: str) -> None:
    found = runtime.compute("time", {"die": die})
    assert not found["ok"] and "die" in found["errors"]
