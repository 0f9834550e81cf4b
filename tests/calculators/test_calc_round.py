"""The round planner: actions priced in minor actions, three a round, and what is left.

Rules: Actions § Action Types, § Minor Actions, § List of Significant Actions, § List of Full Actions;
ruling: three minor actions and the significant action.
"""

from __future__ import annotations

from functools import partial
from itertools import product

import _calc
import pytest

from calculators.round import NOTHING, SLOTS
from rules_core import actions

outputs = partial(_calc.outputs, "round")
NONE = {key: NOTHING for key, *_ in SLOTS}


def test_an_attack_and_an_aim_use_the_whole_round() -> None:
    """Actions § Action Types: a significant action (2) and a minor action (1) fill the 3 (the defaults)."""
    found = outputs()
    assert (found["used"], found["remaining"], found["fits"]) == ("3 of 3", "0", "free only")
    assert found["summary"] == "Uses 3 of 3 minor actions; 0 minor actions left, room for free actions only."


@pytest.mark.parametrize(
    ("plan", "remaining", "fits"),
    [
        ({}, "3", "full, significant or minor"),
        ({"minor1": "aim"}, "2", "significant or minor"),
        ({"significant": "dash"}, "1", "minor"),
        (
            {"minor1": "aim", "minor2": "minor_move", "minor3": "quick_scan"},
            "0",
            "free only",
        ),
    ],
)
def test_what_is_left_and_what_still_fits(plan: dict[str, str], remaining: str, fits: str) -> None:
    found = outputs(**{**NONE, **plan})
    assert (found["remaining"], found["fits"]) == (remaining, fits)
    assert "1 minor actions" not in found["summary"]
    assert f"{remaining} minor action" in found["summary"]


def test_a_run_and_anything_else_is_refused_beside_the_last_action() -> None:
    """Actions § List of Full Actions: a Run takes all three minor actions."""
    found = _calc.compute("round", **{**NONE, "full": "run", "minor1": "aim"})
    assert found["errors"] == {"minor1": "These actions need 4 minor actions; a round has 3."}
    assert outputs(**{**NONE, "full": "run"})["used"] == "3 of 3"


def test_each_slot_offers_the_named_actions_of_its_type_only() -> None:
    """Actions § List of Minor, Significant and Full Actions (the chapter's lists)."""
    from calculators.framework import registry

    for item in registry.get("round").inputs:
        kind = next(k for key, _, k, _ in SLOTS if key == item.key)
        offered = {value for value, _ in item.choices} - {NOTHING}  # type: ignore[union-attr]
        assert offered == {a.action for a in actions.named_actions() if a.action_type is kind}


def test_every_mix_agrees_with_the_engine() -> None:
    """One named action or nothing in each slot: 2 x 2 x 2 x 2 x 2 plans."""
    choices = [(NOTHING, "run"), (NOTHING, "attack"), (NOTHING, "aim"), (NOTHING, "quick_scan")]
    choices.append((NOTHING, "minor_move"))
    for plan in product(*choices):
        chosen = [k for k in plan if k != NOTHING]
        used = sum(actions.named_action(k).minor_actions for k in chosen)
        found = _calc.compute("round", **dict(zip([key for key, *_ in SLOTS], plan, strict=True)))
        assert found["ok"] == (used <= actions.minor_actions_per_round()), plan
        if found["ok"]:
            assert found["outputs"]["used"] == f"{used} of {actions.minor_actions_per_round()}"
