"""The aim calculator: aim actions, the weapon's aim modifier, the maximum, ballistic correction, tracers.

Rules: Actions § List of Minor Actions (Aim), § Aim (Weapon Aim Modifier, Maximum Aim), § Ballistic Correction
(Effect, Spotter, Tracer Rounds). Rulings: maximum aim, correction within the aim limit, tracers and
correction.
"""

from __future__ import annotations

from functools import partial

import _calc
import pytest

from rules_core import aim

outputs = partial(_calc.outputs, "aim")


@pytest.mark.parametrize(
    ("params", "bonus", "most"),
    [
        ({"aim_actions": 1}, "+1", "+6"),  # +1 an action without a weapon modifier
        ({"aim_actions": 6}, "+6", "+6"),  # Maximum Aim: six actions
        ({"aim_actions": 3, "weapon_aim": 2}, "+6", "+12"),  # the weapon's modifier per action (ruling)
        ({"aim_actions": 3, "weapon_aim": 2, "reading": "once"}, "+4", "+7"),  # other reading: once, then +1
        ({"aim_actions": 0}, "+0", "+6"),
    ],
)
def test_aim_actions_give_the_weapons_modifier_or_1_each_up_to_six(
    params: dict[str, object], bonus: str, most: str
) -> None:
    found = outputs(**params)
    assert (found["aim"], found["maximum"]) == (bonus, most)


@pytest.mark.parametrize(
    ("params", "corrected"),
    [
        ({"kept": 2}, "+3"),  # Ballistic Correction > Effect: keep and add 1
        ({"kept": 6}, "+6"),  # within the maximum (ruling)
        ({"kept": 2, "tracers": "tracers"}, "+3"),  # tracers set the step: +1
        ({"kept": 2, "tracers": "full_auto"}, "+5"),  # up to +3 on full automatic
        ({"kept": 2, "tracers": "full_auto", "tracer_reading": "added"}, "+6"),  # other reading: +1 and +3
        ({"kept": 4, "tracers": "full_auto"}, "+6"),
    ],
)
def test_correction_keeps_last_rounds_aim_and_adds_its_step(
    params: dict[str, object], corrected: str
) -> None:
    assert outputs(**params)["corrected"] == corrected


def test_a_spotter_gives_2_conditions_and_the_summary_says_all() -> None:
    """Actions § Ballistic Correction > Spotter."""
    found = outputs(aim_actions=2, kept=1, spotter=1)
    assert found["spotter"] == f"{aim.spotter_conditions()} conditions" == "2 conditions"
    assert found["summary"] == (
        "Aim +2 on your next ranged attack (at most +6); corrected fire: aim +2; a spotter adds 2 conditions."
    )


def test_a_kept_aim_above_the_maximum_is_flagged() -> None:
    assert _calc.compute("aim", kept=7)["errors"] == {"kept": "The kept Aim bonus must be between 0 and 6."}
