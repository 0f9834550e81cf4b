"""The Effect calculator in headless Chromium: prerendered, live through Pyodide, shareable, robust.

Every test fails on any page error, console error or request to a host other than 127.0.0.1
(see ``conftest.py``).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import pytest

from ._forms import url_query, wait_outputs
from .conftest import outputs, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.returning_visit]


def test_the_prerendered_result_shows_without_javascript(browser: Any, site_url: str) -> None:
    ctx = browser.new_context(base_url=site_url, java_script_enabled=False)
    try:
        page = ctx.new_page()
        page.goto("calculators/effect/")
        form = page.locator('form[data-calculator="effect"]')
        assert form.get_attribute("data-state") == "loading"
        shown = outputs(form)
        assert (shown["chance"], shown["effect"], shown["outcome"]) == ("41.67%", "\u2014", "\u2014")
        assert page.locator('input[name="modifier"]').get_attribute("inputmode") == "numeric"
    finally:
        ctx.close()


def test_an_edit_recomputes_live_and_equals_the_cpython_result(
    open_calculator: Any, python_outputs: Any
) -> None:
    form = open_calculator("effect")
    page = form.page
    values = {"modifier": "3", "difficulty": "11", "advantage": "1", "disadvantage": "0", "roll": "9"}
    for key, value in values.items():
        page.fill(f'form[data-calculator="effect"] [name="{key}"]', value)
    expected = python_outputs("effect", **values)
    assert expected["effect"] == "+1"
    wait_outputs(form, expected)
    assert outputs(form) == expected
    assert "keep the two highest" in form.locator("[data-details]").text_content()


def test_url_parameters_restore_a_calculation_and_the_url_follows_the_form(
    open_calculator: Any, python_outputs: Any
) -> None:
    params = {"modifier": "2", "difficulty": "10", "roll": "9", "disadvantage": "1"}
    form = open_calculator("effect", **params)
    page = form.page
    for key, value in params.items():
        assert page.input_value(f'[name="{key}"]') == value
    assert outputs(form) == python_outputs("effect", **params)
    page.fill('[name="modifier"]', "-4")
    wait_outputs(form, python_outputs("effect", **{**params, "modifier": "-4"}))
    query = url_query(page, {"modifier": "-4"})
    assert query["modifier"] == ["-4"] and query["roll"] == ["9"] and query["disadvantage"] == ["1"]


BAD_INPUTS = [
    ("modifier", "abc"),
    ("difficulty", ""),
    ("roll", "13"),
    ("advantage", "-1"),
    ("difficulty", "9" * 30),
]


def test_bad_inputs_are_flagged_beside_their_field_and_cleared_when_fixed(open_calculator: Any) -> None:
    from calculators.framework import runtime

    form = open_calculator("effect")
    page = form.page
    for field, value in BAD_INPUTS:
        good = page.input_value(f'[name="{field}"]')
        page.fill(f'[name="{field}"]', value)
        page.wait_for_selector(f'[name="{field}"][aria-invalid="true"]', state="attached", timeout=20_000)
        alert = page.locator(f'[role="alert"][data-error-for="{field}"]')
        assert alert.text_content() == runtime.compute("effect", {field: value})["errors"][field]
        assert set(outputs(form).values()) == {"\u2014"}
        page.fill(f'[name="{field}"]', good)
        page.wait_for_selector(f'[name="{field}"]:not([aria-invalid])', state="attached", timeout=20_000)
        assert alert.text_content() == ""
    assert outputs(form)["chance"] == "41.67%"


def test_a_query_parameter_that_is_invalid_is_flagged_on_load(open_calculator: Any) -> None:
    form = open_calculator("effect", modifier="lots")
    assert form.locator('[name="modifier"]').get_attribute("aria-invalid") == "true"
    assert "whole number" in form.locator('[data-error-for="modifier"]').text_content()


def test_the_steppers_change_a_number_within_its_range(open_calculator: Any, python_outputs: Any) -> None:
    form = open_calculator("effect")
    plus = form.get_by_role("button", name="Increase Advantage")
    minus = form.get_by_role("button", name="Decrease Advantage")
    minus.click()
    assert form.page.input_value('[name="advantage"]') == "0"
    plus.click()
    plus.click()
    assert form.page.input_value('[name="advantage"]') == "2"
    wait_outputs(form, python_outputs("effect", advantage=2))


@pytest.mark.own_page  # every request of a whole load is seen
def test_only_127_0_0_1_is_ever_asked_for_anything(page: Any, site_url: str) -> None:
    hosts: set[str] = set()

    # A blob: address (the engine's worker, run from its text in the page) names the page's own origin.
    def host(url: str) -> str:
        return urlsplit(url.removeprefix("blob:")).hostname or url

    page.on("request", lambda request: hosts.add(host(request.url)))
    page.goto("calculators/effect/?roll=5")
    wait_ready(page.locator('form[data-calculator="effect"]'))
    page.goto("")
    page.wait_for_load_state("networkidle")
    assert hosts == {"127.0.0.1"}


def test_the_worker_survives_instant_navigation_to_another_page_and_back(
    open_calculator: Any, python_outputs: Any
) -> None:
    form = open_calculator("effect", roll="6")
    page = form.page
    page.evaluate("window.__sameDocument = true")
    page.locator(".md-nav a", has_text="Home").first.click()
    page.wait_for_url(lambda url: "/calculators/" not in url)
    page.locator('a[href$="calculators/effect/"]').first.click()
    page.wait_for_url("**/calculators/effect/**")
    form = page.locator('form[data-calculator="effect"]')
    wait_ready(form)
    assert page.evaluate("window.__sameDocument") is True, "navigation fell back to a full reload"
    stats = page.evaluate("window.mnemeCalculators.stats")
    assert stats["engineStarts"] == 1
    page.fill('[name="difficulty"]', "9")
    wait_outputs(form, python_outputs("effect", difficulty=9))


@pytest.mark.first_visit  # the engine must start from nothing here
def test_a_failed_engine_boot_keeps_the_prerendered_result_and_offers_a_retry(
    page: Any, page_log: Any
) -> None:
    page_log.allow(r"Failed to load resource: net::ERR_FAILED")
    page.add_init_script("window.mnemeCalculatorConfig = {bootTimeoutMs: 8000}")
    # Refused while `refuse` is set. Lifted by the flag, not by removing the route: the Retry's start
    # then never overlaps a change of Playwright's interception of the engine worker's requests.
    refuse = [True]
    page.route("**/pyodide.asm.wasm", lambda route: route.abort() if refuse[0] else route.continue_())
    page.goto("calculators/effect/")
    form = page.locator('form[data-calculator="effect"]')
    page.wait_for_function("f => f.dataset.state === 'error'", arg=form.element_handle(), timeout=30_000)
    assert outputs(form)["chance"] == "41.67%"
    status = form.locator("[data-status]").text_content()
    assert "could not start" in status and "Traceback" not in status
    retry = form.get_by_role("button", name="Retry")
    assert retry.is_visible()
    refuse[0] = False
    page.evaluate("window.mnemeCalculatorConfig.bootTimeoutMs = 120000")
    starts = page.evaluate("window.mnemeCalculators.stats.engineStarts")  # a later request may retry too
    retry.click()
    wait_ready(form)
    assert not retry.is_visible()
    stats = json.loads(json.dumps(page.evaluate("window.mnemeCalculators.stats")))
    assert stats["engineStarts"] == starts + 1
