"""Mistrunner damage and armor (seed 003 § Calculating Damage, § Applying Damage, § Non-Lethal Combat)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core.peers.mistrunner import Armor, apply_hit, attack_damage, worn_armor


@pytest.mark.parametrize(("total", "damage"), [(7, 0), (8, 2), (9, 4), (11, 8)])
def test_a_damage_code_of_2_deals_2_on_the_target_number_and_2_more_per_point_above(total, damage):
    # Mistrunner: Combat § Calculating Damage, light pistol example (code 2).
    assert attack_damage(2, total, 8) == damage


def test_strength_adds_to_melee_damage_only():
    # Mistrunner: Combat § Calculating Damage (strength +2 adds 2 per melee attack).
    assert attack_damage(3, 6, 6, strength=2, melee=True) == 5
    assert attack_damage(3, 6, 6, strength=2) == 3


def test_a_low_strength_lowers_melee_damage_but_never_below_zero():
    assert attack_damage(3, 6, 6, strength=-2, melee=True) == 1
    assert attack_damage(1, 6, 6, strength=-5, melee=True) == 0


def test_an_av6_vest_taking_6_points_becomes_av5():
    # Mistrunner: Combat § Calculating Damage, armored vest example.
    assert worn_armor(Armor(6), 6) == Armor(5)


@pytest.mark.parametrize(("damage", "after"), [(5, 6), (6, 5), (20, 5)])
def test_armor_wears_one_point_only_on_a_hit_of_at_least_its_value(damage, after):
    assert worn_armor(Armor(6), damage).value == after


def test_natural_armor_never_wears():
    assert worn_armor(Armor(4, natural=True), 30) == Armor(4, natural=True)


def test_armor_of_value_zero_stays_at_zero():
    assert worn_armor(Armor(0), 10) == Armor(0)


def test_armor_subtracts_its_value_and_the_rest_is_life_points_lost():
    hit = apply_hit(10, location="left_arm", armor=Armor(6))
    assert (hit.absorbed, hit.life_points_lost, hit.armor_after) == (6, 4, Armor(5))


def test_a_head_wound_is_doubled_before_armor():
    # Mistrunner: Combat § Applying Damage: head wounds doubled, before armor is considered.
    hit = apply_hit(5, location="head", armor=Armor(6))
    assert (hit.after_location, hit.absorbed, hit.life_points_lost, hit.armor_after) == (10, 6, 4, Armor(5))


def test_a_body_hit_weaker_than_the_armor_does_nothing_and_does_not_wear_it():
    hit = apply_hit(5, location="abdomen", armor=Armor(6))
    assert (hit.life_points_lost, hit.armor_after) == (0, Armor(6))


@pytest.mark.parametrize(("through", "halved"), [(7, 3), (8, 4), (1, 0)])
def test_non_lethal_damage_is_halved_rounded_down_after_armor(through, halved):
    hit = apply_hit(through + 2, armor=Armor(2), non_lethal=True)
    assert (hit.life_points_lost, hit.non_lethal_damage) == (0, halved)


def test_an_unknown_location_is_rejected():
    with pytest.raises(ValueError, match="Location must be one of"):
        apply_hit(3, location="tail")


def test_negative_armor_is_rejected():
    with pytest.raises(ValueError, match="armor value"):
        Armor(-1)


@given(st.integers(0, 500), st.integers(0, 30), st.sampled_from(["left_arm", "head", "abdomen"]))
def test_absorbed_plus_lost_is_the_located_damage_and_armor_loses_at_most_one(damage, av, location):
    hit = apply_hit(damage, location=location, armor=Armor(av))
    assert hit.absorbed + hit.life_points_lost == hit.after_location
    assert av - 1 <= hit.armor_after.value <= av


@given(st.integers(0, 20), st.integers(0, 30), st.integers(-20, 20))
def test_damage_grows_with_the_margin(code, total, tn):
    assert attack_damage(code, total + 1, tn) >= attack_damage(code, total, tn)
