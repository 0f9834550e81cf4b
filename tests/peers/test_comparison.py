"""One character in three systems (docs/peers/comparison.md): turn order, actions, speed, damage."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import actions, checks, damage, movement
from rules_core import initiative as mneme_initiative
from rules_core.peers.comparison import DamageDice, OneCharacter, compare, mneme_expected_damage


def brute_force_mneme(margin: int, weapon: DamageDice, armor: int, rate: int | None) -> Fraction:
    """Roll every damage roll of every hit, keep the best ``rate``, average over all outcomes."""
    if margin < 0:
        return Fraction(0)
    rolls = 1 + margin
    keep = rolls if rate is None else min(rate, rolls)
    floor = 1 if margin >= 6 else 0
    singles = [sum(f) + weapon.bonus for f in product(range(1, weapon.sides + 1), repeat=weapon.count)]
    total, count = 0, 0
    for outcome in product(singles, repeat=rolls):
        kept = sorted((max(floor, x - armor) for x in outcome), reverse=True)[:keep]
        total += sum(kept)
        count += 1
    return Fraction(total, count)


def test_a_broadsword_hit_with_effect_1_makes_two_rolls_of_3d3_minus_5_against_armor_3():
    # Mneme Outcomes § Damage Rolls example: Effect 1, two rolls of 3d3-2 against armor 3 (3d3-5 each).
    per_roll = Fraction(sum(max(0, sum(f) - 5) for f in product(range(1, 4), repeat=3)), 27)
    assert mneme_expected_damage(1, DamageDice(3, 3, -2), armor=3) == 2 * per_roll


def test_an_effect_of_6_always_does_at_least_one_point_per_roll():
    # Mneme Outcomes § Armor: Effect 6+ always inflicts at least one point.
    assert mneme_expected_damage(6, DamageDice(1, 2), armor=50) == 7
    assert mneme_expected_damage(5, DamageDice(1, 2), armor=50) == 0


def test_a_limited_rate_of_attack_keeps_only_the_best_rolls():
    # Mneme Outcomes § Weapons with Limited Rate of Attack: 3 rolls, rate 2, keep the two highest.
    assert mneme_expected_damage(2, DamageDice(1, 6), rate_of_attack=2) == brute_force_mneme(
        2, DamageDice(1, 6), 0, 2
    )
    assert mneme_expected_damage(2, DamageDice(1, 6), rate_of_attack=2) > 2 * Fraction(7, 2)


def hits(most: int, dice: int, sides: int, bonus: int, armor: int, rate: int) -> st.SearchStrategy:
    """Margins from a miss to ``most``, weapons up to ``dice`` d ``sides`` ± ``bonus``, armor, a rate."""
    return st.tuples(
        st.integers(-1, most),
        st.builds(DamageDice, st.integers(1, dice), st.integers(2, sides), st.integers(-bonus, bonus)),
        st.integers(0, armor),
        st.one_of(st.none(), st.integers(1, rate)),
    )


@settings(max_examples=40, deadline=None)
@given(hits(3, 2, 4, 2, 4, 3))
def test_mneme_average_damage_matches_brute_force(hit):
    margin, weapon, armor, rate = hit
    assert mneme_expected_damage(margin, weapon, armor=armor, rate_of_attack=rate) == brute_force_mneme(
        margin, weapon, armor, rate
    )


def test_the_default_character_side_by_side():
    mneme, mist, met = compare(OneCharacter(margin=2)).rows
    # Mneme: 2d6 roll 7 + Dex 7 (ChM 0) = 7; 6 s round; run 22.5 m; 3 rolls of 3d6.
    assert (mneme.initiative, mneme.seconds_per_turn, mneme.attacks_per_turn) == (7, 6, 1)
    assert (mneme.metres_per_turn, mneme.metres_per_second) == (Fraction(45, 2), Fraction(15, 4))
    assert mneme.damage == 3 * Fraction(21, 2)
    # Mistrunner: d10 6 + reaction 2 = 8; run 2 x (5 + 0) = 10 m in 3 s; code 2 x (2 + 1) = 6.
    assert (mist.initiative, mist.acts_on, mist.metres_per_second, mist.damage) == (
        8,
        (8,),
        Fraction(10, 3),
        6,
    )
    # Mind's Eye Theatre: initiative max(5, 5); 6 steps; metres not defined; 1 damage.
    assert (met.initiative, met.steps_per_turn, met.metres_per_second, met.damage) == (5, 6, None, 1)
    assert [r.attacks_per_minute for r in (mneme, mist, met)] == [10, 20, 20]


def test_mistrunner_extra_actions_show_their_segments_and_triple_the_attack_rate():
    mist = compare(
        OneCharacter(mistrunner_reaction_die=7, mistrunner_reaction_score=2, mistrunner_actions=3)
    ).mistrunner
    assert mist.acts_on == (9, 4, 2)
    assert mist.attacks_per_minute == 60
    assert mist.dice_penalties == (0, 2, 4)


def test_celerity_rounds_add_rounds_attacks_and_steps():
    met = compare(OneCharacter(met_celerity_rounds=2, met_step_metres=Fraction(1))).minds_eye
    assert (met.acts_on, met.attacks_per_turn, met.steps_per_turn, met.metres_per_turn) == (
        (5, 5, 5),
        3,
        18,
        18,
    )


def test_a_heavy_load_slows_the_mneme_runner_to_15_metres_a_round():
    assert compare(OneCharacter(mneme_heavy_load=True)).mneme.metres_per_turn == 15


def test_a_miss_does_no_damage_in_any_system():
    assert [r.damage for r in compare(OneCharacter(margin=-1)).rows] == [0, 0, 0]


def test_mistrunner_armor_comes_off_the_damage_code_times_margin():
    assert (
        compare(OneCharacter(margin=3, mistrunner_damage_code=3, mistrunner_armor=5)).mistrunner.damage == 7
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"margin": 21}, "hit margin"),
        ({"mneme_initiative_roll": 13}, "initiative roll"),
        ({"mistrunner_reaction_die": 0}, "reaction die"),
        ({"mistrunner_actions": 4}, "number of actions"),
        ({"met_celerity_rounds": 4}, "Celerity rounds"),
        ({"met_step_metres": Fraction(0)}, "step length"),
        ({"met_physical": -1}, "Physical"),
    ],
)
def test_bad_inputs_give_a_short_sentence(kwargs, message):
    with pytest.raises(ValueError, match=message):
        compare(OneCharacter(**kwargs))


def test_absurd_mneme_dice_are_rejected():
    with pytest.raises(ValueError, match="damage dice"):
        DamageDice(11, 6)


@settings(deadline=None)
@given(st.integers(0, 12))
def test_mneme_and_mistrunner_damage_never_fall_as_the_margin_grows(margin):
    low, high = compare(OneCharacter(margin=margin)), compare(OneCharacter(margin=margin + 1))
    assert high.mneme.damage >= low.mneme.damage
    assert high.mistrunner.damage >= low.mistrunner.damage
    assert high.minds_eye.damage == low.minds_eye.damage


def test_the_comparison_pages_worked_figures():
    # docs/peers/comparison.md#one-character: armor 4 in Mneme and an AV 4 vest in Mistrunner.
    armored = compare(OneCharacter(margin=2, mneme_armor=4, mistrunner_armor=4))
    assert armored.mneme.damage == Fraction(1405, 72)
    assert armored.mistrunner.damage == 2
    three = compare(OneCharacter(mistrunner_actions=3)).mistrunner
    assert (three.acts_on, three.attacks_per_minute) == ((8, 4, 2), 60)
    celerity = compare(OneCharacter(met_celerity_rounds=3)).minds_eye
    assert (celerity.steps_per_turn, celerity.attacks_per_minute) == (24, 80)
    assert compare(OneCharacter(met_celerity_rounds=1)).minds_eye.attacks_per_minute == 40


@pytest.mark.parametrize(
    ("margin", "mneme", "mist"),
    [(0, Fraction(21, 2), 2), (1, 21, 4), (2, Fraction(63, 2), 6), (4, Fraction(105, 2), 10)],
)
def test_the_comparison_pages_damage_by_margin_table(margin, mneme, mist):
    row = compare(OneCharacter(margin=margin))
    assert (row.mneme.damage, row.mistrunner.damage, row.minds_eye.damage) == (mneme, mist, 1)


@pytest.mark.parametrize("heavy", [False, True])
def test_each_mneme_figure_is_the_mneme_rules_own(heavy):
    # The Mneme column holds no figure of its own: each equals the rules_core function or table.
    character = OneCharacter(
        margin=3,
        mneme_dexterity=10,
        mneme_initiative_skill=2,
        mneme_initiative_roll=9,
        mneme_heavy_load=heavy,
    )
    row = compare(character).mneme
    assert row.seconds_per_turn == actions.round_seconds()
    assert row.minor_actions == actions.minor_actions_per_round()
    assert row.attack_cost == actions.action_cost("significant")
    assert row.attacks_per_turn == actions.minor_actions_per_round() // actions.action_cost("significant")
    assert row.initiative == mneme_initiative.initiative(9, checks.characteristic_modifier(10), 2)
    load = "heavy" if heavy else "light"
    move, dash, run = (movement.movement(a, load).metres for a in ("move", "dash", "run"))
    # Actions § Movement Table: the best of a run, a dash and a move, or three moves.
    assert row.metres_per_turn == max(run, dash + move, 3 * move)
    assert row.damage == damage.damage_outcome("3d6", success_effect=3).expected_total


@settings(max_examples=40, deadline=None)
@given(hits(8, 3, 6, 3, 6, 4))
def test_mneme_damage_is_the_damage_engines_expected_total(hit):
    # Outcomes § Damage Rolls, § Rate of Attack, § Armor: the mean of rules_core.damage.damage_outcome.
    margin, weapon, armor, rate = hit
    expected = (
        0
        if margin < 0
        else damage.damage_outcome(
            weapon.expression, success_effect=margin, armor=armor, rate_of_attack=rate
        ).expected_total
    )
    assert mneme_expected_damage(margin, weapon, armor=armor, rate_of_attack=rate) == expected
