"""The build-time hook that renders rules tables and worked-example figures from rules_core.

Figures are checked against the source chapters (cited) and, for probabilities, against a
brute-force count written here.
"""

from __future__ import annotations

import importlib.util
import re
from fractions import Fraction
from itertools import product
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

pytest.importorskip("mkdocs", reason="mkdocs is needed to import the build hook")
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
MINUS = "\u2212"
TIMES = "\u00d7"
EN_DASH = "\u2013"
"""The true minus sign the pages print."""
HOOK_PATH = ROOT / "hooks" / "rules_tables.py"
DOCS = ROOT / "docs"


def _load_hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rules_tables_hook", HOOK_PATH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hook = _load_hook()


def rows_of(markdown: str) -> list[list[str]]:
    """The body rows of a rendered pipe table, as stripped cells."""
    lines = [line for line in markdown.splitlines() if line.startswith("|")]
    return [[c.strip() for c in line.strip("|").split(" | ")] for line in lines[2:]]


def row_starting(markdown: str, first: str) -> list[str]:
    found = [r for r in rows_of(markdown) if r[0] == first]
    assert len(found) == 1, f"expected one row starting {first!r}, got {found}"
    return found[0]


def brute_force_chance(difficulty: int, net: int) -> Fraction:
    """P(kept dice >= difficulty) by enumerating every face: 2d6, or 3d6 keeping two."""
    dice = 2 if net == 0 else 3
    hits = total = 0
    for faces in product(range(1, 7), repeat=dice):
        kept = sorted(faces, reverse=net > 0)[:2]
        total += 1
        hits += sum(kept) >= difficulty
    return Fraction(hits, total)


def pct(p: Fraction) -> str:
    return f"{float(p) * 100:.2f}%"


# ---------------------------------------------------------------- every table


@pytest.mark.parametrize("name", sorted(hook.TABLES))
def test_each_table_renders_as_a_well_formed_pipe_table(name: str) -> None:
    rendered = hook.render_table(name)
    lines = rendered.splitlines()
    assert len(lines) >= 3, "a header, an alignment row and at least one row"
    widths = {line.count(" | ") for line in lines}
    assert len(widths) == 1, f"every line of {name} has the same number of cells"
    assert re.fullmatch(r"\| (:?---:?)( \| :?---:?)* \|", lines[1])


def test_the_odds_table_matches_the_source_and_brute_force_with_advantage_columns() -> None:
    """Core Mechanics § Difficulty Number Table: 8 -> 41.67%; advantage keeps the best two of 3d6."""
    rendered = hook.render_table("difficulty-odds")
    for difficulty in range(3, 13):
        row = row_starting(rendered, str(difficulty))
        assert row[2] == pct(brute_force_chance(difficulty, 0))
        assert row[3] == pct(brute_force_chance(difficulty, 1))
        assert row[4] == pct(brute_force_chance(difficulty, -1))
    assert row_starting(rendered, "8")[1:] == ["Challenging", "41.67%", "68.06%", "19.44%"]
    assert row_starting(rendered, "14")[1:] == ["Formidable", "—", "—", "—"]


def test_the_compact_odds_table_agrees_with_the_full_one() -> None:
    full = {r[0]: r[2:] for r in rows_of(hook.render_table("difficulty-odds"))}
    for row in rows_of(hook.render_table("difficulty-odds-compact")):
        assert row[1:] == full[row[0]]


def test_hit_locations_follow_the_2d6_odds_and_the_source_table() -> None:
    """Actions § Targeted Attack: 7 is core (+0), 2 vitals (+3), 12 head (+3); hands and feet are sided."""
    rendered = hook.render_table("hit-locations")
    for total in range(2, 13):
        row = row_starting(rendered, str(total))
        ways = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b == total)
        assert row[1] == pct(Fraction(ways, 36))
    assert row_starting(rendered, "7")[2:] == ["0", "Core or Center of Mass"]
    assert row_starting(rendered, "2")[2] == "+3"
    assert row_starting(rendered, "11")[3] == "Hands\\*"
    assert row_starting(hook.render_table("hit-locations-compact"), "12") == ["12", "Head", "+3"]


