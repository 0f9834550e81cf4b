"""A live result patches only the parts of the working that changed (``browser/lib/morph.js``:
``morphParts``; the parts and their sizes from ``calculators/framework/render.py``).

One Effect page: an edit that leaves the chart as it was (the modifier: the chart follows the dice and
the roll) leaves the chart's nodes untouched, the very same SVG element, while the working follows the
edit; a new roll patches the chart in place (the marked bar moves); each time the page's details read
as CPython's, and the chart's bars are CPython's.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from ._forms import set_values, wait_outputs

pytestmark = [pytest.mark.browser, pytest.mark.returning_visit]

DETAILS_TEXT = "f => f.querySelector('[data-details]').textContent"
SVG_OF = "f => f.querySelector('figure[data-chart] svg').outerHTML"
SVG_IS = """(f, html) => {
  const t = document.createElement('template');
  t.innerHTML = html;
  return f.querySelector('figure[data-chart] svg').isEqualNode(t.content.firstElementChild);
}"""
"""Whether the page's chart is the SVG given, node for node (attributes in any order: a patched bar
gains its class last)."""


def python_details(form: Any, values: dict[str, str]) -> tuple[str, str]:
    """CPython's details for the Effect calculator as text (no tags), and its chart's SVG."""
    from calculators.framework import runtime

    details = runtime.compute("effect", values, "../../")["details"]
    svg = re.search(r"<svg .*?</svg>", details)
    assert svg
    text = re.sub(r"<[^>]+>", "", details)
    text = text.replace("&amp;", "&").replace("&#x27;", "'").replace("&quot;", '"')
    return text, svg.group(0)


def test_an_edit_patches_only_the_parts_of_the_working_that_changed(
    open_calculator: Any, python_outputs: Any
) -> None:
    values = {"modifier": "1", "difficulty": "9", "roll": "9"}
    form = open_calculator("effect", **values)
    form.evaluate("f => { f.querySelector('figure[data-chart] svg').mnemeMark = 'kept'; }")
    svg_before = form.evaluate(SVG_OF)

    # The modifier: the answer and the working change, the chart does not, nor do its nodes.
    edited = {**values, "modifier": "4"}
    set_values(form, edited)
    wait_outputs(form, python_outputs("effect", **edited), fresh=True)
    text, svg = python_details(form, edited)
    assert form.evaluate(DETAILS_TEXT) == text
    assert "roll 9 + 4" in text
    assert form.evaluate("f => f.querySelector('figure[data-chart] svg').mnemeMark") == "kept"
    assert form.evaluate(SVG_OF) == svg_before and form.evaluate(SVG_IS, svg)

    # A new roll: the chart is patched in place (same element), its marked bar moves to 6.
    rolled = {**edited, "roll": "6"}
    set_values(form, rolled)
    wait_outputs(form, python_outputs("effect", **rolled), fresh=True)
    text, svg = python_details(form, rolled)
    assert form.evaluate(DETAILS_TEXT) == text
    assert form.evaluate("f => f.querySelector('figure[data-chart] svg').mnemeMark") == "kept"
    assert form.evaluate(SVG_IS, svg) and form.evaluate(SVG_OF) != svg_before
    marked = form.evaluate(
        "f => [...f.querySelectorAll('svg rect.calc-chart-marked title')].map(t => t.textContent)"
    )
    assert len(marked) == 1 and marked[0].startswith("6: ")

    # A mistake and back: one part ("correct the marked field"), then the whole working again.
    set_values(form, {**rolled, "modifier": "lots"})
    form.page.wait_for_function("f => f.querySelector('[data-details] .calc-fix')", arg=form.element_handle())
    assert form.evaluate("f => f.querySelector('[data-details]').children.length") == 1
    set_values(form, values)
    wait_outputs(form, python_outputs("effect", **values), fresh=True)
    text, svg = python_details(form, values)
    assert form.evaluate(DETAILS_TEXT) == text
    assert form.evaluate(SVG_IS, svg)  # drawn again after the mistake: a new element, the same chart
    assert form.evaluate("f => f.querySelector('figure[data-chart] svg').mnemeMark") is None


def test_the_first_answer_for_the_built_values_leaves_the_built_html_alone(
    open_calculator: Any, python_outputs: Any
) -> None:
    # The page as built (its defaults): the worker finds the answer writes the build's HTML (its key,
    # data-built), so the page keeps it without parsing it; the details still read as CPython's.
    form = open_calculator("effect")
    assert form.evaluate("() => window.mnemeCalculators.stats.asBuilt") == 1
    text, svg = python_details(form, {})
    assert form.evaluate(DETAILS_TEXT) == text and form.evaluate(SVG_IS, svg)

    # The parts it kept are the shown ones: an edit that leaves the chart as it was leaves its nodes.
    form.evaluate("f => { f.querySelector('figure[data-chart] svg').mnemeMark = 'kept'; }")
    values = {"modifier": "3"}
    set_values(form, values)
    wait_outputs(form, python_outputs("effect", **values), fresh=True)
    text, svg = python_details(form, values)
    assert form.evaluate(DETAILS_TEXT) == text and form.evaluate(SVG_IS, svg)
    assert form.evaluate("f => f.querySelector('figure[data-chart] svg').mnemeMark") == "kept"
    assert form.evaluate("() => window.mnemeCalculators.stats.asBuilt") == 1

    # Values from the address (a link followed: the theme's instant navigation, the same window): the
    # answer differs from the build's, and is written as always.
    form = open_calculator("effect", modifier=2, roll=5)
    assert form.evaluate("() => window.mnemeCalculators.stats.asBuilt") == 1  # not one more
    text, svg = python_details(form, {"modifier": "2", "roll": "5"})
    assert form.evaluate(DETAILS_TEXT) == text and form.evaluate(SVG_IS, svg)
