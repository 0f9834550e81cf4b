"""The dice roller: seeded rolls reproducible and shareable; exact range, average and distribution.

Rules: Core Mechanics § Dice Roll; Outcomes § Damage Rolls, § Damage Scale (D x10, H x100, K x1000).
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import partial
from itertools import product

import _calc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.dice import MAX_SEED
from calculators.format import number, percent
from calculators.framework import runtime

FACTORS = {"": 1, "D": 10, "H": 100, "K": 1000}


outputs = partial(_calc.outputs, "dice")


def test_without_a_roll_number_only_the_range_and_average_show() -> None:
    assert outputs(check="advantage") == {
        "summary": "2d6: 2 to 12, 7.00 on average.",
        "rolls": "\u2014",
        "faces": "\u2014",
        "total": "\u2014",
        "range": "2 to 12",
        "expected": "7.00",
        "check": "\u2014",
        "check_dice": "\u2014",
    }


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, MAX_SEED),
    count=st.integers(1, 5),
    sides=st.integers(2, 20),
    modifier=st.integers(-10, 10),
    scale=st.sampled_from(sorted(FACTORS)),
    times=st.integers(1, 20),
)
def test_the_rolls_are_the_seeded_dice_plus_modifier_times_the_scale(
    seed: int, count: int, sides: int, modifier: int, scale: str, times: int
) -> None:
    text = f"{scale} {count}d{sides}{modifier:+d}".strip()
    rng = random.Random(seed)
    rolls = [
        (sum(rng.randint(1, sides) for _ in range(count)) + modifier) * FACTORS[scale] for _ in range(times)
    ]
    found = outputs(dice=text, seed=seed, times=times)
    assert found["rolls"] == ", ".join(map(number, rolls))
    assert found["total"] == number(sum(rolls))
    assert found["check"] == "\u2014"
    assert found == outputs(dice=text, seed=seed, times=times)


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, MAX_SEED), count=st.integers(1, 6), sides=st.integers(2, 20), times=st.integers(1, 5)
)
def test_each_rolls_faces_are_shown_and_add_up_to_its_total(
    seed: int, count: int, sides: int, times: int
) -> None:
    rng = random.Random(seed)
    faces = [[rng.randint(1, sides) for _ in range(count)] for _ in range(times)]
    found = runtime.compute("dice", {"dice": f"{count}d{sides}+1", "seed": str(seed), "times": str(times)})
    assert found["outputs"]["faces"] == ", ".join(f"[{', '.join(map(str, f))}]" for f in faces)
    assert found["outputs"]["rolls"] == ", ".join(str(sum(f) + 1) for f in faces)
    assert f"Roll {times}: {' + '.join(map(str, faces[-1]))} + 1 = {sum(faces[-1]) + 1}." in found["details"]


def test_a_scaled_roll_shows_its_faces_and_the_factor_in_the_working() -> None:
    """Outcomes § Damage Scale: H 3d6-2 is (3d6-2) x 100."""
    found = runtime.compute("dice", {"dice": "H 3d6-2", "seed": "42"})
    rng = random.Random(42)
    faces = [rng.randint(1, 6) for _ in range(3)]
    total = (sum(faces) - 2) * 100
    assert found["outputs"]["faces"] == f"[{', '.join(map(str, faces))}]"
    assert f"Roll 1: ({' + '.join(map(str, faces))} \u2212 2) x 100 = {total}." in found["details"]


CHECKS = {"plain": (2, False), "advantage": (3, True), "disadvantage": (3, False)}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, MAX_SEED), times=st.integers(1, 3), check=st.sampled_from(sorted(CHECKS)))
def test_the_check_roll_follows_the_dice_from_the_same_seed_and_keeps_two_by_advantage(
    seed: int, times: int, check: str
) -> None:
    """Core Mechanics § Advantage and Disadvantage: 3d6 keeping the two highest (advantage) or lowest."""
    rng = random.Random(seed)
    dice_rolls = [rng.randint(1, 6) + rng.randint(1, 6) for _ in range(times)]
    dice_count, highest = CHECKS[check]
    rolled = [rng.randint(1, 6) for _ in range(dice_count)]
    kept = sorted(rolled, reverse=highest)[:2]
    found = outputs(seed=seed, times=times, check=check)
    assert found["rolls"] == ", ".join(map(str, dice_rolls))
    assert found["check"] == str(sum(kept))
    if check == "plain":
        assert found["check_dice"] == f"{rolled[0]} + {rolled[1]}"
    else:
        shown, dropped = found["check_dice"].split(", dropped ")
        assert sorted(int(face) for face in shown.split(" + ")) == sorted(kept)
        assert sorted([*kept, int(dropped)]) == sorted(rolled)
        assert (
            f"3d6 rolled {', '.join(map(str, rolled))}, the two "
            in runtime.compute("dice", {"seed": str(seed), "times": str(times), "check": check})["details"]
        )


def test_a_worked_check_with_advantage_names_the_dice_kept() -> None:
    found = runtime.compute("dice", {"seed": "42", "times": "2", "check": "advantage"})
    assert found["outputs"]["faces"] == "[6, 1], [1, 6]"
    assert (found["outputs"]["check"], found["outputs"]["check_dice"]) == ("5", "3 + 2, dropped 2")
    assert "Check with advantage: 3d6 rolled 3, 2, 2, the two highest kept: 3 + 2 = 5." in found["details"]


@pytest.mark.parametrize("text", ["2d6", "3d6-2", "d6", "4d3+1", "D 2d6-2", "H 1d4", "2d10"])
def test_range_average_and_chart_equal_brute_force_over_every_face(text: str) -> None:
    scale, _, body = text.rpartition(" ")
    head, _, rest = body.partition("d")
    count = int(head or 1)
    sides, modifier = (
        (int(x) for x in rest.replace("-", "+-").split("+"))
        if "+" in rest or "-" in rest
        else (
            int(rest),
            0,
        )
    )
    totals = [(sum(f) + modifier) * FACTORS[scale] for f in product(range(1, sides + 1), repeat=count)]
    found = runtime.compute("dice", {"dice": text})
    assert found["outputs"]["range"] == f"{min(totals)} to {max(totals)}"
    average = Fraction(sum(totals), len(totals))
    assert found["outputs"]["expected"] == f"{float(average):.2f}"
    for value in set(totals):
        chance = percent(Fraction(totals.count(value), len(totals)))
        assert f'<th scope="row">{value}</th><td>{chance}</td>' in found["details"]


def test_a_huge_distribution_is_rolled_but_not_charted() -> None:
    found = runtime.compute("dice", {"dice": "50d100", "seed": "1", "times": "20"})
    assert found["ok"] and "too many to chart" in found["details"] and "data-chart" not in found["details"]
    assert found["outputs"]["range"] == "50 to 5000" and found["outputs"]["expected"] == "2525.00"


def test_a_negative_average_is_written_with_its_sign() -> None:
    assert outputs(dice="1d6-10")["expected"] == "\u22126.50"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("dice", "x"),
        ("dice", "d0"),
        ("dice", "51d6"),
        ("dice", "2d6" * 20),
        ("times", "0"),
        ("times", "21"),
        ("seed", "-3"),
        ("check", "twice"),
    ],
)
def test_bad_inputs_are_flagged_beside_their_field(field: str, value: str) -> None:
    found = runtime.compute("dice", {field: value})
    assert not found["ok"] and field in found["errors"]
