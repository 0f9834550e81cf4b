"""The dice roller: seeded rolls reproducible and shareable; exact range, average and distribution.

Rules: Core Mechanics § Dice Roll; Outcomes § Damage Rolls, § Damage Scale (D x10, H x100, K x1000).
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import runtime
from calculators.dice import MAX_SEED
from calculators.render import percent

FACTORS = {"": 1, "D": 10, "H": 100, "K": 1000}


def outputs(**params: object) -> dict[str, str]:
    found = runtime.compute("dice", {k: str(v) for k, v in params.items()})
    assert found["ok"], found
    return found["outputs"]


def test_without_a_roll_number_only_the_range_and_average_show() -> None:
    assert outputs() == {"rolls": "\u2014", "total": "\u2014", "range": "2 to 12", "expected": "7.00"}


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
    assert found["rolls"] == ", ".join(map(str, rolls))
    assert found["total"] == str(sum(rolls))
    assert found == outputs(dice=text, seed=seed, times=times)


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
    assert outputs(dice="1d6-10")["expected"] == "-6.50"


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
    ],
)
def test_bad_inputs_are_flagged_beside_their_field(field: str, value: str) -> None:
    found = runtime.compute("dice", {field: value})
    assert not found["ok"] and field in found["errors"]
