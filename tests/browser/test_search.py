"""Search that answers: common questions typed into the site's search box find a rules page first.

The rules pages carry a higher search boost than the Rulings page and the other games' pages (their
``search: boost:`` front matter). The test drives the built site's real search box: the theme's search
runs in a web worker that builds its index after the page loads, so the query is typed again until
results arrive.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = [pytest.mark.browser, pytest.mark.returning_visit]

QUESTIONS = ["reckless action", "cover", "first aid", "wound penalty", "armor"]


def search(page: Any, query: str) -> list[str]:
    """Type ``query`` in the search box as a player would; the paths of the page results, best first."""
    box = page.locator("input.md-search__input")
    results = page.locator(".md-search-result__item > a.md-search-result__link")
    for _ in range(
        60
    ):  # the index is built in a worker once the page has loaded: type again until it answers
        box.click()
        box.fill("")
        page.keyboard.type(query)
        try:
            results.first.wait_for(state="attached", timeout=1000)
            break
        except PlaywrightTimeout:  # the index is not ready yet
            continue
    else:
        pytest.fail(f"the search box never answered {query!r}")
    return [urlsplit(href).path for href in results.evaluate_all("links => links.map((a) => a.href)")]


@pytest.mark.parametrize("query", QUESTIONS)
def test_a_common_question_finds_a_rules_page_first(page: Any, site_url: str, query: str) -> None:
    page.goto("")
    found = search(page, query)
    root = urlsplit(site_url).path
    assert found, query
    assert found[0].startswith(f"{root}rules/"), f"{query!r}: first result {found[0]}, then {found[1:4]}"
    # The Rulings page and the other games' pages may follow, never lead.
    assert not found[0].startswith((f"{root}rulings/", f"{root}peers/"))
