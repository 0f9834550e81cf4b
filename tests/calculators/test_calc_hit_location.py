"""The hit location roller: seeded rolls reproducible and shareable, own rolls read, targeted effects.

Rules: Actions § Targeted Attack (2d6 location table; 1d6 for the side of hands and feet);
Outcomes § Targeted Damage; ruling: targeted damage thresholds rounding.
"""

from __future__ import annotations

import random
from functools import partial

import _calc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.framework import runtime
from calculators.hit_location import MAX_SEED

TABLE = {
    2: "Vitals, Neck",
    3: "Feet",
    4: "Secondary Leg",
    5: "Primary Leg",
    6: "Groin",
    7: "Core or Center of Mass",
    8: "Chest",
    9: "Primary Arm",
    10: "Secondary Arm",
    11: "Hands",
    12: "Head",
}


outputs = partial(_calc.outputs, "hit_location")


def test_without_a_roll_number_or_own_roll_nothing_is_rolled_yet() -> None:
    found = runtime.compute("hit_location", {})
    assert found["ok"] and set(found["outputs"].values()) == {
        "\u2014",
        "Enter the 2d6 roll, or a roll number, to find where the hit lands.",
    }
    assert "Press Roll" in found["details"]


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, MAX_SEED))
def test_a_roll_number_always_gives_the_same_location_two_dice_then_a_side_die(seed: int) -> None:
    rng = random.Random(seed)
    total = rng.randint(1, 6) + rng.randint(1, 6)
    found = outputs(seed=seed)
    assert found == outputs(seed=seed)
    assert found["roll"] == str(total) and found["location"] == TABLE[total]
    if total in (3, 11):
        assert found["side"] == ("primary" if rng.randint(1, 6) <= 3 else "secondary")
    else:
        assert found["side"] == "\u2014"


def test_the_roll_numbers_cover_the_table_in_roughly_the_2d6_proportions() -> None:
    seen = [outputs(seed=seed)["roll"] for seed in range(720)]
    assert set(seen) == {str(n) for n in range(2, 13)}
    assert 80 < seen.count("7") < 160  # expected 120


def test_your_own_roll_replaces_the_random_one() -> None:
    # Actions § Targeted Attack: 11 is the hands; 1d6 of 4-6 the secondary side.
    found = outputs(seed=5, roll=11, side_roll=5)
    assert (found["roll"], found["location"], found["side"], found["difficulty"]) == (
        "11",
        "Hands",
        "secondary",
        "+2",
    )
    assert outputs(roll=3)["side"] == "roll 1d6: 1-3 primary, 4-6 secondary"
    assert outputs(roll=7)["difficulty"] == "+0"


@pytest.mark.parametrize(
    ("roll", "hp", "damage", "threshold", "effect"),
    [
        (9, 21, 7, "7 damage (crippled)", "crippled"),
        (9, 21, 6, "7 damage (crippled)", "none"),
        (11, 21, 2, "2 damage (crippled)", "crippled"),
        (12, 21, 2, "2 damage (stunned)", "stunned"),
        (2, 30, 3, "3 damage (bleeding)", "bleeding"),
        (8, 21, 50, "\u2014", "none"),
    ],
)
def test_damage_to_an_area_has_its_targeted_effect_from_a_fraction_of_hp(
    roll: int, hp: int, damage: int, threshold: str, effect: str
) -> None:
    # Outcomes § Targeted Damage: limbs 1/3 of HP, hands/feet, head and vitals 1/10, rounded down.
    found = outputs(roll=roll, hp=hp, damage=damage)
    assert (found["threshold"], found["effect"]) == (threshold, effect)


def test_the_exact_reading_rounds_the_threshold_up() -> None:
    # Ruling: targeted-rounding. 21 HP, head: 2.1 -> 2 rounded down, 3 exact.
    assert outputs(roll=12, hp=21, damage=2, rounding="exact")["effect"] == "none"


@pytest.mark.parametrize(
    ("field", "value"), [("seed", "-1"), ("seed", "1" * 13), ("roll", "13"), ("side_roll", "7"), ("hp", "0")]
)
def test_bad_inputs_are_flagged_beside_their_field(field: str, value: str) -> None:
    assert field in runtime.compute("hit_location", {field: value})["errors"]
