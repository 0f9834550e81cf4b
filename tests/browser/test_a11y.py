"""Accessibility in headless Chromium: axe-core finds no violation on any page; calculators work by keyboard.

axe-core comes from npm (``devDependencies`` in package.json, installed by ``npm ci``) and is injected
into each page from ``node_modules``; nothing is fetched. Every page of the built site is checked at a
360 px phone width and a 1280 px desktop width in the light scheme and at 360 px in the dark scheme
(at 1280 px, colours are checked on one or two pages of every kind, ``DESKTOP_DARK``, in both schemes;
on the other pages every rule but the colour ones runs there: colours are checked at 360 px) (one browser tab,
moving by the theme's instant navigation so the calculator engine boots once; the width and the
scheme change in place), and calculators in their live and invalid states. At 360 px no table makes a
box scroll sideways (such a box cannot be reached by keyboard, axe
"scrollable-region-focusable"), and the wide rules tables switch to their phone layout.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from _site import ROOT

from ._forms import follow_link
from .conftest import NO_SEARCH_INDEX_JS, wait_ready

# offline_copy: the offline mark ("Saving for offline use", "Available offline") is checked too;
# theme_search: the header's search as a player gets it (its index asked for and built).
pytestmark = [
    pytest.mark.browser,
    pytest.mark.returning_visit,
    pytest.mark.offline_copy,
    pytest.mark.theme_search,
]

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
VIEWS = [(1280, "light"), (360, "light"), (360, "dark"), (1280, "dark")]
"""Desktop and phone widths, light and dark schemes: every page is checked in each, except the desktop
dark view (below)."""
DESKTOP_DARK = frozenset(
    {
        "",
        "calculators/attack/",
        "calculators/effect/",
        "calculators/",
        "glossary/",
        "peers/comparison/",
        "quick-reference/",
        "rules/damage/",
        "rulings/",
        "table/character/",
        "table/tracker/",
    }
)
"""The pages checked in the dark scheme at 1280 px: one or two of every kind (home, an index, rules
pages with tables and notes, calculators with results and charts, the table apps, the rulings and the
comparison). In the dark scheme axe checks colours only, and a colour does not change with the width;
what the desktop adds (the side navigation, the table of contents, the wide table layout) is the same
on every page of a kind. The phone's dark view is checked on every page."""
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
"""The axe rules whose result a scheme can change. The dark scheme changes colours only (the theme's
colour variables; our stylesheets' dark rules set colours only, as a test below checks), so in it axe
checks colours; everything else it has checked at the same width in the light scheme. The same holds
for the light desktop view of a page outside ``DESKTOP_DARK``: a colour does not change with the width,
and the colours of what only the desktop shows (the side navigation, the table of contents, the wide
table layout) are the same on every page of a kind, so there axe runs every rule but these (the
costliest: about half of axe's time on a page)."""
CSS_DIR = ROOT / "browser"
COLOUR_PROPERTIES = re.compile(
    r"^(--[\w-]+|color|background(-color)?|border(-\w+)?-color|outline-color|fill|stroke)$"
)
PHONE = {"width": 360, "height": 780}

RUN_AXE = """
async ([rules, skip]) => {
  const only = rules
    ? { runOnly: { type: "rule", values: rules } }
    : { rules: Object.fromEntries(skip.map((id) => [id, { enabled: false }])) };
  const result = await axe.run(document, { resultTypes: ["violations"], ...only });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " :: " + n.failureSummary.split("\\n")[1]),
  }));
}
"""


@lru_cache(maxsize=1)
def axe_source() -> str:
    if not AXE.is_file():
        pytest.fail("node_modules/axe-core is missing: run `npm ci` (scripts/setup does it)")
    return AXE.read_text(encoding="utf-8")


# Long pages skip the style and layout of blocks far off screen (content-visibility, rules.css); axe
# reads those blocks' styles as they were when skipped (before a scheme switch, say). Each block is
# checked as a player sees it once scrolled to: laid out, then settled in each scheme (``view``).
SHOW_ALL = """() => { for (const el of document.querySelectorAll(".md-content__inner > *")) {
  el.style.contentVisibility = "visible"; } }"""


