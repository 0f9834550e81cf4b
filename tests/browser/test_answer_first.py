"""The answer first, at the table on a phone, in headless Chromium at 360x780.

- Every calculator page keeps its one-line answer (``[data-summary]``) on screen, and not empty, while
  the first, a middle and the last field has the focus.
- One attack on a hit shows only the outputs that apply: no visible "—".
- Hand-off links carry the live numbers: Mitigation (fail effect 5, cover 2) -> Damage makes 3 rolls;
  Thresholds (damage 14) -> Healing starts from 14 damage.
- Readings of the source fold into a closed "Rulings" section that says when one is not the default.
- While the engine starts: the download progress shows, an edit marks the shown result out of date,
  and the edits made meanwhile apply in order (the last one wins). Once it is live, an edit is marked
  at once but dimmed only when its answer is late, and the working is rewritten in place.
- The navigation drawer, off screen, is not laid out until it opens; opened, its links show.
- A link value longer than the field accepts is refused with a message beside it, never cut.
- The address follows the values once the page is quiet, or at once when the player may leave; a run
  of edits is answered without writing it at each one, and a reload before it is written keeps the
  newest values.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from ._forms import EDITS_JS, follow_link
from .conftest import READY_TIMEOUT_MS, outputs, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.returning_visit]

PHONE = {"width": 360, "height": 780}
EMPTY = "\u2014"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "calculators"
PAGES = sorted(p.stem for p in DOCS.glob("*.md") if p.stem != "index")
"""Every calculator page (``docs/calculators/NAME.md``)."""

VISIBLE_FIELDS = (
    "f => [...f.querySelectorAll('input[name], select[name]')]"
    ".filter(e => e.getClientRects().length > 0).map(e => e.name)"
)
SUMMARY_IN_VIEW = """f => {
  const s = f.querySelector('[data-summary]');
  const r = s.getBoundingClientRect();
  return {text: s.textContent.trim(), top: r.top, bottom: r.bottom, height: r.height,
          inView: r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight};
}"""


def test_the_answer_stays_in_view_while_any_field_is_edited_on_a_phone(page: Any) -> None:
    """At 360x780, focus on the first, a middle and the last field of every calculator leaves the
    answer in words on screen, not empty."""
    page.set_viewport_size(PHONE)
    page.goto(f"calculators/{PAGES[0]}/")
    for slug in PAGES:
        if slug != PAGES[0]:  # one engine for the whole walk: the site's instant navigation
            follow_link(page, f"calculators/{slug}/", "form[data-calculator]")
        form = page.locator("form[data-calculator]").first
        names = form.evaluate(VISIBLE_FIELDS)
        assert len(names) >= 2, slug
        for name in (names[0], names[len(names) // 2], names[-1]):
            form.locator(f'[name="{name}"]').focus()
            state = form.evaluate(SUMMARY_IN_VIEW)
            assert state["inView"], (slug, name, state)
            assert state["text"] and state["text"] != EMPTY, (slug, name)


def test_a_hit_in_one_attack_shows_no_dash(page: Any, open_calculator: Any) -> None:
    """On a hit the failure-side outputs do not apply: they are hidden, and no visible one reads "—"."""
    page.set_viewport_size(PHONE)
    form = open_calculator("attack", modifier=2, roll=9)
    assert outputs(form)["outcome"] == "success"
    shown = form.evaluate(
        "f => [...f.querySelectorAll('[data-output]')].filter(e => e.getClientRects().length > 0)"
        ".map(e => [e.dataset.output, e.textContent])"
    )
    assert shown and all(text != EMPTY for _, text in shown), shown
    assert "remaining" not in dict(shown) and dict(shown)["summary"].startswith("Hit (Effect +3)")
    # A miss hides the hit-only ones; the adversary's reply is not rolled from the hidden "I'm attacked"
    # fields: the answer hands the margin to that side.
    form.locator('[name="roll"]').fill("3")
    page.wait_for_function(
        "f => f.querySelector('[data-output=\"outcome\"]').textContent === 'failure'"
        " && !f.hasAttribute('data-stale')",
        arg=form.element_handle(),
    )
    assert not form.locator('[data-output="remaining"]').is_visible()
    assert not form.locator('[data-output="adversary_cover_rolls"]').is_visible()
    assert "failed_by=3" in (form.locator('a[data-handoff="attack"]').get_attribute("href") or "")


def test_mitigation_hands_the_rolls_left_to_the_damage_calculator(page: Any, open_calculator: Any) -> None:
    """Fail effect 5, cover 2: 3 rolls are left, and the live Next link opens Damage with those 3."""
    form = open_calculator("mitigation", fail_effect=5, cover=2)
    assert outputs(form)["remaining"] == "3"
    form.locator('a[data-handoff="damage"]').click()
    damage = page.locator('form[data-calculator="damage"]')
    wait_ready(damage)
    assert outputs(damage)["rolls"] == "3"
    # The link follows the form: cover 4 leaves 1 roll.
    page.go_back()
    form = page.locator('form[data-calculator="mitigation"]')
    wait_ready(form)
    form.locator('[name="cover"]').fill("4")
    page.wait_for_function(
        "f => f.querySelector('[data-output=\"remaining\"]').textContent === '1'"
        " && !f.hasAttribute('data-stale')",
        arg=form.element_handle(),
    )
    assert "effect=-1" in (form.locator('a[data-handoff="damage"]').get_attribute("href") or "")


def test_thresholds_hand_the_damage_to_the_healing_calculator(page: Any, open_calculator: Any) -> None:
    """Thresholds with 14 damage: the Next link opens Healing with 14 damage and the same characteristics."""
    form = open_calculator("thresholds", damage=14)
    form.locator('a[data-handoff="healing"]').click()
    healing = page.locator('form[data-calculator="healing"]')
    wait_ready(healing)
    assert healing.locator('[name="damage"]').input_value() == "14"
    assert (
        healing.locator("[data-summary]")
        .inner_text()
        .endswith(
            "with 14 damage; "
            + outputs(healing)["days"]
            + " days to heal fully, care level "
            + outputs(healing)["care_level"]
            + "."
        )
    )


def test_readings_fold_into_a_closed_rulings_section(page: Any, open_calculator: Any) -> None:
    """The "(ruling)" choices sit in a closed Rulings section; its title counts those not the default."""
    form = open_calculator("attack", cover_cap="doubling_only")
    fold = form.locator("details[data-rulings]")
    assert fold.get_attribute("open") is None
    assert fold.locator("summary").inner_text() == "Rulings (1 not default)"
    assert not form.locator('[name="order"]').is_visible()
    fold.locator("summary").click()
    form.locator('[name="cover_cap"]').select_option("always")
    assert fold.locator("summary").inner_text() == "Rulings (all default)"


DRAWER_LIST = ".md-nav--primary > .md-nav__list"
DRAWER_SKIPPED = f"""() => !document.querySelector("{DRAWER_LIST}").firstElementChild
  .checkVisibility({{ contentVisibilityAuto: true }})"""
"""Whether the browser skips the drawer's list (content-visibility: auto, rules.css): not laid out."""


