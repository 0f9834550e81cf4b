"""The light/dark switch: our own, so the page's colours are set once, before the content.

The theme's palette component rewrote the body's colour attributes after load, which restyled the
whole page (the largest single task on a long page on a phone). Ours sets them while the header is
parsed and keeps the theme's options, order and stored "__palette" value.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import wait_instant_navigation
from .test_loading import instant_go

pytestmark = pytest.mark.browser

# Every write to the body's colour attributes, with the document's state at that moment.
WATCH_BODY = """
window.__colourWrites = [];
new MutationObserver((records) => {
  for (const r of records) {
    if (r.target === document.body) {
      window.__colourWrites.push([r.attributeName, document.readyState]);
    }
  }
}).observe(document, {
  attributes: true, subtree: true,
  attributeFilter: ["data-md-color-scheme", "data-md-color-primary", "data-md-color-accent"],
});
"""
SWITCH = "[data-mneme-palette] button:visible"


def colours(page: Any) -> tuple[str, str, str]:
    return tuple(
        page.evaluate(
            "['scheme', 'primary', 'accent'].map((k) => document.body.getAttribute('data-md-color-' + k))"
        )
    )


@pytest.mark.parametrize(("system", "scheme"), [("light", "default"), ("dark", "slate")])
def test_the_colours_follow_the_system_and_are_never_rewritten_after_the_content(
    context: Any, page: Any, system: str, scheme: str
) -> None:
    context.add_init_script(WATCH_BODY)
    page.emulate_media(color_scheme=system)
    page.goto("rulings/")
    # The theme's bundle has mounted its components (it does so as it starts) and has since fetched and
    # parsed its sitemap: any rewrite of the colours it makes has been made.
    wait_instant_navigation(page)
    assert colours(page) == (scheme, "deep-purple", "amber")
    writes = page.evaluate("window.__colourWrites")
    # Light: the built page is already right. Dark: one write, while the document is still parsed.
    assert writes == ([] if system == "light" else [["data-md-color-scheme", "loading"]])
    assert page.locator("[data-md-component=palette]").count() == 0
    assert page.locator(SWITCH).get_attribute("aria-label") == "Switch to light mode"


def test_the_switch_cycles_system_light_dark_and_the_choice_lasts(page: Any) -> None:
    page.emulate_media(color_scheme="dark")
    page.goto("rules/checks/")
    seen = []
    for _ in range(3):
        page.locator(SWITCH).click()
        seen.append((colours(page)[0], page.locator(SWITCH).get_attribute("aria-label")))
        # Focus stays on the switch, so a keyboard user can press again.
        assert page.evaluate("document.activeElement.closest('[data-mneme-palette]') !== null")
    assert seen == [
        ("default", "Switch to dark mode"),
        ("slate", "Switch to system preference"),
        ("slate", "Switch to light mode"),  # back to the system's, which is dark here
    ]
    page.locator(SWITCH).click()  # light, chosen
    page.reload()
    assert colours(page)[0] == "default"
    instant_go(page, "../damage/")
    assert colours(page)[0] == "default"
    page.locator(SWITCH).click()  # the switch still works after instant navigation
    assert colours(page)[0] == "slate"
    # The theme's own stored form, so a choice made before this switch existed still holds.
    stored = page.evaluate(
        "JSON.parse(localStorage.getItem(Object.keys(localStorage).find((k) => k.endsWith('.__palette'))))"
    )
    assert stored["index"] == 2 and stored["color"]["scheme"] == "slate"


def test_unreadable_storage_means_follow_the_system(context: Any, page: Any) -> None:
    page.emulate_media(color_scheme="dark")
    page.goto("rules/checks/")
    page.locator(SWITCH).click()  # light, stored
    page.evaluate(
        "localStorage.setItem(Object.keys(localStorage).find((k) => k.endsWith('.__palette')), '{not json')"
    )
    page.reload()
    assert colours(page)[0] == "slate"
    page.locator(SWITCH).click()
    assert colours(page)[0] == "default"
