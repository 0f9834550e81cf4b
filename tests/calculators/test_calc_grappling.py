"""The grappling calculator: Difficulty, chance, what the Effect buys, throw and twist damage.

Rules: Actions § Grappling (Step 1, 2, 3); Core Mechanics § Competence, § Unskilled Penalty. Rulings: the
adversary's Str or Dex, pistols, damage and bind Difficulty, sweep, fail effect, throw armor, untargeted
damage.
"""

from __future__ import annotations

from functools import partial

import _calc
import pytest
from _dice import brute_force_chance, pct
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.framework import registry

outputs = partial(_calc.outputs, "grappling")


def test_the_rules_pages_example_throw_costs_4_and_adds_3() -> None:
    """Actions § Grappling (Throws: 1/6 of HP rounded up; Step 2: throw +3): a 24-HP adversary."""
    found = outputs(manoeuvre="throw", adversary_hp=24)
    assert (found["difficulty"], found["throw_cost"]) == ("11", "4")
    assert found["chance"] == pct(brute_force_chance(0, 11, 0)) == "8.33%"


@pytest.mark.parametrize(
    ("params", "difficulty"),
    [
        ({}, "8"),
        ({"adversary_strength": "12", "adversary_dexterity": "4"}, "10"),  # the higher DM, +2
        ({"adversary_unskilled": "1"}, "5"),  # an unskilled adversary lowers it by 3
        ({"adversary_weapon": "close_quarters_weapon"}, "9"),  # a knife favours its holder by 1
        ({"own_weapon": "pistol"}, "6"),  # a pistol by 2 (ruling: favours its holder)
        ({"own_weapon": "pistol", "pistol": "hindrance"}, "10"),  # other reading: hinders its holder
        ({"manoeuvre": "target_extremity"}, "10"),
        ({"manoeuvre": "bind"}, "9"),  # ruling: damage and bind add 1
        ({"manoeuvre": "sweep", "adversary_dexterity": "9"}, "11"),  # +1 DM, +2 sweep
        (
            {"manoeuvre": "sweep", "adversary_dexterity": "9", "sweep": "half_dex"},
            "14",
        ),  # +1, half of 9 up: 5
    ],
)
def test_each_factor_of_the_difficulty(params: dict[str, str], difficulty: str) -> None:
    """Actions § Grappling > Step 1 (adversary DM, unskilled adversary, weapons factor), Step 2."""
    assert outputs(**params)["difficulty"] == difficulty


def test_an_unskilled_grappler_takes_minus_3() -> None:
    """Core Mechanics § Unskilled Penalty; Actions § Grappling > Step 1 (-3 without unarmed combat)."""
    assert outputs(skill="")["chance"] == pct(brute_force_chance(-3, 8, 0)) == "8.33%"
    assert outputs(modifier=1, skill=2)["chance"] == pct(brute_force_chance(3, 8, 0))


def test_a_won_grapple_lists_what_its_effect_buys_and_gives_advantage() -> None:
    """Actions § Grappling > Step 3. DM +1, skill 2, roll 10 against 9 (Dex 9: DM +1): Effect +4; the
    24-HP adversary's throw costs 4, a sweep of Dex 9 costs 5 (too dear)."""
    found = outputs(modifier=1, skill=2, roll=10, adversary_hp=24, adversary_dexterity=9)
    assert (found["effect"], found["buys"], found["next_round"]) == ("+4", "5 effects", "advantage")
    listed = "target a limb (2), target an extremity (3), damage (2), bind (2), throw (4)"
    assert f"Effect +4 buys {listed}." in found["summary"]


def test_a_lost_grapple_hands_the_fail_effect_to_the_adversary() -> None:
    """Ruling: what a fail effect buys: the adversary spends it, after mitigation; disadvantage next round."""
    found = outputs(roll=5)
    assert (found["effect"], found["buys"], found["next_round"]) == ("\u22123", "none", "disadvantage")
    assert "failed: the adversary spends fail effect 3, after mitigation, on you." in found["summary"]


def test_throw_twist_and_untargeted_damage_meet_armor_as_ruled() -> None:
    """Rulings: a throw's 2d3 meets armor; a twist's 1d3 does not; untargeted damage is a body throw."""
    found = _calc.compute("grappling", armor=2)
    shown = found["outputs"]
    assert (shown["throw_damage"], shown["twist_damage"], shown["body_damage"]) == (
        "2d3\u22122",
        "1d3",
        "1d3\u22122",
    )
    assert "A throw deals 2d3, less armor 2, never below 0: 0 to 4, 2 on average." in found["details"]
    assert "no limb named: 1d3, less armor 2, never below 0: 0 to 1, 0.33 on average." in found["details"]
    assert outputs(armor=2, untargeted_armor="ignored")["body_damage"] == "1d3"


def test_the_working_states_costs_from_the_rules_tables() -> None:
    details = _calc.compute("grappling", adversary_hp=24, adversary_dexterity=9)["details"]
    assert (
        "A throw costs \u2159 of HP 24, rounded up: 4; a sweep costs \u00bd of Dex 9, rounded up: 5."
        in details
    )


@settings(max_examples=40, deadline=None)
@given(
    modifier=st.integers(-5, 6),
    skill=st.one_of(st.none(), st.integers(0, 5)),
    strength=st.integers(0, 18),
    dexterity=st.integers(0, 18),
    unskilled=st.booleans(),
)
def test_the_chance_is_the_brute_force_chance_against_the_difficulty_shown(
    modifier: int, skill: int | None, strength: int, dexterity: int, unskilled: bool
) -> None:
    found = outputs(
        modifier=modifier,
        skill=skill,
        adversary_strength=strength,
        adversary_dexterity=dexterity,
        adversary_unskilled=int(unskilled),
    )
    difficulty = 8 + max(strength // 3 - 2, dexterity // 3 - 2) - 3 * unskilled
    competence = modifier + (-3 if skill is None else skill)
    assert found["difficulty"] == str(difficulty)
    assert found["chance"] == pct(brute_force_chance(competence, difficulty, 0))


def test_it_is_registered() -> None:
    assert "grappling" in registry.names()
