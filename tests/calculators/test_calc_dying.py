"""The dying calculator: survival over N rounds (exact, by brute force) and the bleeding timeline.

Rules: Outcomes § Hit Points, § Injury Conditions, § Bleeding, § Dying; rulings: the End roll
(2d6 + End DM + wound penalty against 4) and bleeding while dying (1 damage a minute = 10 rounds).
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from itertools import product

import _calc
import pytest
from _dice import brute_force_chance, pct
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.dying import chance_text
from calculators.format import percent
from calculators.framework import runtime
from rules_core import injury


def one_round(endurance: int, damage: int) -> Fraction:
    """End roll against 4: 2d6 + (End // 3 - 2) - (damage // 3), every face of the dice."""
    modifier = endurance // 3 - 2 - damage // 3
    return Fraction(sum(a + b + modifier >= 4 for a, b in product(range(1, 7), repeat=2)), 36)


def brute_force_survival(endurance: int, damage: int, rounds: int, bleeding: bool) -> Fraction:
    chance = Fraction(1)
    for index in range(rounds):
        chance *= one_round(endurance, damage + (index // 10 if bleeding else 0))
    return chance


outputs = partial(_calc.outputs, "dying")


def test_end_9_with_25_damage_needs_11_on_the_dice_each_round() -> None:
    # Outcomes § Dying with the End roll ruling: End DM +1, wound penalty -8: 4 - 1 + 8 = 11 -> 3/36.
    found = outputs(endurance=9, damage=25, rounds=3)
    assert found["hp"] == "23" and found["state"] == "dying"
    assert found["end_modifier"] == "\u22127"
    assert found["round_chance"] == "8.33%"
    assert found["survive"] == percent(Fraction(3, 36) ** 3) == "0.06%"


def test_first_aid_holds_a_dying_character_for_as_many_hours_as_their_end() -> None:
    # Outcomes § First Aid, § Dying.
    assert outputs(endurance=9, damage=25)["stabilised"] == "9 h"


@settings(max_examples=40, deadline=None)
@given(
    endurance=st.integers(0, 30),
    extra=st.integers(1, 40),
    rounds=st.integers(0, 40),
    bleeding=st.booleans(),
)
def test_the_survival_chance_equals_brute_force_round_by_round(
    endurance: int, extra: int, rounds: int, bleeding: bool
) -> None:
    hp = 7 + 7 + endurance
    damage = hp + extra
    found = outputs(endurance=endurance, damage=damage, rounds=rounds, bleeding=int(bleeding))
    assert found["survive"] == chance_text(brute_force_survival(endurance, damage, rounds, bleeding))
    assert found["round_chance"] == percent(one_round(endurance, damage))


def test_bleeding_while_dying_can_only_lower_the_chance() -> None:
    plain = runtime.compute("dying", {"endurance": "18", "damage": "35", "rounds": "30"})
    bleeding = runtime.compute("dying", {"endurance": "18", "damage": "35", "rounds": "30", "bleeding": "1"})
    assert plain["outputs"]["survive"] == chance_text(one_round(18, 35) ** 30)
    assert bleeding["outputs"]["survive"] == chance_text(brute_force_survival(18, 35, 30, True))
    assert brute_force_survival(18, 35, 30, True) < one_round(18, 35) ** 30


def test_a_bleeding_character_not_yet_dying_sees_the_minutes_until_dying() -> None:
    # Outcomes § Bleeding: 1 damage a minute from the minute after. HP 23, 8 damage: dying above 23,
    # so 16 more damage, i.e. 16 minutes; critically wounded (2/3 of 23 rounded down = 15) after 7.
    found = runtime.compute("dying", {"endurance": "9", "damage": "8", "bleeding": "yes"})
    assert found["outputs"]["state"] == "seriously wounded"
    assert found["outputs"]["minutes_to_dying"] == "16 min"
    assert found["outputs"]["survive"] == "\u2014"
    assert "After 7 min untreated: 15 damage, critically wounded." in found["details"]
    assert "After 16 min untreated: 24 damage, dying." in found["details"]


def test_a_chance_too_small_to_show_is_not_written_as_zero() -> None:
    assert chance_text(Fraction(1, 10**9)) == "< 0.01%"
    assert chance_text(Fraction(0)) == "0%"
    assert chance_text(Fraction(1, 4)) == "25.00%"


def test_the_best_physical_reading_moves_the_seriously_and_critically_wounded_thresholds() -> None:
    # Ruling injury-thresholds, other reading: the table's column, best physical characteristic (9) and
    # twice it (18) instead of thirds of HP 23 (7 and 15). Bleeding needs one roll of 9 under this reading.
    found = runtime.compute(
        "dying", {"endurance": "9", "damage": "9", "bleeding": "1", "reading": "best_physical"}
    )
    assert found["outputs"]["state"] == "seriously wounded"
    assert "After 9 min untreated: 18 damage, critically wounded." in found["details"]
    assert found["outputs"]["minutes_to_dying"] == "15 min"
    thirds = runtime.compute("dying", {"endurance": "9", "damage": "8", "bleeding": "1"})
    assert thirds["outputs"]["state"] == "seriously wounded"
    assert (
        "bleeding"
        in runtime.compute(
            "dying", {"endurance": "9", "damage": "8", "bleeding": "1", "reading": "best_physical"}
        )["errors"]
    )


def test_a_threshold_above_hp_in_the_table_reading_is_left_out_of_the_timeline() -> None:
    # Str 1, Dex 1, End 20: HP 22; the table's critically wounded threshold 2 x 20 = 40 lies past dying.
    # Bleeding from one roll of 20 (the table's seriously wounded threshold): dying at 23, 3 minutes on.
    params = {"strength": "1", "dexterity": "1", "endurance": "20", "damage": "20", "bleeding": "1"}
    found = runtime.compute("dying", {**params, "reading": "best_physical"})
    assert found["ok"] and found["outputs"]["minutes_to_dying"] == "3 min"
    assert "critically wounded" not in found["details"]


def test_not_dying_and_not_bleeding_shows_no_survival_figures() -> None:
    found = outputs(damage=5)
    assert found["state"] == "wounded"
    assert found["survive"] == found["minutes_to_dying"] == "\u2014"


def test_the_survival_chart_never_draws_more_than_twenty_points() -> None:
    details = runtime.compute("dying", {"rounds": "1000", "bleeding": "1"})["details"]
    assert details.count('<th scope="row">') == 20
    assert '<th scope="row">1000</th>' in details


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"rounds": "1001"}, "rounds"),
        ({"damage": "-1"}, "damage"),
        ({"endurance": "x"}, "endurance"),
        ({"strength": "0", "dexterity": "0", "endurance": "0"}, "endurance"),
        ({"bleeding": "maybe"}, "bleeding"),
    ],
)
def test_bad_inputs_are_flagged_beside_their_field(params: dict[str, str], field: str) -> None:
    found = runtime.compute("dying", params)
    assert not found["ok"] and field in found["errors"]


