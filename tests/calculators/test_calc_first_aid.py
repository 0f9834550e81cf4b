"""The first aid duration calculator: one round's chance, the mean rounds, the chance of being done in time.

Rules: Outcomes § First Aid (Duration, Difficulty, Time Reduction); Actions § Extended Actions. Rulings: first
aid time, first aid as an extended action. The odds are exact (rules_core.healing.first_aid_duration).
"""

from __future__ import annotations

from functools import partial

import _calc

from rules_core import healing

outputs = partial(_calc.outputs, "first_aid")


def test_a_medic_at_plus_0_against_8() -> None:
    """The healing page's example: 27.71 rounds on average instead of 30 (ruling first-aid-time)."""
    found = outputs(modifier=0)
    assert (found["round_chance"], found["expected"]) == ("41.67%", "27.71")


def test_never_more_than_30_rounds_under_the_default_reading() -> None:
    """Outcomes § First Aid > Duration: 30 rounds; a fail effect only undoes time saved."""
    assert outputs(modifier=-20, within=30)["within"] == "100%"
    assert outputs(modifier=-20, within=29)["within"] == "0%"


def test_the_other_reading_puts_rounds_back() -> None:
    """Ruling first-aid-time: with rounds put back a +0 medic needs 178.33 rounds on average."""
    assert outputs(reading="rounds_back")["expected"] == "178.33"
    assert outputs(reading="rounds_back", modifier=-20)["expected"] == "never"


def test_on_oneself_is_difficulty_10() -> None:
    """Outcomes § First Aid > Difficulty: 10 on oneself (2d6 reaches 10: 6/36)."""
    assert outputs(on_self=1)["round_chance"] == "16.67%"


def test_the_mean_agrees_with_the_engine() -> None:
    odds = healing.first_aid_duration(3)
    assert outputs(modifier=3)["expected"] == f"{float(odds.expected_rounds or 0):.2f}"
