"""Zero broken internal links: a link checker over the built site (after mkdocs' own strict validation).

Every ``href`` and ``src`` in every built page that stays on the site must name a built file, every
``#anchor`` must name an element of its target page, and every calculator deep link's query
parameters must name inputs of that page's calculator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import parse_qsl, unquote, urljoin, urlsplit

import pytest

SELF_TEST_URL = "https://example.org/sub/path/"
LINK_ATTRS = {"href", "src", "poster", "action"}
SKIP_SCHEMES = {"mailto", "tel", "data", "javascript", "blob"}


@dataclass
class PageFacts:
    """What one built page offers (ids) and refers to (links, with the tag they sit on)."""

    ids: set[str] = field(default_factory=set)
    links: list[tuple[str, str]] = field(default_factory=list)
    inputs: dict[str, set[str]] = field(default_factory=dict)  # calculator name -> input names


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.facts = PageFacts()
        self._form: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        for key in ("id", "name") if tag == "a" else ("id",):
            if values.get(key):
                self.facts.ids.add(values[key])
        if tag == "form" and "data-calculator" in values:
            self._form = values["data-calculator"]
            self.facts.inputs.setdefault(self._form, set())
        if self._form and tag in {"input", "select", "textarea"} and values.get("name"):
            self.facts.inputs[self._form].add(values["name"])
        if tag == "link" and values.get("rel") in {"canonical", "alternate"} and "href" in values:
            self.facts.links.append((tag, values["href"]))
            return
        for key in LINK_ATTRS & values.keys():
            self.facts.links.append((tag, values[key]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None


def page_url(site: Path, page: Path) -> str:
    """The page's URL path under the site root, e.g. ``rules/checks/``."""
    rel = page.relative_to(site).as_posix()
    return "" if rel == "index.html" else rel.removesuffix("index.html")


def resolve(site: Path, url: str) -> Path | None:
    """The built file a site-relative URL path names (directories serve their index.html)."""
    path = PurePosixPath(unquote(url))
    target = site.joinpath(*path.parts) if path.parts else site
    if url.endswith("/") or target.is_dir():
        target = target / "index.html"
    return target if target.is_file() else None


@pytest.fixture(scope="module")
def facts(site: Path) -> dict[Path, PageFacts]:
    out = {}
    for page in sorted(site.rglob("*.html")):
        collector = _Collector()
        collector.feed(page.read_text(encoding="utf-8"))
        out[page] = collector.facts
    return out


def broken_links(site: Path, facts: dict[Path, PageFacts], site_url: str) -> list[str]:
    """Every link of ``facts`` (the pages of ``site``, served at ``site_url``) that names nothing."""
    base = urlsplit(site_url)
    problems = []
    for page, found in facts.items():
        here = site_url + page_url(site, page)
        for tag, link in found.links:
            parts = urlsplit(link)
            if parts.scheme in SKIP_SCHEMES or not link.strip():
                continue
            absolute = urlsplit(urljoin(here, link))
            if absolute.netloc != base.netloc:
                continue  # another host: not ours to check (and the CSP keeps pages from loading it)
            where = f"{page.relative_to(site)}: <{tag}> {link!r}"
            if not absolute.path.startswith(base.path):
                problems.append(f"{where} leaves the site's sub-path")
                continue
            target = resolve(site, absolute.path[len(base.path) :])
            if target is None:
                problems.append(f"{where} names no built file")
                continue
            if absolute.fragment and target.suffix == ".html":
                anchor = unquote(absolute.fragment)
                if anchor not in facts[target].ids:
                    problems.append(f"{where}: no element with id {anchor!r} on {target.relative_to(site)}")
            if absolute.query and target.suffix == ".html":
                names = {k for k, _ in parse_qsl(absolute.query, keep_blank_values=True)}
                calculators = facts[target].inputs
                if len(calculators) != 1:
                    problems.append(f"{where}: a query string on a page without exactly one calculator")
                elif unknown := names - next(iter(calculators.values())):
                    problems.append(f"{where}: {sorted(unknown)} are not inputs of that calculator")
    return problems


def test_every_internal_link_anchor_and_asset_resolves(
    site: Path, site_url: str, facts: dict[Path, PageFacts]
) -> None:
    problems = broken_links(site, facts, site_url)
    assert not problems, f"{len(problems)} broken links:\n" + "\n".join(problems[:60])


def test_the_checker_sees_every_page_and_a_real_number_of_links(facts: dict[Path, PageFacts]) -> None:
    assert len(facts) >= 20
    assert sum(len(f.links) for f in facts.values()) > 500


def test_the_checker_catches_a_missing_page_a_missing_anchor_and_a_foreign_query(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "calc").mkdir()
    (tmp_path / "index.html").write_text(
        '<a href="a/">ok</a><a href="a/#here">ok</a><a href="missing/">x</a><a href="a/#gone">x</a>'
        '<a href="calc/?size=2">ok</a><a href="calc/?colour=red">x</a><a href="https://other.org/">ok</a>'
        '<script src="/elsewhere/x.js"></script>'
    )
    (tmp_path / "a" / "index.html").write_text('<h2 id="here">Here</h2>')
    (tmp_path / "calc" / "index.html").write_text('<form data-calculator="c"><input name="size"></form>')
    found = {}
    for page in tmp_path.rglob("*.html"):
        collector = _Collector()
        collector.feed(page.read_text())
        found[page] = collector.facts
    problems = broken_links(tmp_path, found, SELF_TEST_URL)
    assert len(problems) == 4, problems
    assert any("missing/" in p and "no built file" in p for p in problems)
    assert any("no element with id 'gone'" in p for p in problems)
    assert any("['colour'] are not inputs" in p for p in problems)
    assert any("leaves the site's sub-path" in p for p in problems)
