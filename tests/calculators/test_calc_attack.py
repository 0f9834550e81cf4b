"""One attack, start to finish: the roll, its Effect, mitigation on a failure, damage, armor, injury odds.

Rules: Core Mechanics § Dice Roll, § Effect, § Mitigating Factors; Actions § Attack Basics;
Outcomes § Damage Rolls, § Armor, § Injury Conditions. The attack calculator must agree, step by
step, with the Effect, mitigation and damage calculators.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import _calc
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.format import MINUS, percent, two_decimals
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


HIT = {"modifier": 2, "roll": 9}
"""DM +2 and a roll of 9 against the default Difficulty 8: a hit with Effect +3 (CM § Effect)."""


def test_the_defaults_assume_no_roll_and_say_the_dm_the_chance_rests_on() -> None:
    # No roll, modifier or character nobody gave: the bare form answers only the chance at DM +0 and says so.
    out = outputs()
    assert {k for k, v in out.items() if v != EMPTY} == {"chance", "summary"}
    assert out["summary"] == (
        "Chance to hit with DM +0 against 8: 41.67%. Enter the roll or the Effect to see the damage."
    )


def test_dm_2_rolling_9_is_a_hit_with_effect_3_and_four_rolls_of_3d6() -> None:
    out = outputs(**HIT)
    assert (out["chance"], out["effect"], out["outcome"], out["target"]) == (
        "72.22%",
        "+3",
        "success",
        "adversary",
    )
    assert (out["rolls"], out["kept"], out["per_roll"], out["expected"]) == ("4", "4", "3d6", "42.00")
    assert out["remaining"] == EMPTY


def test_without_a_roll_only_the_chance_shows() -> None:
    out = outputs(modifier=2, roll="")
    assert out["chance"] == "72.22%"
    assert {k for k, v in out.items() if v != EMPTY} == {"chance", "summary"}


def test_the_mitigation_example_2d6_plus_4_against_13_rolling_6() -> None:
    # Core Mechanics § Mitigating the Fail Effect: 2d6+4 against 13, a roll of 6 -> Effect -3.
    out = outputs(side="attacked", modifier=4, difficulty=13, roll=6, conditions=1, cover=1)
    assert (out["effect"], out["outcome"], out["target"]) == ("\u22123", "failure", "you")
    assert (out["remaining"], out["cover_absorbs"], out["rolls"]) == ("1", "1", "1")


def test_a_failure_fully_mitigated_is_an_ordinary_failure_without_damage() -> None:
    out = outputs(side="attacked", roll=5, cover=2, skill=1)
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
    **_calc.SMALL_HIT,
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
    check = outputs("effect", modifier=modifier, difficulty=difficulty, roll=roll)
    out = outputs(
        side="attack" if check["outcome"] == "success" else "attacked",  # a miss is worked out as attacked
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
    out = outputs(side="attacked", modifier=1, difficulty=8, roll=4, skill=1, defend="skill")
    assert (out["chance"], _minus(out["effect"])) == ("72.22%", "-2")
    assert (out["remaining"], out["ordinary_failure"], out["rolls"]) == ("0", "yes", EMPTY)
    plain = outputs(side="attacked", modifier=1, difficulty=8, roll=4, skill=1)
    assert (plain["chance"], _minus(plain["effect"]), plain["remaining"]) == ("58.33%", "-3", "2")


def test_defend_with_cover_leaves_the_rolls_dm_alone() -> None:
    """Actions § Defend Action > Skill Doubling: only a doubled skill changes the roll's DM."""
    out = outputs(side="attacked", modifier=1, difficulty=8, roll=4, skill=1, cover=1, defend="cover")
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
    out = outputs(side="attacked", modifier=0, difficulty=8, roll=2, cover=5)
    assert _minus(out["effect"]) == "-6"
    assert (out["cover_absorbs"], out["remaining"], out["rolls"]) == ("4", "2", "2")
    kept = outputs(side="attacked", modifier=0, difficulty=8, roll=2, cover=5, cover_cap="doubling_only")
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
        side="attacked",
        modifier=0,
        difficulty=8,
        roll=4,
        cover=2,
        adversary_damage="3d6",
        cover_armor=2,
        cover_hp=20,
    )
    assert out["cover_absorbs"] == "2"
    assert (out["cover_damage"], out["cover_left"], out["cover_broken"]) == (
        two_decimals(expected),
        two_decimals(left),
        percent(broken),
    )
    assert (out["cover_damage"], out["cover_broken"]) == ("17.00", "20.58%")
    assert outputs(side="attacked", modifier=0, difficulty=8, roll=4, cover=2)["cover_damage"] == EMPTY


