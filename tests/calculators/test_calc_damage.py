"""The damage calculator: rolls from an Effect, one roll after armor, the exact total and injury odds.

Rules: Outcomes § Damage Rolls, § Weapons with Limited Rate of Attack, § Armor, § Damage Scale,
§ Injury Conditions, § Massive Damage, § Bleeding. Rulings: docs/rulings.md#minimum-damage,
#injury-thresholds, #fail-effect-sign.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from itertools import product

import _calc
import pytest

from calculators.format import percent, two_decimals
from calculators.framework import runtime
from calculators.parts.damage_parts import MAX_CHART_BARS, chart_points

NAME = "damage"
EMPTY = "\u2014"


compute = partial(_calc.compute, NAME)
outputs = partial(_calc.outputs, NAME)


def brute_force_totals(
    count: int, sides: int, modifier: int, armor: int, made: int, kept: int, minimum: int
) -> dict[int, Fraction]:
    """Every way the dice can fall: each roll less armor (at least ``minimum``); the best ``kept`` summed."""
    one: dict[int, int] = {}
    for dice in product(range(1, sides + 1), repeat=count):
        value = max(minimum, sum(dice) + modifier - armor, 0)
        one[value] = one.get(value, 0) + 1
    totals: dict[int, int] = {}
    for rolls in product(one.items(), repeat=made):
        weight = 1
        for _, w in rolls:
            weight *= w
        total = sum(sorted((v for v, _ in rolls), reverse=True)[:kept])
        totals[total] = totals.get(total, 0) + weight
    whole = sides ** (count * made)
    return {t: Fraction(w, whole) for t, w in sorted(totals.items())}


def test_a_broadsword_against_armor_3_deals_3d3_minus_5_twice() -> None:
    # Outcomes § Example: Success Effect Damage Rolls: 3d3-2 against armor 3 is 3d3-5;
    # success effect 1 gives 2 rolls.
    out = outputs(effect=1, damage="3d3-2", armor=3)
    assert (out["rolls"], out["kept"], out["per_roll"]) == (
        "2",
        "2",
        "3d3\u22122 \u2212 armor 3 (at least 0 a roll)",
    )


def test_an_automatic_rifle_with_success_effect_2_fires_three_times() -> None:
    # Outcomes § Damage: difficulty 12, total 14 -> success effect 2 -> three rolls of 3d6-2 (RoA 4).
    out = outputs(effect=2, damage="3d6-2", rate_of_attack=4)
    assert (out["rolls"], out["kept"], out["expected"]) == ("3", "3", "25.50")


def test_a_fail_effect_of_3_against_rate_of_attack_2_keeps_the_two_highest() -> None:
    # Outcomes § Weapons with Limited Rate of Attack: roll three times, keep the two highest.
    out = outputs(effect=-3, damage="3d6", rate_of_attack=2)
    assert (out["rolls"], out["kept"]) == ("3", "2")


def test_success_effect_3_with_rate_of_attack_3_makes_four_rolls_and_keeps_three() -> None:
    # docs/rulings.md#success-rolls-count: 1 + success effect rolls, the best RoA kept.
    out = outputs(effect=3, damage="3d6", rate_of_attack=3, armor=5)
    assert (out["rolls"], out["kept"], out["per_roll"]) == (
        "4",
        "3",
        "3d6 \u2212 armor 5 (at least 0 a roll)",
    )


def test_three_broadsword_blows_against_a_flak_jacket() -> None:
    # Outcomes § Armor example: fail effect 3, 3d3-2 against armor 4 -> 3d3-6 each.
    out = outputs(effect=-3, damage="3d3-2", armor=4)
    totals = brute_force_totals(3, 3, -2, 4, 3, 3, 0)
    assert out["per_roll"] == "3d3\u22122 \u2212 armor 4 (at least 0 a roll)"
    assert out["expected"] == two_decimals(sum(t * p for t, p in totals.items()))


def test_a_scale_prefix_multiplies_and_a_larger_scale_target_is_immune() -> None:
    # Outcomes § Damage Scale, § Armor Scale: D 3d3 against DAR 2 is D 3d3-2;
    # personal-scale damage against a Deka target: nothing.
    assert (
        outputs(effect=0, damage="D 3d3", armor=2, target_scale="D")["per_roll"]
        == "D 3d3 \u2212 armor 2 (at least 10 a roll)"
    )
    immune = outputs(effect=3, damage="3d6", target_scale="D")
    assert immune["per_roll"] == "0 (immune)" and immune["expected"] == "0.00"


@pytest.mark.parametrize("minimum", ["each_roll", "whole_attack"])
def test_an_effect_of_6_deals_at_least_1_whatever_the_armor(minimum: str) -> None:
    # Outcomes § Armor (minimum damage); docs/rulings.md#minimum-damage for the two readings.
    out = outputs(effect=6, damage="1d6", armor=10, minimum=minimum)
    assert out["expected"] == ("7.00" if minimum == "each_roll" else "1.00")
    assert outputs(effect=5, damage="1d6", armor=10, minimum=minimum)["expected"] == "0.00"


CASES = [
    # (count, sides, modifier, effect, rate, armor, hp)
    (1, 6, 0, 1, 0, 0, 9),
    (2, 3, -2, 2, 0, 1, 12),
    (1, 6, 0, 2, 1, 2, 6),
    (2, 4, 0, -3, 2, 3, 10),
    (1, 4, 1, -2, 1, 0, 5),
    (1, 6, 0, 6, 0, 9, 20),
]


@pytest.mark.parametrize(("count", "sides", "modifier", "effect", "rate", "armor", "hp"), CASES)
def test_the_expected_total_and_injury_odds_equal_brute_force(
    count: int, sides: int, modifier: int, effect: int, rate: int, armor: int, hp: int
) -> None:
    made = 1 + effect if effect >= 0 else -effect
    kept = min(made, rate) if rate else made
    minimum = 1 if abs(effect) >= 6 else 0
    expr = f"{count}d{sides}{modifier:+d}" if modifier else f"{count}d{sides}"
    out = outputs(effect=effect, damage=expr, rate_of_attack=rate, armor=armor, hp=hp)
    totals = brute_force_totals(count, sides, modifier, armor, made, kept, minimum)
    assert out["expected"] == two_decimals(sum(t * p for t, p in totals.items()))
    serious, critical = max(1, hp // 3), max(1, 2 * hp // 3)  # thirds of HP rounded down (Outcomes § Injury)
    for key, least in [("wounded", 1), ("seriously_wounded", serious), ("critically_wounded", critical)]:
        assert out[key] == percent(sum((p for t, p in totals.items() if t >= least), Fraction(0))), key
    assert out["dying"] == percent(sum((p for t, p in totals.items() if t > hp), Fraction(0)))


def test_damage_already_taken_moves_the_thresholds_closer() -> None:
    fresh = outputs(effect=0, damage="1d6", hp=12)
    hurt = outputs(effect=0, damage="1d6", hp=12, current_damage=3)
    assert fresh["seriously_wounded"] == "50.00%"  # a 4 or more on 1d6 reaches 12 // 3
    assert hurt["seriously_wounded"] == "100%"


def test_the_table_reading_of_the_thresholds_needs_the_best_physical_characteristic() -> None:
    # docs/rulings.md#injury-thresholds: by the table, seriously wounded from the best physical
    # characteristic.
    missing = compute(effect=0, damage="1d6", hp=24, reading="best_physical")
    assert not missing["ok"] and "best physical" in missing["errors"]["best_physical"]
    out = outputs(effect=0, damage="1d6", hp=24, reading="best_physical", best_physical=5)
    assert out["seriously_wounded"] == "33.33%"  # 5 or 6 on 1d6


def test_the_chart_holds_the_exact_distribution_with_a_table() -> None:
    details = compute(effect=0, damage="2d6")["details"]
    assert 'data-chart="total"' in details and "<table" in details
    assert '<th scope="row">7</th><td>16.67%</td>' in details


def test_a_long_distribution_is_charted_in_equal_ranges_that_keep_the_total_chance() -> None:
    dist = {v: Fraction(1, 500) for v in range(500)}
    points = chart_points(dist)
    assert len(points) <= MAX_CHART_BARS
    assert sum(p for _, p in points) == 1
    assert points[0][0] == "0\u20138"  # 500 values in bars of 9 (ceil(500 / 60))


def test_two_decimals_rounds_half_up() -> None:
    assert two_decimals(Fraction(21, 2)) == "10.50"
    assert two_decimals(Fraction(1, 200)) == "0.01"
    assert two_decimals(Fraction(1, 3)) == "0.33"
    assert two_decimals(Fraction(-1, 3)) == "\u22120.33"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("effect", "", "enter a whole number"),
        ("effect", "101", "between -100 and 100"),
        ("effect", "60", "At most 50 damage rolls"),
        ("damage", "", "cannot be empty"),
        ("damage", "3x6", "not a dice expression"),
        ("damage", "d" * 41, "at most 40 characters"),
        ("damage", "20d20", "Too large"),
        ("rate_of_attack", "-1", "between 0 and 50"),
        ("armor", "-2", "between 0 and"),
        ("hp", "0", "between 1 and"),
        ("target_scale", "X", "choose one of"),
        ("minimum", "none", "choose one of"),
    ],
)
def test_bad_inputs_are_flagged_beside_their_field(field: str, value: str, message: str) -> None:
    raw = {field: value}
    if value == "20d20":
        raw["effect"] = "30"
    result = runtime.compute(NAME, raw)
    assert not result["ok"]
    where = result["errors"].get(field, "") or result["errors"].get("effect", "")
    assert message in where, result["errors"]
    assert set(result["outputs"].values()) == {EMPTY}


def _sum_of_d6(count: int) -> dict[int, int]:
    """Ways of each total of ``count`` d6, counted by repeated convolution (no dice module)."""
    ways = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    return ways


def test_a_scaled_targets_damage_already_taken_is_in_its_scale() -> None:
    """Outcomes § Hit Point Scale: "20 DHP = 200 HP"; damage already taken on a Deka target is Deka too.

    Effect 2: three rolls of D 3d6 (10 x the sum of 9d6) against 30 DHP = 300 HP with 2 DHP = 20
    already taken: past its HP when 10 x 9d6 >= 281, i.e. 9d6 >= 29.
    """
    ways = _sum_of_d6(9)
    expected = Fraction(sum(n for total, n in ways.items() if 10 * total >= 281), 6**9)
    out = outputs(effect=2, damage="D 3d6", target_scale="D", hp=30, current_damage=2)
    assert out["past_hp"] == percent(expected) == "71.81%"
    fresh = outputs(effect=2, damage="D 3d6", target_scale="D", hp=30)
    assert fresh["past_hp"] == percent(Fraction(sum(n for t, n in ways.items() if 10 * t >= 301), 6**9))


def test_a_scaled_target_has_no_character_injury_states() -> None:
    """Outcomes § Character HP Thresholds: wounds, bleeding and dying are the character's; vehicles and
    objects have HP as "a Threshold" only (§ Hit Points (HP) > Definition)."""
    out = outputs(effect=2, damage="D 3d6", target_scale="D", hp=30)
    for key in ("wounded", "seriously_wounded", "critically_wounded", "dying", "massive_damage", "bleeding"):
        assert out[key] == EMPTY, key
    person = outputs(effect=2, damage="3d6", hp=20)
    assert person["past_hp"] == EMPTY and person["dying"] != EMPTY


def test_an_average_is_never_rounded_nor_carried_as_damage_taken() -> None:
    # Outcomes § Damage Rolls: Effect 0 makes 1 roll; 1d12 averages 6.5, written so, and no hand-off
    # passes it as damage anybody took (it was once passed on as 6).
    result = compute(effect=0, damage="1d12")
    assert result["outputs"]["expected"] == "6.50"
    assert "about 6.5 damage on average" in result["summary"]
    assert 'data-handoff="thresholds"' not in result["next"]


def test_the_rolls_made_give_the_exact_damage_the_largest_roll_and_the_whole_situation_travels() -> None:
    # Outcomes § Armor, § Weapons with Limited Rate of Attack, § Bleeding: Effect +2 makes 3 rolls; rate 2
    # keeps the 2 highest. Rolls 11, 4, 9 of 3d6 less armor 3: 8, 1, 6; kept 8 and 6: 14, largest 8.
    # With 3 damage already and HP 24: 17 in all, critically wounded (from 16).
    result = compute(
        effect=2, damage="3d6", rate_of_attack=2, rolled="11 4 9", armor=3, hp=24, current_damage=3
    )
    out = result["outputs"]
    assert (out["taken"], out["largest"], out["state_now"]) == ("14", "8", "critically wounded")
    assert "your rolls deal 14 damage (largest roll 8): critically wounded" in result["summary"]
    assert (
        "calculators/thresholds/?damage=17&amp;largest_roll=8&amp;hp=24&amp;reading=fractions_of_hp"
        in result["next"]
    )


def test_rolls_that_do_not_fit_the_attack_are_marked() -> None:
    # Two rolls for an attack that makes three, and a 3d6 roll of 19, are both refused beside the field.
    assert "enter 3" in compute(effect=2, rolled="11 4")["errors"]["rolled"]
    assert "3 to 18, not 19" in compute(effect=2, rolled="11 4 19")["errors"]["rolled"]
    assert "whole numbers" in compute(effect=2, rolled="11 x 4")["errors"]["rolled"]
