"""The chain agrees with itself: One attack's answer equals the answer reached by following its hand-off
links through Mitigation, Damage, Thresholds and Healing, link by link, through each calculator's own
evaluation (the same ``runtime.compute`` the browser calls).

Rules: Core Mechanics § Effect, § Mitigating Factors; Outcomes § Damage Rolls, § Armor, § Character HP
Thresholds, § Bleeding, § Natural Healing.
"""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qsl, urlsplit

import _calc
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.framework import runtime

DAMAGE_KEYS = ("rolls", "kept", "per_roll", "expected", "taken", "largest", "state_now")
ODDS = ("wounded", "seriously_wounded", "critically_wounded", "dying")


def run(name: str, params: dict[str, str]) -> dict[str, object]:
    result = runtime.compute(name, params)
    assert result["ok"], (name, params, result["errors"], result["form_error"])
    return result


def follow(result: dict[str, object], name: str) -> tuple[dict[str, str], dict[str, object]]:
    """The parameters of ``result``'s hand-off link to calculator ``name``, and that calculator's answer."""
    found = re.search(rf'data-handoff="{name}" href="([^"]*)"', str(result["next"]))
    assert found, f"no link to {name} in {result['summary']!r}"
    params = dict(parse_qsl(urlsplit(unescape(found.group(1))).query, keep_blank_values=True))
    return params, run(name, params)