def test_the_adversarys_cover_takes_the_rolls_it_cost_you_on_a_hit() -> None:
    """Outcomes § Cover Takes Damage > Application to Adversaries ("This rule also applies to
    Adversaries"); ruling #adversary-cover-success: the cover, in the Difficulty, lowered your Effect by
    its value, so that many of your damage rolls go against it; the adversary keeps 1 + Effect rolls.

    By hand: DM +2, Difficulty 10 (8 + cover 2), roll 9: Effect +1, 2 rolls on the adversary; without
    the cover the Effect would be +3 (4 rolls): the 2 lost rolls of 1d6 hit a cover of AR 2 and 5 HP.
    Each does max(0, d - 2): 0, 0, 1, 2, 3, 4; every way two d6 fall is counted.
    """
    ways = [max(0, a - 2) + max(0, b - 2) for a, b in product(range(1, 7), repeat=2)]
    out = outputs(
        modifier=2,
        difficulty=10,
        roll=9,
        damage="1d6",
        adversary_cover=2,
        adversary_cover_armor=2,
        adversary_cover_hp=5,
    )
    assert (out["effect"], out["rolls"], out["adversary_cover_rolls"]) == ("+1", "2", "2")
    assert out["adversary_cover_damage"] == two_decimals(Fraction(sum(ways), 36)) == "3.33"
    assert out["adversary_cover_left"] == two_decimals(Fraction(sum(max(0, 5 - w) for w in ways), 36))
    assert out["adversary_cover_broken"] == percent(Fraction(sum(w > 5 for w in ways), 36)) == "16.67%"
    assert "their cover takes 2 more" in out["summary"]


def test_the_adversarys_cover_against_3d6_matches_icepool() -> None:
    """The same reading with the adversary's cover of 3 against 3d6 at AR 4 and 15 HP, cross-checked
    against icepool's exact distribution of three rolls of max(0, 3d6 - 4)."""
    import icepool

    one = (3 @ icepool.d6).map(lambda x: max(0, x - 4))
    total = 3 @ one
    whole = total.denominator()
    expected = Fraction(sum(o * q for o, q in total.items()), whole)
    left = Fraction(sum(max(0, 15 - o) * q for o, q in total.items()), whole)
    broken = Fraction(sum(q for o, q in total.items() if o > 15), whole)
    out = outputs(**HIT, adversary_cover=3, damage="3d6", adversary_cover_armor=4, adversary_cover_hp=15)
    assert out["adversary_cover_rolls"] == "3"
    assert (out["adversary_cover_damage"], out["adversary_cover_left"], out["adversary_cover_broken"]) == (
        two_decimals(expected),
        two_decimals(left),
        percent(broken),
    )


def test_the_adversarys_cover_counts_at_most_4_and_nothing_on_a_failure() -> None:
    """Actions § Defend Action: "the maximum modifier of Cover and Concealment is 4" (ruling #defend-cap);
    on your failure the adversary's cover takes nothing (ruling #adversary-cover-success)."""
    assert outputs(**HIT, adversary_cover=6)["adversary_cover_rolls"] == "4"
    assert outputs(**HIT, adversary_cover=6, cover_cap="doubling_only")["adversary_cover_rolls"] == "6"
    missed = outputs(roll=3, adversary_cover=2, adversary_cover_hp=10)
    assert missed["outcome"] == "failure"
    assert all(missed[k] == EMPTY for k in ("adversary_cover_rolls", "adversary_cover_damage"))
    assert outputs(**HIT, adversary_cover=2)["adversary_cover_damage"] == EMPTY  # no HP given: only the count


def test_the_effect_can_be_given_instead_of_the_roll() -> None:
    """Knowing "I failed by 5", a player enters the Effect; it wins over the roll (CM § Effect)."""
    by_effect = outputs(side="attacked", failed_by=5, cover=2, roll=9)
    by_roll = outputs(side="attacked", modifier=0, difficulty=8, roll=3, cover=2)
    keys = ("effect", "outcome", "remaining", "cover_absorbs", "rolls", "expected")
    assert {k: by_effect[k] for k in keys} == {k: by_roll[k] for k in keys}
    assert by_effect["effect"] == f"{MINUS}5" and by_effect["remaining"] == "3"
    assert compute(effect="x")["errors"]["effect"]


def test_the_summary_says_the_answer_in_words() -> None:
    """The answer first: hit or miss, the rolls and where they go, the cover's share."""
    assert (
        outputs(**HIT)["summary"]
        == "Hit (Effect +3): 4 rolls of 3d6 against the adversary, about 42 damage on average."
    )
    hit = outputs(side="attacked", failed_by=5, adversary_damage="3d3-2", own_armor=4, cover=2)
    assert hit["summary"] == (
        f"Miss (Effect {MINUS}5): you take 3 rolls of 3d3{MINUS}2 {MINUS} armor 4 (at least 0 a roll), "
        "about 1.67 damage on average; your cover takes 2."
    )
    assert outputs(modifier=2)["summary"].startswith("Chance to hit with DM +2 against 8: 72.22%.")


def test_the_hand_off_links_carry_the_whole_situation() -> None:
    """Mitigated to 3 rolls: the mitigation link carries the fail effect, every factor and the damage
    situation; the damage link Effect -3 with the adversary's dice, your armor, HP and damage so far; with
    no rolls made there is no damage taken to carry to the thresholds (an average is nobody's damage)."""
    details = compute(
        side="attacked", failed_by=5, cover=2, adversary_damage="3d3-2", own_armor=4, own_damage=3, own_hp=24
    )["next"]
    assert (
        'href="calculators/mitigation/?fail_effect=5&amp;conditions=0&amp;concealment=0&amp;cover=2&amp;'
        "skill=0&amp;defend=none&amp;order=priority&amp;cover_cap=always&amp;adversary_damage=3d3-2&amp;"
        'adversary_rate=0&amp;armor=4&amp;hp=24&amp;current_damage=3&amp;reading=fractions_of_hp"'
    ) in details
    assert (
        'href="calculators/damage/?effect=-3&amp;damage=3d3-2&amp;rate_of_attack=0&amp;armor=4&amp;hp=24&amp;'
        'current_damage=3&amp;reading=fractions_of_hp"'
    ) in details
    assert 'data-handoff="thresholds"' not in details


def test_the_rolls_made_give_the_hit_taken_the_state_and_the_thresholds_link() -> None:
    # Outcomes § Armor: 3 rolls of 3d3-2 rolled 7, 5, 6, less armor 4: 3, 1, 2 = 6 damage, largest 3.
    # With 3 already: 9 of HP 24, seriously wounded (from 8).
    result = compute(
        side="attacked",
        failed_by=5,
        cover=2,
        adversary_damage="3d3-2",
        own_armor=4,
        own_damage=3,
        own_hp=24,
        rolled="7 5 6",
    )
    out = result["outputs"]
    assert (out["taken"], out["largest"], out["damage_now"], out["state_now"]) == (
        "6",
        "3",
        "9",
        "seriously wounded",
    )
    assert "your rolls deal 6 (largest 3): seriously wounded" in out["summary"]
    assert (
        'data-handoff="thresholds" href="calculators/thresholds/?damage=9&amp;largest_roll=3&amp;hp=24&amp;'
        'reading=fractions_of_hp"'
    ) in result["next"]


