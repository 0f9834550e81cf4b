"""The rules tables of ``sitebuild.reference.tables``, checked against the source chapters.

Figures are checked against the source chapters (cited) and, for probabilities, against a
brute-force count written here.
"""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import product

import pytest
from _dice import brute_force_chance, pct

from sitebuild.reference import TABLES, markdown_table

MINUS = "\u2212"
"""The true minus sign the pages print."""
TIMES = "\u00d7"
EN_DASH = "\u2013"


def render_table(name: str) -> str:
    return TABLES[name]()


def rows_of(markdown: str) -> list[list[str]]:
    """The body rows of a rendered pipe table (of the wide layout where there are two), as stripped cells."""
    first = markdown.split("\n\n</div>", 1)[0]
    lines = [line for line in first.splitlines() if line.startswith("|")]
    return [[c.strip() for c in line.strip("|").split(" | ")] for line in lines[2:]]


def row_starting(markdown: str, first: str) -> list[str]:
    found = [r for r in rows_of(markdown) if r[0] == first]
    assert len(found) == 1, f"expected one row starting {first!r}, got {found}"
    return found[0]


# ---------------------------------------------------------------- every table


LAYOUTS = re.compile(
    r'<div class="rules-wide" markdown>\n\n(.+?)\n\n</div>\n\n'
    r'<div class="rules-narrow" markdown>\n\n(.+?)\n\n</div>',
    re.S,
)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_each_table_renders_as_a_well_formed_pipe_table(name: str) -> None:
    rendered = render_table(name)
    both = LAYOUTS.fullmatch(rendered)  # a wide layout and a narrow one for a phone, or one table
    for layout in both.groups() if both else (rendered,):
        lines = layout.splitlines()
        assert len(lines) >= 3, "a header, an alignment row and at least one row"
        widths = {line.count(" | ") for line in lines}
        assert len(widths) == 1, f"every line of {name} has the same number of cells"
        assert re.fullmatch(r"\| (:?---:?)( \| :?---:?)* \|", lines[1])


def test_the_wide_tables_have_a_phone_layout_with_the_same_figures() -> None:
    """At 360 px the healing rates come transposed, grappling effects stacked, movement one column fewer."""
    healing = LAYOUTS.fullmatch(render_table("healing-rates"))
    assert healing
    assert row_starting(healing.group(2), "Full rest + care")[1:] == [
        f"{MINUS}2 / day",
        f"{MINUS}1 / day",
        f"{MINUS}1 / 3 days",
        f"{MINUS}1 / 3 days",
    ]
    grappling = LAYOUTS.fullmatch(render_table("grappling-effects"))
    assert grappling
    throw = row_starting(grappling.group(2), "Throw")
    assert throw[1] == (
        "**Target:** body<br>**Effect needed:** ⅙ of HP, rounded up<br>**Difficulty:** +3<br>"
        "**Damage:** 2d3<br>**Result:** The target is thrown and lies down."
    )
    movement = LAYOUTS.fullmatch(render_table("movement"))
    assert movement
    assert row_starting(movement.group(2), "Dash, 1.5 m")[1:] == ["10", "7", "5", "3", "2"]


@pytest.mark.parametrize("name", sorted(TABLES))
def test_no_table_writes_a_hyphen_for_a_minus_sign(name: str) -> None:
    assert not re.search(r"(?<![\w])-\d", render_table(name)), "negatives use the true minus sign"


def test_markdown_table_aligns_escapes_pipes_and_rejects_ragged_rows() -> None:
    assert markdown_table(["A", "B"], [["x|y", 1]], "r") == "| A | B |\n| ---: | --- |\n| x\\|y | 1 |"
    with pytest.raises(ValueError, match="has 1 cells for 2 columns"):
        markdown_table(["A", "B"], [["x"]])


