"""Damage rolls, rate of attack, armor and scale (Outcomes § Damage, § Armor, § Damage Scale)."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import checks, damage, dice, injury
from rules_core.damage import MinimumDamageReading, RollCount
from rules_core.dice import parse_dice


def faces_distribution(text: str, armor: int = 0, minimum: int = 0) -> dict[int, Fraction]:
    """One roll after armor, by enumerating every face of every die."""
    expression = parse_dice(text)
    counts = Counter(
        max(minimum, (sum(faces) + expression.modifier) * expression.factor - armor)
        for faces in product(range(1, expression.sides + 1), repeat=expression.count)
    )
    whole = expression.sides**expression.count
    return {v: Fraction(n, whole) for v, n in counts.items()}


def top_k_by_sorted_states(per_roll: dict[int, Fraction], rolls: int, keep: int) -> dict[int, Fraction]:
    """Independent brute force: carry the sorted tuple of the highest ``keep`` values roll by roll."""
    states: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
    for _ in range(rolls):
        nxt: dict[tuple[int, ...], Fraction] = {}
        for top, p in states.items():
            for v, q in per_roll.items():
                key = tuple(sorted((*top, v), reverse=True)[:keep])
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
        states = nxt
    out: dict[int, Fraction] = {}
    for top, p in states.items():
        out[sum(top)] = out.get(sum(top), Fraction(0)) + p
    return out


def test_automatic_rifle_with_success_effect_2_and_rate_4_deals_three_rolls_of_3d6_minus_2():
    """Outcomes § Example: Automatic Rifle Damage: roll 14 against 12 is Effect 2; 3 rolls of 3d6-2."""
    effect = checks.effect(14, 12)
    assert effect == 2
    assert damage.rolls_from_success_effect(effect, 4) == RollCount(3, 3)
    outcome = damage.damage_outcome("3d6-2", success_effect=effect, rate_of_attack=4)
    assert outcome.per_roll_text == "3d6-2"
    assert dict(outcome.per_roll) == faces_distribution("3d6-2")
    assert dict(outcome.total) == top_k_by_sorted_states(faces_distribution("3d6-2"), 3, 3)
    assert outcome.expected_total == Fraction(51, 2)


def test_limited_rate_of_attack_makes_three_rolls_and_keeps_the_two_highest():
    """Outcomes § Weapons with Limited Rate of Attack: Fail Effect 3, rate of attack 2."""
    assert damage.rolls_from_fail_effect(3, 2) == RollCount(3, 2)
    assert damage.rolls_from_fail_effect(3, 3) == RollCount(3, 3)
    assert damage.rolls_from_fail_effect(3, 5) == RollCount(3, 3)
    outcome = damage.damage_outcome("2d3", fail_effect=3, rate_of_attack=2)
    counts: Counter[int] = Counter()
    for faces in product(range(1, 4), repeat=6):
        rolls = [faces[0] + faces[1], faces[2] + faces[3], faces[4] + faces[5]]
        counts[sum(sorted(rolls, reverse=True)[:2])] += 1
    assert dict(outcome.total) == {v: Fraction(n, 3**6) for v, n in counts.items()}


def test_broadsword_with_success_effect_1_against_armor_3_rolls_two_sets_of_3d3_minus_5():
    """Outcomes § Example: Success Effect Damage Rolls (broadsword 3d3-2, Armor 3)."""
    outcome = damage.damage_outcome("3d3-2", success_effect=1, armor=3)
    assert outcome.rolls == RollCount(2, 2)
    assert outcome.per_roll_text == "3d3-5"
    assert dict(outcome.per_roll) == faces_distribution("3d3-2", armor=3)
    assert dict(outcome.per_roll) == {
        0: Fraction(10, 27),
        1: Fraction(7, 27),
        2: Fraction(6, 27),
        3: Fraction(3, 27),
        4: Fraction(1, 27),
    }
    assert dict(outcome.total) == top_k_by_sorted_states(dict(outcome.per_roll), 2, 2)


def test_rifle_with_success_effect_3_and_rate_3_deals_three_rolls_against_armor_5_as_3d6_minus_5():
    """Outcomes § Example: Success Effect Damage Rolls: "three rolls (if RoA is 3)".

    Success Effect 3 makes 1 + 3 = 4 rolls; rate of attack 3 keeps the three
    highest, so three damage rolls land (see the rulings).
    """
    outcome = damage.damage_outcome("3d6", success_effect=3, rate_of_attack=3, armor=5)
    assert outcome.rolls == RollCount(4, 3)
    assert outcome.per_roll_text == "3d6-5"
    assert dict(outcome.total) == top_k_by_sorted_states(faces_distribution("3d6", armor=5), 4, 3)


def test_flak_jacket_of_armor_4_against_three_broadsword_attacks_is_three_rolls_of_3d3_minus_6():
    """Outcomes § Example: Armor in Combat: Fail Effect 3, three adversaries, broadsword 3d3-2, Armor 4."""
    rate = damage.combined_rate_of_attack([1, 1, 1])
    outcome = damage.damage_outcome("3d3-2", fail_effect=3, rate_of_attack=rate, armor=4)
    assert outcome.rolls == RollCount(3, 3)
    assert outcome.per_roll_text == "3d3-6"
    assert dict(outcome.per_roll) == faces_distribution("3d3-6")
    assert dict(outcome.total) == top_k_by_sorted_states(faces_distribution("3d3-6"), 3, 3)


@pytest.mark.parametrize(("effect", "rolls"), [(0, 1), (1, 2), (2, 3), (49, 50)])
def test_a_success_gives_one_roll_plus_one_per_point_of_effect(effect, rolls):
    assert damage.rolls_from_success_effect(effect) == RollCount(rolls, rolls)


@pytest.mark.parametrize(("fail_effect", "rolls"), [(0, 0), (1, 1), (-1, 1), (2, 2), (-3, 3)])
def test_a_fail_effect_gives_one_roll_against_the_character_per_point(fail_effect, rolls):
    """Outcomes § Damage Rolls: Fail Effect -1 is 1 roll, -2 is 2 rolls; 0 is an ordinary failure."""
    assert damage.rolls_from_fail_effect(fail_effect) == RollCount(rolls, rolls)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: damage.rolls_from_success_effect(-1), "0 or more"),
        (lambda: damage.rolls_from_success_effect(50), "At most 50"),
        (lambda: damage.rolls_from_fail_effect(51), "At most 50"),
        (lambda: damage.rolls_from_fail_effect(2, 0), "Rate of attack"),
        (lambda: damage.combined_rate_of_attack([]), "at least one"),
        (lambda: damage.combined_rate_of_attack([2, 0]), "at least 1"),
        (lambda: damage.damage_outcome("3d6"), "either"),
        (lambda: damage.damage_outcome("3d6", success_effect=1, fail_effect=1), "either"),
        (lambda: damage.damage_outcome("3d6", success_effect=1, armor=-1), "Armor"),
        (lambda: damage.damage_outcome("3x6", success_effect=1), "not a dice expression"),
        (lambda: damage.armor_after_scale(-1), "negative"),
        (lambda: damage.armor_after_scale(20_000, "K"), "at most"),
        (lambda: damage.per_roll_text(parse_dice("3d6"), -1), "negative"),
        (lambda: damage.per_roll_distribution(parse_dice("3d6"), -1), "negative"),
    ],
)
def test_bad_damage_arguments_are_rejected_with_a_sentence(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_several_adversaries_rates_of_attack_are_summed():
    """Outcomes § Damage Rolls: up to the sum of the Rate of Attacks of the adversaries."""
    assert damage.combined_rate_of_attack([2, 3]) == 5
    assert damage.combined_rate_of_attack([2, None]) is None
    assert damage.combined_rate_of_attack([40, 40]) == dice.MAX_ROLLS
    assert damage.rolls_from_fail_effect(6, damage.combined_rate_of_attack([2, 3])) == RollCount(6, 5)


@pytest.mark.parametrize(("effect", "applies"), [(5, False), (6, True), (-5, False), (-6, True)])
def test_a_hit_with_effect_6_or_more_always_deals_at_least_1(effect, applies):
    """Outcomes § Armor: a hit with Effect 6+ inflicts at least 1 point, whatever the armor."""
    assert damage.minimum_damage_applies(effect) is applies
    kwargs = {"success_effect": effect} if effect >= 0 else {"fail_effect": effect}
    outcome = damage.damage_outcome("1d6", armor=10, **kwargs)
    assert outcome.minimum_applies is applies
    assert dict(outcome.per_roll) == ({1: Fraction(1)} if applies else {0: Fraction(1)})
    assert dict(outcome.total) == {abs(effect) + (effect >= 0) if applies else 0: Fraction(1)}


def test_the_whole_attack_reading_raises_only_the_total_to_1():
    outcome = damage.damage_outcome(
        "1d6", success_effect=6, armor=10, minimum_reading=MinimumDamageReading.WHOLE_ATTACK
    )
    assert dict(outcome.per_roll) == {0: Fraction(1)}
    assert dict(outcome.total) == {1: Fraction(1)}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("DAR 2", 20),
        ("HAR 9", 900),
        ("KAR 3", 3000),
        ("20 DHP", 200),
        ("3 HHP", 300),
        ("67 KHP", 67000),
        ("5", 5),
        ("AR 5", 5),
        ("12 HP", 12),
        ("dar 2", 20),
        ("20 dhp", 200),
        ("HP 7", 7),
    ],
)
def test_armor_and_hp_scale_notation(text, value):
    """Outcomes § Armor Scale (DAR 2 = 20 AR, ...), § Hit Point Scale (20 DHP = 200 HP, ...)."""
    assert damage.parse_scaled_value(text) == value


@pytest.mark.parametrize("text", ["", "DAR", "D 2", "2 DAR 3", "lots", "999999 KHP", "9" * 50])
def test_bad_scaled_values_are_rejected(text):
    with pytest.raises(ValueError):
        damage.parse_scaled_value(text)


def test_scaled_armor_in_plain_points():
    assert damage.armor_after_scale(2, "D") == 20
    assert damage.armor_after_scale(9, "H") == 900
    assert damage.armor_after_scale(4) == 4


@pytest.mark.parametrize(
    ("damage_scale", "target_scale", "immune"),
    [("", "", False), ("", "D", True), ("D", "H", True), ("H", "D", False), ("K", "K", False)],
)
def test_a_target_of_higher_scale_ignores_damage_of_a_lesser_scale(damage_scale, target_scale, immune):
    """Outcomes § Damage Scale (Scale Immunity)."""
    assert damage.is_scale_immune(damage_scale, target_scale) is immune


def test_scale_immune_targets_take_nothing_even_from_a_strong_hit():
    outcome = damage.damage_outcome("3d6", success_effect=7, target_scale="D")
    assert outcome.immune and not outcome.minimum_applies
    assert dict(outcome.total) == {0: Fraction(1)}


def test_deka_damage_against_deka_armor_is_written_in_deka_units():
    outcome = damage.damage_outcome("D 3d3", success_effect=0, armor=damage.armor_after_scale(2, "D"))
    assert outcome.per_roll_text == "D 3d3-2"
    assert dict(outcome.per_roll) == faces_distribution("D 3d3", armor=20)
    assert damage.per_roll_text(parse_dice("D 3d3"), 5) == "D 3d3 - 5"
    assert damage.per_roll_text(parse_dice("3d6"), 2000) == "3d6 - 2000"


def test_chances_of_each_injury_threshold_equal_brute_force():
    """Two rolls of 1d6 against HP 6: serious at 2, critical at 4, dying above 6."""
    outcome = damage.damage_outcome("1d6", success_effect=1)
    totals = Counter(a + b for a, b in product(range(1, 7), repeat=2))

    def at_least(n: int) -> Fraction:
        return Fraction(sum(c for t, c in totals.items() if t >= n), 36)

    chances = damage.injury_chances(outcome, 6)
    assert chances.wounded == 1
    assert chances.seriously_wounded == at_least(2)
    assert chances.critically_wounded == at_least(4)
    assert chances.dying == at_least(7) == chances.massive_damage
    assert chances.bleeding == 1 - Fraction(1, 36)
    later = damage.injury_chances(outcome, 6, current_damage=3)
    assert later.critically_wounded == 1 and later.dying == at_least(4)


def test_no_rolls_means_no_injury_and_no_bleeding():
    chances = damage.injury_chances(damage.damage_outcome("3d6", fail_effect=0), 21)
    assert (chances.wounded, chances.bleeding, chances.dying) == (0, 0, 0)
    with pytest.raises(ValueError, match="negative"):
        damage.injury_chances(damage.damage_outcome("3d6", fail_effect=0), 21, current_damage=-1)


def test_injury_chances_follow_the_table_reading_when_asked():
    outcome = damage.damage_outcome("1d6", success_effect=0)
    chances = damage.injury_chances(
        outcome, 21, reading=injury.ThresholdReading.BEST_PHYSICAL, best_physical=5
    )
    assert chances.seriously_wounded == Fraction(2, 6)
    assert chances.critically_wounded == 0


def test_heaviest_realistic_case_matches_an_independent_brute_force_on_a_smaller_twin():
    """Six rolls of 2d6 keeping 3 against armor 3: keep-highest DP vs sorted-state enumeration."""
    outcome = damage.damage_outcome("2d6", fail_effect=6, rate_of_attack=3, armor=3)
    assert outcome.minimum_applies
    expected = top_k_by_sorted_states(faces_distribution("2d6", armor=3, minimum=1), 6, 3)
    assert dict(outcome.total) == expected


def test_twelve_rolls_of_4d6_with_rate_6_against_armor_is_an_exact_distribution():
    outcome = damage.damage_outcome("4d6", success_effect=11, rate_of_attack=6, armor=4)
    assert outcome.rolls == RollCount(12, 6)
    assert sum(outcome.total.values()) == 1
    assert min(outcome.total) == 6 and max(outcome.total) == 120


def test_rolling_damage_uses_the_injected_generator_and_keeps_the_highest():
    outcome = damage.damage_outcome("3d6", fail_effect=5, rate_of_attack=2, armor=5)
    first = damage.roll_damage(outcome, random.Random(3))
    assert first == damage.roll_damage(outcome, random.Random(3))
    rolls, kept = first
    assert len(rolls) == 5 and len(kept) == 2
    assert list(kept) == sorted(rolls, reverse=True)[:2]
    assert all(r >= 0 for r in rolls)
    immune = damage.damage_outcome("3d6", fail_effect=2, target_scale="H")
    assert damage.roll_damage(immune, random.Random(1)) == ((0, 0), (0, 0))
    with pytest.raises(ValueError, match=r"random\.Random"):
        damage.roll_damage(outcome, None)  # type: ignore[arg-type]


def test_grappling_damage_dice_are_1d3_and_throws_2d3():
    """Actions § Grappling (Step 3): Damage 1d3 (armor does not apply); Throws 2d3."""
    assert str(damage.grappling_damage()) == "1d3"
    assert str(damage.throw_damage()) == "2d3"


def _tail(distribution: dice.Distribution, t: int) -> Fraction:
    return dice.chance_at_least(distribution, t)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["3d3-2", "3d6", "2d6+1", "1d6", "4d6-2"]),
    st.integers(0, 8),
    st.integers(0, 6),
    st.integers(0, 6),
    st.one_of(st.none(), st.integers(1, 4)),
)
def test_more_armor_never_means_more_damage(text, effect, armor_a, armor_b, rate):
    low, high = sorted((armor_a, armor_b))
    weak = damage.damage_outcome(text, success_effect=effect, rate_of_attack=rate, armor=low)
    strong = damage.damage_outcome(text, success_effect=effect, rate_of_attack=rate, armor=high)
    assert strong.expected_total <= weak.expected_total
    for t in range(0, max(weak.total) + 2):
        assert _tail(strong.total, t) <= _tail(weak.total, t)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["3d3-2", "2d6", "1d6"]), st.integers(0, 7), st.integers(0, 7), st.integers(0, 5))
def test_a_bigger_success_effect_never_means_less_damage(text, a, b, armor):
    low, high = sorted((a, b))
    small = damage.damage_outcome(text, success_effect=low, rate_of_attack=3, armor=armor)
    large = damage.damage_outcome(text, success_effect=high, rate_of_attack=3, armor=armor)
    for t in range(0, max(large.total) + 2):
        assert _tail(small.total, t) <= _tail(large.total, t)


def test_past_hp_chance_counts_damage_already_taken() -> None:
    """Outcomes § Hit Points (HP) > Definition: HP are "a Threshold" for objects and vehicles too."""
    from rules_core.damage import damage_outcome, past_hp_chance

    one_d6 = damage_outcome("1d6", success_effect=0)
    assert past_hp_chance(one_d6, 4) == Fraction(2, 6)
    assert past_hp_chance(one_d6, 4, current_damage=2) == Fraction(4, 6)
    with pytest.raises(ValueError, match="negative"):
        past_hp_chance(one_d6, 4, current_damage=-1)


@pytest.mark.parametrize(
    ("effect", "side"), [(2, "success_effect"), (0, "success_effect"), (-3, "fail_effect")]
)
def test_a_signed_effect_damages_the_target_on_a_success_and_the_character_on_a_failure(
    effect: int, side: str
) -> None:
    # Outcomes § Damage: Effect 0 or more is a Success Effect; below 0, a Fail Effect of its size.
    found = damage.damage_from_effect("3d3-2", effect, rate_of_attack=2, armor=1)
    assert found == damage.damage_outcome("3d3-2", **{side: abs(effect)}, rate_of_attack=2, armor=1)
