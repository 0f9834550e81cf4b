"""The rules reference pages: structure, anchors, rulings, links and our-own-words check."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RULES = DOCS / "rules"
VERBATIM_CHECK = ROOT.parent / "shared" / "tools" / "verbatim_check.py"

CONTENT_PAGES = sorted(
    [
        *RULES.glob("*.md"),
        DOCS / "index.md",
        DOCS / "glossary.md",
        DOCS / "rulings.md",
        DOCS / "quick-reference.md",
    ]
)
CALCULATORS = {
    page.stem
    for page in (DOCS / "calculators").glob("*.md")
    if re.search(r"^<!-- calculator: [a-z_]+ -->$", page.read_text(encoding="utf-8"), re.M)
}
"""The calculator pages (stems under docs/calculators/): those holding a calculator marker."""
EXPECTED_RULE_PAGES = {
    "checks",
    "mitigation",
    "actions",
    "movement",
    "attacks",
    "damage",
    "injury",
    "healing",
}

HEADING = re.compile(r"^(#{1,6}) (?P<title>.+?)\s*$")
ANCHOR = re.compile(r"\{\s*#(?P<id>[a-z0-9][a-z0-9-]*)\s*\}")
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


def text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def headings(page: Path) -> list[tuple[int, str]]:
    out, fenced = [], False
    for line in text(page).splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        m = None if fenced else HEADING.match(line)
        if m:
            out.append((len(m.group(1)), m.group("title")))
    return out


def anchors(page: Path) -> list[str]:
    return [m.group("id") for m in ANCHOR.finditer(text(page))]


def page_id(page: Path) -> str:
    return str(page.relative_to(DOCS))


# ---------------------------------------------------------------- pages


def test_the_three_chapters_are_split_into_the_expected_rule_pages() -> None:
    assert {p.stem for p in RULES.glob("*.md")} >= EXPECTED_RULE_PAGES


@pytest.mark.parametrize("page", CONTENT_PAGES, ids=page_id)
def test_each_page_opens_with_an_at_a_glance_box(page: Path) -> None:
    body = text(page).split("\n# ", 1)[1]
    first_block = body.split("\n## ", 1)[0]
    assert '!!! abstract "At a glance"' in first_block


@pytest.mark.parametrize("page", sorted(RULES.glob("*.md")), ids=page_id)
def test_every_rule_heading_has_a_stable_explicit_anchor(page: Path) -> None:
    missing = [title for _, title in headings(page) if not ANCHOR.search(title)]
    assert not missing, f"headings without {{#anchor}}: {missing}"


@pytest.mark.parametrize("page", CONTENT_PAGES, ids=page_id)
def test_anchors_are_unique_within_a_page(page: Path) -> None:
    ids = anchors(page)
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


@pytest.mark.parametrize("page", sorted(RULES.glob("*.md")), ids=page_id)
def test_each_rule_page_has_worked_examples_and_a_calculator_link(page: Path) -> None:
    body = text(page)
    assert "!!! example" in body
    assert re.search(r"\]\(\.\./calculators/[a-z-]+\.md", body), "links to the calculator that computes it"


# ---------------------------------------------------------------- links


def _links(page: Path) -> list[str]:
    return [m.group("target") for m in LINK.finditer(text(page))]


PENDING_KEYS = {("effect", "costly_success"), ("effect", "reckless")}
"""Deep-link keys the issue asks of a calculator that does not declare them yet (see the content report)."""


def _calculator_links(page: Path) -> list[tuple[str, str, list[tuple[str, str]]]]:
    out = []
    for target in _links(page):
        m = re.search(r"calculators/(?P<name>[a-z-]+)\.md(?:\?(?P<query>[^#]*))?", target)
        if m:
            pairs = [tuple(p.partition("=")[::2]) for p in filter(None, (m.group("query") or "").split("&"))]
            out.append((target, m.group("name"), pairs))
    return out


@pytest.mark.parametrize("page", CONTENT_PAGES, ids=page_id)
def test_calculator_links_name_a_planned_calculator_with_plain_query_keys(page: Path) -> None:
    for target, name, pairs in _calculator_links(page):
        assert name in CALCULATORS or (name == "index" and not pairs), target
        for key, value in pairs:
            assert re.fullmatch(r"[a-z_]+", key) and value, target


@pytest.mark.parametrize("page", CONTENT_PAGES, ids=page_id)
def test_deep_link_keys_are_inputs_the_calculator_declares(page: Path) -> None:
    registry = pytest.importorskip(
        "calculators.framework.registry", reason="the calculators package is not there yet"
    )
    for target, name, pairs in _calculator_links(page):
        if name not in registry.names():
            continue
        declared = {i.key for i in registry.get(name).inputs}
        unknown = {k for k, _ in pairs if k not in declared and (name, k) not in PENDING_KEYS}
        assert not unknown, f"{target}: {name} has no input {sorted(unknown)}"


@pytest.mark.parametrize("page", CONTENT_PAGES, ids=page_id)
def test_internal_anchor_links_point_at_existing_anchors(page: Path) -> None:
    for target in _links(page):
        if "://" in target or "calculators/" in target:
            continue
        path, _, fragment = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        assert dest.exists(), f"{page_id(page)} links to missing {target}"
        if fragment:
            assert fragment in anchors(dest), f"{page_id(page)}: no anchor #{fragment} in {path or 'itself'}"


# ---------------------------------------------------------------- rulings

RULING = re.compile(r"^### (?P<title>.+?) \{#(?P<id>[a-z0-9-]+)\}\n(?P<body>.*?)(?=^##|\Z)", re.S | re.M)


def rulings() -> list[re.Match[str]]:
    return list(RULING.finditer(text(DOCS / "rulings.md")))


def test_the_rulings_page_covers_more_than_ten_source_problems() -> None:
    assert len(rulings()) > 10


@pytest.mark.parametrize("ruling", rulings(), ids=lambda m: m.group("id"))
def test_each_ruling_has_an_anchor_sources_a_chosen_reading_and_a_reason(ruling: re.Match[str]) -> None:
    body = ruling.group("body")
    for field in ("Kind", "Sources", "Problem", "Reading", "Why", "Option"):
        m = re.search(rf"^- \*\*{field}:\*\* (?P<value>\S.*)$", body, re.M)
        assert m, f"{ruling.group('id')}: missing {field}"
    kind = re.search(r"^- \*\*Kind:\*\* (\S+)$", body, re.M)
    assert kind and kind.group(1) in {"contradiction", "ambiguity", "gap", "slip"}


def test_the_two_rulings_named_in_the_issue_are_present() -> None:
    ids = {m.group("id") for m in rulings()}
    assert {"fail-effect-definition", "injury-thresholds"} <= ids


def test_every_ruling_anchor_linked_from_the_rules_pages_exists() -> None:
    ids = {m.group("id") for m in rulings()}
    for page in RULES.glob("*.md"):
        for fragment in re.findall(r"rulings\.md#([a-z0-9-]+)", text(page)):
            assert fragment in ids, f"{page.name} links to a missing ruling #{fragment}"


# ---------------------------------------------------------------- abbreviations, print, config


def test_abbreviations_cover_the_rules_shorthand() -> None:
    defined = set(re.findall(r"^\*\[([^\]]+)\]: \S", text(DOCS / "includes" / "abbreviations.md"), re.M))
    required = {
        "ChM",
        "DM",
        "Cmp",
        "RoA",
        "AR",
        "HP",
        "PC",
        "NPC",
        "End",
        "Str",
        "Dex",
        "DAR",
        "HAR",
        "KAR",
        "DHP",
    }
    assert required <= defined


def test_the_print_stylesheet_hides_site_chrome_and_keeps_cards_whole() -> None:
    css = text(ROOT / "browser" / "print.css")
    media = css[css.index("@media print") :]
    for selector in (".md-header", ".md-sidebar", ".md-footer", ".md-tabs"):
        assert selector in media
    assert "display: none" in media
    assert "break-inside: avoid" in css
    assert "@page" in css


def test_mkdocs_config_registers_the_hook_stylesheet_and_pages() -> None:
    config = ROOT / "mkdocs.yml"
    if not config.exists():
        pytest.skip("mkdocs.yml is not there yet")
    conf = text(config)
    assert "hooks/rules_tables.py" in conf and "hooks/calculator_pages.py" in conf
    for page in [
        *(f"rules/{p}.md" for p in EXPECTED_RULE_PAGES),
        "glossary.md",
        "rulings.md",
        "quick-reference.md",
    ]:
        assert page in conf, f"{page} is in the navigation"


def test_the_glossary_links_each_term_to_a_rule_anchor() -> None:
    body = text(DOCS / "glossary.md")
    terms = re.findall(r"^(\S.*) \{#g-[a-z0-9-]+\}$", body, re.M)
    assert len(terms) >= 40
    assert len(re.findall(r"\(rules/[a-z-]+\.md#[a-z0-9-]+\)", body)) >= len(terms) - 2


# ---------------------------------------------------------------- our own words


def test_no_prose_repeats_a_source_text_verbatim() -> None:
    if not VERBATIM_CHECK.exists():
        pytest.skip(f"the verbatim checker is not available at {VERBATIM_CHECK}")
    targets = [str(p) for p in (RULES, DOCS / "index.md", DOCS / "glossary.md", DOCS / "rulings.md")]
    targets.append(str(DOCS / "quick-reference.md"))
    result = subprocess.run(
        [sys.executable, str(VERBATIM_CHECK), *targets],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout
