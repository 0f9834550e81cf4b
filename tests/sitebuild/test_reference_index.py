"""The calculators index (``sitebuild.reference.index``) and the page it fills."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from calculators.framework import registry
from sitebuild.reference import CalculatorHome, calculator_index

DOCS = Path(__file__).resolve().parent.parent.parent / "docs"


def homes() -> dict[str, CalculatorHome]:
    return {name: CalculatorHome(f"{name}.md", name.title()) for name in registry.names()}


def test_the_index_lists_every_registered_calculator_with_its_summary_in_the_given_order() -> None:
    given = dict(reversed(homes().items()))
    rows = [line for line in calculator_index(given).splitlines()[2:]]
    assert len(rows) == len(registry.names())
    for row, (name, home) in zip(rows, given.items(), strict=True):
        assert row == f"| [{home.label}]({home.link}) | {registry.get(name).summary} |"


def test_a_calculator_on_no_page_or_an_unregistered_name_is_an_error() -> None:
    missing = homes()
    missing.pop("dice")
    with pytest.raises(ValueError, match="shown on no page: dice"):
        calculator_index(missing)
    with pytest.raises(ValueError, match="not registered calculators: nonesuch"):
        calculator_index({**homes(), "nonesuch": CalculatorHome("x.md", "X")})


@pytest.mark.parametrize("name", registry.names())
def test_each_summary_reads_as_a_one_sentence_blurb(name: str) -> None:
    summary = registry.get(name).summary
    assert summary[:1].isupper() and summary.endswith((".", "?")), summary
    assert "|" not in summary and "\n" not in summary and len(summary) <= 110


def test_the_index_page_keeps_its_intro_and_takes_the_list_from_the_registry() -> None:
    text = (DOCS / "calculators" / "index.md").read_text(encoding="utf-8")
    assert text.count("<!-- calculators-index -->") == 1
    assert "share a calculation" in text
    assert not re.search(r"^\|", text, re.M), "no hand-written table of calculators"


def test_every_registered_calculator_is_shown_on_a_page() -> None:
    marker = re.compile(r"<!-- calculator: (\w+) -->")
    shown = {m[1] for page in DOCS.rglob("*.md") for m in marker.finditer(page.read_text())}
    assert set(registry.names()) <= shown
