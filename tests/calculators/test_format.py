"""calculators.format: the one place a number becomes text, and every path that shows a number agrees.

The rules pages' path is added by the lead once the hooks' tables are importable.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators import format as fmt
from calculators.framework import runtime
from rules_core import checks, injury
from table import tracker as table_tracker

ROOT = Path(__file__).resolve().parents[2]
MINUS = "\u2212"


# ---------------------------------------------------------------- signed and number


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (2, "+2"),
        (-3, f"{MINUS}3"),
        (0, "+0"),
        (12, "+12"),
        (Fraction(7, 2), "+7/2"),
        (Fraction(-1, 3), f"{MINUS}1/3"),
    ],
)
def test_signed_writes_every_modifier_with_its_sign_and_a_true_minus(
    value: int | Fraction, text: str
) -> None:
    assert fmt.signed(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [(0, "0"), (7, "7"), (-3, f"{MINUS}3"), (Fraction(7, 2), "7/2"), (Fraction(-5, 4), f"{MINUS}5/4")],
)
def test_number_writes_negatives_with_a_true_minus_and_no_plus(value: int | Fraction, text: str) -> None:
    assert fmt.number(value) == text


@given(st.integers(-10_000, 10_000))
def test_signed_and_number_never_use_the_ascii_hyphen_and_read_back(value: int) -> None:
    for text in (fmt.signed(value), fmt.number(value)):
        assert "-" not in text
        assert int(text.replace(MINUS, "-")) == value
    assert fmt.signed(value)[0] in ("+", MINUS)


# ---------------------------------------------------------------- percent


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (Fraction(0), "0%"),  # impossible: exact, never "0.00%"
        (Fraction(1), "100%"),  # certain: exact, never "100.00%"
        (Fraction(5, 12), "41.67%"),
        (Fraction(1, 32), "3.13%"),  # 3.125 rounds half up
        (Fraction(1, 8), "12.50%"),
        (Fraction(1, 216), "0.46%"),
        (Fraction(1, 8000), "0.01%"),  # 0.0125
        (Fraction(1, 20000), "0.01%"),  # 0.005: exactly half, rounds up
        (Fraction(1, 40000), "0.00%"),  # 0.0025: possible but rounds to nothing (not "0%")
        (Fraction(39999, 40000), "99.99%"),  # 99.9975: short of certain never reads 100
        (Fraction(35, 36), "97.22%"),
        (Fraction(-1, 32), f"{MINUS}3.13%"),
    ],
)
def test_percent_has_two_decimals_rounded_half_up_and_exact_ends(p: Fraction, text: str) -> None:
    assert fmt.percent(p) == text


def test_percent_takes_integers_too() -> None:
    assert (fmt.percent(0), fmt.percent(1)) == ("0%", "100%")


@given(st.fractions(min_value=0, max_value=1, max_denominator=10**6))
def test_percent_read_back_is_within_half_a_hundredth_of_a_percent(p: Fraction) -> None:
    text = fmt.percent(p)
    assert text.endswith("%")
    shown = Fraction(text[:-1])
    # half a hundredth from rounding, one hundredth when a chance short of certain stops at 99.99
    assert abs(shown - p * 100) <= (Fraction(1, 100) if p > Fraction(9999, 10000) else Fraction(1, 200))
    assert (text in ("0%", "100%")) == (p in (0, 1))
    assert shown < 100 or p == 1


# ---------------------------------------------------------------- dice and the rest


@pytest.mark.parametrize(
    ("args", "text"),
    [
        ((3, 3, -2), f"3d3{MINUS}2"),
        ((2, 6, 1), "2d6+1"),
        ((1, 6), "1d6"),
        ((2, 6, 0), "2d6"),  # no "+0" inside dice notation
        ((3, 3, 0, "D"), "D 3d3"),
        ((3, 3, -2, "D"), f"D 3d3{MINUS}2"),
    ],
)
def test_dice_notation_uses_the_signed_modifier(args: tuple, text: str) -> None:
    assert fmt.dice(*args) == text


def test_metres_fractions_and_the_empty_output() -> None:
    assert (fmt.metres(Fraction(3, 2)), fmt.metres(6), fmt.metres(Fraction(-3, 2))) == (
        "1.5 m",
        "6 m",
        f"{MINUS}1.5 m",
    )
    assert (fmt.fraction_text(Fraction(1, 2)), fmt.fraction_text(Fraction(2, 5))) == ("\u00bd", "2/5")
    assert fmt.EMPTY == "\u2014" and fmt.MINUS == MINUS


# ---------------------------------------------------------------- every path reads the same


def _calc(name: str, **values: object) -> dict[str, str]:
    found = runtime.compute(name, {k: str(v) for k, v in values.items()})
    assert found["ok"], found
    return found


def _effect_output(effect: int) -> str:
    """The Effect calculator's Effect for a roll that lands ``effect`` away from difficulty 8."""
    return _calc("effect", modifier=0, difficulty=8, roll=8 + effect)["outputs"]["effect"]


