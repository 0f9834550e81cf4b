"""One attack, start to finish: the roll, its Effect, mitigation on a failure, damage, armor, injury odds.

Rules: Core Mechanics § Dice Roll, § Effect, § Mitigating Factors; Actions § Attack Basics;
Outcomes § Damage Rolls, § Armor, § Injury Conditions. The attack calculator must agree, step by
step, with the Effect, mitigation and damage calculators.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.damage import two_decimals
from calculators.format import MINUS, percent
from calculators.framework import runtime

NAME = "attack"
EMPTY = "\u2014"
INJURY = ("wounded", "seriously_wounded", "critically_wounded", "dying", "bleeding")


def compute(name: str = NAME, **params: object) -> dict[str, object]:
    return runtime.compute(name, {k: str(v) for k, v in params.items()})


def outputs(name: str = NAME, **params: object) -> dict[str, str]:
    result = compute(name, **params)
    assert result["ok"], result
    return result["outputs"]


def test_the_defaults_are_a_hit_with_effect_3_and_four_rolls_of_3d6() -> None:
    out = outputs()
    assert (out["chance"], out["effect"], out["outcome"], out["target"]) == (
        "72.22%",
        "+3",
        "success",
        "adversary",
    )
    assert (out["rolls"], out["kept"], out["per_roll"], out["expected"]) == ("4", "4", "3d6", "42.00")
    assert out["remaining"] == EMPTY


def test_without_a_roll_only_the_chance_shows() -> None:
    out = outputs(roll="")
    assert out["chance"] == "72.22%"
    assert {k for k, v in out.items() if v != EMPTY} == {"chance"}


def test_the_mitigation_example_2d6_plus_4_against_13_rolling_6() -> None:
    # Core Mechanics § Mitigating the Fail Effect: 2d6+4 against 13, a roll of 6 -> Effect -3.
    out = outputs(modifier=4, difficulty=13, roll=6, conditions=1, cover=1)
    assert (out["effect"], out["outcome"], out["target"]) == ("\u22123", "failure", "you")
    assert (out["remaining"], out["cover_absorbs"], out["rolls"]) == ("1", "1", "1")


def test_a_failure_fully_mitigated_is_an_ordinary_failure_without_damage() -> None:
    out = outputs(roll=5, cover=2, skill=1)
    assert (out["remaining"], out["ordinary_failure"], out["rolls"]) == ("0", "yes", EMPTY)


def test_a_hit_with_the_adversarys_hp_gives_the_injury_odds() -> None:
    out = outputs(modifier=4, difficulty=8, roll=10, damage="3d6", armor=2, hp=21)
    expected = outputs("damage", effect=6, damage="3d6", armor=2, hp=21)
    assert {k: out[k] for k in INJURY} == {k: expected[k] for k in INJURY}


def test_the_table_reading_needs_the_best_physical_characteristic() -> None:
    result = compute(roll=12, hp=20, reading="best_physical")
    assert not result["ok"] and "best physical" in result["errors"]["best_physical"]


@settings(max_examples=150, deadline=None)
@given(
    modifier=st.integers(-4, 6),
    difficulty=st.integers(6, 14),
    roll=st.integers(2, 12),
    cover=st.integers(0, 3),
    skill=st.integers(0, 3),
    conditions=st.integers(0, 2),
    count=st.integers(1, 3),
    sides=st.sampled_from([3, 6]),
    armor=st.integers(0, 4),
    rate=st.integers(0, 3),
    hp=st.integers(6, 30),
)
def test_every_step_agrees_with_the_effect_mitigation_and_damage_calculators(
    modifier: int,
    difficulty: int,
    roll: int,
    cover: int,
    skill: int,
    conditions: int,
    count: int,
    sides: int,
    armor: int,
    rate: int,
    hp: int,
) -> None:
    dice = f"{count}d{sides}"
    out = outputs(
        modifier=modifier,
        difficulty=difficulty,
        roll=roll,
        cover=cover,
        skill=skill,
        conditions=conditions,
        damage=dice,
        rate_of_attack=rate,
        armor=armor,
        hp=hp,
        adversary_damage=dice,
        adversary_rate=rate,
        own_armor=armor,
        own_hp=hp,
    )
    check = outputs("effect", modifier=modifier, difficulty=difficulty, roll=roll)
    assert (out["chance"], out["effect"], out["outcome"]) == (
        check["chance"],
        check["effect"],
        check["outcome"],
    )
    effect = int(check["effect"].replace(MINUS, "-"))
    if effect < 0:
        mitigated = outputs("mitigation", fail_effect=effect, conditions=conditions, cover=cover, skill=skill)
        assert out["remaining"] == mitigated["remaining"]
        assert out["cover_absorbs"] == mitigated["cover_absorbs"]
        if mitigated["ordinary_failure"] == "yes":
            assert out["rolls"] == EMPTY
            return
        effect = -int(mitigated["remaining"])
    hit = outputs("damage", effect=effect, damage=dice, rate_of_attack=rate, armor=armor, hp=hp)
    for key in ("rolls", "kept", "per_roll", "expected", *INJURY):
        assert out[key] == hit[key], key


def test_too_many_damage_rolls_are_flagged_on_the_weapon() -> None:
    result = compute(modifier=50, difficulty=2, roll=12, damage="3d6")
    assert not result["ok"] and "At most 50 damage rolls" in result["errors"]["damage"]


def _minus(text: str) -> str:
    """A signed figure with an ASCII minus, whichever minus the formatter prints."""
    return text.replace("\u2212", "-")


def test_defend_with_skill_raises_the_rolls_dm_by_the_skill() -> None:
    """Actions § Defend Action > Skill Doubling: "this also affects the DM of the roll"."""
    out = outputs(modifier=1, difficulty=8, roll=4, skill=1, defend="skill")
    assert (out["chance"], _minus(out["effect"])) == ("72.22%", "-2")
    assert (out["remaining"], out["ordinary_failure"], out["rolls"]) == ("0", "yes", EMPTY)
    plain = outputs(modifier=1, difficulty=8, roll=4, skill=1)
    assert (plain["chance"], _minus(plain["effect"]), plain["remaining"]) == ("58.33%", "-3", "2")


def test_defend_with_cover_leaves_the_rolls_dm_alone() -> None:
    """Actions § Defend Action > Skill Doubling: only a doubled skill changes the roll's DM."""
    out = outputs(modifier=1, difficulty=8, roll=4, skill=1, cover=1, defend="cover")
    assert (out["chance"], _minus(out["effect"])) == ("58.33%", "-3")
    assert (out["remaining"], out["cover_absorbs"]) == ("0", "2")