def test_the_odds_table_matches_the_source_and_brute_force_with_advantage_columns() -> None:
    """Core Mechanics § Difficulty Number Table: 8 -> 41.67%; advantage keeps the best two of 3d6."""
    rendered = render_table("difficulty-odds")
    for difficulty in range(3, 13):
        row = row_starting(rendered, str(difficulty))
        assert row[2] == pct(brute_force_chance(0, difficulty, 0))
        assert row[3] == pct(brute_force_chance(0, difficulty, 1))
        assert row[4] == pct(brute_force_chance(0, difficulty, -1))
    assert row_starting(rendered, "8")[1:] == ["Challenging", "41.67%", "68.06%", "19.44%"]
    assert row_starting(rendered, "14")[1:] == ["Formidable", "0%", "0%", "0%"], "no chance"


def test_the_compact_odds_table_agrees_with_the_full_one() -> None:
    full = {r[0]: r[2:] for r in rows_of(render_table("difficulty-odds"))}
    for row in rows_of(render_table("difficulty-odds-compact")):
        assert row[1:] == full[row[0]]


def test_hit_locations_follow_the_2d6_odds_and_the_source_table() -> None:
    """Actions § Targeted Attack: 7 is core (+0), 2 vitals (+3), 12 head (+3); hands and feet are sided."""
    rendered = render_table("hit-locations")
    for total in range(2, 13):
        row = row_starting(rendered, str(total))
        ways = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b == total)
        assert row[1] == pct(Fraction(ways, 36))
    assert row_starting(rendered, "7")[2:] == ["+0", "Core or Center of Mass"]
    assert row_starting(rendered, "2")[2] == "+3"
    assert row_starting(rendered, "11")[3] == "Hands\\*"
    assert row_starting(render_table("hit-locations-compact"), "12") == ["12", "Head", "+3"]


def test_the_movement_table_carries_the_source_figures() -> None:
    """Actions § Movement Table: dash 10 light / 7 medium-heavy; no crawling with a single move."""
    rendered = render_table("movement")
    rows = rows_of(rendered)
    dash = next(r for r in rows if r[:2] == ["1.5 m", "Dash"])
    assert dash[2:] == ["10", "7", "5", "3", "2"]
    move = next(r for r in rows if r[:2] == ["1.5 m", "Move"])
    assert move[-1] == "NA"
    big_run = next(r for r in rows if r[:2] == ["4.5 m", "Run"])
    assert big_run[2:] == ["5", "3", "3", "2", "1"]
    assert row_starting(render_table("movement-compact"), "Run")[1:] == ["15", "10", "7", "5", "3"]


def test_the_stance_table_lists_the_source_steps_and_derives_the_rest() -> None:
    """Actions § List of Minor Actions (Changing Stance); unlisted changes go through listed steps."""
    rendered = render_table("stance-changes")
    assert row_starting(rendered, "prone → crouching")[1:] == ["2", "listed"]
    assert row_starting(rendered, "prone → standing")[1:] == ["3", "through the listed steps"]
    assert row_starting(rendered, "crouching → prone")[1] == "2"
    assert len(rows_of(rendered)) == 6


def test_the_action_types_table_prices_actions_in_minor_actions() -> None:
    """Actions § Action Types: free 0, minor 1, significant 2, full 3."""
    rendered = render_table("action-types")
    costs = {r[0]: r[1] for r in rows_of(rendered)}
    assert costs == {"Free action": "0", "Minor action": "1", "Significant action": "2", "Full action": "3"}


def test_the_injury_thresholds_table_uses_thirds_of_hp_with_an_example() -> None:
    """Outcomes § Seriously/Critically Wounded: 1/3 and 2/3 of HP rounded down; HP 24 -> 8, 16, dying 25."""
    rendered = render_table("injury-thresholds")
    assert row_starting(rendered, "Seriously Wounded")[1:] == ["≥ ⅓ HP, rounded down", "8"]
    assert row_starting(rendered, "Critically Wounded")[1:] == ["≥ ⅔ HP, rounded down", "16"]
    assert row_starting(rendered, "Dying")[1:] == ["> HP", "25"]
    assert row_starting(rendered, "Wounded")[1] == "any damage"


