"""Dice expressions and exact distributions (Outcomes § Damage Scale), checked by brute force."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import checks, dice
from rules_core.dice import DiceExpression, parse_dice


def brute_sum(count: int, sides: int, modifier: int = 0, factor: int = 1) -> dict[int, Fraction]:
    counts = Counter((sum(faces) + modifier) * factor for faces in product(range(1, sides + 1), repeat=count))
    whole = sides**count
    return {v: Fraction(n, whole) for v, n in counts.items()}


def brute_keep_highest(values: dict[int, Fraction], rolls: int, keep: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for draw in product(values.items(), repeat=rolls):
        chance = Fraction(1)
        for _, p in draw:
            chance *= p
        total = sum(sorted((v for v, _ in draw), reverse=True)[:keep])
        out[total] = out.get(total, Fraction(0)) + chance
    return {v: p for v, p in out.items() if p}


@pytest.mark.parametrize(
    ("text", "canonical", "count", "sides", "modifier", "scale"),
    [
        ("3d6-2", "3d6-2", 3, 6, -2, ""),
        ("3d3", "3d3", 3, 3, 0, ""),
        ("2d6+1", "2d6+1", 2, 6, 1, ""),
        ("d6", "1d6", 1, 6, 0, ""),
        ("D 3d3", "D 3d3", 3, 3, 0, "D"),
        ("H 2d6-2", "H 2d6-2", 2, 6, -2, "H"),
        ("K 5d6-4", "K 5d6-4", 5, 6, -4, "K"),
        ("  3 d 6 - 2 ", "3d6-2", 3, 6, -2, ""),
        ("3d6\u22122", "3d6-2", 3, 6, -2, ""),
        ("D3d3", "D 3d3", 3, 3, 0, "D"),
        ("k 5d6-4", "K 5d6-4", 5, 6, -4, "K"),
        ("3D6+0", "3d6", 3, 6, 0, ""),
    ],
)
def test_players_dice_expressions_parse_to_a_canonical_form(text, canonical, count, sides, modifier, scale):
    expression = parse_dice(text)
    assert expression == DiceExpression(count, sides, modifier, scale)
    assert str(expression) == canonical
    assert parse_dice(str(expression)) == expression


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Enter dice"),
        ("   ", "Enter dice"),
        ("three dice", "is not a dice expression"),
        ("3d", "is not a dice expression"),
        ("3d6+", "is not a dice expression"),
        ("-3d6", "is not a dice expression"),
        ("51d6", "between 1 and 50 dice"),
        ("0d6", "between 1 and 50 dice"),
        ("3d1", "between 2 and 100 sides"),
        ("3d101", "between 2 and 100 sides"),
        ("3d6+1001", r"between -1000 and \+1000"),
        ("X 3d6", "Unknown scale"),
        ("3d6" + " " * 40, "at most 40 characters"),
    ],
)
def test_bad_dice_expressions_are_rejected_with_a_sentence(text, message):
    with pytest.raises(ValueError, match=message):
        parse_dice(text)


def test_non_text_is_rejected_with_a_sentence():
    with pytest.raises(ValueError, match="as text"):
        parse_dice(36)  # type: ignore[arg-type]


def test_scale_notation_examples_multiply_the_whole_expression():
    """Outcomes § Damage Scale: D 3d3 = 3d3 x 10; H 2d6-2 = (2d6-2) x 100; K 5d6-4 = (5d6-4) x 1,000."""
    assert dict(parse_dice("D 3d3").distribution()) == brute_sum(3, 3, 0, 10)
    assert dict(parse_dice("H 2d6-2").distribution()) == brute_sum(2, 6, -2, 100)
    k = parse_dice("K 5d6-4")
    assert (k.minimum, k.maximum) == (1000, 26000)
    assert dice.mean(k.distribution()) == Fraction(13500)


def test_scale_prefixes_and_factors_come_from_the_data_table():
    assert dice.scale_prefixes() == ("", "D", "H", "K")
    assert [dice.scale_factor(p) for p in dice.scale_prefixes()] == [1, 10, 100, 1000]
    assert [dice.scale_rank(p) for p in dice.scale_prefixes()] == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="Unknown scale"):
        dice.scale_factor("M")


@pytest.mark.parametrize(("count", "sides"), [(1, 2), (1, 6), (2, 6), (3, 3), (3, 6), (4, 4), (2, 10)])
def test_sum_of_dice_equals_brute_force(count, sides):
    assert dict(dice.sum_of_dice(count, sides)) == brute_sum(count, sides)


def test_expression_distribution_equals_brute_force_with_its_modifier():
    assert dict(parse_dice("3d6-2").distribution()) == brute_sum(3, 6, -2)
    assert dict(parse_dice("2d6+1").distribution()) == brute_sum(2, 6, 1)


def test_expression_bounds_and_modifier_change():
    expression = parse_dice("3d3-2")
    assert (expression.minimum, expression.maximum, expression.factor) == (1, 7, 1)
    assert str(expression.with_modifier(-5)) == "3d3-5"


@pytest.mark.parametrize(
    ("values", "rolls", "keep"),
    [
        ({1: Fraction(1, 4), 2: Fraction(1, 4), 3: Fraction(1, 4), 4: Fraction(1, 4)}, 4, 2),
        ({0: Fraction(1, 2), 3: Fraction(1, 3), 7: Fraction(1, 6)}, 5, 3),
        ({0: Fraction(2, 3), 1: Fraction(1, 3)}, 4, 1),
        ({-2: Fraction(1, 5), 5: Fraction(4, 5)}, 3, 2),
        ({4: Fraction(1)}, 3, 2),
        (dict(dice.sum_of_dice(2, 3)), 4, 3),
    ],
)
def test_keep_highest_equals_brute_force_for_arbitrary_distributions(values, rolls, keep):
    assert dict(dice.keep_highest(values, rolls, keep)) == brute_keep_highest(values, rolls, keep)


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(st.integers(-5, 9), st.integers(1, 5), min_size=1, max_size=4),
    st.integers(0, 4),
    st.data(),
)
def test_keep_highest_matches_brute_force_for_any_small_case(weights, rolls, data):
    keep = data.draw(st.integers(0, rolls))
    whole = sum(weights.values())
    values = {v: Fraction(w, whole) for v, w in weights.items()}
    expected = brute_keep_highest(values, rolls, keep) if rolls else {0: Fraction(1)}
    assert dict(dice.keep_highest(values, rolls, keep)) == expected


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.integers(-6, 9), st.integers(1, 7), min_size=1, max_size=5), st.integers(1, 6))
def test_repeat_sum_equals_repeated_convolution(weights, rolls):
    whole = sum(weights.values())
    values = {v: Fraction(w, whole) for v, w in weights.items()}
    expected = values
    for _ in range(rolls - 1):
        expected = dice.convolve(expected, values)
    assert dict(dice.repeat_sum(values, rolls)) == dict(expected)


def test_scaled_expressions_are_as_cheap_as_unscaled_ones():
    """K 5d6-4 values step by 1000: twelve rolls must not be rejected as too large."""
    kilo = parse_dice("K 5d6-4").distribution()
    plain = parse_dice("5d6-4").distribution()
    total = dice.repeat_sum(kilo, 12)
    assert dict(total) == {v * 1000: p for v, p in dice.repeat_sum(plain, 12).items()}
    kept = dice.keep_highest(kilo, 12, 6)
    assert dict(kept) == {v * 1000: p for v, p in dice.keep_highest(plain, 12, 6).items()}


def test_keeping_all_rolls_is_the_plain_sum_and_keeping_none_is_zero():
    d6 = dice.die(6)
    assert dice.keep_highest(d6, 3, 3) == dice.sum_of_dice(3, 6)
    assert dict(dice.keep_highest(d6, 3, 0)) == {0: Fraction(1)}
    assert dict(dice.repeat_sum(d6, 0)) == {0: Fraction(1)}


@pytest.mark.parametrize(
    ("rolls", "keep", "message"),
    [(51, 1, "between 0 and 50 rolls"), (-1, 0, "between 0 and 50 rolls"), (3, 4, "Keep between 0")],
)
def test_keep_highest_rejects_bad_counts(rolls, keep, message):
    with pytest.raises(ValueError, match=message):
        dice.keep_highest(dice.die(6), rolls, keep)


def test_work_beyond_the_budget_is_rejected_not_ground_through():
    huge = parse_dice("50d100").distribution()
    with pytest.raises(ValueError, match="Too large to compute exactly"):
        dice.keep_highest(huge, 50, 25)
    with pytest.raises(ValueError, match="Too large to compute exactly"):
        dice.repeat_sum(huge, 50)
    with pytest.raises(ValueError, match="Too large to compute exactly"):
        dice.convolve(huge, huge)


def test_convolve_adds_independent_values():
    assert dice.convolve(dice.die(6), dice.die(6)) == dice.sum_of_dice(2, 6)


def test_bad_distributions_are_rejected():
    with pytest.raises(ValueError, match="at least one value"):
        dice.convolve({}, dice.die(6))
    with pytest.raises(ValueError, match="add up to 1"):
        dice.convolve({1: Fraction(1, 2)}, dice.die(6))
    with pytest.raises(ValueError, match="between 2 and 100 sides"):
        dice.die(1)
    with pytest.raises(ValueError, match="between 1 and 50 dice"):
        dice.sum_of_dice(0, 6)


def test_map_values_merges_equal_results():
    floored = dice.map_values(dice.die(6), lambda v: max(0, v - 4))
    assert dict(floored) == {0: Fraction(2, 3), 1: Fraction(1, 6), 2: Fraction(1, 6)}


def test_mean_and_chance_at_least_are_exact():
    assert dice.mean(dice.sum_of_dice(3, 6)) == Fraction(21, 2)
    assert dice.chance_at_least(dice.sum_of_dice(2, 6), 8) == Fraction(15, 36)
    assert dice.chance_at_least(dice.sum_of_dice(2, 6), 13) == 0


def test_rolling_uses_the_injected_generator_and_is_reproducible():
    expression = parse_dice("D 3d6-2")
    first = [dice.roll(expression, random.Random(7)) for _ in range(3)]
    second = [dice.roll(expression, random.Random(7)) for _ in range(3)]
    assert first == second
    rng = random.Random(1)
    rolls = [dice.roll(expression, rng) for _ in range(300)]
    assert set(rolls) <= set(expression.distribution())
    assert all(r % 10 == 0 for r in rolls)


def test_rolling_without_a_generator_is_rejected():
    with pytest.raises(ValueError, match=r"random\.Random"):
        dice.roll(parse_dice("1d6"), None)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.integers(2, 12), st.integers(-20, 20), st.sampled_from(["", "D", "H", "K"]))
def test_any_expression_round_trips_through_its_text(count, sides, modifier, scale):
    expression = DiceExpression(count, sides, modifier, scale)
    assert parse_dice(str(expression)) == expression
    distribution = expression.distribution()
    assert sum(distribution.values()) == 1
    assert (min(distribution), max(distribution)) == (expression.minimum, expression.maximum)


class ScriptedDice(random.Random):
    """A generator whose ``randint`` returns the given faces in turn (to enumerate every roll)."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        face = self.faces.pop(0)
        assert a <= face <= b
        return face


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 50), st.integers(2, 100), st.integers(-1000, 1000), st.sampled_from(["", "D", "H", "K"])
)
def test_the_mean_of_an_expression_is_exact_from_its_figures(count, sides, modifier, scale):
    expression = DiceExpression(count, sides, modifier, scale)
    assert expression.mean == (Fraction(count * (sides + 1), 2) + modifier) * expression.factor
    if count <= 6:
        assert expression.mean == dice.mean(expression.distribution())


