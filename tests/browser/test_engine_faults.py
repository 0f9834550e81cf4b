"""An engine that never stays dead, and a start that finishes on a slow link, on a 360 x 780 phone.

Each fault is replayed on the running engine's worker itself (Playwright's handle on it): a worker
that hangs in a loop, one that closes without a word, one whose error no one reported; then a link so
slow that a fixed start timeout would have cut the download, and a link that drops midway (the engine
goes on by itself from what had arrived). The heartbeat's measures are shortened by the page's
configuration (``window.mnemeCalculatorConfig``) so each fault is found in seconds. (A tab left behind
by "Update now" in another tab, on two real builds: ``test_updates.py``.)
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import pytest
from _pages import Link, PagesServer

from .conftest import PageLog, outputs, wait_ready

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 780}
QUICK = "window.mnemeCalculatorConfig = { pingMs: 250, silenceMs: 3000, bootTimeoutMs: 60000 };"
FIND_MS = 20_000
"""How long a test waits for a fault to be found and answered (the silence allowed is 3 s)."""

# Each a moment after Playwright has its answer (a worker closed under an evaluation fails the test).
HANG = "setTimeout(() => { for (;;) {} }, 300)"
CLOSE = "setTimeout(() => self.close(), 300)"
THROW = "setTimeout(() => { throw new Error('boom in the engine'); }, 300)"


def is_engine(url: str) -> bool:
    """An engine's worker: from its file, or from a blob (the early start's; the theme's search worker
    is a file)."""
    return "/worker." in url or url.startswith("blob:")


def engine_worker(page: Any, seen: set[str]) -> Any:
    """The engine's worker now running (the newest one not seen before)."""
    page.wait_for_function(
        "() => window.mnemeEngine && window.mnemeEngine.stats.engineStarts > 0", timeout=FIND_MS
    )
    for _ in range(100):
        # The early start runs it from a blob (its text in the page); a restart from its file.
        fresh = [w for w in page.workers if is_engine(w.url) and id(w) not in seen]
        if fresh:
            seen.add(id(fresh[-1]))
            return fresh[-1]
        page.wait_for_timeout(100)
    raise AssertionError("no new engine worker")


def slow_link(context: Any, page: Any, latency_ms: int, bytes_per_s: int) -> Any:
    """The page's link slowed by CDP (the page and its workers; the CDP session is returned)."""
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    conditions = {"offline": False, "latency": latency_ms, "downloadThroughput": bytes_per_s}
    cdp.send("Network.emulateNetworkConditions", {**conditions, "uploadThroughput": 100_000})
    return cdp


