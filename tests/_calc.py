"""Helpers shared by the fast calculator tests (CPython): run a registered calculator by name.

In a test module: ``outputs = partial(_calc.outputs, "dice")``, then ``outputs(count=2, sides=6)``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from calculators.framework import runtime
from calculators.framework.render import EMPTY_OUTPUT

__all__ = ["HURT_CHARACTER", "assert_flagged", "compute", "outputs"]

HURT_CHARACTER: dict[str, st.SearchStrategy[int]] = {
    "strength": st.integers(0, 30),
    "dexterity": st.integers(0, 30),
    "endurance": st.integers(1, 30),
    "damage": st.integers(0, 120),
}
"""``@given(**HURT_CHARACTER)``: a character's physical characteristics (HP at least 1) and the damage
taken, from unhurt to far past dying: the inputs of the injury calculators."""


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