def test_the_closed_navigation_drawer_is_not_laid_out_and_shows_once_opened(
    page: Any, open_calculator: Any
) -> None:
    page.set_viewport_size(PHONE)
    open_calculator("effect")
    assert page.evaluate(DRAWER_SKIPPED)
    # Still there for a screen reader and the keyboard: the links are in the page, not hidden from it.
    link = page.locator(f"{DRAWER_LIST} a.md-nav__link--active")
    assert link.count() == 1 and link.get_attribute("href")
    expect(page.get_by_role("navigation", name="Navigation").get_by_role("link").first).to_be_attached()
    # Opened (the header's menu button): the list is laid out and its current page's link is on screen.
    page.locator(".md-header label[for='__drawer']").click()
    page.wait_for_function(f"() => !({DRAWER_SKIPPED})()")
    page.wait_for_function(
        """(sel) => [...document.querySelectorAll(sel + " .md-nav__link--active")].some((el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= innerWidth; })""",
        arg=DRAWER_LIST,
    )
    expect(page.locator(f"{DRAWER_LIST} .md-nav__link--active").first).to_be_visible()
    page.evaluate(
        "() => { const d = document.getElementById('__drawer'); d.checked = false;"
        " d.dispatchEvent(new Event('change')); }"
    )


def test_an_over_long_link_value_is_refused_beside_its_field(page: Any) -> None:
    """A value longer than the field takes is not cut and used: the field keeps its default and says why."""
    page.goto("calculators/attack/?damage=" + "3" * 41 + "d6&difficulty=" + "9" * 14 + "&roll=10")
    form = page.locator('form[data-calculator="attack"]')
    wait_ready(form)
    assert form.locator('[name="damage"]').input_value() == "3d6"
    assert form.locator('[name="difficulty"]').input_value() == "8"
    assert form.locator('[name="roll"]').input_value() == "10"
    assert "too long (at most 40 characters)" in form.locator('[data-error-for="damage"]').inner_text()
    assert "too long (at most 13 characters)" in form.locator('[data-error-for="difficulty"]').inner_text()
    form.locator('[name="damage"]').fill("2d6")
    page.wait_for_function(
        "f => f.querySelector('[data-error-for=\"damage\"]').textContent === ''"
        " && !f.hasAttribute('data-stale')",
        arg=form.element_handle(),
    )