@pytest.mark.parametrize(
    ("text", "average"), [("2d6", 7), ("3d6-2", Fraction(17, 2)), ("d6", Fraction(7, 2)), ("H 2d6-2", 500)]
)
def test_the_mean_matches_brute_force_over_every_face(text, average):
    expression = parse_dice(text)
    totals = [
        (sum(faces) + expression.modifier) * expression.factor
        for faces in product(range(1, expression.sides + 1), repeat=expression.count)
    ]
    assert expression.mean == Fraction(sum(totals), len(totals)) == average


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(1, 10),
    st.integers(2, 20),
    st.integers(-20, 20),
    st.sampled_from(["", "D", "H", "K"]),
)
def test_rolled_faces_are_the_generators_randints_and_give_the_same_total_as_roll(
    seed, count, sides, modifier, scale
):
    expression = DiceExpression(count, sides, modifier, scale)
    rng = random.Random(seed)
    faces = tuple(rng.randint(1, sides) for _ in range(count))
    rolled = dice.roll_faces(expression, random.Random(seed))
    assert rolled == dice.RolledDice(
        faces, modifier, expression.factor, (sum(faces) + modifier) * expression.factor
    )
    assert rolled.total == dice.roll(expression, random.Random(seed))


def test_a_worked_roll_of_h_2d6_minus_2_shows_its_faces():
    """Outcomes § Damage Scale: H 2d6-2 is (2d6-2) x 100."""
    assert dice.roll_faces(parse_dice("H 2d6-2"), ScriptedDice((6, 3))) == dice.RolledDice(
        (6, 3), -2, 100, 700
    )


