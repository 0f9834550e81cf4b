"""The "one character, three systems" calculator on the comparison page, in headless Chromium.

Live results come from Pyodide and must equal CPython's for the same inputs; bad input is flagged
beside its field; the address bar restores and follows the form. Every test fails on any page error,
console error or request to a host other than 127.0.0.1 (see ``conftest.py``).
"""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import urlencode

import pytest

from calculators.framework import registry, runtime
from calculators.framework.spec import BoolInput, ChoiceInput, Input, IntInput, OptionalIntInput, TextInput

from . import _forms
from .conftest import outputs, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.returning_visit]

NAME = "comparison"
PAGE = "peers/comparison/"
FORM = f'form[data-calculator="{NAME}"]'
CALC = registry.get(NAME)


def open_page(page: Any, **params: Any) -> Any:
    page.goto(PAGE + (f"?{urlencode(params)}" if params else ""))
    form = page.locator(FORM)
    wait_ready(form)
    return form


def expected(raw: dict[str, str]) -> dict[str, str]:
    result: dict[str, str] = runtime.compute(NAME, raw)["outputs"]
    return result


def wait_outputs(form: Any, want: dict[str, str]) -> None:
    _forms.wait_outputs(form, want, fresh=True, timeout=30_000)


def random_text(item: Input, rng: random.Random) -> str:
    """A valid form text for ``item``."""
    if isinstance(item, IntInput):
        return str(rng.randint(item.min, item.max))
    if isinstance(item, OptionalIntInput):
        return "" if rng.random() < 0.3 else str(rng.randint(item.min, item.max))
    if isinstance(item, ChoiceInput):
        return rng.choice(item.choices)[0]
    if isinstance(item, BoolInput):
        return rng.choice(["1", "0"])
    assert isinstance(item, TextInput) and item.key == "mneme_weapon"
    bonus = rng.randint(-5, 5)
    return f"{rng.randint(1, 10)}d{rng.randint(2, 20)}" + (f"{bonus:+d}" if bonus else "")


def set_field(form: Any, item: Input, text: str) -> None:
    control = form.locator(f'[name="{item.key}"]')
    if isinstance(item, ChoiceInput):
        control.select_option(text)
    elif isinstance(item, BoolInput):
        control.set_checked(text == "1")
    else:
        control.fill(text)


def test_the_prerendered_result_shows_the_page_figures_without_javascript(
    browser: Any, site_url: str
) -> None:
    ctx = browser.new_context(base_url=site_url, java_script_enabled=False)
    try:
        page = ctx.new_page()
        page.goto(PAGE)
        form = page.locator(FORM)
        assert form.get_attribute("data-state") == "loading"
        assert outputs(form) == expected({})
        assert outputs(form)["mneme_damage"] == "31.5"
    finally:
        ctx.close()


def test_twenty_random_characters_compute_in_the_page_exactly_as_in_cpython(page: Any) -> None:
    form = open_page(page)
    assert outputs(form) == expected({})
    rng = random.Random(20261121)
    state = CALC.defaults()
    for _ in range(20):
        for item in rng.sample(CALC.inputs, rng.randint(3, 7)):
            state[item.key] = random_text(item, rng)
            set_field(form, item, state[item.key])
        want = expected(state)
        assert runtime.compute(NAME, state)["ok"], state
        wait_outputs(form, want)
        assert outputs(form) == want, state
        assert form.locator("[data-form-error]").text_content() == ""


BAD_INPUTS = [("margin", "abc", "2"), ("mneme_weapon", "D 3d3", "3d6"), ("met_celerity_rounds", "9", "0")]
"""A non-number, dice the weapon parser refuses, an out-of-range count; each with the value fixing it."""


def test_a_bad_input_is_flagged_beside_its_field_then_cleared(page: Any) -> None:
    form = open_page(page)
    for field, value, fixed in BAD_INPUTS:
        control = form.locator(f'[name="{field}"]')
        control.fill(value)
        page.wait_for_function(
            "el => el.getAttribute('aria-invalid') === 'true'", arg=control.element_handle(), timeout=30_000
        )
        alert = form.locator(f'[role="alert"][data-error-for="{field}"]')
        assert alert.text_content() == runtime.compute(NAME, {field: value})["errors"][field]
        assert set(outputs(form).values()) == {"\u2014"}
        control.fill(fixed)
        page.wait_for_function(
            "el => !el.hasAttribute('aria-invalid')", arg=control.element_handle(), timeout=30_000
        )
        assert alert.text_content() == ""
        wait_outputs(form, expected({}))


def test_the_url_restores_a_character_and_follows_the_form(page: Any) -> None:
    params = {
        "margin": "7",
        "mneme_weapon": "2d6+1",
        "mneme_rate_of_attack": "3",
        "mneme_load": "heavy",
        "mistrunner_actions": "3",
        "mistrunner_melee": "1",
        "met_celerity_rounds": "1",
        "met_step_cm": "75",
    }
    form = open_page(page, **params)
    for key, value in params.items():
        control = form.locator(f'[name="{key}"]')
        if key == "mistrunner_melee":
            assert control.is_checked()
        else:
            assert control.input_value() == value
    assert outputs(form) == expected(params)
    assert outputs(form)["met_speed"] == "3 m/s"
    form.locator('[name="margin"]').fill("-1")
    wait_outputs(form, expected({**params, "margin": "-1"}))
    query = _forms.url_query(page, {"margin": "-1"})
    assert (
        query["margin"] == ["-1"]
        and query["mneme_weapon"] == ["2d6+1"]
        and query["mistrunner_melee"] == ["1"]
    )
    assert set(query) == {item.key for item in CALC.inputs}