@settings(max_examples=60, deadline=None)
@given(
    **_calc.HURT_CHARACTER,
    bleeding=st.booleans(),
    reading=st.sampled_from(["fractions_of_hp", "best_physical"]),
)
def test_every_valid_character_computes_and_bleeding_reaches_dying_in_the_minutes_shown(
    strength: int, dexterity: int, endurance: int, damage: int, bleeding: bool, reading: str
) -> None:
    params = {"strength": strength, "dexterity": dexterity, "endurance": endurance, "damage": damage}
    hp = strength + dexterity + endurance
    best = max(strength, dexterity, endurance)
    if bleeding and not injury.bleeds_from_roll(damage, hp, reading=reading, best_physical=best):
        # Outcomes § Bleeding: no single roll of the seriously wounded threshold fits in this damage.
        assert (
            "bleeding"
            in runtime.compute(
                "dying", {k: str(v) for k, v in {**params, "bleeding": 1, "reading": reading}.items()}
            )["errors"]
        )
        return
    found = outputs(**params, bleeding=int(bleeding), reading=reading)
    assert found["hp"] == str(hp)
    if damage > hp:
        assert found["state"] == "dying" and found["minutes_to_dying"] == "now"
    elif bleeding:
        assert found["minutes_to_dying"] == f"{hp + 1 - damage} min"


def test_massive_damage_survival_is_an_end_roll_against_8_with_the_wound_penalty() -> None:
    """Outcomes § Massive Damage: more than HP from one attack, End roll against 8 with wound penalties.
    Str 3, Dex 3, End 15: HP 21; one attack of 22: End DM +3, wound penalty -7 (22 // 3), 2d6 - 4 against 8
    needs a 12: 1/36 = 2.78%. Ruling: failing is death."""
    found = _calc.compute("dying", strength=3, dexterity=3, endurance=15, damage=22, attack_damage=22)
    assert found["outputs"]["massive"] == "2.78%"
    assert found["outputs"]["massive"] == pct(brute_force_chance(3 - 7, 8, 0))
    assert "2.78% to survive the massive damage" in found["outputs"]["summary"]
    assert "Failing it is death" in found["details"]


def test_an_attack_of_exactly_hp_is_not_massive_damage() -> None:
    """Outcomes § Massive Damage: "more than their HP"; HP 21, one attack of 21."""
    found = _calc.compute("dying", damage=22, attack_damage=21)
    assert found["outputs"]["massive"] == "\u2014"
    assert "no massive damage" in found["details"]


def test_one_attack_cannot_exceed_the_damage_taken() -> None:
    assert "attack_damage" in _calc.compute("dying", damage=10, attack_damage=11)["errors"]


def test_bleeding_needs_one_roll_of_a_third_of_hp_so_little_damage_cannot_bleed() -> None:
    """Outcomes § Bleeding: one damage roll of at least 1/3 HP (7 of HP 21) starts it; 6 damage in all
    cannot hold such a roll, 7 can (the bleeding switch and the damage must agree)."""
    assert "bleeding" in _calc.compute("dying", damage=6, bleeding="true")["errors"]
    assert _calc.outputs("dying", damage=7, bleeding="true")["minutes_to_dying"] == "15 min"
