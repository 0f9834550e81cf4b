"""The skill-check calculator: competence, unskilled, combined difficulties, modifiers that do not stack,
the wound penalty, and the chance and Effect.

Rules: Core Mechanics § Characteristic Modifier (ChM), § Unskilled Penalty, § Competence, § Modifiers to Rolls
(Important Rules), § Combined Difficulties (Athletic Attack example); Outcomes § Character HP Thresholds.
"""

from __future__ import annotations

from functools import partial

import _calc
import pytest
from _dice import brute_force_chance, pct
from hypothesis import given, settings
from hypothesis import strategies as st

outputs = partial(_calc.outputs, "check")


def test_the_athletic_attack_example_without_athletics_rolls_cmp_1_against_9() -> None:
    """Core Mechanics § Combined Difficulties: ChM +1, attack skill 0, no Athletics: Cmp +1 against 8 + 1."""
    found = outputs(characteristic=9, skill=0, missing_skills=1)
    assert (found["competence"], found["modifier"], found["difficulty"]) == ("+1", "+1", "9")
    assert found["chance"] == pct(brute_force_chance(1, 9, 0))
    assert outputs(characteristic=9, skill=0)["difficulty"] == "8"


def test_a_strength_of_10_gives_dm_1_and_the_working_shows_the_rules_figures() -> None:
    """Core Mechanics § Characteristic Modifier: 10 / 3 rounded down is 3, less 2: +1."""
    found = _calc.compute("check", characteristic=10)
    assert found["outputs"]["competence"] == "+1"
    assert "Characteristic 10 \u00f7 3 = 3 (rounded down), 3 \u2212 2: DM +1." in found["details"]


def test_without_the_skill_the_roll_takes_minus_3() -> None:
    """Core Mechanics § Unskilled Penalty."""
    assert outputs(characteristic=7, skill="")["competence"] == "\u22123"


def test_two_modifiers_of_one_kind_count_the_better_only() -> None:
    """Core Mechanics § Modifiers to Rolls (same kind never stacks): scope +2 and scope +1 give +2."""
    found = _calc.compute("check", modifiers="scope +2, scope +1, light \u22121")
    assert found["outputs"]["modifier"] == "+1"
    assert "left out (a better one of the same kind counts): scope +1" in found["details"]


def test_the_wound_penalty_comes_off_the_roll() -> None:
    """Outcomes § Character HP Thresholds: 7 damage, two full threes: -2."""
    assert outputs(damage=7)["modifier"] == "\u22122"


def test_a_roll_gives_its_effect_and_advantage_changes_the_chance() -> None:
    """Core Mechanics § Effect; § Advantage and Disadvantage (3d6 keep two)."""
    assert outputs(roll=10, difficulty=8)["effect"] == "+2"
    assert outputs(dice="advantage")["chance"] == pct(brute_force_chance(0, 8, 1))
    assert "Roll 3d6, keep the two lowest" in outputs(dice="disadvantage")["summary"]


@pytest.mark.parametrize("text", ["oops", "+2", "scope"])
def test_a_modifier_without_a_kind_or_a_number_is_flagged(text: str) -> None:
    assert "modifiers" in _calc.compute("check", modifiers=text)["errors"]


@settings(max_examples=40, deadline=None)
@given(
    characteristic=st.integers(0, 20),
    skill=st.one_of(st.none(), st.integers(0, 4)),
    difficulty=st.integers(4, 14),
    missing=st.integers(0, 3),
    damage=st.integers(0, 12),
)
def test_the_chance_is_the_brute_force_chance(
    characteristic: int, skill: int | None, difficulty: int, missing: int, damage: int
) -> None:
    found = outputs(
        characteristic=characteristic,
        skill=skill,
        difficulty=difficulty,
        missing_skills=missing,
        damage=damage,
    )
    modifier = characteristic // 3 - 2 + (-3 if skill is None else skill) - damage // 3
    assert found["chance"] == pct(brute_force_chance(modifier, difficulty + missing, 0))
