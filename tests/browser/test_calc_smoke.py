"""Every registered calculator on a page computes live in headless Chromium as CPython does.

A new calculator needs no browser test of its own to be checked: this module reads the registry
(``calculators/framework/registry.py``) and the pages' markers (``<!-- calculator: NAME -->`` in
``docs/``), opens each calculator's page once with its default values, waits until the engine has
computed it live, and compares every output with ``calculators.framework.runtime.compute``.

Calculators a deeper browser test already opens (random inputs, bad inputs, charts) are left to it:
those of ``test_calc_forms.py`` and ``test_calc_tools.py``, and the two with modules of their own.
At least one calculator is always smoked, so this test itself keeps running.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from calculators.framework import registry

from .conftest import outputs, wait_instant_navigation, wait_ready
from .test_calc_forms import PAGES
from .test_calc_tools import TOOLS

pytestmark = [pytest.mark.browser, pytest.mark.returning_visit]

DOCS = Path(__file__).resolve().parents[2] / "docs"
MARKER = re.compile(r"<!--\s*calculator:\s*(?P<name>[\w.-]+)\s*-->")
OWN_MODULES = {"effect": "test_effect_calculator.py", "comparison": "test_calc_comparison.py"}
"""Calculators with a browser test module of their own."""


def calculator_pages() -> dict[str, str]:
    """Calculator name -> the site address of the page that shows it (a folder URL, relative)."""
    found: dict[str, str] = {}
    for path in sorted(DOCS.rglob("*.md")):
        for match in MARKER.finditer(path.read_text(encoding="utf-8")):
            page = path.relative_to(DOCS).with_suffix("")
            address = page.parent if page.name == "index" else page
            found.setdefault(match["name"], f"{address.as_posix()}/")
    return found


PAGES_BY_NAME = calculator_pages()
DEEPER = {p.name for p in PAGES} | {t.name for t in TOOLS} | set(OWN_MODULES)
ON_A_PAGE = [name for name in registry.names() if name in PAGES_BY_NAME]
SMOKED = [name for name in ON_A_PAGE if name not in DEEPER] or ON_A_PAGE[:1]


def test_the_smoke_test_knows_every_calculator_on_a_page() -> None:
    assert set(ON_A_PAGE) <= set(registry.names())
    assert set(OWN_MODULES) <= set(ON_A_PAGE)
    for name, module in OWN_MODULES.items():
        assert f'"{name}' in (Path(__file__).parent / module).read_text(encoding="utf-8")
    assert SMOKED


@pytest.mark.parametrize("name", SMOKED)
def test_a_calculator_computes_its_defaults_live_as_cpython_does(
    page: Any, python_outputs: Any, name: str
) -> None:
    page.goto(PAGES_BY_NAME[name])
    form = page.locator(f'form[data-calculator="{name}"]')
    wait_ready(form)
    wait_instant_navigation(page)
    assert form.get_attribute("data-engine-build"), "the engine never answered"
    assert outputs(form) == python_outputs(name)
