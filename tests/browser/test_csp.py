"""The site works under its Content-Security-Policy meta tag (``hooks/offline.py``), in headless Chromium.

The ``page`` fixture already fails a test on any console error, and Chromium reports every blocked
script, style or request as one; these tests also count ``securitypolicyviolation`` events.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import PageLog, outputs, wait_instant_navigation, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.theme_search]  # the theme's search under the policy too

WATCH_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__csp.push(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} (${e.sample || ""})`));
"""


@pytest.fixture
def csp_page(page: Any) -> Iterator[Any]:
    page.add_init_script(WATCH_VIOLATIONS)
    yield page
    if not page.is_closed():
        assert page.evaluate("window.__csp || []") == []


def policy(page: Any) -> str:
    found: str = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    return found


def test_the_policy_is_in_force_and_blocks_an_injected_inline_script(
    csp_page: Any, page_log: PageLog
) -> None:
    page_log.allow(r"(Executing|Refused to execute) inline script")
    csp_page.goto("")
    assert policy(csp_page).startswith("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'")
    ran = csp_page.evaluate(
        """() => new Promise((resolve) => {
          window.__injected = false;
          const done = () => resolve(window.__injected);
          document.addEventListener("securitypolicyviolation", done, {once: true});
          const s = document.createElement("script");
          s.textContent = "window.__injected = true";
          document.body.append(s);
        })"""
    )
    assert ran is False
    assert csp_page.evaluate("window.__csp.splice(0).length") == 1  # that one, expected


def test_rules_pages_with_aligned_tables_render_their_inline_styles(csp_page: Any) -> None:
    csp_page.goto("quick-reference/")
    cells = csp_page.locator('td[style*="text-align"]')
    assert cells.count() > 0
    cell = cells.first
    wanted = cell.get_attribute("style").split(":")[1].strip(" ;")
    assert cell.evaluate("c => getComputedStyle(c).textAlign") == wanted


def test_a_calculator_computes_live_through_pyodide_under_the_policy(
    csp_page: Any, python_outputs: Any
) -> None:
    csp_page.goto("calculators/effect/?modifier=1&difficulty=9&roll=8")
    form = csp_page.locator('form[data-calculator="effect"]')
    wait_ready(form)
    assert outputs(form) == python_outputs("effect", modifier=1, difficulty=9, roll=8)


def test_the_theme_works_under_the_policy_palette_search_and_instant_navigation(csp_page: Any) -> None:
    csp_page.goto("rules/checks/")
    schemes = set()
    for _ in range(3):  # system -> light -> dark
        csp_page.locator("[data-mneme-palette] button:visible").click()
        schemes.add(csp_page.evaluate("document.body.dataset.mdColorScheme"))
    assert schemes == {"default", "slate"}
    # Search runs in the theme's own worker (worker-src 'self').
    csp_page.keyboard.press("/")
    csp_page.keyboard.type("armor")
    results = csp_page.locator(".md-search-result__item")
    results.first.wait_for(timeout=20_000)
    assert results.count() > 0
    csp_page.keyboard.press("Escape")
    # Instant navigation swaps the page without a reload; its inline scripts are re-run under the policy.
    wait_instant_navigation(csp_page)
    csp_page.evaluate("window.__marker = 1")
    csp_page.locator('nav.md-nav--primary a[href$="glossary/"]').first.click()
    csp_page.wait_for_url("**/glossary/")
    assert csp_page.evaluate("window.__marker") == 1
