"""The initiative calculator: the three formulas, the Tactics bonus, the order and the odds before rolling.

Rules: Actions § Combat Round Summary, § Initiative; rulings: initiative formula, a failed Tactics check.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from itertools import product

import _calc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.format import percent
from calculators.framework import runtime
from calculators.initiative import parse_combatants

outputs = partial(_calc.outputs, "initiative")


def test_ambushers_with_dex_9_go_on_13_and_on_15_with_a_tactics_effect_of_2() -> None:
    # Actions § Initiative (ambush: 12 + Dex DM; Tactics Effect added). Dex 9 -> DM +1.
    assert outputs(dexterity=9, ambush=1, others="")["initiative"] == "13"
    assert outputs(dexterity=9, ambush="yes", tactics_effect=2, others="")["initiative"] == "15"


def test_a_prepared_character_adds_dm_and_skill_to_the_roll() -> None:
    # Actions § Combat Round Summary: 2d6 + ChM + skill. Dex 8 (DM 0), skill 1, roll 9 -> 10.
    found = outputs(dexterity=8, skill=1, roll=9)
    assert found["initiative"] == "10"
    assert found["order"] == "You 10, Bo 9, Cy 7" and found["position"] == "1st of 3"


def test_caught_unprepared_the_skill_does_not_count() -> None:
    # Actions § Initiative: everyone unprepared rolls 2d6 + Dex DM. Dex 12 (DM +2), roll 5 -> 7.
    found = outputs(dexterity=12, skill=3, roll=5, unprepared=1)
    assert found["initiative"] == "7"
    assert found["order"] == "Bo 9, You 7, Cy 7"
    assert found["position"] == "2nd of 3"


def test_a_failed_tactics_check_lowers_initiative_unless_the_ruling_is_switched_off() -> None:
    assert outputs(roll=7, tactics_effect=-2)["initiative"] == "5"
    assert outputs(roll=7, tactics_effect=-2, negative_tactics=0)["initiative"] == "7"


@settings(max_examples=30, deadline=None)
@given(dexterity=st.integers(0, 30), skill=st.integers(0, 5), other=st.integers(-5, 25))
def test_before_rolling_the_chance_to_beat_another_equals_brute_force(
    dexterity: int, skill: int, other: int
) -> None:
    modifier = dexterity // 3 - 2 + skill
    wins = sum(a + b + modifier > other for a, b in product(range(1, 7), repeat=2))
    found = outputs(dexterity=dexterity, skill=skill, others=f"Bo {other}")
    assert found["ahead"] == f"Bo {percent(Fraction(wins, 36))}"
    assert found["initiative"] == f"{2 + modifier} to {12 + modifier}"


def test_the_order_puts_the_highest_first_and_keeps_the_listed_order_on_ties() -> None:
    found = outputs(roll=8, others="Ana 12, Bo 8, Cy -1, Di 8")
    assert found["order"] == "Ana 12, You 8, Bo 8, Di 8, Cy \u22121"
    assert found["position"] == "2nd of 5"


def test_the_combatant_list_reads_names_with_spaces_signs_and_line_breaks() -> None:
    assert parse_combatants("Old Bo 9;\nCy \u22122, Di +3") == (("Old Bo", 9), ("Cy", -2), ("Di", 3))
    assert parse_combatants(" , ") == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Bo", "like Bo 9"),
        ("9", "like Bo 9"),
        ("Bo 9, bo 3", "appears twice"),
        ("You 3", "appears twice"),
        ("Bo 100", "between -99 and 99"),
        ("B" * 41 + " 3", "at most 40 characters"),
        (", ".join(f"N{i} 1" for i in range(21)), "at most 20 combatants"),
    ],
)
def test_a_badly_written_combatant_list_is_flagged_beside_the_field(text: str, message: str) -> None:
    found = runtime.compute("initiative", {"others": text, "roll": "7"})
    assert not found["ok"] and message in found["errors"]["others"]


def test_ambushing_and_unprepared_at_once_is_flagged() -> None:
    found = runtime.compute("initiative", {"ambush": "1", "unprepared": "1"})
    assert found["errors"] == {"unprepared": "Choose ambushing or caught unprepared, not both."}


@pytest.mark.parametrize(
    ("field", "value"), [("roll", "13"), ("roll", "1"), ("skill", "-1"), ("dexterity", "x")]
)
def test_out_of_range_numbers_are_flagged(field: str, value: str) -> None:
    assert field in runtime.compute("initiative", {field: value})["errors"]


def test_a_prepared_character_may_roll_with_any_characteristic_modifier() -> None:
    """Actions § Combat Round Summary > Initiative: "2d6 plus any Characteristic Modifier and relevant skill".

    Intellect 12 (DM +2), skill 2, roll 8 -> 12; with the default (Dexterity 7, DM 0) -> 10.
    """
    assert outputs(dexterity=7, skill=2, roll=8, others="")["initiative"] == "10"
    assert (
        outputs(dexterity=7, skill=2, roll=8, others="", characteristic="intellect", score=12)["initiative"]
        == "12"
    )


def test_ambush_and_unprepared_keep_dexterity_whatever_characteristic_is_chosen() -> None:
    """Actions § Initiative: the unprepared add "their Dexterity DM"; an ambusher gets "12 + Dexterity DM"."""
    chosen = {"characteristic": "intellect", "score": 15, "others": ""}
    assert outputs(dexterity=9, ambush=1, **chosen)["initiative"] == "13"
    assert outputs(dexterity=9, unprepared=1, roll=7, skill=3, **chosen)["initiative"] == "8"


def test_another_characteristic_needs_its_score() -> None:
    found = runtime.compute("initiative", {"characteristic": "intellect", "roll": "8"})
    assert not found["ok"] and "Intellect" in found["errors"]["score"]
