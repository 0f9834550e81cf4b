"""Edits answered at once while the page is still starting (``browser/lib/tasks.js``: ``whenQuiet``).

On a calculator page the theme's start (its stylesheets, its script, its mounting), the offline copy's
registration and "use my character" wait for a pause in the player's input after the first answer,
not only for an idle page (between two edits the page is idle while the engine computes). Here a
player types from the moment the first answer shows, each edit right after the last one's answer:

- none of them starts while the player types; each starts once the player has paused for QUIET_MS;
  every answer is CPython's;
- a player who never pauses still gets the theme, at the bound on the wait (``quietWaitMs``);
- a player who reaches for the header while typing gets the theme at once;
- each edit keeps its values for a reload once, not again when its answer comes.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from ._forms import EDITS_JS
from .conftest import READY_TIMEOUT_MS, outputs, wait_ready, wait_theme

pytestmark = [pytest.mark.browser, pytest.mark.returning_visit]

QUIET_MS = 1500
"""lib/tasks.js' QUIET_MS: the pause in the player's input that what can wait waits for."""

TYPIST_JS = """
window.__typist = { edits: [], stop: false, done: null, themeWhileTyping: false };
// From the first answer on, one edit after another, each as soon as the last one is answered (as the
// phone bench types), for `ms`; what the page ran meanwhile is read when it stops.
window.__type = (ms) => {
  const form = document.querySelector('form[data-calculator="effect"]');
  const input = form.querySelector('[name="modifier"]');
  const end = performance.now() + ms;
  let i = 0;
  return new Promise((resolve) => {
    const step = () => {
      if (performance.now() >= end || __typist.stop) {
        __typist.themeWhileTyping = !window.document$.mnemeStandIn;
        __typist.done = performance.now();
        return resolve();
      }
      form.addEventListener("calculator:result", () => setTimeout(step, 30), { once: true });
      input.value = String((i++ % 21) - 10);
      __typist.edits.push([performance.now(), input.value]);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    };
    step();
  });
};
document.addEventListener("calculator:result", () => window.__type(window.__typeMs), { once: true });
"""

STARTS_JS = """() => {
  const started = (pattern) => {
    const entry = performance.getEntriesByType("resource").find((r) => pattern.test(r.name));
    return entry ? entry.startTime : null;
  };
  return {
    first: performance.getEntriesByName("mneme:first-result")[0].startTime,
    edits: __typist.edits,
    done: __typist.done,
    themeWhileTyping: __typist.themeWhileTyping,
    theme: started(/javascripts\\/bundle\\./),
    character: started(/calculators\\/character\\.[0-9a-f]+\\.js$/),
    registered: window.__registered,
  };
}"""

REGISTER_SEEN_JS = """
// The offline copy's registration is on for this page; the call is recorded and never answered (no
// copy saved: 17 MB into Cache Storage the test does not need).
window.mnemeOfflineConfig = { register: true };
window.__registered = null;
ServiceWorkerContainer.prototype.register = function () {
  window.__registered = performance.now();
  return new Promise(() => {});
};
"""


def typed(page: Any, ms: int, quiet_wait_ms: int | None = None) -> dict[str, Any]:
    """Open the Effect calculator with a player typing for ``ms`` from its first answer (the theme held
    until that answer however slow the engine's start: ``themeHoldMs``); once the typing stopped, what
    started when (ms on the page's clock)."""
    config = {"themeHoldMs": 600000} | ({"quietWaitMs": quiet_wait_ms} if quiet_wait_ms else {})
    page.add_init_script(
        f"window.__typeMs = {ms}; window.mnemeCalculatorConfig = {json.dumps(config)};"
        + TYPIST_JS
        + REGISTER_SEEN_JS
    )
    page.goto("calculators/effect/?modifier=0&difficulty=8&roll=9")
    page.wait_for_function("() => window.__typist && window.__typist.done", timeout=READY_TIMEOUT_MS)
    return dict(page.evaluate(STARTS_JS))


@pytest.mark.own_page  # its own init scripts
def test_what_can_wait_starts_only_once_the_player_pauses(page: Any, python_outputs: Any) -> None:
    """Typing for 3 s from the first answer: the theme, the offline copy's registration and "use my
    character" start none of their work meanwhile, and each starts once the player has paused for
    QUIET_MS after the last edit."""
    seen = typed(page, 3000)
    last_edit, last_value = seen["edits"][-1]
    assert len(seen["edits"]) >= 5 and seen["edits"][0][0] - seen["first"] < 500, seen
    assert not seen["themeWhileTyping"]
    wait_theme(page)
    page.wait_for_function("() => window.__registered && window.mnemeTable")
    seen = page.evaluate(STARTS_JS)
    for what in ("theme", "character", "registered"):
        assert seen[what] >= last_edit + QUIET_MS - 50, (what, seen[what], last_edit)
    form = page.locator('form[data-calculator="effect"]')
    wait_ready(form)
    assert outputs(form) == python_outputs("effect", modifier=last_value, difficulty=8, roll=9)


@pytest.mark.own_page  # its own init scripts
def test_a_player_who_never_pauses_still_gets_the_theme_at_the_bound(page: Any) -> None:
    """Typing for 6 s with the theme's wait bounded at 2 s: the theme starts while the player still
    types, not before the bound."""
    seen = typed(page, 6000, quiet_wait_ms=2000)
    assert seen["themeWhileTyping"], seen
    assert seen["first"] + 2000 - 50 <= seen["theme"] < seen["done"], seen


@pytest.mark.own_page  # its own init scripts
def test_a_tap_in_the_header_while_typing_starts_the_theme_at_once(page: Any) -> None:
    """A player typing without a pause who taps the header (search) gets the theme at once."""
    page.add_init_script(
        "window.__typeMs = 60000; window.mnemeCalculatorConfig = { themeHoldMs: 600000 };" + TYPIST_JS
    )
    page.goto("calculators/effect/")
    page.wait_for_function(
        "() => window.__typist && window.__typist.edits.length >= 3", timeout=READY_TIMEOUT_MS
    )
    assert page.evaluate("window.document$.mnemeStandIn === true")
    page.locator(".md-header").dispatch_event("pointerdown")
    wait_theme(page)
    assert page.evaluate("window.__typist.done") is None  # still typing
    page.evaluate("() => { window.__typist.stop = true; }")
    page.wait_for_function("() => window.__typist.done")


KEPT_WRITES_JS = """() => {
  window.__keptWrites = [];
  const write = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (key === "mneme-calculator-unwritten") window.__keptWrites.push(JSON.parse(value).values.modifier);
    return write.call(this, key, value);
  };
}"""


@pytest.mark.own_page  # its own calculator settings (an init script)
def test_each_edit_keeps_the_newest_values_once(page: Any, open_calculator: Any, python_outputs: Any) -> None:
    """Until the address is written, each edit keeps its values for a reload (sessionStorage): written
    once per edit, not again when its answer comes; a reload still takes the newest back."""
    page.add_init_script("window.mnemeCalculatorConfig = { urlQuietMs: 600000 };")
    form = open_calculator("effect", modifier=0, difficulty=8, roll=9)
    page.evaluate(KEPT_WRITES_JS)
    edits = ["1", "2", "3", "2", "5"]
    page.evaluate(EDITS_JS, [form.element_handle(), edits])
    assert page.evaluate("window.__keptWrites") == edits
    page.reload()
    wait_ready(form)
    assert form.locator('[name="modifier"]').input_value() == "5"
    assert outputs(form) == python_outputs("effect", modifier=5, difficulty=8, roll=9)
