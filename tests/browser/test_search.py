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

pytestmark = [pytest.mark.browser, pytest.mark.returning_visit, pytest.mark.theme_search]

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


def home(page: Any, site_url: str) -> None:
    """The home page in the module's tab: loaded once, then searched again in place, as a player types one
    question after another (a load would build the search index again)."""
    if page.url != site_url:
        page.goto("")


@pytest.mark.parametrize("query", QUESTIONS)
def test_a_common_question_finds_a_rules_page_first(page: Any, site_url: str, query: str) -> None:
    home(page, site_url)
    found = search(page, query)
    root = urlsplit(site_url).path
    assert found, query
    assert found[0].startswith(f"{root}rules/"), f"{query!r}: first result {found[0]}, then {found[1:4]}"
    # The Rulings page and the other games' pages may follow, never lead.
    assert not found[0].startswith((f"{root}rulings/", f"{root}peers/"))


def test_a_result_from_another_game_says_so(page: Any, site_url: str) -> None:
    home(page, site_url)
    found = search(page, "dodge")  # a word of the other systems' chapters only
    assert found and all("/peers/" in path for path in found)
    label = page.locator(".md-search-result__item > a.md-search-result__link h1").first.evaluate(
        "h => getComputedStyle(h, '::before').content"
    )
    assert "Other system" in label


@pytest.mark.first_visit  # a fresh context: the index not yet in its cache
def test_a_query_typed_before_the_index_is_ready_is_answered_when_it_is(page: Any) -> None:
    held: list[Any] = []
    page.route("**/search/search_index.json", lambda route: held.append(route))
    page.goto("")
    page.locator("input.md-search__input").click()
    page.keyboard.type("first aid")  # typed once, while the index is held
    page.wait_for_function("() => document.querySelector('.md-search-result__meta') !== null")
    assert held, "the search index was never asked for"
    assert page.locator(".md-search-result__item").count() == 0
    for route in held:
        route.continue_()
    page.locator(".md-search-result__item").first.wait_for(state="attached", timeout=10_000)
    first = page.locator(".md-search-result__item > a.md-search-result__link").first.get_attribute("href")
    assert first is not None and "/rules/" in first