@pytest.mark.first_visit  # the engine must start from nothing here
def test_while_the_engine_starts_edits_are_marked_out_of_date_and_apply_in_order(page: Any) -> None:
    """With the engine's largest file held back: the status shows the bytes downloaded so far, an edit
    marks the prerendered result out of date (visibly), and once the engine is up the result is the one
    for the last edit."""
    held: list[Any] = []
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto("calculators/effect/")
    form = page.locator('form[data-calculator="effect"]')
    page.wait_for_function("() => document.querySelector('[data-status]').textContent.includes('kB')")
    assert "kB of the engine downloaded" in form.locator("[data-status]").inner_text()
    difficulty = form.locator('[name="difficulty"]')
    for value in ("9", "10", "12"):
        difficulty.fill(value)
    assert form.get_attribute("data-stale") is not None
    # The mark appears after a short delay (no flicker on a fast answer): wait for it, not a fixed time.
    expect(form.locator("[data-stale-mark]")).to_be_visible(timeout=10_000)
    assert form.get_attribute("data-state") == "loading"
    for route in held:
        route.continue_()
    page.unroute("**/pyodide.asm.wasm")
    page.wait_for_function(
        "f => f.dataset.state === 'ready' && !f.hasAttribute('data-stale')",
        arg=form.element_handle(),
        timeout=READY_TIMEOUT_MS,
    )
    assert outputs(form)["chance"] == "2.78%"  # difficulty 12 on 2d6: 1/36
    assert not form.locator("[data-stale-mark]").is_visible()


def test_a_live_edit_rewrites_only_what_changed_and_looks_out_of_date_only_when_late(
    page: Any, open_calculator: Any
) -> None:
    """With the engine live, an edit marks the result out of date at once (``data-stale``) but
    does not dim it (``data-stale-shown`` waits for a late answer); the new working is written over the
    shown one in place (its list is the same element) and reads exactly as the engine's HTML."""
    form = open_calculator("effect", modifier=0, difficulty=8, roll=9)
    marked = page.evaluate(
        """f => {
          f.querySelector('[data-details] ol').mnemeKept = true;
          const input = f.querySelector('[name="modifier"]');
          input.value = '3';
          input.dispatchEvent(new Event('input', {bubbles: true}));
          return [f.hasAttribute('data-stale'), f.hasAttribute('data-stale-shown')];
        }""",
        form.element_handle(),
    )
    assert marked == [True, False]
    wait_ready(form)
    kept, same = page.evaluate(
        """async f => {
          const details = f.querySelector('[data-details]');
          const values = Object.fromEntries([...f.querySelectorAll('input[name], select[name]')].map(
            e => [e.name, e.type === 'checkbox' ? (e.checked ? '1' : '0') : e.value]));
          const payload = await window.mnemeEngine.get().compute('effect', values, f.dataset.root || '');
          const engine = document.createElement('div');
          engine.innerHTML = payload.details;
          // Both as the theme leaves a page: links absolute; the shown one without its scroll boxes.
          const shown = details.cloneNode(true);
          for (const box of shown.querySelectorAll('.md-typeset__scrollwrap')) {
            box.replaceWith(box.querySelector('table'));
          }
          // A chart in view (beside the form on a wide screen) is drawn: compared by its data alone.
          for (const root of [engine, shown]) {
            for (const figure of root.querySelectorAll('figure[data-series]')) {
              figure.replaceWith(figure.dataset.series);
            }
          }
          for (const a of [...engine.querySelectorAll('a[href]'), ...shown.querySelectorAll('a[href]')]) {
            a.setAttribute('href', a.href);
          }
          // The same nodes: attributes compared as sets (an update may leave them in another order).
          const read = document.createElement('div');
          read.innerHTML = shown.innerHTML;
          return [details.querySelector('ol').mnemeKept === true, read.isEqualNode(engine)];
        }""",
        form.element_handle(),
    )
    assert kept and same
    assert form.get_attribute("data-stale-shown") is None