def outs(result: dict[str, object]) -> dict[str, str]:
    found = result["outputs"]
    assert isinstance(found, dict)
    return found


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    fail_by=st.integers(1, 6),
    conditions=st.integers(0, 2),
    cover=st.integers(0, 3),
    skill=st.integers(0, 2),
    **_calc.SMALL_HIT,
    modifier=st.integers(-2, 2),
    hp=st.integers(6, 36),
    already=st.integers(0, 10),
    reading=st.sampled_from(["fractions_of_hp", "best_physical"]),
)
def test_an_attack_on_you_followed_link_by_link_gives_the_same_answer(
    data: st.DataObject,
    fail_by: int,
    conditions: int,
    cover: int,
    skill: int,
    count: int,
    sides: int,
    modifier: int,
    armor: int,
    rate: int,
    hp: int,
    already: int,
    reading: str,
) -> None:
    dice = f"{count}d{sides}{modifier:+d}" if modifier else f"{count}d{sides}"
    situation = {
        "side": "attacked",
        "failed_by": str(fail_by),
        "conditions": str(conditions),
        "cover": str(cover),
        "skill": str(skill),
        "adversary_damage": dice,
        "adversary_rate": str(rate),
        "own_armor": str(armor),
        "own_hp": str(hp),
        "own_damage": str(already),
        "reading": reading,
        "best_physical": str(max(1, hp // 3)),
    }
    first = run("attack", situation)
    attack = outs(first)
    if attack["ordinary_failure"] == "yes":
        assert 'data-handoff="damage"' not in str(first["next"])
        return
    # The dice are rolled at the table: as many rolls as the attack makes, each one the dice can give.
    low, high = count + modifier, count * sides + modifier
    rolled = data.draw(
        st.lists(st.integers(low, high), min_size=int(attack["rolls"]), max_size=int(attack["rolls"]))
    )
    first = run("attack", {**situation, "rolled": " ".join(map(str, rolled))})
    attack = outs(first)

    _, mitigation = follow(first, "mitigation")
    assert outs(mitigation)["remaining"] == attack["remaining"]
    assert outs(mitigation)["cover_absorbs"] == attack["cover_absorbs"]

    via_mitigation, damage = follow(mitigation, "damage")
    direct, _ = follow(first, "damage")
    assert via_mitigation == direct  # Mitigation passes the situation on whole
    assert {k: outs(damage)[k] for k in DAMAGE_KEYS + ODDS} == {k: attack[k] for k in DAMAGE_KEYS + ODDS}
    assert damage["summary"] and attack["state_now"] in str(damage["summary"])

    links, thresholds = follow(damage, "thresholds")
    assert links == dict(parse_qsl(urlsplit(unescape(_href(first, "thresholds"))).query))
    assert int(links["damage"]) == int(attack["damage_now"]) == already + int(attack["taken"])
    assert outs(thresholds)["state"] == attack["state_now"]
    serious = int(outs(thresholds)["seriously_wounded"])
    assert outs(thresholds)["bleeding"] == ("yes" if int(attack["largest"]) >= serious else "no")

    _, healing = follow(thresholds, "healing")
    assert outs(healing)["state"] == attack["state_now"]
    assert f"with {attack['damage_now']} damage" in str(healing["summary"]) or attack["damage_now"] == "0"


def _href(result: dict[str, object], name: str) -> str:
    found = re.search(rf'data-handoff="{name}" href="([^"]*)"', str(result["next"]))
    assert found
    return found.group(1)


@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    effect=st.integers(0, 5),
    **_calc.SMALL_HIT,
    hp=st.integers(6, 36),
)
def test_your_hit_followed_to_the_damage_calculator_gives_the_same_answer(
    data: st.DataObject, effect: int, count: int, sides: int, armor: int, rate: int, hp: int
) -> None:
    situation = {
        "effect": str(effect),
        "damage": f"{count}d{sides}",
        "rate_of_attack": str(rate),
        "armor": str(armor),
        "hp": str(hp),
    }
    made = int(outs(run("attack", situation))["rolls"])
    rolled = data.draw(st.lists(st.integers(count, count * sides), min_size=made, max_size=made))
    first = run("attack", {**situation, "rolled": " ".join(map(str, rolled))})
    params, damage = follow(first, "damage")
    assert params["hp"] == str(hp)  # the adversary's HP travels (it was once dropped)
    attack = outs(first)
    assert {k: outs(damage)[k] for k in DAMAGE_KEYS + ODDS} == {k: attack[k] for k in DAMAGE_KEYS + ODDS}


def test_thresholds_given_only_the_hp_hands_healing_no_default_characteristics() -> None:
    """Thresholds reached with HP 24 (a hand-off) once handed healing its own default Str 7 / Dex 8 /
    End 9: a failed surgery's harm then rested on an End nobody gave (Outcomes § Surgery: harm when the
    fail effect left exceeds half the End)."""
    thresholds = run("thresholds", {"hp": "24", "damage": "10", "largest_roll": "9"})
    params, healing = follow(thresholds, "healing")
    assert {k: params[k] for k in ("strength", "dexterity", "endurance")} == dict.fromkeys(
        ("strength", "dexterity", "endurance"), ""
    )
    assert (params["hp"], params["damage"]) == ("24", "10")
    assert outs(healing)["state"] == "seriously wounded"
    asked = runtime.compute("healing", {**params, "surgery_effect": "-3"})
    assert asked["errors"] == {"endurance": "A failed surgery's harm depends on the patient's End: give it."}
    # Medic 1 leaves a fail effect of 2: above half of End 2, it harms by 4; not above half of End 6.
    assert outs(run("healing", {**params, "surgery_effect": "-3", "endurance": "2"}))["surgery_harm"] == "4"
    assert outs(run("healing", {**params, "surgery_effect": "-3", "endurance": "6"}))["surgery_harm"] == "—"
    # A success needs no End: the plan is made without it.
    assert run("healing", {**params, "surgery_effect": "2"})["summary"] == (
        "Seriously wounded with 10 damage; surgery removes 4 (6 damage left, wounded); "
        "6 days to heal fully, care level light."
    )
    # With the characteristics given (no HP), they travel as they are.
    params, _ = follow(
        run("thresholds", {"strength": "5", "dexterity": "6", "endurance": "4", "damage": "3"}), "healing"
    )
    assert (params["strength"], params["dexterity"], params["endurance"]) == ("5", "6", "4")
    assert "hp" not in params


def test_a_miss_while_attacking_rests_on_no_hidden_field_and_hands_the_margin_to_im_attacked() -> None:
    """A miss on the "I attack" side once rolled the adversary's reply with the hidden "I'm attacked"
    fields (their damage 2d6 by default, your cover, armor and HP): an answer nobody asked about. Now the
    miss stops at the margin and its link opens the I'm attacked side with it (Core Mechanics § Effect,
    § Mitigating the Fail Effect)."""
    missed = run("attack", {"modifier": "1", "difficulty": "9", "roll": "5", "skill": "1"})
    out = outs(missed)
    assert (out["effect"], out["outcome"], out["target"]) == ("\u22123", "failure", "reply")
    assert all(out[k] == "\u2014" for k in ("remaining", "rolls", "expected", "per_roll"))
    assert missed["summary"] == (
        "Miss (Effect \u22123): the adversary's fail effect comes at you; follow \u201cwhat comes at "
        "you\u201d to work it out."
    )
    params, attacked = follow(missed, "attack")
    # Only what this side was given, away from the defaults (skill 1 is a mitigating factor there).
    assert params == {"side": "attacked", "failed_by": "3", "modifier": "1", "difficulty": "9", "skill": "1"}
    assert (outs(attacked)["remaining"], outs(attacked)["rolls"]) == ("2", "2")
    # The same answer as giving the margin there by hand.
    by_hand = run("attack", {"side": "attacked", "failed_by": "3", "skill": "1"})
    assert outs(attacked)["summary"] == outs(by_hand)["summary"]
