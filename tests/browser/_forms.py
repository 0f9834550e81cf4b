"""Helpers shared by the calculator browser tests: fill a form in one event and wait for its outputs."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from .conftest import outputs, wait_instant_navigation

__all__ = [
    "EDITS_JS",
    "EMPTY",
    "check_bad_inputs",
    "check_random_inputs",
    "follow_link",
    "set_values",
    "url_query",
    "wait_outputs",
]

EMPTY = "\u2014"
"""What an output shows when there is no result."""

EDITS_JS = """async ([f, values]) => {
  const input = f.querySelector('[name="modifier"]');
  for (const value of values) {
    const answered = new Promise((resolve) => f.addEventListener('calculator:result', resolve, {once: true}));
    input.value = value;
    input.dispatchEvent(new Event('input', {bubbles: true}));
    await answered;
  }
}"""
"""Edits of form ``f``'s modifier, one after another, each once the one before has its answer
(``page.evaluate(EDITS_JS, [form.element_handle(), values])``)."""

GO = """
(path) => {
  const link = document.createElement("a");
  link.href = new URL(path, document.querySelector("link[rel=manifest]").href).href;
  link.textContent = "next";
  link.id = "__test_next";
  document.querySelector("article").append(link);
  link.click();
}
"""


def follow_link(page: Any, path: str, ready: str) -> None:
    """Go to the site path ``path`` in the same tab by clicking a link (the site's instant navigation) and
    wait until it is there and shows ``ready`` (a CSS selector)."""
    wait_instant_navigation(page)
    page.evaluate(GO, path)
    page.wait_for_function(
        "([p, ready]) => location.pathname.endsWith(p) && !document.getElementById('__test_next')"
        " && document.querySelector(ready)",
        arg=[path, ready],
    )


def set_values(form: Any, values: dict[str, str]) -> None:
    """Type every value into the form at once and let it recompute (one input event)."""
    form.evaluate(
        """(f, values) => {
            for (const [key, value] of Object.entries(values)) {
                const el = f.elements.namedItem(key);
                if (el.type === 'checkbox') el.checked = value === '1'; else el.value = value;
            }
            f.dispatchEvent(new Event('input', {bubbles: true}));
        }""",
        values,
    )


def wait_outputs(form: Any, expected: dict[str, str], *, fresh: bool = False, timeout: int = 20_000) -> None:
    """Wait until every output reads as ``expected``; ``fresh``: and the form is no longer marked stale."""
    form.page.wait_for_function(
        "([f, want, fresh]) => !(fresh && f.hasAttribute('data-stale')) && Object.entries(want).every("
        '([k, v]) => f.querySelector(`[data-output="${k}"]`).textContent === v)',
        arg=[form.element_handle(), expected, fresh],
        timeout=timeout,
    )


def url_query(page: Any, expected: dict[str, str], timeout: int = 5_000) -> dict[str, list[str]]:
    """The page's address query, once it holds every ``expected`` value: the address follows the values
    when the page is quiet (calculators.js: URL_QUIET_MS), not at every edit."""
    page.wait_for_function(
        "expected => { const q = new URLSearchParams(location.search);"
        " return Object.entries(expected).every(([k, v]) => q.get(k) === v); }",
        arg=expected,
        timeout=timeout,
    )
    return parse_qs(urlsplit(page.evaluate("location.href")).query, keep_blank_values=True)


def check_random_inputs(
    form: Any, name: str, random_values: Callable[[random.Random], dict[str, str]], python_outputs: Any
) -> dict[str, str]:
    """Twenty random valid input sets, each computed in the page, equal the CPython result; the URL then
    records the last set. Returns that last set."""
    rng = random.Random(name)
    values: dict[str, str] = {}
    for _ in range(20):
        values = random_values(rng)
        set_values(form, values)
        wait_outputs(form, python_outputs(name, **values))
        assert outputs(form) == python_outputs(name, **values)
    # The URL carries every input; those the random set left alone keep their values, the rest follow it.
    query = url_query(form.page, values)
    assert {k: query[k][0] for k in values if k in query} == values
    return values


def check_bad_inputs(
    form: Any, name: str, bad: list[tuple[str, str]], values: dict[str, str], python_outputs: Any
) -> None:
    """Each bad value is flagged beside its field with CPython's message, every output is blanked, and
    putting the good value back clears the flag and restores the result."""
    from calculators.framework import runtime

    page = form.page
    for field, text in bad:
        set_values(form, {**values, field: text})
        control = page.locator(f'[name="{field}"]')
        page.wait_for_function(
            "el => el.getAttribute('aria-invalid') === 'true'", arg=control.element_handle(), timeout=20_000
        )
        message = runtime.compute(name, {**values, field: text})["errors"][field]
        assert page.locator(f'[data-error-for="{field}"]').text_content() == message
        assert set(outputs(form).values()) == {EMPTY}
        set_values(form, values)
        page.wait_for_function("el => !el.hasAttribute('aria-invalid')", arg=control.element_handle())
    wait_outputs(form, python_outputs(name, **values))
