"""The movement calculator: the movement table by action, load, stance and scale; stance changes.

Rules: Actions § Movement Table, § Minor Move, § Dash, § Running, § List of Minor Actions
(Changing Stance); rulings: dash metres, stance changes not listed.
"""

from __future__ import annotations

from functools import partial

import _calc
import pytest

from calculators.framework import runtime
from rules_core import limits

outputs = partial(_calc.outputs, "movement")


@pytest.mark.parametrize(
    ("action", "load", "spaces", "metres"),
    [
        ("move", "light", "4", "6 m"),
        ("dash", "light", "10", "15 m"),
        ("run", "light", "15", "22.5 m"),
        ("move", "medium", "3", "4.5 m"),
        ("dash", "heavy", "7", "10.5 m"),
        ("run", "medium", "10", "15 m"),
    ],
)
def test_standing_on_1_5_m_spaces_the_table_gives_the_source_figures(
    action: str, load: str, spaces: str, metres: str
) -> None:
    # Actions § Movement Table; § Minor Move (6 m, 4 spaces); § Dash (10 spaces); § Running (15 / 10).
    found = outputs(action=action, load=load)
    assert (found["spaces"], found["metres"]) == (spaces, metres)


def test_the_printed_reading_gives_the_texts_10_m_for_a_loaded_dash() -> None:
    # Actions § Dash: "7 spaces or 10 m" (ruling: dash metres).
    assert outputs(action="dash", load="medium", reading="printed")["metres"] == "10 m"


def test_each_action_names_its_cost_in_minor_actions() -> None:
    assert outputs(action="move")["cost"] == "1 of 3 minor actions"
    assert outputs(action="dash")["cost"] == "2 of 3 minor actions"
    assert outputs(action="run")["cost"] == "3 of 3 minor actions"
    assert "Dash is a significant action" in runtime.compute("movement", {"action": "dash"})["details"]


def test_a_prone_character_cannot_make_a_minor_move_but_crawls_otherwise() -> None:
    # Actions § Movement Table: Crawl has NA for Move (ruling: crawling as a minor move).
    assert outputs(action="move", stance="prone")["spaces"] == "not possible"


def test_crouching_roughly_halves_the_distance() -> None:
    standing = int(outputs(action="dash")["spaces"])
    crouching = int(outputs(action="dash", stance="crouching")["spaces"])
    assert crouching == standing // 2


@pytest.mark.parametrize(
    ("start", "end", "reading", "cost"),
    [
        ("standing", "prone", "listed_steps", "1 minor action"),
        ("prone", "crouching", "listed_steps", "2 minor actions"),
        ("prone", "standing", "listed_steps", "3 minor actions"),
        ("crouching", "prone", "listed_steps", "2 minor actions"),
        ("crouching", "prone", "down_is_one", "1 minor action"),
        ("standing", "standing", "listed_steps", "none"),
    ],
)
def test_stance_changes_cost_the_listed_minor_actions(start: str, end: str, reading: str, cost: str) -> None:
    # Actions § List of Minor Actions (Changing Stance); ruling: stance changes not listed.
    assert outputs(stance=start, new_stance=end, stance_reading=reading)["stance_cost"] == cost


def test_a_dash_over_bad_footing_rolls_athletics_against_8_plus_conditions() -> None:
    # Actions § Dash > Athletics Roll.
    assert outputs(action="dash", conditions=3)["athletics"] == "Athletics against 11"
    assert outputs(action="move", conditions=3)["athletics"] == "\u2014"


def test_the_4_5_m_scale_uses_its_own_rows() -> None:
    found = outputs(action="run", stance="crouching", scale="4.5")
    assert (found["spaces"], found["metres"]) == ("3", "13.5 m")


@pytest.mark.parametrize(
    ("field", "value"), [("scale", "3"), ("load", "huge"), ("conditions", str(limits.MAX_MODIFIER + 1))]
)
def test_unknown_choices_are_flagged(field: str, value: str) -> None:
    assert field in runtime.compute("movement", {field: value})["errors"]


