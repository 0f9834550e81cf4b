"""Each page loads only what it uses, also when reached by instant navigation; warm start.

A reading page asks for no calculator or table script (nor the engine, unless it warms it once idle);
a calculator page gets the calculator runtime and "use my character"; the tracker gets the table apps;
the engine worker lives on across instant navigation.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ._table import DOCS
from .conftest import READY_TIMEOUT_MS, wait_instant_navigation, wait_ready, wait_theme
from .test_first_paint_ux import ADA, CHARACTER_JS, STORED_WORDS
from .test_search import search

# A returning visitor's context (the files cached, the engine restored from its snapshot), each test on a
# page of its own (a whole load, its own init script); the two that hold the engine's file back get a
# fresh context (a route turns the cache off). The theme's search answers in two of them (theme_search).
pytestmark = [
    pytest.mark.browser,
    pytest.mark.returning_visit,
    pytest.mark.own_page,
    pytest.mark.theme_search,
]

OUR_SCRIPTS = re.compile(r"/assets/calculators/(engine|calculators|character|tracker)\.[0-9a-f]{16}\.js$")
HEAVY = re.compile(r"/assets/(pyodide/|calculators/(worker\.|mneme_rules\.))")
NO_WARM = "window.mnemeLoaderConfig = { warm: false };"


def requested(page: Any) -> list[str]:
    found: list[str] = []
    page.on("request", lambda request: found.append(request.url))
    return found


def scripts_in(urls: list[str]) -> set[str]:
    return {m.group(1) for m in (OUR_SCRIPTS.search(u) for u in urls) if m}


def instant_go(page: Any, href: str) -> None:
    """Follow a link the way a player does; the window survives (instant navigation, no reload)."""
    wait_instant_navigation(page)
    page.evaluate("() => { window.__sameWindow = true; }")
    page.evaluate(
        """(href) => {
          const link = Object.assign(document.createElement("a"), {href, id: "go-next"});
          link.textContent = "next";
          document.querySelector("article").append(link);
        }""",
        href,
    )
    page.click("#go-next")
    page.wait_for_function("() => !document.getElementById('go-next')")
    assert page.evaluate("window.__sameWindow === true"), "the page was reloaded, not swapped"


def test_a_reading_page_loads_no_calculator_table_or_engine_file(page: Any) -> None:
    page.add_init_script(NO_WARM)
    urls = requested(page)
    page.goto("rules/checks/")
    page.wait_for_load_state("networkidle")
    assert scripts_in(urls) == set()
    assert [u for u in urls if HEAVY.search(u)] == []
    assert page.evaluate("typeof window.mnemeEngine") == "undefined"
    assert page.evaluate("window.mnemeLoader.loaded()") == []
    # One screen stylesheet of ours; print.css only for print.
    ours = page.evaluate(
        """() => [...document.querySelectorAll('link[rel=stylesheet]')]
          .filter((l) => l.href.includes('/assets/calculators/'))
          .map((l) => [l.href.split('/').pop().split('.')[0], l.media || 'all'])"""
    )
    assert sorted(ours) == [["mneme", "all"], ["print", "print"]]


def test_pages_reached_by_instant_navigation_get_what_they_use_and_keep_one_engine(page: Any) -> None:
    page.add_init_script(NO_WARM)
    urls = requested(page)
    page.goto("rules/checks/")
    page.wait_for_load_state("networkidle")
    instant_go(page, "../../calculators/effect/")
    form = page.locator('form[data-calculator="effect"]')
    wait_ready(form)
    page.wait_for_function("() => window.mnemeTable")  # "use my character" comes after the first result
    assert scripts_in(urls) == {"engine", "calculators", "character"}
    # Its charts came drawn (SVG from Python): no chart script, no chart library.
    assert form.locator("figure.calc-chart svg[role=img] rect").count() > 0
    assert not [u for u in urls if "chart" in u.lower()]
    assert "tracker" not in page.evaluate("window.mnemeLoader.loaded()")
    # The tracker needs the table apps; the engine started on the calculator page answers it too.
    instant_go(page, "../../table/tracker/")
    page.wait_for_function(
        "() => window.mnemeTracker && document.querySelector('[data-mneme-table=tracker]').mnemeBound"
    )
    assert scripts_in(urls) == {"engine", "calculators", "character", "tracker"}
    instant_go(page, "../../calculators/mitigation/")
    wait_ready(page.locator('form[data-calculator="mitigation"]'))
    assert page.evaluate("window.mnemeCalculators.stats.engineStarts") == 1
    # Each script was fetched once, however many pages used it.
    fetched = [m.group(1) for m in (OUR_SCRIPTS.search(u) for u in urls) if m]
    assert sorted(fetched) == sorted(set(fetched)), [u for u in urls if OUR_SCRIPTS.search(u)]


MARKED_JS = "() => document.documentElement.hasAttribute('data-mneme-characters')"


def test_a_calculator_page_reached_from_a_reading_page_names_a_kept_character_before_character_js(
    page: Any,
) -> None:
    """A reading page carries no mark of a kept character (its head has no early script); the calculator
    page instant navigation shows next says "My character" from the moment it is shown, though
    character.js (asked for after the first answer, and held here) has not run in the window yet."""
    held: list[Any] = []
    page.route(CHARACTER_JS, lambda route: held.append(route))
    page.add_init_script(NO_WARM)
    page.goto("rules/checks/")
    key = DOCS + "ada-1"
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, ADA])
    try:
        assert not page.evaluate(MARKED_JS)
        instant_go(page, "../../calculators/attack/")
        assert page.evaluate(MARKED_JS)
        assert page.evaluate("window.mnemeTable") is None
        box = page.locator(".mt-mine")
        assert " ".join(box.inner_text().split()) == STORED_WORDS
        wait_ready(page.locator('form[data-calculator="attack"]'))
        deadline = page.evaluate("Date.now()") + READY_TIMEOUT_MS
        while not held and page.evaluate("Date.now()") < deadline:
            page.wait_for_timeout(200)
        assert held, "character.js was never asked for"
        for route in held:
            route.continue_()
        page.unroute(CHARACTER_JS)
        page.wait_for_function(
            "() => document.querySelector('.mt-mine select')?.value === 'ada-1'", timeout=READY_TIMEOUT_MS
        )
    finally:
        page.evaluate("(k) => localStorage.removeItem(k)", key)


def test_a_reading_page_warms_the_engine_once_idle_and_the_next_calculator_is_live_at_once(page: Any) -> None:
    page.add_init_script("window.mnemeLoaderConfig = { warmDelayMs: 0 };")
    page.goto("glossary/")
    page.wait_for_function(
        "() => window.mnemeEngine && window.mnemeEngine.stats.timings", timeout=180_000, polling=200
    )
    assert page.evaluate("window.mnemeLoader.loaded()") == ["engine"]  # only the engine, nothing else
    instant_go(page, "../calculators/effect/")
    form = page.locator('form[data-calculator="effect"]')
    wait_ready(form)
    assert page.evaluate("window.mnemeEngine.stats.engineStarts") == 1


def test_save_data_keeps_a_reading_page_from_warming_the_engine(page: Any) -> None:
    page.add_init_script(
        "Object.defineProperty(Navigator.prototype, 'connection', {get: () => ({saveData: true})});"
        "window.mnemeLoaderConfig = { warmDelayMs: 0 };"
    )
    urls = requested(page)
    page.goto("glossary/")
    page.wait_for_load_state("networkidle")
    # The warm start would have begun by now: it waits for the load event, then warmDelayMs (0 here),
    # then an idle moment; this idle moment is asked for after that one, and a timer after it runs later.
    page.evaluate("() => new Promise((done) => requestIdleCallback(() => setTimeout(done, 0)))")
    page.evaluate("() => new Promise((done) => requestIdleCallback(() => setTimeout(done, 50)))")
    assert page.evaluate("window.mnemeLoader.loaded()") == []
    assert [u for u in urls if HEAVY.search(u) or OUR_SCRIPTS.search(u)] == []


def test_every_calculator_and_the_table_apps_run_on_the_trimmed_standard_library(
    page: Any, site_dir: Path
) -> None:
    """The site ships python_stdlib.HASH.zip holding only what is imported; every calculator
    page still computes live through Pyodide with it, and the table apps answer through it too."""
    page.add_init_script(NO_WARM)
    (stdlib,) = (site_dir / "assets" / "pyodide").glob("python_stdlib.*.zip")
    assert not (site_dir / "assets" / "pyodide" / "python_stdlib.zip").exists()  # the full one is not shipped
    urls = requested(page)
    names = sorted(p.parent.name for p in (site_dir / "calculators").glob("*/index.html"))
    assert len(names) >= 10
    page.goto(f"calculators/{names[0]}/")
    for index, name in enumerate(names):
        if index:
            instant_go(page, f"../{name}/")
        for form in page.locator("form[data-calculator]").all():
            wait_ready(form)
            assert form.locator("[data-form-error]").inner_text() == "", name
            assert form.get_attribute("data-engine-build"), name
    assert any(u.endswith(f"/assets/pyodide/{stdlib.name}") for u in urls)
    assert page.evaluate("window.mnemeEngine.stats.engineStarts") == 1
    instant_go(page, "../../table/tracker/")
    page.wait_for_function(
        "() => ['ready', 'error'].includes("
        "document.querySelector('[data-mneme-table=tracker]')?.dataset.state)",
        timeout=60_000,
    )
    assert page.locator("[data-mneme-table=tracker]").get_attribute("data-state") == "ready"


def test_a_first_result_equal_to_the_built_page_leaves_its_working_alone(page: Any) -> None:
    """The build renders the working for the default inputs; when the engine's first result says the
    same, the page keeps it (no style and layout pass over a long working on a phone); a new result
    is written over it in place, and its tables stay wrapped to scroll."""
    page.add_init_script(
        """document.addEventListener("DOMContentLoaded", () => {
             window.__rewrites = 0;
             const details = document.querySelector("form[data-calculator] [data-details]");
             // The theme, when it starts, wraps tables to scroll (and makes links absolute): not ours.
             const wrap = (n) =>
               n.nodeName === "TABLE" || (n.matches && n.matches(".md-typeset__scrollwrap"));
             const ours = (r) =>
               r.type === "characterData" || ![...r.addedNodes, ...r.removedNodes].every(wrap);
             new MutationObserver((records) => { window.__rewrites += records.filter(ours).length; })
               .observe(details, { childList: true, subtree: true, characterData: true });
           });"""
    )
    page.goto("calculators/attack/")
    form = page.locator('form[data-calculator="attack"]')
    wait_ready(form)
    wait_theme(page)  # started after the first result
    assert page.evaluate("window.__rewrites") == 0
    # The theme wrapped the working's tables at its start; they stay wrapped (and its links absolute).
    assert form.locator("[data-details] .md-typeset__scrollwrap table").count() > 0
    before = form.locator("[data-details]").inner_text()
    field = form.locator('input[name="modifier"]')
    field.fill("5")
    page.wait_for_function("() => window.__rewrites > 0")
    form.locator("[data-details]").filter(has_text="+ 5").wait_for()
    assert form.locator("[data-details]").inner_text() != before
    assert form.locator("[data-details] .md-typeset__scrollwrap table").count() > 0


def test_the_first_result_is_asked_for_before_the_engine_has_started(page: Any) -> None:
    """The page posts its first compute at once and the worker answers it the moment it has
    started, right after saying so; the page does not wait for "ready" to ask (on a phone its main
    thread is often busy with the theme's script just then, which cost a second trip)."""
    page.add_init_script(
        """window.__posted = [];
           const post = Worker.prototype.postMessage;
           Worker.prototype.postMessage = function (message, ...rest) {
             window.__posted.push([message && message.type, performance.now()]);
             return post.call(this, message, ...rest);
           };"""
    )
    page.goto("calculators/effect/")
    wait_ready(page.locator('form[data-calculator="effect"]'))
    posted, ready, first = page.evaluate(
        """() => [window.__posted,
                  performance.getEntriesByName("mneme:engine-ready")[0].startTime,
                  performance.getEntriesByName("mneme:first-result")[0].startTime]"""
    )
    computes = [at for kind, at in posted if kind == "compute"]
    assert computes and computes[0] < ready <= first


def test_the_fields_keep_their_place_when_the_calculator_binds(
    browser: Any, site_url: str, page: Any
) -> None:
    """The -/+ buttons are in the built page, hidden until the script binds the form; they
    take their room from the start, so the fields do not narrow under the player's thumb (a layout
    shift Lighthouse counted), and until then they cannot be seen or pressed."""
    field = "#calc-effect-modifier"
    bare_context = browser.new_context(base_url=site_url, java_script_enabled=False)
    try:
        bare = bare_context.new_page()
        bare.goto("calculators/effect/")
        before = bare.locator(field).bounding_box()
        step = bare.locator(".calc-step").first
        assert step.evaluate("(el) => el.hidden && getComputedStyle(el).visibility === 'hidden'")
    finally:
        bare_context.close()
    page.goto("calculators/effect/")
    wait_ready(page.locator('form[data-calculator="effect"]'))
    assert page.locator(".calc-step").first.is_visible()
    after = page.locator(field).bounding_box()
    assert before and after and (before["x"], before["width"]) == (after["x"], after["width"])


THEME_AFTER_JS = """(mark) => ({
  mark: performance.getEntriesByName(mark)[0].startTime,
  theme: performance.getEntriesByType("resource")
    .find((r) => /javascripts\\/bundle\\./.test(r.name)).startTime,
})"""
"""When the page reached ``mark`` and when it asked for the theme's script."""


def test_a_calculator_page_starts_the_theme_after_its_first_result_and_the_theme_then_runs_every_page(
    page: Any,
) -> None:
    """On a phone the theme's script is a third of a second of the main thread, just when a
    returning visit's engine answers; a calculator page holds it until the first result is shown.
    Then it runs as on any page: search, and instant navigation to pages whose scripts bind once."""
    page.add_init_script(NO_WARM + "window.mnemeCalculatorConfig = { themeHoldMs: 600000 };")
    urls = requested(page)
    page.goto("calculators/effect/")
    wait_ready(page.locator('form[data-calculator="effect"]'))
    wait_theme(page)
    times = page.evaluate(THEME_AFTER_JS, "mneme:first-result")
    assert times["theme"] > times["mark"], times
    # What our scripts subscribed while the theme was held now follows instant navigation.
    instant_go(page, "../damage/")
    wait_ready(page.locator('form[data-calculator="damage"]'))
    instant_go(page, "../../table/tracker/")
    page.wait_for_function(
        "() => window.mnemeTracker && document.querySelector('[data-mneme-table=tracker]').mnemeBound"
    )
    instant_go(page, "../../rules/checks/")
    instant_go(page, "../../calculators/effect/")
    form = page.locator('form[data-calculator="effect"]')
    wait_ready(form)
    form.locator('input[name="modifier"]').fill("2")
    page.wait_for_function(
        "() => new URLSearchParams(location.search).get('modifier') === '2'"
        " && document.querySelector('form[data-calculator=effect]').dataset.state === 'ready'"
    )
    assert page.evaluate("window.mnemeCalculators.stats.engineStarts") == 1
    fetched = [m.group(1) for m in (OUR_SCRIPTS.search(u) for u in urls) if m]
    assert sorted(fetched) == sorted(set(fetched)), fetched
    assert len([u for u in urls if re.search(r"javascripts/bundle\.", u)]) == 1
    assert search(page, "cover")  # answers: the theme built its search index


def test_the_tracker_starts_the_theme_once_it_has_drawn_the_engine_s_view_and_it_then_runs_every_page(
    page: Any,
) -> None:
    """The table apps' pages hold the theme as a calculator page does (sitebuild/early_engine.py:
    with_held_theme; loader.js holds it): the tracker draws the stored fight, then the
    engine's view of it, and only then does the theme start. It then runs as on any page: instant
    navigation to another table page, whose app binds, and search."""
    page.add_init_script("window.mnemeLoaderConfig = { warm: false, themeHoldMs: 600000 };")
    urls = requested(page)
    page.goto("table/tracker/")
    page.wait_for_function("() => performance.getEntriesByName('mneme:tracker-ready').length > 0")
    assert page.evaluate("window.document$.mnemeStandIn === true")  # drawn, the theme not started yet
    wait_theme(page)
    times = page.evaluate(THEME_AFTER_JS, "mneme:tracker-ready")
    assert times["theme"] > times["mark"], times
    instant_go(page, "../character/")
    page.wait_for_function("() => document.querySelector('[data-mneme-table=character]')?.mnemeBound")
    assert len([u for u in urls if re.search(r"javascripts/bundle\.", u)]) == 1
    assert search(page, "cover")  # answers: the theme built its search index


@pytest.mark.first_visit  # the engine's file held back by a route: a context of its own
def test_a_table_page_with_nothing_for_the_engine_starts_the_theme_without_it(
    context: Any, page: Any
) -> None:
    """The character page with no character kept, and the players' view of a fight, draw without the
    engine: their theme starts as soon as they are drawn (not held into the engine's start), though the
    engine never answers (and its hold would wait ten minutes for a start gone quiet)."""
    context.route(re.compile(r"pyodide\.asm\.wasm$"), lambda route: None)  # never answered
    # A player who never pauses (an edit every 200 ms) and no bound on waiting for a pause: a theme that
    # waited for one would never start.
    page.add_init_script(
        "window.mnemeLoaderConfig = { warm: false, themeHoldMs: 600000, quietWaitMs: 600000 };"
        "setInterval(() => document.dispatchEvent(new Event('input')), 200);"
    )
    for path in ("table/character/", "table/fight/"):
        page.goto(path)
        wait_theme(page)
        assert page.evaluate("() => performance.getEntriesByName('mneme:engine-ready').length") == 0, path


@pytest.mark.first_visit  # the engine's file held back by a route: a context of its own
def test_a_tap_in_the_header_starts_the_held_theme_at_once(context: Any, page: Any) -> None:
    """While the engine's start moves on, the theme waits for the first result (its hold counts only a
    start gone quiet); a player who reaches for the header (search) starts it at once, and search answers."""
    context.route(re.compile(r"pyodide\.asm\.wasm$"), lambda route: None)  # never answered: no result
    page.add_init_script(NO_WARM + "window.mnemeCalculatorConfig = { themeHoldMs: 600000 };")
    page.goto("calculators/effect/")
    page.wait_for_function("() => window.mnemeEngine && window.mnemeEngine.stats.downloaded > 0")
    assert page.evaluate("window.document$.mnemeStandIn === true")  # still held
    assert search(page, "cover")  # the tap in the search box started it
    assert page.evaluate("() => performance.getEntriesByName('mneme:first-result').length") == 0


@pytest.mark.first_visit  # the engine's file held back by a route: a context of its own
def test_the_theme_starts_on_its_own_when_the_engine_is_slow(context: Any, page: Any) -> None:
    """The theme waits for a first result only so long (calculators.js: themeHoldMs); while it
    waits, the page is already drawn as the running theme draws it (the "js" class, set in <head>)."""
    context.route(re.compile(r"pyodide\.asm\.wasm$"), lambda route: None)  # never answered
    page.add_init_script(
        """document.addEventListener("DOMContentLoaded", () => {
          window.__atContentLoaded = [document.documentElement.className, !!window.document$.mnemeStandIn];
        }, { once: true });"""
    )
    page.goto("calculators/effect/")
    assert page.evaluate("window.__atContentLoaded") == ["js", True]
    wait_theme(page)
    assert page.locator('form[data-calculator="effect"]').get_attribute("data-state") == "loading"
    assert page.evaluate("() => performance.getEntriesByName('mneme:first-result').length") == 0