@pytest.mark.parametrize(
    ("advantage", "disadvantage", "rolled", "kept", "total"),
    [
        (0, 0, (3, 4), (3, 4), 7),
        (1, 0, (5, 2, 6), (5, 6), 11),
        (0, 1, (5, 2, 6), (5, 2), 7),
        (2, 1, (1, 1, 4), (1, 4), 5),
        (1, 3, (6, 6, 2), (6, 2), 8),
        (2, 2, (6, 1), (6, 1), 7),
    ],
)
def test_a_check_roll_keeps_two_dice_by_net_advantage(advantage, disadvantage, rolled, kept, total):
    """Core Mechanics § Advantage and Disadvantage: net advantage keeps the two highest of 3d6."""
    found = dice.roll_check(ScriptedDice(rolled), advantage, disadvantage)
    assert found == dice.RolledCheck(rolled, kept, total)


@pytest.mark.parametrize(
    ("advantage", "disadvantage", "rolled"), [(0, 0, 2), (1, 0, 3), (0, 1, 3), (3, 3, 2)]
)
def test_check_rolls_over_every_face_give_the_exact_check_distribution(advantage, disadvantage, rolled):
    counts = Counter(
        dice.roll_check(ScriptedDice(faces), advantage, disadvantage).total
        for faces in product(range(1, 7), repeat=rolled)
    )
    exact = {total: Fraction(n, 6**rolled) for total, n in counts.items()}
    assert exact == dict(checks.check_distribution(advantage, disadvantage))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 20), st.integers(0, 20))
def test_a_check_roll_is_reproducible_from_the_seed_and_keeps_two_of_its_dice(seed, advantage, disadvantage):
    found = dice.roll_check(random.Random(seed), advantage, disadvantage)
    assert found == dice.roll_check(random.Random(seed), advantage, disadvantage)
    rng = random.Random(seed)
    assert found.rolled == tuple(rng.randint(1, 6) for _ in found.rolled)
    assert len(found.rolled) == (2 if advantage == disadvantage else 3)
    assert len(found.kept) == 2 and found.total == sum(found.kept)
    assert not Counter(found.kept) - Counter(found.rolled)


@pytest.mark.parametrize(
    ("rng", "advantage", "disadvantage", "message"),
    [
        (None, 0, 0, r"random\.Random"),
        (random.Random(1), -1, 0, "Advantage cannot be negative"),
        (random.Random(1), 0, 21, "Disadvantage is at most 20"),
    ],
)
def test_bad_check_rolls_are_rejected(rng, advantage, disadvantage, message):
    with pytest.raises(ValueError, match=message):
        dice.roll_check(rng, advantage, disadvantage)
