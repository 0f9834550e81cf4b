"""The difficulty ladder and the exact odds table: Core Mechanics § Difficulty Number Table."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core.checks import success_chance
from rules_core.odds import DifficultyStep, difficulty_label, difficulty_ladder, odds_table
from rules_core.tables import table


def as_printed_percent(chance: Fraction) -> str:
    """A chance rounded half up to two decimals, written as the source writes it ("41.67%")."""
    hundredths = (chance * 10000 * 2 + 1) // 2
    return f"{hundredths // 100}.{hundredths % 100:02d}%"


@pytest.mark.parametrize(
    "row", table("difficulty_ladder").rows, ids=lambda r: f"difficulty {r['difficulty']}"
)
def test_the_sources_printed_odds_match_the_exact_chance_without_modifiers(row: dict) -> None:
    """Core Mechanics § Difficulty Number Table: N/A where 2d6 cannot reach the difficulty."""
    chance = success_chance(0, row["difficulty"])
    if row["printed_odds"] == "N/A":
        assert chance == 0
    else:
        assert as_printed_percent(chance) == row["printed_odds"]


def test_the_ladder_names_easy_to_formidable_in_steps_of_two() -> None:
    assert [(s.difficulty, s.label) for s in difficulty_ladder()] == [
        (4, "Easy"),
        (6, "Routine"),
        (8, "Challenging"),
        (10, "Difficult"),
        (12, "Very Difficult"),
        (14, "Formidable"),
    ]
    assert isinstance(difficulty_ladder()[0], DifficultyStep)


def test_difficulty_labels_just_below_and_above_a_named_step_are_unnamed() -> None:
    assert difficulty_label(8) == "Challenging"
    assert difficulty_label(7) is None
    assert difficulty_label(9) is None
    assert difficulty_label(2) is None


def test_the_default_odds_table_covers_difficulties_two_to_twenty_without_modifier() -> None:
    rows = odds_table()
    assert [r.difficulty for r in rows] == list(range(2, 21))
    eight = rows[6]
    assert (eight.label, eight.plain, eight.advantage, eight.disadvantage) == (
        "Challenging",
        Fraction(5, 12),
        Fraction(49, 72),
        Fraction(7, 36),
    )


def test_the_odds_table_crosses_difficulties_with_modifiers_and_drops_duplicates() -> None:
    rows = odds_table([8, 10, 8], [-1, 0, 2])
    assert [(r.difficulty, r.modifier) for r in rows] == [
        (8, -1),
        (8, 0),
        (8, 2),
        (10, -1),
        (10, 0),
        (10, 2),
    ]
    assert rows[2].plain == success_chance(2, 8)


def test_every_cell_orders_disadvantage_below_plain_below_advantage() -> None:
    for row in odds_table(range(2, 21), range(-6, 7)):
        assert row.disadvantage <= row.plain <= row.advantage


def test_the_full_odds_table_of_every_difficulty_and_modifier_is_accepted() -> None:
    assert len(odds_table(range(2, 51), range(-50, 51))) == 49 * 101


def test_an_odds_table_listing_more_than_two_hundred_entries_is_rejected() -> None:
    with pytest.raises(ValueError, match="at most 200"):
        odds_table([8] * 201)
    with pytest.raises(ValueError, match="at most 200"):
        odds_table([8], iter(range(10**9)))


def test_an_odds_table_with_an_absurd_difficulty_is_rejected() -> None:
    with pytest.raises(ValueError, match="difficulty must be between 2 and 50"):
        odds_table([1])