def test_a_successful_defend_takes_no_damage_and_deals_none() -> None:
    """Actions § Defend Action > Success: "Take no Damage"; a Defend is not an attack."""
    out = outputs(modifier=1, difficulty=8, roll=9, skill=1, defend="skill", hp=20)
    assert (_minus(out["effect"]), out["outcome"], out["target"]) == ("+3", "success", "nobody")
    assert all(out[k] == EMPTY for k in ("rolls", "kept", "per_roll", "expected", *INJURY))


def test_a_skill_defend_past_the_modifier_limit_is_an_error_on_skill() -> None:
    result = compute(modifier=50, skill=3, defend="skill")
    assert not result["ok"] and "skill" in result["errors"]


def test_cover_above_4_counts_as_4_in_the_attack_too() -> None:
    """Actions § Defend Action > Success: "the maximum modifier of Cover and Concealment is 4"."""
    out = outputs(modifier=0, difficulty=8, roll=2, cover=5)
    assert _minus(out["effect"]) == "-6"
    assert (out["cover_absorbs"], out["remaining"], out["rolls"]) == ("4", "2", "2")
    kept = outputs(modifier=0, difficulty=8, roll=2, cover=5, cover_cap="doubling_only")
    assert (kept["cover_absorbs"], kept["remaining"], kept["rolls"]) == ("5", "1", "1")


def test_the_cover_takes_the_attacks_it_absorbs_against_its_armor_and_hp() -> None:
    """Outcomes § Cover Takes Damage > Example: Shield Taking Damage: protection 2 against a fail effect
    of 3 (here 4 with cover 2: two left) -- "The Shield takes two attacks of 3d6 damage".

    Shield AR 2, HP 20: every way six d6 can fall counted (two rolls of 3d6-2).
    """
    ways = [max(0, sum(d[:3]) - 2) + max(0, sum(d[3:]) - 2) for d in product(range(1, 7), repeat=6)]
    whole = 6**6
    expected = Fraction(sum(ways), whole)
    left = Fraction(sum(max(0, 20 - w) for w in ways), whole)
    broken = Fraction(sum(1 for w in ways if w > 20), whole)
    out = outputs(
        modifier=0, difficulty=8, roll=4, cover=2, adversary_damage="3d6", cover_armor=2, cover_hp=20
    )
    assert out["cover_absorbs"] == "2"
    assert (out["cover_damage"], out["cover_left"], out["cover_broken"]) == (
        two_decimals(expected),
        two_decimals(left),
        percent(broken),
    )
    assert (out["cover_damage"], out["cover_broken"]) == ("17.00", "20.58%")
    assert outputs(modifier=0, difficulty=8, roll=4, cover=2)["cover_damage"] == EMPTY
