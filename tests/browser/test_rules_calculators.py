"""The rules calculators added for stealth, support, first aid and patient load, and One attack's costly
success, in headless Chromium at 360x780: one tab (a returning visit, one engine boot), each page reached by
instant navigation, its live (Pyodide) outputs equal to CPython's, an edit recomputed live, and nothing
wider than the phone. Each docstring names the rule (chapter § section).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest

from ._forms import set_values, wait_outputs
from .conftest import outputs, wait_instant_navigation, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.returning_visit]

PHONE = {"width": 360, "height": 780}


def _open(page: Any, python_outputs: Any, name: str, **params: object) -> Any:
    """The calculator at 360 px, its live outputs checked against CPython's, no sideways scroll."""
    page.set_viewport_size(PHONE)
    query = f"?{urlencode(params)}" if params else ""
    page.goto(f"calculators/{name.replace('_', '-')}/{query}")
    form = page.locator(f'form[data-calculator="{name}"]')
    wait_ready(form)
    wait_instant_navigation(page)
    assert outputs(form) == python_outputs(name, **{k: str(v) for k, v in params.items()})
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
    return form


def _edit(form: Any, python_outputs: Any, name: str, params: dict[str, str], values: dict[str, str]) -> None:
    """Type ``values`` and wait until the live outputs are CPython's for the whole new set of inputs."""
    set_values(form, values)
    wait_outputs(form, python_outputs(name, **{**params, **values}), fresh=True)


def test_stealth_and_search(page: Any, python_outputs: Any) -> None:
    """Actions § Deliberate Stealth > Roll: 8 + Recon 1 + ChM 1 - hiding 2 = 8, DM +2: 72.22%; a quick scan
    is beaten without a roll (ruling stealth-detection)."""
    params = {"modifier": "2", "adversary_skill": "1", "adversary_chm": "1", "hiding_factors": "2"}
    form = _open(page, python_outputs, "stealth", **params)
    assert (outputs(form)["difficulty"], outputs(form)["chance"]) == ("8", "72.22%")
    _edit(form, python_outputs, "stealth", params, {"watching": "quick_scan"})
    assert outputs(form)["outcome"] == "hidden"


def test_support_and_coordination(page: Any, python_outputs: Any) -> None:
    """Actions § Supporting Actions; ruling support-stacking: two supporters at +0, the best counts."""
    params = {"supporters": "2"}
    form = _open(page, python_outputs, "support", **params)
    assert outputs(form)["helped"] == "56.11%"
    _edit(form, python_outputs, "support", params, {"stacking": "sum"})
    assert outputs(form)["helped"] == "57.02%"


def test_first_aid_duration(page: Any, python_outputs: Any) -> None:
    """Outcomes § First Aid > Time Reduction: a +0 medic against 8 needs 27.71 rounds on average."""
    form = _open(page, python_outputs, "first_aid")
    assert outputs(form)["expected"] == "27.71"
    assert form.locator('figure[data-chart="done"]').count() == 1
    _edit(form, python_outputs, "first_aid", {}, {"modifier": "3"})


def test_patient_load(page: Any, python_outputs: Any) -> None:
    """Outcomes § Medical Care > Capacity, § Care Levels: Medic 2 takes 4 serious and 16 light (32 of 32)."""
    params = {"light": "16", "moderate": "0", "serious": "4", "medic": "2"}
    form = _open(page, python_outputs, "patients", **params)
    assert (outputs(form)["load"], outputs(form)["capacity"], outputs(form)["medics"]) == ("32", "32", "1")
    _edit(form, python_outputs, "patients", params, {"intensive": "1"})
    assert outputs(form)["medics"] == "2"


def test_one_attack_carries_a_costly_success_through(
    page: Any, open_calculator: Any, python_outputs: Any
) -> None:
    """Core Mechanics § Costly Success: missing by 2 hits at a fail effect of 7, mitigated by conditions 3
    and cover 2 to 2 (ruling costly-success-mitigation)."""
    params = {"effect": "-2", "pay": "costly", "conditions": "3", "cover": "2"}
    form = _open(page, python_outputs, "attack", **params)
    shown = outputs(form)
    assert (shown["outcome"], shown["price"], shown["remaining"]) == ("costly success", "7", "2")
    price_fields = ("conditions", "cover", "adversary_damage", "own_armor")
    for key in price_fields:  # the price's fields are on screen: no hidden value decides it
        assert form.locator(f'[data-field="{key}"]').is_visible(), key
    assert form.locator('[data-field="own_hp"]').is_hidden()
    _edit(form, python_outputs, "attack", params, {"pay": "reckless"})
    assert form.locator('[data-field="conditions"]').is_visible()
    set_values(form, {"pay": "none"})
    for key in price_fields:  # no price: "I attack" is the short question again
        assert form.locator(f'[data-field="{key}"]').is_hidden(), key