def _tracker_row(**combatant: object) -> dict[str, object]:
    t = table_tracker.empty_tracker()
    t = table_tracker.tracker_action(t, {"type": "add", "combatant": {"name": "A", **combatant}})["tracker"]
    view = table_tracker.derive_tracker(t)
    return view["rows"][view["order"][0]]


@pytest.mark.parametrize("figure", [-3, 0, 2])
def test_a_signed_figure_reads_the_same_in_a_calculator_the_tracker_and_format(figure: int) -> None:
    text = fmt.signed(figure)
    # A calculator's output and its working.
    found = _calc("effect", modifier=figure, difficulty=8, roll=8)
    assert found["outputs"]["effect"] == _effect_output(figure) == text
    # In a sum the modifier is a term: "roll 8 \u2212 3", "roll 8 + 2", nothing for 0.
    assert f"Effect = roll 8{fmt.term(figure)} \u2212 difficulty 8 = {text}" in found["details"]
    # The tracker: the wound penalty shown on a card, and the Tactics bonus in the initiative text.
    damage = -3 * figure if figure <= 0 else 0
    if figure <= 0:
        assert _tracker_row(mode="entered", entered=1, damage=damage)["wound_penalty_signed"] == text
    row = _tracker_row(mode="unprepared", dexterity=7, roll=7, tactics_effect=figure)
    assert (f", Tactics {text} " in row["initiative_text"]) == (figure != 0)
    # The tracker's initiative as told, and the calculators' plain numbers.
    assert _tracker_row(mode="entered", entered=figure)["initiative_shown"] == fmt.number(figure)


@pytest.mark.parametrize(
    ("p", "calculator", "values", "row"),
    [
        (Fraction(1, 32), "dice", {"dice": "5d2"}, 5),  # all five dice show 1
        (Fraction(0), "effect", {"modifier": 0, "difficulty": 30}, None),
        (Fraction(1), "effect", {"modifier": 0, "difficulty": 2}, None),
    ],
)
def test_a_chance_reads_the_same_in_a_calculator_its_chart_and_format(
    p: Fraction, calculator: str, values: dict[str, object], row: int | None
) -> None:
    text = fmt.percent(p)
    found = _calc(calculator, **values)
    if row is None:
        assert found["outputs"]["chance"] == text
        assert f"chance {text} (exact" in found["details"]
    else:
        assert f'<th scope="row">{row}</th><td>{text}</td>' in found["details"]
        assert f"<title>{row}: {text}</title></rect>" in found["details"]  # the chart's bar, as a tooltip


@pytest.mark.parametrize(("endurance", "damage"), [(9, 25), (0, 30), (12, 27)])
def test_the_trackers_dying_chance_reads_as_format_writes_it(endurance: int, damage: int) -> None:
    body = {"strength": 7, "dexterity": 7, "endurance": endurance, "damage": damage}  # HP 14 + End
    row = _tracker_row(mode="entered", entered=5, **body)
    dying = [r for r in row["reminders"] if r["kind"] == "dying"]
    assert dying, row["reminders"]
    assert f"({fmt.percent(injury.dying_roll_chance(endurance, damage))})" in dying[0]["text"]
    found = _calc("dying", rounds=1, **body)
    assert found["outputs"]["round_chance"] == fmt.percent(injury.dying_roll_chance(endurance, damage))


