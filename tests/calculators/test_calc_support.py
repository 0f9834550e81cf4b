"""The support and coordination calculator: the chance alone, with supporters, coordinated, with a plan.

Rules: Actions § Supporting Actions, § Coordinating Action, § Plan/Wait. Rulings: supporting on a failure,
several supporters, coordination offset. Exact figures are brute-forced in tests/rules/test_support.py.
"""

from __future__ import annotations

from functools import partial

import _calc
from _dice import brute_force_chance, pct

outputs = partial(_calc.outputs, "support")


def test_one_supporter_at_plus_0() -> None:
    """One supporter at +0 against 8 gives DM +1 to +4 on a 9 to 12 (10/36 of the time)."""
    found = outputs()
    assert (found["alone"], found["some_bonus"], found["helped"]) == ("41.67%", "27.78%", "49.77%")


def test_two_supporters_best_or_summed() -> None:
    """Ruling support-stacking: 56.11% with the best counting, 57.02% if they added up."""
    assert outputs(supporters=2)["helped"] == "56.11%"
    assert outputs(supporters=2, stacking="sum")["helped"] == "57.02%"


def test_no_supporters_hides_the_support_outputs() -> None:
    found = outputs(supporters=0)
    assert found["helped"] == "\u2014"
    assert found["summary"] == "The roll succeeds 41.67% of the time against 8."


def test_coordination_raises_the_difficulty_less_the_skill() -> None:
    """Actions § Coordinating Action: +3, Tactics 2 offsets 2: Difficulty 9; at DM +2 needs 7: 58.33%."""
    found = outputs(supporters=0, coordination=3, offset=2, modifier=2)
    assert (found["difficulty"], found["alone"]) == ("9", "58.33%")
    assert outputs(supporters=0, coordination=2, offset=5)["difficulty"] == "8"  # never below the plain 8


def test_a_plan_right_or_wrong_rolls_with_advantage_or_disadvantage() -> None:
    """Actions § Plan/Wait > Step 4: right, one advantage; wrong, one disadvantage (brute-forced 3d6)."""
    assert outputs(supporters=0, plan="right")["alone"] == pct(brute_force_chance(0, 8, 1)) == "68.06%"
    assert outputs(supporters=0, plan="wrong")["alone"] == pct(brute_force_chance(0, 8, -1)) == "19.44%"