def test_the_movement_table_carries_the_source_figures() -> None:
    """Actions § Movement Table: dash 10 light / 7 medium-heavy; no crawling with a single move."""
    rendered = hook.render_table("movement")
    rows = rows_of(rendered)
    dash = next(r for r in rows if r[:2] == ["1.5 m", "Dash"])
    assert dash[2:] == ["10", "7", "5", "3", "2"]
    move = next(r for r in rows if r[:2] == ["1.5 m", "Move"])
    assert move[-1] == "NA"
    big_run = next(r for r in rows if r[:2] == ["4.5 m", "Run"])
    assert big_run[2:] == ["5", "3", "3", "2", "1"]
    assert row_starting(hook.render_table("movement-compact"), "Run")[1:] == ["15", "10", "7", "5", "3"]


def test_the_stance_table_lists_the_source_steps_and_derives_the_rest() -> None:
    """Actions § List of Minor Actions (Changing Stance); unlisted changes go through listed steps."""
    rendered = hook.render_table("stance-changes")
    assert row_starting(rendered, "prone → crouching")[1:] == ["2", "listed"]
    assert row_starting(rendered, "prone → standing")[1:] == ["3", "through the listed steps"]
    assert row_starting(rendered, "crouching → prone")[1] == "2"
    assert len(rows_of(rendered)) == 6


def test_the_action_types_table_prices_actions_in_minor_actions() -> None:
    """Actions § Action Types: free 0, minor 1, significant 2, full 3."""
    rendered = hook.render_table("action-types")
    costs = {r[0]: r[1] for r in rows_of(rendered)}
    assert costs == {"Free action": "0", "Minor action": "1", "Significant action": "2", "Full action": "3"}


def test_the_injury_thresholds_table_uses_thirds_of_hp_with_an_example() -> None:
    """Outcomes § Seriously/Critically Wounded: 1/3 and 2/3 of HP rounded down; HP 24 -> 8, 16, dying 25."""
    rendered = hook.render_table("injury-thresholds")
    assert row_starting(rendered, "Seriously Wounded")[1:] == ["≥ ⅓ HP, rounded down", "8"]
    assert row_starting(rendered, "Critically Wounded")[1:] == ["≥ ⅔ HP, rounded down", "16"]
    assert row_starting(rendered, "Dying")[1:] == ["> HP", "25"]
    assert row_starting(rendered, "Wounded")[1] == "any damage"


def test_the_healing_table_reproduces_the_source_rates() -> None:
    """Outcomes § Natural Healing and Medical Care Table."""
    rendered = hook.render_table("healing-rates")
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
    compact = hook.render_table("healing-rates-compact")
    assert row_starting(compact, "Seriously wounded")[1:] == [
        "1 per 3 d",
        "1 per 2 d",
        "1 per 2 d",
        "1 per d",
    ]


def test_the_smaller_tables_carry_their_source_figures() -> None:
    tactics = hook.render_table("tactics-risk")  # Actions § Tactics Skill
    assert {r[0]: r[1] for r in rows_of(tactics)} == {"6": "1", "8": "2", "10": "4", "12": "8"}
    grappling = hook.render_table("grappling-effects")  # Actions § Grappling
    assert row_starting(grappling, "Throw")[2:5] == ["⅙ of HP, rounded up", "+3", "2d3"]
    assert row_starting(grappling, "Damage")[4] == "1d3 (armor does not count)"
    care = hook.render_table("care-levels")  # Outcomes § Care Levels
    assert row_starting(care, "Intensive Care")[1:] == ["dying", "8"]
    targeted = hook.render_table("targeted-damage")  # Outcomes § Targeted Damage
    assert row_starting(targeted, "Limbs")[1:] == ["⅓ HP", "Crippled"]
    assert row_starting(targeted, "Vitals")[1:] == ["⅒ HP", "Bleeding"]
    scale = hook.render_table("scale")  # Outcomes § Damage Scale
    assert row_starting(scale, "K")[1:] == ["Kilo", "1,000"]


def test_small_rule_tables_are_computed_by_the_engine() -> None:
    """CM § ChM (divide by 3, round down, minus 2); OU § Damage Rolls (1 + success effect; 1 per fail)."""
    chm = hook.render_table("characteristic-modifiers")
    assert rows_of(chm)[0] == ["ChM", f"{MINUS}2", f"{MINUS}1", "0", "+1", "+2", "+3"]
    assert f"| Characteristic | 0{EN_DASH}2 | 3{EN_DASH}5 | 6{EN_DASH}8 |" in chm
    assert rows_of(hook.render_table("success-rolls"))[0] == ["Damage rolls", "1", "2", "3", "4"]
    assert rows_of(hook.render_table("fail-rolls"))[0][1:] == ["1", "2", "3"]