@pytest.mark.parametrize(("difficulty", "advantage"), [(8, 0), (11, 1), (13, 0), (2, 0)])
def test_a_chance_reads_the_same_on_the_rules_page_and_in_the_calculator(
    difficulty: int, advantage: int
) -> None:
    """The difficulty table a rules page shows and the Effect calculator print one text for one chance."""
    from sitebuild.reference import TABLES

    found = _calc("effect", modifier=0, difficulty=difficulty, advantage=advantage)["outputs"]["chance"]
    rows = {line.split("|")[1].strip(): line for line in TABLES["difficulty-odds"]().splitlines()[2:]}
    if str(difficulty) in rows:
        cells = [c.strip() for c in rows[str(difficulty)].split("|")[1:-1]]
        assert cells[3 if advantage else 2] == found
    assert found == fmt.percent(checks.success_chance(0, difficulty, advantage=advantage))


@pytest.mark.parametrize("characteristic", [1, 7, 16])
def test_a_modifier_reads_the_same_on_the_rules_page_and_in_format(characteristic: int) -> None:
    from sitebuild.reference import TABLES

    table = TABLES["characteristic-modifiers"]()
    assert fmt.signed(checks.characteristic_modifier(characteristic)) in table.splitlines()[2]


# ---------------------------------------------------------------- nobody else formats


def test_the_renderer_no_longer_has_its_own_signed_or_percent() -> None:
    source = (ROOT / "calculators/framework/render.py").read_text(encoding="utf-8")
    assert "def signed" not in source and "def percent" not in source


@pytest.mark.parametrize("name", ["tracker.js", "character.js", "calculators.js", "engine.js"])
def test_the_table_scripts_format_no_number(name: str) -> None:
    source = (ROOT / "browser" / name).read_text(encoding="utf-8")
    assert "toFixed" not in source
    assert not re.search(r"""replace\(\s*["']-["']""", source)  # hyphen to minus: Python's job
    assert not re.search(r"`\+\$\{", source)  # "+" glued to a number


@pytest.mark.parametrize(("value", "text"), [(2, " + 2"), (-3, " \u2212 3"), (0, "")])
def test_a_modifier_in_a_sum_is_a_term_with_spaces_and_a_true_minus(value: int, text: str) -> None:
    assert fmt.term(value) == text


@pytest.mark.parametrize(("count", "text"), [(0, "0 rolls"), (1, "1 roll"), (3, "3 rolls")])
def test_a_count_takes_its_noun_in_the_right_number(count: int, text: str) -> None:
    assert fmt.plural(count, "roll") == text


@pytest.mark.parametrize(
    ("count", "noun", "text"),
    [
        (None, "space", "not possible"),
        (Fraction(45, 4), "space", "11.25 spaces"),
        (Fraction(1), "space", "1 space"),
        (-1, "roll", "\u22121 rolls"),
    ],
)
def test_no_count_reads_not_possible_and_a_fraction_reads_as_a_decimal(
    count: int | Fraction | None, noun: str, text: str
) -> None:
    assert fmt.plural(count, noun) == text
    assert fmt.plural(None, "day", absent="never") == "never"


@pytest.mark.parametrize(
    ("text", "result"),
    [("1", "1 attempt"), ("4", "4 attempts"), ("2.25", "2.25 attempts"), ("never", "never")],
)
def test_a_count_held_as_text_takes_its_noun_and_words_stay_alone(text: str, result: str) -> None:
    assert fmt.counted(text, "attempt") == result
    assert fmt.counted(fmt.NOT_POSSIBLE, "space") == fmt.NOT_POSSIBLE
    assert fmt.counted(fmt.EMPTY, "space") == fmt.EMPTY