WRITES_JS = """() => {
  window.__addressWrites = 0;
  const write = history.replaceState.bind(history);
  // Only writes of the address count (the theme keeps its scroll place in the state, address unchanged).
  history.replaceState = (state, unused, url) => {
    if (url !== undefined && new URL(url, location.href).href !== location.href) window.__addressWrites += 1;
    return url === undefined ? write(state, unused) : write(state, unused, url);
  };
}"""
ADDRESS_JS = """f => {
  const values = Object.fromEntries([...f.querySelectorAll('input[name], select[name]')].map(
    e => [e.name, e.type === 'checkbox' ? (e.checked ? '1' : '0') : e.value]));
  const address = Object.fromEntries(new URLSearchParams(location.search));
  return {writes: window.__addressWrites, follows: JSON.stringify(values) === JSON.stringify(address)};
}"""
LEAVING = [
    (
        "a reload key",
        "() => document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'F5', bubbles: true}))",
    ),
    ("a click outside the form", "() => document.querySelector('article h1').click()"),
    (
        "the page hidden",
        """() => {
          Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
          document.dispatchEvent(new Event('visibilitychange'));
          delete document.visibilityState;
        }""",
    ),
    ("the page left", "() => window.dispatchEvent(new PageTransitionEvent('pagehide'))"),
]


@pytest.mark.own_page  # its own calculator settings (an init script)
def test_the_address_follows_the_values_when_the_page_is_quiet_or_the_player_may_leave(
    page: Any, open_calculator: Any, python_outputs: Any
) -> None:
    """Writing the address costs a phone's main thread, so a run of edits is answered without
    it; the address follows once the page is quiet, and at once on a click outside the form (a link,
    Update), a reload key, the page hidden or left. Here the quiet wait is made endless, so only those
    moments write; with the default wait the address follows by itself (``_forms.url_query``)."""
    page.add_init_script("window.mnemeCalculatorConfig = { urlQuietMs: 600000 };")
    form = open_calculator("effect", modifier=0, difficulty=8, roll=9)
    page.evaluate(WRITES_JS)
    page.evaluate(EDITS_JS, [form.element_handle(), [str(v) for v in range(1, 11)]])
    assert outputs(form) == python_outputs("effect", modifier=10, difficulty=8, roll=9)
    assert page.evaluate(ADDRESS_JS, form.element_handle()) == {"writes": 0, "follows": False}

    for written, (moment, leave) in enumerate(LEAVING, start=1):
        page.evaluate(EDITS_JS, [form.element_handle(), [str(-written)]])
        form.locator(".calc-step").first.click()  # a tap inside the form is an edit, not a leaving
        wait_ready(form)
        assert page.evaluate(ADDRESS_JS, form.element_handle()) == {
            "writes": written - 1,
            "follows": False,
        }, moment
        page.evaluate(leave)
        assert page.evaluate(ADDRESS_JS, form.element_handle()) == {"writes": written, "follows": True}, (
            moment
        )


@pytest.mark.own_page  # its own calculator settings (an init script)
def test_a_reload_before_the_address_is_written_keeps_the_newest_values(
    page: Any, open_calculator: Any, python_outputs: Any
) -> None:
    """A reload cannot be delayed by the page, so values not yet in the address are kept in
    the tab's sessionStorage beside the address they are newer than; a reload of that address takes
    them back, opening the address anew does not, and unreadable storage leaves the address alone."""
    page.add_init_script("window.mnemeCalculatorConfig = { urlQuietMs: 600000 };")
    form = open_calculator("effect", modifier=0, difficulty=8, roll=9)
    page.evaluate(EDITS_JS, [form.element_handle(), ["4"]])
    assert "modifier=0" in page.evaluate("location.search")  # not written yet
    page.reload()
    wait_ready(form)
    assert form.locator('[name="modifier"]').input_value() == "4"
    assert outputs(form) == python_outputs("effect", modifier=4, difficulty=8, roll=9)

    page.evaluate(EDITS_JS, [form.element_handle(), ["5"]])
    page.goto(page.evaluate("location.href"))  # opened anew, not reloaded: the address rules
    wait_ready(form)
    assert form.locator('[name="modifier"]').input_value() == "0"

    page.evaluate(EDITS_JS, [form.element_handle(), ["6"]])
    page.evaluate("() => sessionStorage.setItem('mneme-calculator-unwritten', '{not json')")
    page.reload()
    wait_ready(form)
    assert form.locator('[name="modifier"]').input_value() == "0"