def test_scale_examples_multiply_the_whole_expression() -> None:
    """Outcomes § Damage Scale, § Armor Scale, § Hit Point Scale notation examples."""
    rows = rows_of(hook.render_table("scale-examples"))
    assert rows[1] == [f"H 2d6{MINUS}2 = (2d6{MINUS}2) {TIMES} 100", "HAR 9 = AR 900", "3 HHP = 300 HP"]
    assert rows[2][2] == "67 KHP = 67,000 HP"


def test_the_characteristic_reading_of_thresholds_uses_the_best_characteristic() -> None:
    """Outcomes § Character HP Thresholds table: Str 7, Dex 8, End 9 -> 9 and 18."""
    rendered = hook.render_table("injury-thresholds-characteristics")
    assert row_starting(rendered, "Seriously Wounded")[2] == "9"
    assert row_starting(rendered, "Critically Wounded")[1:] == [
        f"≥ 2 {TIMES} the best physical characteristic",
        "18",
    ]


# ---------------------------------------------------------------- worked-example values


@pytest.mark.parametrize(
    ("name", "expected", "source"),
    [
        ("mitigation-example-start", "7", "Core Mechanics § Mitigating Factors: 13 - 6"),
        ("mitigation-example-after-conditions", "4", "conditions 3"),
        ("mitigation-example-after-cover", "2", "cover 2"),
        ("mitigation-example-remaining", "0", "skill 2: an ordinary failure"),
        ("shield-example-cover", "2", "Outcomes § Example: Shield Taking Damage"),
        ("shield-example-character", "1", "Outcomes § Example: Shield Taking Damage"),
        ("costly-success-example", "7", "Core Mechanics § Costly Success: -2 x 2 + 3 read as degree 7"),
        ("fail-effect-example", "3", "Core Mechanics § Fail Effect: difficulty 8, roll 5"),
        ("chm-of-10", "1", "Core Mechanics § Characteristic Modifier: 10 // 3 - 2"),
        ("rifle-example-rolls", "3", "Outcomes § Example: Automatic Rifle Damage"),
        ("broadsword-example-per-roll", "3d3-5", "Outcomes § Example: Success Effect Damage Rolls"),
        ("rifle-armor-per-roll", "3d6-5", "Outcomes § Example: Success Effect Damage Rolls"),
        ("roa-example-kept", "2", "Outcomes § Weapons with Limited Rate of Attack"),
        ("flak-example-per-roll", "3d3-6", "Outcomes § Example: Armor in Combat"),
        ("injury-example-hp", "24", "Outcomes § Character HP Calculation: 7 + 8 + 9"),
        ("injury-example-serious", "8", "Outcomes § Seriously Wounded: 24 / 3"),
        ("injury-example-critical", "16", "Outcomes § Critically Wounded: 2 x 24 / 3"),
        ("wound-penalty-example", f"{MINUS}3", "Outcomes § Character HP Thresholds: 10 damage"),
        ("defend-skill-example", "4", "Actions § Defend Action: skill 2 doubled"),
        ("surgery-example", "4", "Outcomes § Surgery: twice the success effect"),
        ("first-aid-minimum", "1", "Outcomes § First Aid: at minimum 1"),
        ("first-aid-expected-rounds", "27.7", "Outcomes § First Aid: +0 against 8, rolling every round"),
        ("surgery-fail-minutes", "90", "Outcomes § Surgery: fail 4 - Medic 1 = 3, times 30 minutes"),
        ("surgery-fail-harm", "6", "Outcomes § Surgery: 3 > End 5 / 2, twice the remainder"),
        ("care-capacity-example", "32", "Outcomes § Medical Care: 8, doubled per level"),
        ("movement-example-dash", "3", "Actions § Movement Table: med/hvy crouched dash"),
        ("ambush-example", "13", "Actions § Initiative: ambushers 12 + Dex DM (+1)"),
        ("ambush-tactics-example", "15", "Actions § Initiative: plus a Tactics Effect of 2"),
        ("reckless-example-success-effect", "2", "Actions § Reckless Action: success at full Effect"),
        ("reckless-example-harm", "1", "Actions § Reckless Action: Effect 2 - 3 = -1"),
        ("reckless-example-big-harm", "0", "Actions § Reckless Action: Effect 4 - 3 = +1, no harm"),
        ("reckless-example-failure", "5", "Actions § Reckless Action: a failure of 2 is 3 worse"),
        ("time-example-plus-one", "2", "Core Mechanics § Time and Checks: success effect 1, 2 seconds"),
        ("time-example-zero", "3", "Core Mechanics § Time and Checks: success effect 0, 3 seconds"),
        ("time-example-minus-one", "4", "Core Mechanics § Time and Checks: fail effect -1, 4 seconds"),
        (
            "time-example-minus-three",
            "6",
            "Core Mechanics § Time and Checks: fail effect of three, 6 seconds",
        ),
        ("grapple-throw-example", "4", "Actions § Grappling: throw costs 1/6 of HP rounded up"),
        ("tactics-example-rolls", "4", "Actions § Tactics Skill: Effect 5 capped at 4 for difficulty 10"),
        ("tactics-example-attempts", "2", "Actions § Tactics Skill: skill 1 can try twice"),
        ("thrown-example-short", "3", "Actions § Thrown Weapons: Str 7, thrown 0.5"),
        ("thrown-example-short-lobbed", "10", "Actions § Thrown Weapons: lobbed"),
        ("thrown-example-long", "10", "Actions § Thrown Weapons: Str 7, thrown 1.5"),
        ("thrown-example-long-lobbed", "31", "Actions § Thrown Weapons: lobbed"),
    ],
)
def test_worked_example_values_are_computed_by_the_engine(name: str, expected: str, source: str) -> None:
    assert hook.render_value(name) == expected, source


