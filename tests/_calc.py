"""Helpers shared by the fast calculator tests (CPython): run a registered calculator by name.

In a test module: ``outputs = partial(_calc.outputs, "dice")``, then ``outputs(count=2, sides=6)``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from calculators.framework import runtime
from calculators.framework.render import EMPTY_OUTPUT

__all__ = ["HURT_CHARACTER", "SMALL_HIT", "assert_flagged", "compute", "outputs"]

HURT_CHARACTER: dict[str, st.SearchStrategy[int]] = {
    "strength": st.integers(0, 30),
    "dexterity": st.integers(0, 30),
    "endurance": st.integers(1, 30),
    "damage": st.integers(0, 120),
}
"""``@given(**HURT_CHARACTER)``: a character's physical characteristics (HP at least 1) and the damage
taken, from unhurt to far past dying: the inputs of the injury calculators."""

SMALL_HIT: dict[str, st.SearchStrategy[int]] = {
    "count": st.integers(1, 3),
    "sides": st.sampled_from([3, 6]),
    "armor": st.integers(0, 4),
    "rate": st.integers(0, 3),
}
"""``@given(**SMALL_HIT)``: a weapon's damage dice (``{count}d{sides}``), its rate of attack and the
target's armor, small enough for exact injury odds: the inputs the attack and damage tests share."""


def compute(name: str, /, **params: object) -> dict[str, Any]:
    """The payload the browser gets for these inputs (each value written as text; ``None`` as an empty
    field)."""
    return runtime.compute(name, {key: "" if value is None else str(value) for key, value in params.items()})


def outputs(name: str, /, **params: object) -> dict[str, str]:
    """The output texts by key; fails the test when the inputs do not compute."""
    result = compute(name, **params)
    assert result["ok"], result
    return result["outputs"]


def assert_flagged(name: str, field: str, value: str, message: str) -> None:
    """``value`` in ``field`` is refused with ``message`` beside that field, and every output is empty."""
    result = runtime.compute(name, {field: value})
    assert not result["ok"]
    assert message in result["errors"][field]
    assert set(result["outputs"].values()) == {EMPTY_OUTPUT}