def stats(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("() => ({...window.mnemeEngine.stats})")
    return found


def state_of(form: Any) -> tuple[str, str]:
    return form.get_attribute("data-state") or "", form.locator("[data-status]").inner_text()


def wait_state(form: Any, state: str) -> None:
    form.page.wait_for_function(
        "([f, s]) => f.dataset.state === s", arg=[form.element_handle(), state], timeout=FIND_MS
    )


SNAPSHOT_MADE_JS = """async () => {
  for (const name of await caches.keys()) {
    const kept = name.startsWith("mneme-engine-snapshot") && (await (await caches.open(name)).keys());
    if (kept && kept.length) return true;
  }
  return false;
}"""


@pytest.mark.first_visit
def test_a_hung_a_silent_and_a_broken_worker_are_each_found_replaced_once_and_never_shown_live(
    page: Any, page_log: PageLog, python_outputs: Any
) -> None:
    page_log.allow(r"boom in the engine|engine")
    page.set_viewport_size(PHONE)
    page.add_init_script(QUICK)
    # Every moment the status said "Live" while the engine had failed.
    page.add_init_script(
        """window.__liveOverDead = 0;
           document.addEventListener("DOMContentLoaded", () => {
             const status = document.querySelector("form[data-calculator] [data-status]");
             new MutationObserver(() => {
               const form = status.closest("form");
               const live = status.textContent.startsWith("Live");
               if (live && form.dataset.state !== "ready") window.__liveOverDead++;
             }).observe(status, { childList: true, characterData: true, subtree: true });
           });"""
    )
    page.goto("calculators/effect/")
    form = page.locator('form[data-calculator="effect"]')
    wait_ready(form)
    seen: set[str] = set()
    first = engine_worker(page, seen)
    # The first visit's engine makes its memory snapshot a moment after it starts (its thread busy
    # for a while): the faults come after that, each at once.
    page.wait_for_function(SNAPSHOT_MADE_JS, timeout=FIND_MS, polling=200)

    # 1. Hangs in a loop while an edit and a tracker call wait: found, replaced, both answered.
    first.evaluate(HANG)
    page.wait_for_timeout(600)  # it hangs now
    form.locator('[name="modifier"]').fill("2")
    answered = page.evaluate(
        """() => window.mnemeEngine.call("table.api", "derive_tracker", {tracker: {}})
                 .then(() => true, (e) => e.message)"""
    )
    assert answered is True
    wait_ready(form)
    assert outputs(form) == python_outputs("effect", modifier=2)
    assert stats(page)["restarts"] == 1
    assert state_of(form)[1].startswith("Live")

    # 2. The replacement closes without a word while idle: found by the heartbeat; not replaced again,
    # the form says the calculator stopped and offers Retry (never "Live" over it).
    engine_worker(page, seen).evaluate(CLOSE)
    wait_state(form, "error")
    status = state_of(form)[1]
    assert "stopped again" in status and "did not answer" in status and "Live" not in status
    retry = form.get_by_role("button", name="Retry")
    assert retry.is_visible()
    assert stats(page)["restarts"] == 1

    # 3. Retry starts a new engine, which answers.
    retry.click()
    wait_ready(form)
    assert not retry.is_visible()

    # 4. An error inside it that no one reported: replaced by itself; the form goes live again.
    engine_worker(page, seen).evaluate(THROW)
    page.wait_for_function("() => window.mnemeEngine.stats.restarts === 2", timeout=FIND_MS)
    wait_ready(form)
    assert state_of(form)[1].startswith("Live")

    # 5. The replacement hangs under an edit: no third engine by itself; the result never stays
    # "updating" for good, and a tracker call fails with a sentence.
    engine_worker(page, seen).evaluate(HANG)
    page.wait_for_timeout(600)  # it hangs now
    form.locator('[name="modifier"]').fill("4")
    refused = page.evaluate(
        """() => window.mnemeEngine.call("table.api", "derive_tracker", {tracker: {}})
                 .then((r) => "answered", (e) => e.message)"""
    )
    assert refused.startswith("the rules engine stopped again (it did not answer for 3 s)")
    wait_state(form, "error")
    mark = form.locator("[data-stale-mark]")
    assert mark.is_visible() and mark.inner_text() == "Out of date: the live calculator has stopped."
    assert page.evaluate("window.__liveOverDead") == 0
    assert stats(page)["restarts"] == 2


PROGRESS_LOG = """window.__progress = [];
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver(() => {
    const box = document.querySelector("[data-engine-progress]");
    const last = window.__progress[window.__progress.length - 1];
    const text = box ? box.textContent : null;
    const value = box ? box.querySelector("progress").value : null;
    if (!last || last.text !== text || last.value !== value) {
      const r = box && box.getBoundingClientRect();
      window.__progress.push({ text, value,
        max: box ? box.querySelector("progress").max : null,
        inView: !!r && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth,
        top: r ? Math.round(r.top) : null, at: Math.round(performance.now()),
        theme: !(window.document$ && window.document$.mnemeStandIn),
        state: document.querySelector("form[data-calculator]").dataset.state });
    }
  }).observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
});"""


@pytest.mark.first_visit
def test_a_slow_link_gets_an_engine_with_its_progress_beside_the_answer_until_it_is_ready(
    page: Any, context: Any
) -> None:
    """About 12 MB over a link of 2.5 MB/s: the download takes more than twice the start's measure of
    stillness (2 s here; 30 s by default), as 9.6 MB at 100 KB/s took longer than the old fixed 60 s.
    It is never cut while bytes arrive; the answer bar shows the whole engine's bytes, WebAssembly
    included, rising to the total, on the phone's screen, and then the progress is gone."""
    page.set_viewport_size(PHONE)
    page.add_init_script("window.mnemeCalculatorConfig = { bootTimeoutMs: 2000, pingMs: 500 };")
    page.add_init_script(PROGRESS_LOG)
    slow_link(context, page, latency_ms=40, bytes_per_s=2_500_000)
    page.goto("calculators/effect/")
    form = page.locator('form[data-calculator="effect"]')
    wait_ready(form)
    seen = page.evaluate("window.__progress")
    engine = stats(page)
    assert engine["engineStarts"] == 1 and engine["restarts"] == 0
    shown = [s for s in seen if s["text"]]
    assert len(shown) >= 5, seen  # it moved while the engine downloaded, not in one jump
    assert all(s["state"] == "loading" for s in shown), shown
    # On the phone's screen from the moment the page is styled (its stylesheets share the slow link).
    styled = next(i for i, s in enumerate(shown) if s["inView"])
    # (Said when it fails: each moment off the screen, with whether the theme's held script had started.)
    after = enumerate(shown[styled:], styled)
    off = [(i, s["top"], s["at"], s["theme"]) for i, s in after if not s["inView"]]
    assert not off and len(shown[styled:]) >= 5, (off, len(shown), styled)
    values = [s["value"] for s in shown]
    assert values == sorted(values)
    total = engine["total"]
    assert total > 9_600_000  # the whole engine, WebAssembly included
    assert shown[-1]["max"] == total and shown[-1]["value"] == total, shown[-1]
    kilobytes = round(total / 1000)
    assert shown[-1]["text"] == f"Loading the engine: {kilobytes} of {kilobytes} kB"
    assert seen[-1]["text"] is None  # gone once the engine is ready
    assert form.locator("[data-engine-progress]").count() == 0


# Each moment the page's stylesheets change: how many are in force, and whether the theme has started.
SHEETS_LOG = """window.__sheets = [];
const note = () => {
  const theme = !!(window.document$ && !window.document$.mnemeStandIn);
  const now = { sheets: document.styleSheets.length, theme };
  const last = window.__sheets[window.__sheets.length - 1];
  if (!last || last.sheets !== now.sheets || last.theme !== now.theme) window.__sheets.push(now);
};
new MutationObserver(note).observe(document, { childList: true, subtree: true, attributes: true });
const frame = () => {
  note();
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
document.addEventListener("load", note, true);
// Each time a script sets a stylesheet link's address: was its sheet loaded, and how many sheets
// were in force just before, just after and at the next frame.
window.__rewrites = [];
const href = Object.getOwnPropertyDescriptor(HTMLLinkElement.prototype, "href");
Object.defineProperty(HTMLLinkElement.prototype, "href", {
  configurable: true,
  get: href.get,
  set(value) {
    const stylesheet = this.rel === "stylesheet";
    const before = document.styleSheets.length;
    const rewrite = stylesheet && { from: this.getAttribute("href"), loaded: !!this.sheet, before };
    href.set.call(this, value);
    if (!rewrite) return;
    rewrite.after = document.styleSheets.length;
    window.__rewrites.push(rewrite);
    requestAnimationFrame(() => (rewrite.frame = document.styleSheets.length));
  },
});"""


@pytest.mark.first_visit
def test_a_reading_page_on_a_slow_link_keeps_its_styles_while_the_theme_starts(
    page: Any, context: Any
) -> None:
    """The theme writes each relative stylesheet address again as an absolute one when it starts; on a
    calculator page setting a sheet's address once dropped it until it had loaded again (an unstyled
    moment on a slow link). A reading page needs no hold for that: the theme's script is deferred, and
    a deferred script runs only once the stylesheets before it have loaded, so it rewrites loaded
    sheets to the address they already have, which drops none and fetches none again. With every
    sheet crossing the slow link (no cache), the page never has one sheet less while the theme
    starts, each sheet is fetched once, and the theme then runs."""
    page.set_viewport_size(PHONE)
    page.add_init_script(SHEETS_LOG)
    cdp = slow_link(context, page, latency_ms=150, bytes_per_s=150_000)
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})  # each sheet loaded again shares the link
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if r.resource_type == "stylesheet" else None)
    page.goto("rules/checks/")
    page.wait_for_function("() => window.document$ && !window.document$.mnemeStandIn", timeout=60_000)
    # The theme's own start is over once it has fetched and parsed its sitemap (which it asks for as it
    # starts), and each rewrite has seen its next frame.
    page.wait_for_function(
        "() => window.__mnemeSitemapIn === true && window.__rewrites.every((r) => 'frame' in r)",
        timeout=60_000,
    )
    # The theme did rewrite every stylesheet's relative address, each on a loaded sheet, and none of
    # those rewrites took a sheet away, at once or by the next frame.
    rewrites = page.evaluate("window.__rewrites")
    assert len(rewrites) >= 3 and all(not r["from"].startswith("http") for r in rewrites), rewrites
    kept = [r["loaded"] and r["after"] >= r["before"] and r["frame"] >= r["before"] for r in rewrites]
    assert all(kept), rewrites
    assert len(fetched) == len(set(fetched)) >= 3, fetched  # no sheet fetched a second time
    seen = page.evaluate("window.__sheets")
    counts = [s["sheets"] for s in seen]
    styled = counts[-1]  # the page's sheets
    first = counts.index(styled)
    assert styled >= 3 and min(counts[first:]) >= styled, seen  # never one sheet less once styled
    assert seen[-1]["theme"] and not seen[first]["theme"], seen  # the theme started once styled
    hrefs = page.eval_on_selector_all('link[rel="stylesheet"]', "ls => ls.map((l) => l.getAttribute('href'))")
    assert hrefs and all(h.startswith("http") for h in hrefs), hrefs
    assert page.evaluate("document.documentElement.classList.contains('js')")
    # The theme runs: instant navigation shows the next page without a reload.
    page.evaluate("window.__kept = 1")
    page.eval_on_selector('.md-content a[href*="/rules/actions/"]', "a => a.click()")
    page.wait_for_url("**/rules/actions/**", timeout=60_000)
    assert page.evaluate("window.__kept") == 1


