"""The odds table calculator: exact chances checked against every way the dice can fall.

Rules: Core Mechanics § Difficulty Number Table, § Dice Roll, § Advantage and Disadvantage.
"""

from __future__ import annotations

from importlib import import_module

import pytest
from _dice import brute_force_chance
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.format import percent
from calculators.framework import registry, runtime


def result(**params: object) -> dict:
    found = runtime.compute("odds", {k: str(v) for k, v in params.items()})
    assert found["ok"], found
    return found


def test_difficulty_8_without_modifiers_is_41_67_percent_as_in_the_difficulty_table() -> None:
    # Core Mechanics § Difficulty Number Table: 8 (Challenging) -> 41.67%.
    assert result()["outputs"] == {
        "plain": "41.67%",
        "advantage": "68.06%",
        "disadvantage": "19.44%",
        "summary": "Reaching 8 at DM +0: 41.67%; 68.06% with advantage, 19.44% with disadvantage.",
    }


@pytest.mark.parametrize(
    ("difficulty", "printed"),
    [(4, "91.67%"), (6, "72.22%"), (10, "16.67%"), (12, "2.78%"), (13, "0%"), (14, "0%")],
)
def test_the_plain_chance_matches_the_printed_difficulty_table(difficulty: int, printed: str) -> None:
    # Core Mechanics § Difficulty Number Table (13 and above print N/A: no plain 2d6 can reach them).
    assert result(difficulty=difficulty)["outputs"]["plain"] == printed


@settings(max_examples=40, deadline=None)
@given(difficulty=st.integers(2, 30), modifier=st.integers(-20, 20))
def test_the_three_chances_equal_brute_force_over_every_die_face(difficulty: int, modifier: int) -> None:
    outputs = result(difficulty=difficulty, modifier=modifier)["outputs"]
    assert outputs["plain"] == percent(brute_force_chance(modifier, difficulty, 0))
    assert outputs["advantage"] == percent(brute_force_chance(modifier, difficulty, 1))
    assert outputs["disadvantage"] == percent(brute_force_chance(modifier, difficulty, -1))


def test_the_grid_lists_three_modifiers_around_the_chosen_one_and_highlights_the_chosen_cell() -> None:
    details = result(difficulty=10, modifier=2)["details"]
    for modifier in ("+1", "+2", "+3"):
        assert f'data-chart="modifier{modifier}"' in details
    assert 'data-chart="modifier+0"' not in details
    assert details.count('class="calc-highlight"') == 1


def test_the_grid_shifts_to_stay_within_the_lowest_difficulty() -> None:
    details = result(difficulty=2, modifier=-20)["details"]
    assert 'data-chart="modifier-21"' in details and 'data-chart="modifier-19"' in details
    assert '<th scope="row">2</th>' in details and '<th scope="row">10</th>' in details
    assert '<th scope="row">1</th>' not in details and '<th scope="row">11</th>' not in details


def test_the_grid_shows_the_advantage_chances_when_asked() -> None:
    details = result(difficulty=8, modifier=0, mode="advantage")["details"]
    assert "with advantage chance by difficulty" in details
    assert '<tr class="calc-highlight"><th scope="row">8</th><td>68.06%</td></tr>' in details


@pytest.mark.parametrize(
    ("field", "value"), [("difficulty", "1"), ("difficulty", "31"), ("modifier", "21"), ("mode", "best")]
)
def test_out_of_range_inputs_are_flagged_beside_their_field(field: str, value: str) -> None:
    found = runtime.compute("odds", {field: value})
    assert not found["ok"] and field in found["errors"]


@pytest.mark.parametrize("name", registry.names())
def test_each_calculator_names_only_rules_core_functions_that_exist(name: str) -> None:
    calc = registry.get(name)
    assert calc.uses, f"{name} declares no rules_core functions"
    for dotted in calc.uses:
        assert dotted.startswith("rules_core."), dotted
        module, _, attr = dotted.partition(".")[2].partition(".")
        target: object = import_module(f"rules_core.{module}")
        for part in attr.split("."):
            target = getattr(target, part)
        assert callable(target), dotted