def test_the_healing_table_reproduces_the_source_rates() -> None:
    """Outcomes § Natural Healing and Medical Care Table."""
    rendered = render_table("healing-rates")
    assert row_starting(rendered, "Wounded")[1:] == [
        "no healing",
        f"{MINUS}1 / 3 days",
        f"{MINUS}1 / 2 days",
        f"{MINUS}1 / day",
        f"{MINUS}1 / day",
        f"{MINUS}2 / day",
    ]
    assert row_starting(rendered, "Critically Wounded")[1:] == ["immobile"] * 4 + [
        f"{MINUS}1 / 7 days",
        f"{MINUS}1 / 3 days",
    ]
    compact = render_table("healing-rates-compact")
    assert row_starting(compact, "Seriously wounded")[1:] == [
        "1 per 3 d",
        "1 per 2 d",
        "1 per 2 d",
        "1 per d",
    ]


def test_the_smaller_tables_carry_their_source_figures() -> None:
    tactics = render_table("tactics-risk")  # Actions § Tactics Skill
    assert {r[0]: r[1] for r in rows_of(tactics)} == {"6": "1", "8": "2", "10": "4", "12": "8"}
    grappling = render_table("grappling-effects")  # Actions § Grappling
    assert row_starting(grappling, "Throw")[2:5] == ["⅙ of HP, rounded up", "+3", "2d3"]
    assert row_starting(grappling, "Damage")[4] == "1d3 (armor does not count)"
    care = render_table("care-levels")  # Outcomes § Care Levels
    assert row_starting(care, "Intensive Care")[1:] == ["dying", "8"]
    targeted = render_table("targeted-damage")  # Outcomes § Targeted Damage
    assert row_starting(targeted, "Limbs")[1:] == ["⅓ HP", "Crippled"]
    assert row_starting(targeted, "Vitals")[1:] == ["⅒ HP", "Bleeding"]
    scale = render_table("scale")  # Outcomes § Damage Scale
    assert row_starting(scale, "K")[1:] == ["Kilo", "1,000"]


def test_small_rule_tables_are_computed_by_the_engine() -> None:
    """CM § ChM (divide by 3, round down, minus 2); OU § Damage Rolls (1 + success effect; 1 per fail)."""
    chm = render_table("characteristic-modifiers")
    assert rows_of(chm)[0] == ["ChM", f"{MINUS}2", f"{MINUS}1", "+0", "+1", "+2", "+3"]
    assert f"| Characteristic | 0{EN_DASH}2 | 3{EN_DASH}5 | 6{EN_DASH}8 |" in chm
    assert rows_of(render_table("success-rolls"))[0] == ["Damage rolls", "1", "2", "3", "4"]
    assert rows_of(render_table("fail-rolls"))[0][1:] == ["1", "2", "3"]


def test_scale_examples_multiply_the_whole_expression() -> None:
    """Outcomes § Damage Scale, § Armor Scale, § Hit Point Scale notation examples."""
    rows = rows_of(render_table("scale-examples"))
    assert rows[1] == [f"H 2d6{MINUS}2 = (2d6{MINUS}2) {TIMES} 100", "HAR 9 = AR 900", "3 HHP = 300 HP"]
    assert rows[2][2] == "67 KHP = 67,000 HP"


def test_the_characteristic_reading_of_thresholds_uses_the_best_characteristic() -> None:
    """Outcomes § Character HP Thresholds table: Str 7, Dex 8, End 9 -> 9 and 18."""
    rendered = render_table("injury-thresholds-characteristics")
    assert row_starting(rendered, "Seriously Wounded")[2] == "9"
    assert row_starting(rendered, "Critically Wounded")[1:] == [
        f"≥ 2 {TIMES} the best physical characteristic",
        "18",
    ]
