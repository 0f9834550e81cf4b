"""What the site's search reads (Material's search plugin, ``search/search_index.json``): the rules and the
calculators' own words, never the engine's status lines (render.py marks them ``data-search-exclude``)."""

from __future__ import annotations

import json
from pathlib import Path

STATUS_WORDS = ("Out of date", "the live calculator starts with JavaScript")
"""The status lines a calculator page shows while its engine starts or catches up (render.py)."""


def test_the_search_index_holds_no_status_line_of_the_engine(site: Path) -> None:
    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    calculator_pages = [doc for doc in docs if doc["location"].startswith("calculators/effect/")]
    assert calculator_pages, "the Effect calculator's page is in the index"
    assert any("Chance of success" in doc["text"] for doc in calculator_pages)  # its own words still are
    leaks = [(doc["location"], word) for doc in docs for word in STATUS_WORDS if word in doc["text"]]
    assert not leaks, leaks