@pytest.mark.parametrize(
    ("action", "load", "rounding", "spaces", "metres"),
    [
        ("move", "light", "down", "3", "4.5 m"),
        ("run", "light", "down", "11", "16.5 m"),
        ("run", "light", "exact", "11.25", "16.875 m"),
        ("move", "medium", "down", "2", "3 m"),
        ("move", "medium", "exact", "2.25", "3.375 m"),
        ("run", "heavy", "down", "7", "10.5 m"),
    ],
)
def test_seriously_wounded_moves_at_three_quarters(
    action: str, load: str, rounding: str, spaces: str, metres: str
) -> None:
    """Outcomes § Seriously Wounded > Movement Effects: "movement speed is at 3/4".

    Light Move 4, Run 15; medium Move 3; heavy Run 10 (Actions § Movement Table), times 3/4.
    """
    out = outputs(action=action, load=load, injury="seriously_wounded", wounded_rounding=rounding)
    assert (out["spaces"], out["metres"]) == (spaces, metres)


def test_seriously_wounded_cannot_dash() -> None:
    """Outcomes § Seriously Wounded > Movement Effects: "Cannot Dash"."""
    out = outputs(action="dash", injury="seriously_wounded")
    assert (out["spaces"], out["metres"], out["athletics"]) == ("not possible", "not possible", "\u2014")
    assert outputs(action="dash")["spaces"] == "10"


def test_unhurt_movement_is_unchanged_by_the_rounding_switch() -> None:
    assert outputs(action="run", wounded_rounding="exact")["spaces"] == "15"


@pytest.mark.parametrize("action", ["move", "dash", "run"])
def test_a_critically_wounded_character_does_not_move(action: str) -> None:
    """Outcomes § Critically Wounded, § Dying; ruling: movement when critically wounded. The choice once
    gave Move 3 and Run 11 (the seriously wounded figures), against ``injury.movement``."""
    found = _calc.compute("movement", action=action, injury="critically_wounded")
    out = found["outputs"]
    assert (out["spaces"], out["metres"], out["athletics"]) == ("not possible", "not possible", "\u2014")
    assert out["summary"].endswith(": not possible.")
    assert "no movement at all" in found["details"]


@pytest.mark.parametrize(
    ("params", "summary"),
    [
        ({"action": "dash", "injury": "seriously_wounded"}, "Dash: not possible."),
        ({"action": "move", "stance": "prone"}, "Move: not possible;"),
        ({"action": "run", "scale": "4.5", "stance": "crouching", "injury": "seriously_wounded"}, "2 spaces"),
        ({"action": "move", "scale": "4.5", "load": "heavy"}, "1 space (4.5 m)"),
        ({"action": "run", "injury": "seriously_wounded", "wounded_rounding": "exact"}, "11.25 spaces"),
    ],
)
def test_the_summary_counts_spaces_in_words_and_never_counts_not_possible(
    params: dict[str, str], summary: str
) -> None:
    """The format module's plural: "1 space", never "1 spaces" nor "not possible spaces (not possible)"."""
    text = outputs(**params)["summary"]
    assert summary in text
    assert "not possible spaces" not in text and "1 spaces" not in text


def test_a_risky_run_rolls_athletics_with_the_better_of_end_and_dex() -> None:
    """Actions § Running (Roll: Athletics + End or Dex); ruling: the Run roll. Dex 12 (DM +2) beats End 9
    (DM +1); Athletics 1: 2d6 + 3 against 8 + 2 = 10 succeeds 21/36 = 58.33%."""
    found = _calc.compute("movement", action="run", endurance=9, dexterity=12, athletics=1, conditions=2)
    assert found["outputs"]["athletics"] == "Athletics against 10"
    assert found["outputs"]["roll_chance"] == "58.33%"
    assert "Dex DM +2 + Athletics 1" in found["details"]
    end = outputs(
        action="run", endurance=9, dexterity=12, athletics=1, conditions=2, run_characteristic="endurance"
    )
    assert end["roll_chance"] == "41.67%"


def test_the_run_roll_carries_the_wound_penalty_and_the_unskilled_penalty() -> None:
    """Outcomes § Character HP Thresholds (-1 per 3 damage); Core Mechanics § Unskilled Penalty (-3).
    End and Dex 7 (DM +0), no Athletics, 6 damage: 2d6 - 5 against 8 needs 13: never."""
    assert outputs(action="run", damage=6)["roll_chance"] == "0%"
    assert outputs(action="run", athletics=2)["roll_chance"] == "72.22%"
