"""Grappling in the engine: the adversary's DM, damage after armor, what an Effect can buy, the limits.

Rules: Actions § Grappling (Step 1, Step 3). Rulings: the adversary's Str or Dex, armor against grappling
damage, untargeted grappling damage.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core import grappling, limits
from rules_core.grappling import GrappleEffect as G


def test_the_adversarys_dm_is_the_higher_of_str_and_dex() -> None:
    """Actions § Grappling > Step 1 ("DM from Str or Dex"); ruling: the higher. Str 12 (+2), Dex 4 (-1)."""
    assert grappling.adversary_modifier(12, 4) == 2
    assert grappling.adversary_modifier(4, 12) == 2
    assert grappling.adversary_modifier(3, 5) == -1


def _brute(sides: int, count: int, armor: int) -> dict[int, Fraction]:
    found: dict[int, Fraction] = {}
    for faces in product(range(1, sides + 1), repeat=count):
        value = max(0, sum(faces) - armor)
        found[value] = found.get(value, Fraction(0)) + Fraction(1, sides**count)
    return found


@pytest.mark.parametrize("armor", [0, 1, 2, 5])
def test_a_throw_deals_2d3_less_armor_never_below_0(armor: int) -> None:
    """Actions § Grappling > Step 3 (Throws: 2d3); ruling: armor counts against a throw."""
    found = grappling.grapple_damage(G.THROW, armor=armor)
    assert (str(found.expression), found.armor, found.ignores_armor) == ("2d3", armor, False)
    assert dict(found.distribution) == _brute(3, 2, armor)


def test_a_twisted_limb_ignores_armor_and_untargeted_damage_meets_it_by_default() -> None:
    """Actions § Grappling > Step 3 (Damage: 1d3, "armor does not affect this damage", "No target assumes a
    body Throw"); ruling: untargeted damage is a body throw, so armor counts; the other reading ignores it."""
    twist = grappling.grapple_damage(G.DAMAGE, armor=2, targeted=True)
    assert (twist.ignores_armor, dict(twist.distribution)) == (True, _brute(3, 1, 0))
    body = grappling.grapple_damage(G.DAMAGE, armor=2)
    assert (body.ignores_armor, dict(body.distribution)) == (False, {0: Fraction(2, 3), 1: Fraction(1, 3)})
    ignored = grappling.grapple_damage(G.DAMAGE, armor=2, untargeted_armor="ignored")
    assert dict(ignored.distribution) == _brute(3, 1, 0)


@pytest.mark.parametrize("effect", [G.BIND, G.SWEEP, G.TARGET_LIMB])
def test_effects_without_damage_have_no_damage_roll(effect: G) -> None:
    with pytest.raises(ValueError, match="deals no damage"):
        grappling.grapple_damage(effect)


def test_an_effect_of_4_buys_each_effect_costing_at_most_4() -> None:
    """Actions § Grappling > Step 3: limb 2, extremity 3, damage 2, bind 2, throw 1/6 HP (24 -> 4),
    sweep 1/2 Dex (9 -> 5)."""
    found = dict(grappling.affordable_effects(4, hp=24, dex=9))
    assert found == {G.TARGET_LIMB: 2, G.TARGET_EXTREMITY: 3, G.DAMAGE: 2, G.BIND: 2, G.THROW: 4}
    assert dict(grappling.affordable_effects(1)) == {}
    assert G.THROW not in dict(grappling.affordable_effects(10, dex=9))


def test_cost_shares_come_from_the_table() -> None:
    assert grappling.cost_share(G.THROW) == ("hp", Fraction(1, 6))
    assert grappling.cost_share(G.SWEEP) == ("dex", Fraction(1, 2))
    assert grappling.cost_share(G.BIND) is None


def test_the_target_stat_bound_is_the_projects_limit_not_a_number_of_its_own() -> None:
    """The HP a throw's cost accepts runs to the project's largest HP (it was capped at 200)."""
    assert grappling.grapple_effect_cost(G.THROW, hp=600) == 100
    assert grappling.grapple_effect_cost(G.THROW, hp=limits.MAX_HIT_POINTS) == -(-limits.MAX_HIT_POINTS // 6)
    with pytest.raises(ValueError, match=str(limits.MAX_CHARACTERISTIC)):
        grappling.grapple_effect_cost(G.SWEEP, dex=limits.MAX_CHARACTERISTIC + 1)


@given(effect=st.integers(0, 30), hp=st.integers(1, 300), dex=st.integers(0, 40))
def test_every_affordable_effect_can_be_bought_with_that_effect(effect: int, hp: int, dex: int) -> None:
    for kind, cost in grappling.affordable_effects(effect, hp=hp, dex=dex):
        spent = grappling.spend_grapple_effect(effect, [kind], hp=hp, dex=dex)
        assert spent.total == cost and spent.remaining == effect - cost