def test_odds_values_equal_brute_force() -> None:
    assert hook.render_value("odds-8-plain") == pct(brute_force_chance(8, 0)) == "41.67%"
    assert hook.render_value("odds-8-advantage") == pct(brute_force_chance(8, 1))
    assert hook.render_value("odds-8-disadvantage") == pct(brute_force_chance(8, -1))


def test_the_dying_example_equals_brute_force() -> None:
    """End 9 (DM +1), 25 damage (penalty -8): 2d6 + 1 - 8 >= 4 needs 11+ on the dice."""
    ways = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b + 1 - 8 >= 4)
    assert hook.render_value("dying-example-chance") == pct(Fraction(ways, 36)) == "8.33%"


# ---------------------------------------------------------------- the hook itself


def test_an_unknown_table_fails_the_build_naming_the_page() -> None:
    with pytest.raises(PluginError, match=r"rules/x\.md: unknown table placeholder 'no-such-table'"):
        hook.render_markdown("Intro\n\n<!-- table: no-such-table -->\n", "rules/x.md")


def test_an_unknown_value_fails_the_build_naming_the_page() -> None:
    with pytest.raises(PluginError, match=r"unknown value placeholder 'no-such-value'"):
        hook.render_markdown("It is <!-- value: no-such-value --> points.", "rules/x.md")


def test_the_mkdocs_event_names_the_page_source_in_errors() -> None:
    page = SimpleNamespace(file=SimpleNamespace(src_uri="rules/damage.md"))
    with pytest.raises(PluginError, match=r"^rules/damage\.md:"):
        hook.on_page_markdown("<!-- table: nope -->", page=page, config={}, files=[])


def test_placeholders_are_replaced_with_indentation_kept() -> None:
    text = '=== "Tab"\n\n    <!-- table: tactics-risk -->\n\nA throw costs <!-- value: chm-of-10 --> here.'
    out = hook.render_markdown(text)
    table_lines = [line for line in out.splitlines() if "|" in line]
    assert table_lines and all(line.startswith("    | ") for line in table_lines)
    assert "A throw costs 1 here." in out
    assert "<!--" not in out


def test_placeholders_inside_fenced_code_are_left_alone() -> None:
    text = "```markdown\n<!-- table: no-such-table -->\n<!-- value: nope -->\n```\n"
    assert hook.render_markdown(text) == text


def test_a_table_placeholder_sharing_its_line_with_text_fails_the_build() -> None:
    with pytest.raises(PluginError, match="must stand alone on its line"):
        hook.render_markdown("See <!-- table: tactics-risk --> here", "rules/x.md")


def test_every_placeholder_used_in_the_docs_is_known_and_renders() -> None:
    pages = sorted(DOCS.rglob("*.md"))
    used = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        used += len(hook.VALUE_MARK.findall(text)) + sum(
            1 for line in text.splitlines() if hook.TABLE_LINE.match(line)
        )
        out = hook.render_markdown(text, str(page.relative_to(DOCS)))
        assert not hook.VALUE_MARK.search(out), page
    assert used >= 40, "the rules pages take their tables and figures from the engine"