def test_a_given_effect_hides_the_chance_and_a_bad_roll_beside_it_does_not_blank_the_answer() -> None:
    # CM § Effect: the Effect given wins over the roll; the chance of a roll is moot once the Effect is
    # known (it once showed 72.22% beside "failure"), and a roll of 13 there is marked but does not count.
    result = compute(effect=-2, roll=13, modifier=2)
    assert result["ok"]
    assert result["outputs"]["chance"] == EMPTY and result["outputs"]["outcome"] == "failure"
    assert "between 2 and 12" in result["errors"]["roll"]
    bad = compute(roll=13)
    assert not bad["ok"]  # without an Effect the roll counts: the mistake stops the answer


def test_im_attacked_takes_the_margin_as_failed_by_and_ignores_the_other_sides_effect() -> None:
    # "I'm attacked", failed by 4 behind cover 2: a fail effect of 4, cover removes 2: 2 rolls on you.
    # The Effect field of the other side (hidden) and a bad roll beside the margin do not count.
    result = compute(side="attacked", failed_by=4, cover=2, effect=3, roll=13)
    assert result["ok"]
    out = result["outputs"]
    assert (out["effect"], out["remaining"], out["rolls"], out["target"]) == (f"{MINUS}4", "2", "2", "you")
    assert out["chance"] == EMPTY


def test_the_form_opens_as_the_short_question_the_rest_folded() -> None:
    from calculators.framework import registry
    from calculators.framework.render import render_calculator
    from calculators.framework.spec import evaluate

    html = render_calculator(evaluate(registry.get("attack")))
    fold = html[html.index('<details class="calc-more"') : html.index('<details class="calc-rulings"')]
    assert 'name="advantage"' in fold and 'name="defend"' in fold and 'name="roll"' not in fold
    assert '<details class="calc-more" data-more>' in html  # closed while nothing in it is set
    price = 'data-field="cover" data-only="side=attacked pay=costly pay=reckless"'
    assert f"{price} hidden" in html
    assert 'data-field="own_hp" data-only="side=attacked" hidden' in html
    attacked = render_calculator(evaluate(registry.get("attack"), {"side": "attacked", "skill": "1"}))
    assert f"{price}>" in attacked
    assert '<details class="calc-more" data-more open>' in attacked


def test_a_price_paid_for_a_hit_shows_the_fields_that_decide_it() -> None:
    # Core Mechanics § Costly Success: the price is a fail effect on you; your conditions, cover, the
    # adversary's damage and your armor decide it, so "I attack" with a price shows them (no hidden value).
    from calculators.framework import registry
    from calculators.framework.render import render_calculator
    from calculators.framework.spec import evaluate

    for pay in ("costly", "reckless"):
        html = render_calculator(evaluate(registry.get("attack"), {"side": "attack", "pay": pay}))
        for key in ("conditions", "cover", "adversary_damage", "own_armor"):
            assert f'data-field="{key}" data-only="side=attacked pay=costly pay=reckless">' in html
        assert 'data-field="own_hp" data-only="side=attacked" hidden' in html


def test_aim_and_a_characteristics_chm_are_added_to_the_dm() -> None:
    # Actions § Aim: +1 a minor action; Core Mechanics § Characteristic Modifier: Dex 9 -> 9 // 3 - 2 = +1.
    # DM +0 + ChM +1 + Aim +2 = +3 against 8: 2d6 of 5 or more, 30/36 = 83.33%.
    out = outputs(aim=2, characteristic=9)
    assert out["chance"] == "83.33%"
    assert out["summary"].startswith("Chance to hit with DM +3 against 8")
    assert outputs(aim=2, characteristic=9, roll=5)["effect"] == "+0"
    assert outputs(side="attacked", aim=2)["chance"] == "41.67%"  # Aim is the attacker's: not when attacked
    assert "between 0 and" in compute(aim=9)["errors"]["aim"]


# ---------------------------------------------------------------- aim, costly success, reckless action


