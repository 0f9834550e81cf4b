"""calculators.framework.render: a result's details sent in parts, so the page patches only what changed.

``payload`` carries the details' HTML whole (``details``) and the size of each of its parts
(``details_sizes``: the working, each chart, the rule links), counted as JavaScript counts a string
(UTF-16 code units); ``browser/lib/morph.js`` cuts the text at those sizes and compares each part with
the one it shows.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators.framework import registry, runtime
from calculators.framework.render import details_parts, js_length, render_details
from calculators.framework.spec import evaluate

VOID = {"br", "hr", "img", "input", "meta", "link", "source", "wbr"}
"""HTML elements without an end tag."""
SVG_SELF_CLOSED = {"line", "rect", "path", "circle"}


class _TopLevel(HTMLParser):
    """Counts the top-level nodes of an HTML fragment (elements, and text that is not blank)."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.top: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            self.top.append(tag)
        if tag not in VOID:
            self.depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            self.top.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth == 0 and data.strip():
            self.top.append("#text")


def top_level(html: str) -> list[str]:
    parser = _TopLevel()
    parser.feed(html)
    parser.close()
    assert parser.depth == 0, html
    return parser.top


@pytest.mark.parametrize("name", registry.names())
def test_every_calculators_details_are_their_parts_each_one_element(name: str) -> None:
    """For each calculator's default result and a result with a mistake: the details are their parts
    joined, each part is exactly one element, and the sizes sent add up to the details."""
    calc = registry.get(name)
    first_int = next((i.key for i in calc.inputs if i.kind in {"int", "optional_int"}), None)
    cases = [{}] + ([{first_int: "not a number"}] if first_int else [])
    for raw in cases:
        answer = runtime.compute(name, raw, "../../")
        parts = details_parts(evaluate(calc, raw), "../../")
        assert answer["details"] == "".join(parts) == render_details(evaluate(calc, raw), "../../")
        assert answer["details_sizes"] == [len(p) for p in parts]  # all ASCII or BMP here
        assert sum(answer["details_sizes"]) == len(answer["details"])
        for part in parts:
            assert len(top_level(part)) == 1, part[:200]


def test_a_mistake_gives_one_part_saying_what_to_fix() -> None:
    answer = runtime.compute("effect", {"modifier": "lots"})
    assert answer["details_sizes"] == [len(answer["details"])]
    assert answer["details"].startswith('<p class="calc-fix">')


def test_the_sizes_count_as_javascript_counts() -> None:
    """A character beyond the Basic Multilingual Plane is two UTF-16 code units in a JavaScript string."""
    assert js_length("") == 0
    assert js_length("abc") == 3
    assert js_length("\u2212" + "3") == 2  # the true minus: one unit
    assert js_length("d\U0001f3b2") == 3  # a die emoji: two units


@given(st.text())
def test_js_length_is_the_utf16_length(text: str) -> None:
    assert js_length(text) == len(text.encode("utf-16-le", "surrogatepass")) // 2
