"""The round planner: actions priced in minor actions, three a round, and what is left.

Rules: Actions § Action Types, § Minor Actions, § List of Significant Actions, § List of Full Actions;
ruling: three minor actions and the significant action.
"""

from __future__ import annotations

from functools import partial
from itertools import product

import _calc
import pytest

from calculators.round import ACTION_CHOICES, NOTHING
from rules_core import actions

outputs = partial(_calc.outputs, "round")


def test_an_attack_and_an_aim_use_the_whole_round() -> None:
    """Actions § Action Types: a significant action (2) and a minor action (1) fill the 3."""
    found = outputs(first="attack", second="aim", third=NOTHING)
    assert (found["used"], found["remaining"], found["fits"]) == (
        "3 of 3",
        "0 minor actions",
        "free actions only",
    )


@pytest.mark.parametrize(
    ("plan", "remaining", "fits"),
    [
        ((NOTHING, NOTHING, NOTHING), "3 minor actions", "a full, significant or minor action"),
        (("aim", NOTHING, NOTHING), "2 minor actions", "a significant or minor action"),
        (("dash", NOTHING, NOTHING), "1 minor action", "a minor action"),
        (("aim", "minor_move", "quick_scan"), "0 minor actions", "free actions only"),
    ],
)
def test_what_is_left_and_what_still_fits(plan: tuple[str, str, str], remaining: str, fits: str) -> None:
    found = outputs(first=plan[0], second=plan[1], third=plan[2])
    assert (found["remaining"], found["fits"]) == (remaining, fits)
    assert "1 minor actions" not in found["summary"]


def test_a_run_and_anything_else_is_refused_beside_the_overflowing_action() -> None:
    """Actions § List of Full Actions: a Run takes all three minor actions."""
    found = _calc.compute("round", first="run", second="aim", third=NOTHING)
    assert found["errors"] == {"second": "These actions need 4 minor actions; a round has 3."}
    assert outputs(first="run", second=NOTHING, third=NOTHING)["used"] == "3 of 3"


def test_every_mix_of_action_types_agrees_with_the_engine() -> None:
    """One action of each cost (none, minor, significant, full) in every slot: 64 plans."""
    keys = [NOTHING, "aim", "dash", "run"]
    assert set(keys) <= {key for key, _ in ACTION_CHOICES}
    for plan in product(keys, repeat=3):
        chosen = [k for k in plan if k != NOTHING]
        used = sum(actions.named_action(k).minor_actions for k in chosen)
        found = _calc.compute("round", first=plan[0], second=plan[1], third=plan[2])
        assert found["ok"] == (used <= actions.minor_actions_per_round()), plan
        if found["ok"]:
            assert found["outputs"]["used"] == f"{used} of {actions.minor_actions_per_round()}"
