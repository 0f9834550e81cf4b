"""The "one character, three systems" calculator (docs/peers/comparison.md#calculator).

Its defaults reproduce the page's worked table; its Mneme damage agrees with the Mneme damage
engine; bad input is flagged beside the field; no raw text can make it raise.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import partial
from pathlib import Path

import _calc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import comparison
from calculators.format import decimal
from calculators.framework import registry, runtime
from calculators.framework.render import EMPTY_OUTPUT
from calculators.framework.spec import SUMMARY, FieldError, IntInput, OptionalIntInput, evaluate
from rules_core import damage

DOCS = Path(__file__).resolve().parents[2] / "docs"
CALC = registry.get("comparison")
KEYS = [item.key for item in CALC.inputs]


run = partial(_calc.compute, "comparison")
outputs = partial(_calc.outputs, "comparison")


def test_the_pages_armor_4_row_gives_19_51_in_mneme_and_2_through_a_vest_that_wears_to_av_3() -> None:
    # docs/peers/comparison.md#one-character: exact Mneme average 1405/72; Mistrunner AV 4 vest.
    result = run(mneme_armor=4, mistrunner_armor=4)
    assert (result["outputs"]["mneme_damage"], result["outputs"]["mistrunner_damage"]) == (
        "19.51",
        "2",
    )
    assert "exactly 1405/72" in result["details"]
    assert "absorbs 4: 2 life points lost; the armor wears to AV 3" in result["details"]


def test_the_seeds_reaction_example_acts_on_9_4_and_2_with_three_actions() -> None:
    # Mistrunner: Combat § Reaction Rolls: a roll of 7 with reaction score 2 gives 9; actions on 9, 4, 2.
    result = run(mistrunner_reaction_die=7, mistrunner_reaction_score=2, mistrunner_actions=3)
    assert result["outputs"]["mistrunner_initiative"] == "9, 4, 2"
    assert result["outputs"]["mistrunner_attacks"] == "60"
    assert "action 2 loses 2 dice, action 3 loses 4 dice" in result["details"]


def test_initiative_in_minds_eye_theatre_is_the_better_of_physical_and_mental() -> None:
    # Mind's Eye Theatre § Measuring Time: Physical 5, Mental 8 gives initiative 8.
    assert outputs(met_physical=5, met_mental=8)["met_initiative"] == "8"


def test_a_step_length_puts_minds_eye_theatre_speed_in_metres() -> None:
    # One Celerity round: 2 rounds x 6 steps = 12 steps of 0.75 m = 9 m in 3 s.
    result = run(met_celerity_rounds=1, met_step_cm=75)
    assert (result["outputs"]["met_speed"], result["outputs"]["met_attacks"]) == ("3 m/s", "40")
    assert "12 steps a turn" in result["details"] and "9 m" in result["details"]


def test_a_heavy_load_and_coordination_change_the_speeds() -> None:
    # Mneme Actions § Movement Table: run 15 m under a heavy load (2.5 m/s);
    # Mistrunner § Actions: (5 + 2) x 2 = 14 m in 3 s.
    found = outputs(mneme_load="heavy", mistrunner_coordination=2)
    assert (found["mneme_speed"], found["mistrunner_speed"]) == ("2.5 m/s", "4.67 m/s")


def test_a_dexterity_and_skill_change_mneme_initiative() -> None:
    # Core Mechanics § Characteristic Modifier: Dex 10 -> +1; initiative 9 + 1 + 2 = 12.
    assert (
        outputs(mneme_initiative_roll=9, mneme_dexterity=10, mneme_initiative_skill=2)["mneme_initiative"]
        == "12"
    )


def test_a_melee_hit_adds_strength_and_potence_adds_to_minds_eye_theatre_damage() -> None:
    # Mistrunner § Strength: code 3 x (1 + 1) + 2 = 8; MET worked example: 1 + Potence 1 = 2.
    found = outputs(
        margin=1, mistrunner_damage_code=3, mistrunner_melee=1, mistrunner_strength=2, met_damage_bonus=1
    )
    assert (found["mistrunner_damage"], found["met_damage"]) == ("8", "2")


def test_a_miss_does_no_damage_anywhere() -> None:
    found = outputs(margin=-1)
    assert [found[k] for k in ("mneme_damage", "mistrunner_damage", "met_damage")] == ["0 (miss)"] * 3
    assert found["summary"].endswith(", and the miss does no damage in any of them.")


def test_the_summary_names_the_fastest_attacker_and_mover_and_counts_a_step_length_in_metres() -> None:
    # Three Mistrunner actions: 60 a minute; one Celerity round at 75 cm steps: 40 a minute and 3 m/s.
    found = outputs(mistrunner_actions=3, met_celerity_rounds=1, met_step_cm=75)["summary"]
    assert found.startswith(
        "This fighter attacks most often in Mistrunner (60 a minute; Mneme 10 a minute; MET 40 a minute), "
        "moves fastest in Mneme (3.75 m/s; Mistrunner 3.33 m/s; MET 3 m/s)"
    )


@pytest.mark.parametrize(
    ("margin", "weapon", "armor", "rate"),
    [(0, "3d6", 0, ""), (2, "3d3-2", 3, ""), (3, "2d6+1", 5, "2"), (6, "1d6", 10, ""), (8, "3d6", 4, "3")],
)
def test_mneme_damage_agrees_with_the_mneme_damage_engine(
    margin: int, weapon: str, armor: int, rate: str
) -> None:
    # Outcomes § Damage Rolls, § Rate of Attack, § Armor: the same hit through rules_core.damage.
    expected = damage.damage_outcome(
        weapon, success_effect=margin, armor=armor, rate_of_attack=int(rate) if rate else None
    ).expected_total
    shown = outputs(margin=margin, mneme_weapon=weapon, mneme_armor=armor, mneme_rate_of_attack=rate)
    assert shown["mneme_damage"] == decimal(expected)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(63, 2), "31.5"),
        (Fraction(10, 3), "3.33"),
        (Fraction(14, 3), "4.67"),
        (Fraction(1, 200), "0.01"),
        (Fraction(1405, 72), "19.51"),
        (Fraction(0), "0"),
        (Fraction(-5, 2), "\u22122.5"),
        (Fraction(1999, 2000), "1"),
    ],
)
def test_numbers_show_at_most_two_decimals_rounded_half_up(value: Fraction, text: str) -> None:
    # calculators.format.decimal: every figure of the comparison goes through it.
    assert decimal(value) == text


def test_every_working_step_and_rule_link_points_at_an_existing_page_and_anchor() -> None:
    evaluation = evaluate(
        CALC,
        {
            "margin": "7",
            "mneme_rate_of_attack": "2",
            "mneme_armor": "3",
            "mistrunner_melee": "1",
            "mistrunner_armor": "4",
            "met_celerity_rounds": "1",
        },
    )
    assert evaluation.result is not None
    links = [s.rule for s in evaluation.result.working] + list(CALC.rules)
    assert all(link is not None for link in links)
    for link in links:
        assert link is not None
        path, _, anchor = link.target.partition("#")
        text = (DOCS / path).read_text(encoding="utf-8")
        assert re.search(r"\{[^}]*#" + re.escape(anchor) + r"[\s}]", text), link.target


def test_the_comparison_page_holds_the_calculator_marker_once() -> None:
    text = (DOCS / "peers" / "comparison.md").read_text(encoding="utf-8")
    assert text.count("<!-- calculator: comparison -->") == 1
    assert text.count("<!-- calculator:") == 1, "URL state needs exactly one calculator on the page"


def test_every_number_input_is_bounded() -> None:
    for item in CALC.inputs:
        if isinstance(item, (IntInput, OptionalIntInput)):
            assert item.max - item.min <= 1000, item.key


def test_the_worst_case_inputs_still_compute() -> None:
    # The largest hit: every number input at its maximum (margin 20, rate of attack 21, armor 1000,
    # reaction 90 + d10 10, other games' scores 100, ...),
    # ten d20 + 100 (exact order statistics) and a melee attack.
    maxima = {item.key: item.max for item in CALC.inputs if isinstance(item, (IntInput, OptionalIntInput))}
    result = run(**maxima, mneme_weapon="10d20+100", mistrunner_melee=1)
    assert result["ok"], result
    assert result["outputs"]["mistrunner_initiative"] == "100, 50, 25"


_TEXT = st.one_of(
    st.text(max_size=30),
    st.integers(-(10**15), 10**15).map(str),
    st.sampled_from(
        ["", " ", "-0", "+3", "\u22122", "1e3", "3d6", "d20+5", "K 2d6", "1", "0", "yes", "heavy"]
    ),
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), _TEXT, max_size=6))
def test_no_raw_text_makes_the_calculator_raise_and_every_failure_is_a_message(raw: dict[str, str]) -> None:
    result = runtime.compute("comparison", raw)
    assert set(result["outputs"]) == {o.key for o in CALC.outputs} | {SUMMARY}
    if result["ok"]:
        assert EMPTY_OUTPUT not in result["outputs"].values()
        assert not result["errors"] and not result["form_error"]
    else:
        assert result["errors"] or result["form_error"]
        for message in [*result["errors"].values(), result["form_error"]]:
            assert "Traceback" not in message and len(message) < 200
        assert set(result["errors"]) <= set(KEYS)


@pytest.mark.parametrize(
    ("key", "value"),
    [("mistrunner_reaction_die", 0), ("met_physical", -1), ("mistrunner_coordination", -6), ("margin", 99)],
)
def test_an_engine_refusal_past_the_form_bounds_lands_beside_the_field_it_names(key: str, value: int) -> None:
    values = evaluate(CALC).values
    with pytest.raises(FieldError) as caught:
        comparison.compute({**values, key: value})
    assert caught.value.field == key