def test_aim_uses_the_weapons_aim_modifier_and_its_reading() -> None:
    """Actions § Aim > Weapon Aim Modifier; ruling aim-maximum: three aim actions with a +2 scope."""
    per_action = outputs(aim=3, weapon_aim=2, difficulty=12)
    once = outputs(aim=3, weapon_aim=2, difficulty=12, aim_reading="once")
    plain = outputs(aim=3, difficulty=12)
    # DM +6 against 12 needs 6+ on 2d6 (26/36); +4 needs 8+ (15/36); +3 needs 9+ (10/36).
    assert (per_action["chance"], once["chance"], plain["chance"]) == ("72.22%", "41.67%", "27.78%")


def test_the_costly_success_example_hits_at_a_fail_effect_of_7() -> None:
    """Core Mechanics § Costly Success: missing by 2 (roll 6 against 8), the hit costs a fail effect of 7;
    one damage roll at success effect 0 goes to the adversary."""
    found = outputs(roll=6, difficulty=8, pay="costly", damage="2d6", adversary_damage="1d6")
    assert (found["outcome"], found["target"], found["rolls"], found["expected"]) == (
        "costly success",
        "adversary",
        "1",
        "7.00",
    )
    assert (found["price"], found["remaining"], found["price_rolls"], found["price_damage"]) == (
        "7",
        "7",
        "7",
        "24.50",
    )
    assert found["summary"].startswith("Costly hit (Effect \u22122)")


def test_the_costly_price_is_mitigated_like_any_fail_effect() -> None:
    """Ruling costly-success-mitigation: 7 with conditions 3 and cover 2 leaves 2, the cover takes 2;
    the mitigation example's factors (CM § Mitigating Factors, conditions 3, cover 2, skill 2) clear it."""
    found = outputs(effect=-2, pay="costly", conditions=3, cover=2)
    assert (found["price"], found["remaining"], found["cover_absorbs"]) == ("7", "2", "2")
    cleared = outputs(effect=-2, pay="costly", conditions=3, cover=2, skill=2)
    assert (cleared["remaining"], cleared["ordinary_failure"]) == ("0", "yes")
    assert "price_damage" not in cleared or cleared["price_damage"] == EMPTY
    signed = outputs(effect=-2, pay="costly", costly_reading="signed")
    assert signed["price"] == "1"  # the other reading: -2 x 2 + 3 = -1


def test_a_costly_success_on_a_hit_pays_nothing() -> None:
    found = outputs(roll=9, difficulty=8, pay="costly")
    assert (found["outcome"], found["price"]) == ("success", EMPTY)


def test_a_reckless_attack_adds_2_then_takes_3_off_the_effect() -> None:
    """Actions § Reckless Action > Effect: +2 on the roll; a success of 1 also brings a fail effect of 2;
    a failure grows by 3 (roll 5 + 2 = 7 against 8: fail effect 1 + 3 = 4)."""
    assert outputs(pay="reckless")["chance"] == "72.22%"
    harmed = outputs(effect=1, pay="reckless")
    assert (harmed["target"], harmed["rolls"], harmed["price"], harmed["remaining"]) == (
        "adversary",
        "2",
        "2",
        "2",
    )
    reduced = outputs(effect=1, pay="reckless", reckless_reading="reduced_success")
    assert (reduced["rolls"], reduced["price"]) == ("1", "2")
    clean = outputs(effect=3, pay="reckless")
    assert (clean["rolls"], clean["price"]) == ("4", EMPTY)
    missed = compute(roll=5, difficulty=8, pay="reckless")
    assert (missed["outputs"]["effect"], missed["outputs"]["target"]) == (f"{MINUS}1", "reply")
    # The grown fail effect goes to the I'm attacked side (no hidden field rolls the reply here).
    assert 'href="calculators/attack/?side=attacked&amp;failed_by=4"' in str(missed["next"])


def test_the_price_hands_on_to_the_mitigation_calculator() -> None:
    """The price goes on to the mitigation calculator; the hit's damage rolls at success effect 0."""
    html = str(compute(effect=-2, pay="costly", conditions=1)["next"])
    assert "mitigation/?fail_effect=7&amp;conditions=1" in html
    assert "damage/?effect=0&amp;" in html
