"""The injury thresholds calculator: HP, thresholds, state, wound penalty, bleeding, targeted effects.

Rules: Outcomes § Hit Points (HP), § Character HP Thresholds, § Injury Conditions, § Bleeding,
§ Targeted Damage. Rulings: docs/rulings.md#injury-thresholds, #targeted-rounding.
"""

from __future__ import annotations

from functools import partial

import _calc
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.format import signed
from calculators.framework import runtime

NAME = "thresholds"
EMPTY = "\u2014"


outputs = partial(_calc.outputs, NAME)


def test_str_7_dex_8_end_9_has_24_hp_and_thresholds_8_16_25() -> None:
    # Outcomes § Injury Conditions, example Str 7, Dex 8, End 9: HP 24, seriously wounded 8, critically 16.
    out = outputs(strength=7, dexterity=8, endurance=9, damage=16, largest_roll=9)
    assert out == {
        "hp": "24",
        "state": "critically wounded",
        "wound_penalty": "\u22125",
        "bleeding": "yes",
        "wounded": "1",
        "seriously_wounded": "8",
        "critically_wounded": "16",
        "dying": "25",
        "targeted": EMPTY,
        "targeted_threshold": EMPTY,
        "summary": "Critically wounded: 16 damage of 24 HP, \u22125 to mental and physical rolls, bleeding.",
    }


def test_by_the_table_the_thresholds_are_9_and_18() -> None:
    # docs/rulings.md#injury-thresholds: by the table's characteristics 9 and 18 for Str 7, Dex 8, End 9.
    out = outputs(strength=7, dexterity=8, endurance=9, damage=8, reading="best_physical")
    assert (out["seriously_wounded"], out["critically_wounded"], out["state"]) == ("9", "18", "wounded")


def test_ten_damage_gives_a_wound_penalty_of_minus_3() -> None:
    # Outcomes § Character HP Thresholds: -1 for every 3 damage (10 -> -3).
    assert outputs(damage=10)["wound_penalty"] == "\u22123"


def test_a_head_hit_of_3_stuns_a_21_hp_character() -> None:
    # Outcomes § Targeted Damage: head 1/10 of HP (21 -> 2).
    out = outputs(strength=7, dexterity=7, endurance=7, damage=3, largest_roll=3, location="head")
    assert (out["targeted"], out["targeted_threshold"], out["bleeding"]) == ("stunned", "2", "no")


def test_exact_rounding_raises_a_targeted_threshold() -> None:
    # docs/rulings.md#targeted-rounding: 1/3 of 22 is 7 rounded down, 8 when the exact fraction must
    # be reached.
    down = outputs(strength=7, dexterity=7, endurance=8, damage=7, largest_roll=7, location="limbs")
    exact = outputs(
        strength=7, dexterity=7, endurance=8, damage=7, largest_roll=7, location="limbs", rounding="exact"
    )
    assert (down["targeted_threshold"], down["targeted"]) == ("7", "crippled")
    assert (exact["targeted_threshold"], exact["targeted"]) == ("8", "none")


def test_without_a_largest_roll_bleeding_is_not_shown_and_the_answer_says_what_it_needs() -> None:
    # Outcomes § Bleeding: 10 damage of HP 24 may hold one roll of 8 or more: unknown without the roll.
    out = outputs(damage=10, largest_roll="")
    assert out["bleeding"] == EMPTY
    assert "bleeding if one roll reached 8 (give the largest roll)" in out["summary"]


def test_no_default_largest_roll_and_a_total_below_the_serious_threshold_cannot_bleed() -> None:
    # Outcomes § Bleeding: 6 damage in all (HP 24, serious from 8): no single roll reached 8. Nobody gave a
    # largest roll, so none is assumed (a default of 9 once said "bleeding" here).
    out = outputs(hp=24, damage=6)
    assert out["bleeding"] == "no"
    assert out["summary"] == "Wounded: 6 damage of 24 HP, \u22122 to mental and physical rolls."


def test_the_largest_roll_is_never_above_the_total() -> None:
    result = runtime.compute(NAME, {"damage": "6", "largest_roll": "9"})
    assert not result["ok"] and "more than the damage taken (6)" in result["errors"]["largest_roll"]


def test_hand_offs_carry_hp_damage_reading_and_bleeding() -> None:
    # Healing and the dying rolls get what this calculator was given, not their own defaults.
    result = runtime.compute(
        NAME, {"strength": "5", "dexterity": "6", "endurance": "7", "damage": "9", "largest_roll": "9"}
    )
    links = result["next"]
    given = "strength=5&amp;dexterity=6&amp;endurance=7&amp;damage=9&amp;reading=fractions_of_hp"
    assert f"healing/?{given}" in links
    assert f"dying/?{given}&amp;bleeding=1" in links


@settings(max_examples=200, deadline=None)
@given(**_calc.HURT_CHARACTER)
def test_the_state_follows_thirds_of_hp_and_the_penalty_every_full_three(
    strength: int, dexterity: int, endurance: int, damage: int
) -> None:
    hp = strength + dexterity + endurance
    out = outputs(strength=strength, dexterity=dexterity, endurance=endurance, damage=damage, largest_roll="")
    serious, critical = max(1, hp // 3), max(1, 2 * hp // 3)
    if damage > hp:
        state = "dying"
    elif damage >= critical:
        state = "critically wounded"
    elif damage >= serious:
        state = "seriously wounded"
    elif damage > 0:
        state = "wounded"
    else:
        state = "unhurt"
    assert out["hp"] == str(hp)
    assert out["state"] == state
    assert out["wound_penalty"] == signed(-(damage // 3))


@settings(max_examples=100, deadline=None)
@given(endurance=st.integers(1, 30), largest=st.integers(0, 40))
def test_bleeding_starts_when_one_roll_reaches_the_serious_threshold(endurance: int, largest: int) -> None:
    hp = 14 + endurance
    out = outputs(strength=7, dexterity=7, endurance=endurance, damage=40, largest_roll=largest)
    assert out["bleeding"] == ("yes" if largest >= max(1, hp // 3) else "no")


def test_no_hit_points_at_all_is_flagged() -> None:
    result = runtime.compute(NAME, {"strength": "0", "dexterity": "0", "endurance": "0"})
    assert not result["ok"] and "HP" in result["errors"]["strength"]