STATUS_LOG = """window.__statuses = [];
document.addEventListener("DOMContentLoaded", () => {
  const status = document.querySelector("form[data-calculator] [data-status]");
  const progress = () => document.querySelector("[data-engine-progress]")?.textContent || "";
  const record = () => {
    const last = window.__statuses[window.__statuses.length - 1];
    const now = { status: status.textContent, tag: progress() };
    if (!last || last.status !== now.status || last.tag !== now.tag) window.__statuses.push(now);
  };
  const watched = { childList: true, subtree: true, characterData: true };
  new MutationObserver(record).observe(document.body, watched);
});"""


@pytest.mark.first_visit
def test_a_download_cut_midway_goes_on_by_itself_from_what_had_arrived(
    browser: Any, site_dir: Path, python_outputs: Any
) -> None:
    """A phone's link that drops in the WebAssembly, then goes quiet in it, on a server that compresses,
    caches and serves byte ranges as GitHub Pages does, through one paced link: each time the start says
    so and tries again by itself after a pause, without a tap. Cut early, the whole file is asked for
    again (the rest uncompressed would be more than the whole compressed); stalled late, what arrived is
    kept and only the rest asked for (``Range``). The engine starts; the other files are asked for once."""
    wasm = next(site_dir.glob("assets/pyodide/*/pyodide.asm.wasm"))
    rel = wasm.relative_to(site_dir).as_posix()
    size = wasm.stat().st_size
    compressed = len(gzip.compress(wasm.read_bytes(), compresslevel=6, mtime=0))
    server = PagesServer(site_dir, link=Link(40, 40))
    server.drop(r"\.wasm$", after=600_000, times=1)  # early: about 1.6 MB of 9.6 MB decoded
    server.drop(r"\.wasm$", after=3_000_000, times=1, stall=True)  # late: about 8 MB, then nothing
    ctx = browser.new_context(base_url=server.url, viewport=PHONE)
    ctx.add_init_script("window.mnemeOfflineConfig = { register: false };")
    ctx.add_init_script("window.mnemeLoaderConfig = { warm: false };")
    ctx.add_init_script("window.mnemeCalculatorConfig = { retryMs: 300, bootTimeoutMs: 4000, pingMs: 500 };")
    ctx.add_init_script(STATUS_LOG)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto("calculators/effect/?modifier=2")
        form = page.locator('form[data-calculator="effect"]')
        wait_ready(form)  # no Retry pressed
        assert outputs(form) == python_outputs("effect", modifier=2)
        engine = stats(page)
        sends = [(s.status, s.range, s.bytes, s.whole) for s in server.log if s.path == rel]
        # The two faults planned: the early cut asks for the whole file again, the late stall for the
        # rest. (On a starved machine the worker may read nothing for the 4 s of stillness while bytes
        # wait, and try once more: a range too, from what had arrived, or whole when early.)
        assert engine["retries"] >= 2 and len(sends) >= 3 and engine["restarts"] == 0, (engine, sends)
        assert engine["engineStarts"] == engine["retries"] + 1, engine
        kinds = [(status, bool(asked)) for status, asked, _, _ in sends]
        assert kinds[:2] == [(200, False), (200, False)], sends
        assert set(kinds) <= {(200, False), (206, True)}, sends
        assert sends[-1][0] == 206 and sends[-1][3], sends
        # One starved extra try at most, and none goes back: once a range is asked for, every later
        # try is a range again, starting no earlier than the one before (what arrived is kept).
        assert engine["retries"] <= 3 and len(sends) <= 4, (engine, sends)
        resumed = kinds[kinds.index((206, True)) :]
        assert all(kind == (206, True) for kind in resumed), sends
        starts = [int(asked.removeprefix("bytes=").removesuffix("-")) for _, asked, _, _ in sends if asked]
        assert starts == sorted(starts), sends
        # The last range starts where the bytes kept end and brings exactly the rest, less than the whole.
        start = int(sends[-1][1].removeprefix("bytes=").removesuffix("-"))
        assert start + sends[-1][2] == size and sends[-1][2] < compressed, (start, sends)
        # The others had all arrived: asked for once, whatever the restarts.
        for other in ("pyodide.mjs", "pyodide.asm.mjs", "python_stdlib.", "python_stdlib_later.", ".whl"):
            asked = [s for s in server.log if other in s.path.rsplit("/", 1)[-1] and s.status == 200]
            assert len(asked) == 1, (other, asked)
        said = [s["status"] for s in page.evaluate("window.__statuses")]
        tags = [s["tag"] for s in page.evaluate("window.__statuses")]
        # Each said, and what happens next; the second got further than the first (a fresh run of tries).
        cut = r"Interrupted \(the connection was lost after \d+ kB\): trying again in \d+ s \(1 of 4\)\."
        quiet = (
            r"Interrupted \(its download stopped: nothing arrived for 4 s\): trying again in \d+ s, "
            r"from what has arrived \(1 of 4\)\."
        )
        assert any(re.search(cut, t) for t in said) and any(re.search(quiet, t) for t in said), said
        assert any(re.fullmatch(r"Retrying in 1 s: \d+ of \d+ kB", t) for t in tags), tags
        assert not any("could not start" in t for t in said), said
        assert errors == []
    finally:
        ctx.close()
        server.stop()
