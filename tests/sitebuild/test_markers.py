"""The marker scanner (``sitebuild/markers.py``), the rules pages' markers (``sitebuild/rules_pages.py``)
and their MkDocs glue (``hooks/rules_tables.py``).

The content they insert is tested in ``test_reference_*.py``; the calculator marker and the
calculators index through real builds in ``tests/hooks/test_build.py``.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from _site import ROOT, load_hook
from mkdocs.exceptions import PluginError

from sitebuild import markers, rules_pages
from sitebuild.errors import BuildError
from sitebuild.reference import TABLES, VALUES

DOCS = ROOT / "docs"
hook = load_hook("rules_tables")

SHOUT = {
    "shout": markers.Kind(render=str.upper, known={"a", "b"}),
    "x": markers.Kind(render=lambda _: "X", named=False),
}


# ---------------------------------------------------------------- the scanner


def test_fences_are_tracked_by_character_and_length_at_any_indentation() -> None:
    text = "a\n````md\n```\nin\n````\n    ~~~\n    in\n    ~~~\nb"
    fenced = [n for n, _, inside in markers.outside_fences(text) if inside]
    assert fenced == [2, 3, 4, 5, 6, 7, 8]


def test_block_markers_keep_indentation_and_fenced_ones_are_left_alone() -> None:
    kinds = {"shout": markers.Kind(render=lambda n: f"{n}\n{n}", known={"a"})}
    text = "    <!-- shout: a -->\n```\n<!-- shout: nope -->\n```"
    assert markers.expand(text, kinds) == "    a\n    a\n```\n<!-- shout: nope -->\n```"


def test_find_lists_well_formed_markers_outside_fences() -> None:
    text = "<!-- shout: a -->\n~~~\n<!-- shout: b -->\n~~~\n<!-- other: c -->\n<!-- x: b -->"
    found = markers.find(text, ("shout", "x"))
    assert [(m.kind, m.name, m.line) for m in found] == [("shout", "a", 1), ("x", "b", 6)]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("<!-- shout: c -->", r"^p\.md:3: unknown shout 'c' \(known: a, b\)"),
        ("<!-- shout a -->", "malformed shout marker"),
        ("Text <!-- shout: a -->", r"malformed shout marker .*alone on its line"),
        ("<!-- Shouts: a -->", "malformed shout marker"),
        ("<!-- shout -->", "malformed shout marker"),
        ("<!-- x: a -->", "malformed x marker"),
    ],
)
def test_unknown_or_malformed_markers_fail_naming_page_and_line(line: str, message: str) -> None:
    with pytest.raises(BuildError, match=message):
        markers.expand(f"# T\n\n{line}\n", SHOUT, "p.md")


def test_other_comments_are_left_alone() -> None:
    text = "<!-- a note -->\n<!-- shoutout -->\n<!-- todo: later -->"
    assert markers.expand(text, SHOUT) == text


# ---------------------------------------------------------------- rules pages and their hook


def test_the_hook_fills_tables_and_values_from_the_reference_registries() -> None:
    text = '=== "Tab"\n\n    <!-- table: tactics-risk -->\n\nA ChM of <!-- value: chm-of-10 --> here.'
    out = rules_pages.render_markdown(text)
    table_lines = [line for line in out.splitlines() if "|" in line]
    assert table_lines == ["    " + line for line in TABLES["tactics-risk"]().splitlines()]
    assert f"A ChM of {VALUES['chm-of-10']()} here." in out


def test_the_mkdocs_event_names_the_page_source_in_errors() -> None:
    page = SimpleNamespace(file=SimpleNamespace(src_uri="rules/damage.md"))
    with pytest.raises(PluginError, match=r"^rules/damage\.md:1: unknown table 'nope'"):
        hook.on_page_markdown("<!-- table: nope -->", page=page, config={}, files=[])
    with pytest.raises(BuildError, match=r"unknown value 'no-such-value'"):
        rules_pages.render_markdown("It is <!-- value: no-such-value --> points.", "rules/x.md")
    with pytest.raises(BuildError, match="alone on its line"):
        rules_pages.render_markdown("See <!-- table: tactics-risk --> here", "rules/x.md")


def test_every_marker_used_in_the_docs_is_known_and_renders() -> None:
    used = 0
    for page in sorted(DOCS.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        used += len(markers.find(text, ("table", "value")))
        out = rules_pages.render_markdown(text, str(page.relative_to(DOCS)))
        assert not re.search(
            r"<!--\s*(table|value):",
            "\n".join(line for _, line, fenced in markers.outside_fences(out) if not fenced),
        ), page
    assert used >= 40, "the rules pages take their tables and figures from the engine"
