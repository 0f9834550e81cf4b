"""docs/peers/mistrunner.md shows the same figures as the Mistrunner data tables (no drift)."""

from __future__ import annotations

import re
from pathlib import Path

import _page
import pytest

from rules_core.tables import table

PAGE = Path(__file__).resolve().parents[2] / "docs" / "peers" / "mistrunner.md"
MINUS = "\u2212"


def page_table(anchor: str) -> list[list[str]]:
    """Body rows of the first markdown table after the heading with ``{#anchor}``."""
    return _page.page_table(PAGE, anchor)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"{MINUS}{-n}"


def span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}\u2013{high}"


def test_the_range_table_matches_the_data():
    rows = page_table("target-numbers")
    expected = [[r["label"], str(r["target_number"])] for r in table("mistrunner_range_target_numbers").rows]
    assert rows == expected


def test_every_flat_modifier_of_the_data_is_on_the_page_with_its_value():
    rows = {situation: value for situation, value in page_table("target-modifiers")}
    flat = [r for r in table("mistrunner_target_modifiers").rows if r["per"] is None]
    assert len(flat) == 9
    for row in flat:
        assert rows[row["situation"]] == signed(row["modifier"])
    assert rows["Attacker in melee (projectile attacks)"] == "+1 per opponent"
    assert len(rows) == len(table("mistrunner_target_modifiers").rows)


def test_the_extra_action_table_matches_the_data():
    rows = page_table("extra-actions")
    for page_row, data in zip(rows, table("mistrunner_extra_actions").rows, strict=True):
        penalty = "none" if data["dice_penalty"] == 0 else f"{MINUS}{data['dice_penalty']} dice"
        assert page_row[2] == penalty
        assert page_row[1] == ("R" if data["divisor"] == 1 else f"R ÷ {data['divisor']}, rounded down")


@pytest.mark.parametrize(
    ("anchor", "name", "label"),
    [
        ("hit-location", "mistrunner_hit_locations", "name"),
        ("grenades", "mistrunner_grenade_scatter", "direction"),
    ],
)
def test_the_d10_tables_match_the_data(anchor, name, label):
    expected = [[span(r["low"], r["high"]), r[label]] for r in table(name).rows]
    assert page_table(anchor) == expected


def test_the_body_level_table_matches_the_data():
    rows = page_table("body-levels")
    for page_row, data in zip(rows, table("mistrunner_body_levels").rows, strict=False):
        assert page_row[0] == data["name"]
        penalty = (
            "none" if data["dice_penalty"] == 0 else f"{MINUS}{data['dice_penalty']} dice on all actions"
        )
        assert page_row[2] == penalty
    assert rows[-1][0] == "Unconscious"


def test_the_page_names_the_undefined_skill_roll():
    assert re.search(r"never says how a skill roll\s+is made", PAGE.read_text(encoding="utf-8"))