def check(page: Any, where: str, rules: list[str] | None = None, skip: list[str] | None = None) -> list[str]:
    """axe's violations on the page as it is now (only ``rules``, if given; all but ``skip``, if given)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    return [
        f"{where}: {v['id']} ({v['impact']}): {v['help']} -> {v['nodes']}"
        for v in page.evaluate(RUN_AXE, [rules, skip or []])
    ]


def site_pages(site_dir: Path) -> list[str]:
    inner = [p.relative_to(site_dir).as_posix() for p in site_dir.rglob("index.html") if p.parent != site_dir]
    return ["", *sorted(rel.removesuffix("index.html") for rel in inner)]


def settle(page: Any) -> None:
    """Calculators on the page have finished booting (ready or error) and show a live result."""
    forms = page.locator("form[data-calculator]")
    for index in range(forms.count()):
        wait_ready(forms.nth(index))


SETTLE = """
async (want) => {
  // The theme follows the scheme (an attribute on <body>), then its colours and the nav drawer move by
  // CSS transitions. Each running transition is jumped to its end (Animation.finish()): the styles it
  // ends on are the ones the page would show once it ran, so axe sees exactly the settled page, without
  // waiting out the durations. Loops until the scheme is applied and nothing is left running.
  const end = performance.now() + 5000;
  while (performance.now() < end) {
    const running = document.getAnimations().filter((a) => a instanceof CSSTransition);
    running.forEach((a) => a.finish());
    if (document.body.dataset.mdColorScheme === want && !running.length) return true;
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
  return false;
}
"""


def view(page: Any, width: int, scheme: str, here: tuple[int, str]) -> None:
    """Resize the tab and switch the colour scheme in place (only what differs from ``here``, the view
    the tab shows now); wait until the theme has followed it."""
    if width != here[0]:
        height = PHONE["height"] if width == PHONE["width"] else 900
        page.set_viewport_size({"width": width, "height": height})
    if scheme != here[1]:
        page.emulate_media(color_scheme=scheme)
    if not page.evaluate(SETTLE, "slate" if scheme == "dark" else "default"):
        pytest.fail(f"the theme did not settle in the {scheme} scheme at {width} px")


def views_of(path: str, here: tuple[int, str]) -> list[tuple[int, str]]:
    """The views ``path`` is checked in, in an order that starts from ``here`` and changes one thing at a
    time where it can (a width, or a scheme): each change lays out or restyles the whole page again."""
    left = [v for v in VIEWS if v != (1280, "dark") or path in DESKTOP_DARK]
    order: list[tuple[int, str]] = []
    while left:
        # The nearest view left; of equally near ones, the first in VIEWS.
        here = min(left, key=lambda v: (v[0] != here[0]) + (v[1] != here[1]))
        order.append(here)
        left.remove(here)
    return order


def sweep(page: Any, paths: list[str]) -> list[str]:
    """Visit each path in one tab (instant navigation after the first), run axe on each in every view
    (a page arrives in the view the page before it was left in, and starts there)."""
    problems: list[str] = []
    page.goto(paths[0])
    here = (1280, "light")  # where the shared tab starts each test (conftest.Tab.begin)
    for path in paths:
        if path != paths[0]:
            follow_link(page, path, "article h1")
        settle(page)
        page.evaluate(SHOW_ALL)
        for width, scheme in views_of(path, here):
            view(page, width, scheme, here)
            here = (width, scheme)
            rules = COLOUR_RULES if scheme == "dark" else None
            skip = COLOUR_RULES if width == 1280 and path not in DESKTOP_DARK else None
            problems += check(page, f"{path or 'home'} at {width} px, {scheme}", rules, skip)
    return problems


def summary(problems: list[str]) -> str:
    """The violations grouped by rule (with the pages), then in full."""
    by_rule: dict[str, list[str]] = {}
    for line in problems:
        where, _, rest = line.partition(": ")
        by_rule.setdefault(rest.split(" ", 1)[0], []).append(where)
    head = [f"{rule}: {len(pages)} pages: {', '.join(pages)}" for rule, pages in sorted(by_rule.items())]
    return "\n".join([*head, "", *problems])


PARTS = 4
"""The sweep is cut in four (every fourth page each), so two test processes share it."""


@pytest.mark.parametrize("part", range(PARTS))
def test_axe_finds_no_violation_on_any_page_at_phone_and_desktop_width_light_and_dark(
    page: Any, site_dir: Path, part: int
) -> None:
    pages = site_pages(site_dir)
    assert len(pages) >= 20
    assert set(pages) >= DESKTOP_DARK, DESKTOP_DARK - set(pages)
    problems = sweep(page, pages[part::PARTS])
    assert not problems, summary(problems)


DARK_RULE = re.compile(r"([^{}]*slate[^{}]*)\{([^}]*)\}")


def test_the_dark_scheme_changes_only_colours() -> None:
    """Why the sweep checks only colours in the dark scheme: no rule of ours for it sets anything else."""
    found = 0
    for sheet in sorted(CSS_DIR.rglob("*.css")):
        for selector, body in DARK_RULE.findall(sheet.read_text(encoding="utf-8")):
            found += 1
            names = [decl.split(":", 1)[0].strip() for decl in body.split(";") if decl.strip()]
            others = [name for name in names if not COLOUR_PROPERTIES.match(name)]
            assert not others, f"{sheet.name}: {selector.strip()} sets {others} in the dark scheme"
    assert found >= 4


LONG_PAGE = """() => Array.from(document.querySelectorAll(".md-content__inner > *")).some(
  (el) => getComputedStyle(el).contentVisibility === "auto")"""
"""Whether the page has blocks that rules.css lets the browser skip until they near the screen."""
RULES_CSS = ROOT / "browser" / "rules.css"
SKIP_FROM = re.compile(r"\.md-content__inner > :nth-child\(n \+ (\d+)\)")
"""The first block rules.css lets the browser skip: a page with fewer blocks is never long."""
BLOCKS = """async (paths) => Object.fromEntries(await Promise.all(paths.map(async (path) => {
  const html = await (await fetch(new URL(path, document.baseURI))).text();
  const article = new DOMParser().parseFromString(html, "text/html").querySelector(".md-content__inner");
  return [path, article ? article.children.length : 0];
})))"""
"""How many blocks each page's article has, as built (fetched and parsed, not rendered)."""


@pytest.mark.own_page  # each page loaded whole and left unscrolled, as Lighthouse loads it (files cached)
def test_axe_finds_no_violation_on_a_fresh_load_of_a_long_page_as_lighthouse_runs_it(
    page: Any, site_dir: Path
) -> None:
    """Lighthouse runs axe on the page just loaded, at its phone size, without scrolling: the blocks far
    down are still skipped (placeholders 5em high). Text laid out past such a placeholder must not be
    measured against what follows it (the footer's dark background once gave a false contrast failure).
    The theme's search index is not asked for here (``NO_SEARCH_INDEX_JS``): nothing axe reads depends on
    it, and the theme would index the whole site again at each of these loads (the sweep searches)."""
    page.add_init_script(NO_SEARCH_INDEX_JS)
    page.set_viewport_size({"width": 412, "height": 823})  # Lighthouse's mobile screen
    page.emulate_media(color_scheme="light")
    page.goto("./")
    first_skipped = int(SKIP_FROM.findall(RULES_CSS.read_text(encoding="utf-8"))[0])
    paths = site_pages(site_dir)
    blocks = page.evaluate(BLOCKS, paths)  # read from the built files, not loaded as pages
    candidates = [path for path in paths if blocks[path] >= first_skipped]
    problems: list[str] = []
    long_pages = 0
    for path in candidates:
        page.goto(path or "./")
        if page.evaluate(LONG_PAGE):
            long_pages += 1
            problems += check(page, f"{path or 'home'} fresh at 412 px")
    assert long_pages >= 5
    assert not problems, summary(problems)


def test_the_404_page_has_no_violation(page: Any) -> None:
    page.goto("404.html")  # what GitHub Pages (and the offline service worker) serve for a missing page
    assert not check(page, "404")


SIDEWAYS = """
() => [...document.querySelectorAll('article *')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1)
  .filter((e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
  .map((e) => e.className || e.tagName)
"""


def test_at_phone_width_no_rules_table_scrolls_sideways_and_the_wide_ones_change_layout(page: Any) -> None:
    """The healing rates show every activity at 360 px (transposed), nothing scrolls sideways."""
    page.set_viewport_size(PHONE)
    for path in ["rules/healing/", "rules/attacks/", "rules/movement/", "quick-reference/"]:
        page.goto(path)
        assert page.evaluate(SIDEWAYS) == [], path
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    page.goto("rules/healing/")
    narrow = page.locator(".rules-narrow table")
    assert page.locator(".rules-wide table").is_hidden() and narrow.is_visible()
    activities = narrow.locator("tbody td:first-child").all_inner_texts()
    assert activities == [
        "Moderate activity",
        "Moderate + care",
        "Light activity",
        "Light + care",
        "Full rest",
        "Full rest + care",
    ]
    box = narrow.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.set_viewport_size({"width": 1280, "height": 900})
    wide = page.locator(".rules-wide table")
    assert narrow.is_hidden() and wide.is_visible()
    assert wide.locator("th").all_inner_texts()[-2:] == ["Full rest", "Full rest + care"]


def test_an_invalid_calculator_field_is_announced_without_violations(page: Any, open_calculator: Any) -> None:
    form = open_calculator("effect", modifier="lots", difficulty="99")
    field = form.locator('[name="modifier"]')
    assert field.get_attribute("aria-invalid") == "true"
    message = form.locator('[data-error-for="modifier"]')
    assert message.get_attribute("role") == "alert" and message.inner_text().strip()
    problems = check(page, "effect (invalid)")
    assert not problems, summary(problems)


def test_a_calculator_is_fully_operable_by_keyboard(page: Any, open_calculator: Any) -> None:
    form = open_calculator("effect")
    outputs = form.locator("dl.calc-outputs")
    assert outputs.get_attribute("aria-live") == "polite"
    # Tab from the top of the page until the first field of the calculator has focus.
    page.locator("body").focus()
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.name") == "modifier":
            break
    else:
        pytest.fail("Tab never reached the calculator's first field")
    before = outputs.inner_text()
    page.keyboard.press("Control+a")
    page.keyboard.type("5")
    page.wait_for_function("b => document.querySelector('dl.calc-outputs').innerText !== b", arg=before)
    # The stepper buttons are reachable by Tab and press with Enter and Space.
    focused = []
    for _ in range(6):
        page.keyboard.press("Tab")
        focused.append(page.evaluate("[document.activeElement.tagName, document.activeElement.className]"))
        if "calc-step" in focused[-1][1]:
            break
    assert "calc-step" in focused[-1][1], focused
    field = page.evaluate("document.activeElement.parentElement.querySelector('input').name")
    value = form.locator(f'[name="{field}"]').input_value()
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    assert form.locator(f'[name="{field}"]').input_value() != value
    # Every control has a visible focus indicator (the theme's outline or ours), the ruling choices
    # folded in the closed Rulings section too once it is opened.
    for rulings in form.locator("details[data-rulings] > summary").all():
        rulings.press("Enter")
    for control in form.locator("input, select, button:visible").all():
        control.focus()
        style = control.evaluate("e => [getComputedStyle(e).outlineStyle, getComputedStyle(e).boxShadow]")
        assert style[0] != "none" or style[1] != "none", (control.get_attribute("name"), style)
