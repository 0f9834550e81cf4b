"""The thrown range calculator: Strength x Thrown value, lobbed three times as far, rounded down.

Rules: Actions § Thrown Weapons > Examples; ruling: thrown range rounding.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from math import floor

import _calc
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators.framework import runtime

outputs = partial(_calc.outputs, "thrown")


@pytest.mark.parametrize(("value", "straight", "lobbed"), [("0.5", "3 m", "10 m"), ("1.5", "10 m", "31 m")])
def test_strength_7_reproduces_the_sources_two_examples(value: str, straight: str, lobbed: str) -> None:
    # Actions § Thrown Weapons > Examples: Str 7, 0.5 -> 3 m / 10 m; 1.5 -> 10 m / 31 m.
    assert outputs(strength=7, thrown=value) == {
        "straight": straight,
        "lobbed": lobbed,
        "summary": f"Thrown straight {straight}, lobbed {lobbed}.",
    }


def test_the_exact_reading_keeps_the_half_metres() -> None:
    assert outputs(strength=7, thrown="1.5", rounding="exact") == {
        "straight": "10.5 m",
        "lobbed": "31.5 m",
        "summary": "Thrown straight 10.5 m, lobbed 31.5 m.",
    }


def test_a_decimal_comma_and_a_fraction_are_read() -> None:
    assert outputs(strength=7, thrown="1,5")["straight"] == "10 m"
    assert outputs(strength=9, thrown="1/3")["straight"] == "3 m"


@given(strength=st.integers(0, 50), tenths=st.integers(1, 200))
def test_ranges_equal_strength_times_value_rounded_down_after_multiplying(strength: int, tenths: int) -> None:
    value = Fraction(tenths, 10)
    text = f"{tenths // 10}.{tenths % 10}"
    found = outputs(strength=strength, thrown=text)
    assert found["straight"] == f"{floor(strength * value)} m"
    assert found["lobbed"] == f"{floor(3 * strength * value)} m"


@pytest.mark.parametrize("value", ["abc", "0", "21", "1e5", "9e999999", "1/0", "-1", "1_0", "0.5.5"])
def test_a_thrown_value_that_is_not_a_sane_number_is_flagged(value: str) -> None:
    found = runtime.compute("thrown", {"thrown": value})
    assert not found["ok"] and "thrown" in found["errors"]
