"""Benchmark on a phone profile: bare stock Pyodide vs our first live result; reading pages.

In one run, headless Chromium with the CPU slowed 4x (``Emulation.setCPUThrottlingRate``) and ONE
shared link of 9 Mbps / 150 ms for everything the browser fetches: the test server
(``tests/_pages.py``, caching like GitHub Pages: ETag, ``max-age=600``, gzip where Pages compresses)
paces every response through one pipe, whoever asks (the page, the engine's worker and the service
worker from its first request), as a phone's one radio would:

1. **bare**: a blank page whose module worker runs ``loadPyodide`` from the *stock* npm files
   (``node_modules/pyodide``), from navigation to ready (the floor);
2. **first visit**: our Effect calculator, from navigation to its first live result (cold context);
   then the bytes the server sent per file until the offline copy is complete;
3. **returning visit**: the same, in the same browser profile once the offline copy and the engine's
   memory snapshot are stored (a profile kept on disk, as a phone's browser keeps one: its HTTP cache
   and V8's code cache last from one visit to the next; ``--private`` measures both visits in a private
   window instead, where neither is kept on disk); then 30 edits there, each timed from the input to
   its result (warm recompute, median and p95), half a second after the first answer showed (the page still
   starting: the theme's script, the WebAssembly's optimising compiler), then 30 more once the page
   has settled (``SETTLED_MS`` later);
4. **warm start**: a reading page left idle (the loader warms the engine), then instant navigation
   to the Effect calculator: from the click to its first live result;
5. **reading page**: first contentful paint of our glossary vs the same markdown built by a stock
   mkdocs-material site.

Each tab waits ``SETTLE_MS`` after it opens before it navigates, as in a browser already open.

``--before DIR`` also measures another built site (e.g. the previous commit's, built with
``SITE_URL`` set to any URL under the same sub-path) in the same run, side by side.
``--timeline``: only one first visit per site and one returning visit after it, every response on the link
(asked, last byte sent) and every response the page and its workers received with its source (service
worker, HTTP cache, network) beside the page's marks and the worker's start steps: where the critical path
goes.
Usage: ``.venv/bin/python bench/bench_phone.py [--runs 3] [--before DIR] [--timeline] [--site DIR]
[--private]``.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import _site  # noqa: E402
from _pages import Link, PagesServer  # noqa: E402
from _site import CHROMIUM, CHROMIUM_ARGS, build_site, launch_chromium  # noqa: E402
from bench_boot import BARE, RECOMPUTE_JS, percentile  # noqa: E402
from bench_site import PAINT_JS, READING_PAGE, build_stock  # noqa: E402

CPU_SLOWDOWN = 4
LINK_MBPS, LINK_RTT_MS = 9, 150
BEFORE = "/before/"

BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module">
const lock = await (await fetch("pyodide-lock.json")).json();
lock.packages = {};
const here = new URL("./", location.href);
const src = `import { loadPyodide } from "${here}pyodide.mjs";
  await loadPyodide({ indexURL: "${here}", lockFileContents: ${JSON.stringify(lock)} });
  postMessage("ready");`;
const blob = new Blob([src], { type: "text/javascript" });
const worker = new Worker(URL.createObjectURL(blob), { type: "module" });
worker.onmessage = () => { window.bareReady = performance.now(); };
</script>
"""

FIRST_RESULT_JS = """
() => new Promise((resolve) => {
  const t = setInterval(() => {
    const first = performance.getEntriesByName("mneme:first-result")[0];
    if (first) { clearInterval(t); resolve(first.startTime); }
  }, 20);
})
"""

SETTLED_MS = 4000
"""How long after the first series of edits the second starts: the page has settled by then."""

SERVED_BY_WORKER_JS = "() => performance.getEntriesByType('navigation')[0].workerStart > 0"

STORED_JS = """
async () => {
  await window.mnemeOffline.ready;
  for (let i = 0; i < 3000; i++) {
    const mark = document.querySelector("[data-mneme-offline]");
    if (mark && mark.dataset.state !== "saving") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const name = "mneme-engine-snapshot@" + new URL("../../", document.baseURI).pathname;
  for (let i = 0; i < 1200; i++) {
    const names = await caches.keys();
    for (const n of names) {
      if (n.startsWith("mneme-engine-snapshot") && (await (await caches.open(n)).keys()).length) return true;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
"""


SETTLE_MS = 2500
"""How long a new tab waits before it navigates. Headless Chromium starts a tab's own browser UI (the
address bar's hidden WebUI popup, in a renderer of its own) as the tab opens: about a second of CPU,
which on a two-core machine slowed a page opened at once by a third (returning visit 1.1 s against
0.7 s after a wait). A player's browser is already open, so every measured tab, the bare boot's too,
waits until that is over."""


PHONE_SCREEN = {"viewport": {"width": 360, "height": 760}, "device_scale_factor": 2, "is_mobile": True}


def phone(browser: Any) -> tuple[Any, Any]:
    """A private window of ``browser`` on the phone profile, and a tab of it."""
    ctx = browser.new_context(**PHONE_SCREEN)
    return ctx, tab(ctx)


@contextlib.contextmanager
def phone_browser(pw: Any, browser: Any, private: bool) -> Iterator[tuple[Any, Any]]:
    """A phone's browser with a new profile kept on disk (its own Chromium: as a player's browser, its
    HTTP cache and V8's code cache outlive a tab), or with ``private`` a private window of ``browser``;
    and a tab of it."""
    if private:
        ctx, page = phone(browser)
        try:
            yield ctx, page
        finally:
            ctx.close()
        return
    with tempfile.TemporaryDirectory(prefix="mneme-phone-") as folder:
        ctx = pw.chromium.launch_persistent_context(
            folder, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, **PHONE_SCREEN
        )
        try:
            for blank in ctx.pages:
                blank.close()
            yield ctx, tab(ctx)
        finally:
            ctx.close()


def tab(ctx: Any) -> Any:
    """A new tab of ``ctx`` on the phone profile, once the browser's own start-up of it is over."""
    page = ctx.new_page()
    throttle(ctx, page)
    page.wait_for_timeout(SETTLE_MS)
    return page


def throttle(ctx: Any, page: Any) -> None:
    """The phone's slower CPU (the link is the server's: ``Link``)."""
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})


def bare(browser: Any, origin: str) -> float:
    ctx, page = phone(browser)
    try:
        page.goto(origin + BARE + "bare.html")
        page.wait_for_function("() => window.bareReady", timeout=300_000, polling=100)
        return float(page.evaluate("window.bareReady"))
    finally:
        ctx.close()


def first_and_returning(
    profile: Any,
    base: str,
    recomputes: dict[str, list[float]],
    breakdown: list[list[float]],
    server: PagesServer,
    sent: dict[str, list[int]],
) -> tuple[float, float]:
    """First live result on a first visit and on a returning one; then 30 edits on the returning
    page, each timed from the input event to its result (appended to ``recomputes["soon"]``; Python
    in the worker, applying the result and listeners, in ms, to ``breakdown``), and 30 more once it
    has settled (``recomputes["settled"]``). ``sent``: per file, the
    body bytes the server sent for it from the first visit's start until its offline copy was done
    (one entry per response with a body). ``profile``: ``phone_browser``'s browser and tab."""
    with profile as (ctx, page):
        server.reset_log()
        page.goto(base + "calculators/effect/")
        first = float(page.evaluate(FIRST_RESULT_JS))
        page.evaluate(STORED_JS)
        page.wait_for_timeout(1000)
        prefix = "/" + base.split("/", 3)[3]
        for entry in server.log:
            path = entry.path if entry.path.startswith("/") else _site.SUB_PATH + entry.path
            if entry.bytes and path.startswith(prefix):
                sent.setdefault(path[len(prefix) :], []).append(entry.bytes)
        page.close()
        again = tab(ctx)
        again.goto(base + "calculators/effect/")
        returning = float(again.evaluate(FIRST_RESULT_JS))
        if not again.evaluate(SERVED_BY_WORKER_JS):
            raise RuntimeError("the returning page did not come through the service worker")
        again.wait_for_timeout(500)
        times, parts = again.evaluate(RECOMPUTE_JS, 30)
        recomputes.setdefault("soon", []).extend(float(t) for t in times)
        breakdown.extend(parts)
        again.wait_for_timeout(SETTLED_MS)
        times, parts = again.evaluate(RECOMPUTE_JS, 30)
        recomputes.setdefault("settled", []).extend(float(t) for t in times)
        return first, returning


LONG_TASKS_INIT = """
window.__longTasks = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask" });
} catch (_) {}
"""
"""Every long task of the page's main thread (50 ms or more), from its start: the timeline prints them."""

MARKS_JS = """
() => {
  const out = {};
  for (const e of performance.getEntriesByType("mark")) out[e.name] = e.startTime;
  for (const e of performance.getEntriesByType("paint")) out[e.name] = e.startTime;
  const nav = performance.getEntriesByType("navigation")[0];
  out.domContentLoaded = nav.domContentLoadedEventEnd;
  out.requestStart = nav.requestStart;
  out.load = nav.loadEventEnd;
  const timings = window.mnemeEngine?.stats?.timings || {};
  // The worker's clock starts when it does: its phases are shifted onto the page's by the two origins.
  const shift = timings.origin ? timings.origin - performance.timeOrigin : null;
  return { marks: out, phases: timings.phases || {}, shift, long: window.__longTasks || [] };
}
"""


RESOURCES_JS = """
() => ({
  origin: performance.timeOrigin,
  entries: performance.getEntriesByType("resource").map((e) => ({
    name: e.name, start: e.startTime, end: e.responseEnd, worker: e.workerStart,
    transfer: e.transferSize, body: e.decodedBodySize, delivery: e.deliveryType || "",
  })),
})
"""
"""Every response a page or worker received (resource timing): when asked and done, and its source."""


def source_of(entry: dict[str, Any]) -> str:
    """Where a response came from, as resource timing tells: the service worker (it answered the
    fetch), the HTTP cache (nothing on the wire, or Chromium's "cache" delivery), or the network."""
    if entry["worker"] > 0:
        return "service worker"
    if entry["delivery"] == "cache" or (entry["transfer"] == 0 and entry["body"] > 0):
        return "HTTP cache"
    return "network"


def visit(
    page: Any, base: str, server: PagesServer
) -> tuple[dict[str, Any], list[Any], list[tuple[str, Any]]]:
    """Open the Effect calculator in ``page`` and wait for its first result (and 1.5 s more): its marks
    and the worker's steps, the server's log of the visit, and what the page and each worker of it
    received (resource timing, named by who fetched it)."""
    page.add_init_script(LONG_TASKS_INIT)
    server.reset_log()
    asked = time.monotonic()
    page.goto(base + "calculators/effect/")
    page.evaluate(FIRST_RESULT_JS)
    page.wait_for_timeout(1500)
    seen = page.evaluate(MARKS_JS)
    seen["asked"] = asked
    received = [("page", page.evaluate(RESOURCES_JS))]
    for number, worker in enumerate(page.workers):
        try:
            received.append((f"worker{number or ''}", worker.evaluate(RESOURCES_JS)))
        except Exception:  # a worker that has ended meanwhile
            continue
    return seen, server.log, received


def print_visit(
    title: str, base: str, seen: dict[str, Any], log: list[Any], received: list[tuple[str, Any]]
) -> None:
    """One visit's timeline: what the server sent, what each context received and from where, the
    page's marks, the worker's steps and the main thread's long tasks, in ms from the page's start."""
    prefix = "/" + base.split("/", 3)[3]
    first = seen["marks"].get("mneme:first-result", float("inf"))
    page_origin = received[0][1]["origin"]
    print(f"   {title} of {base}calculators/effect/ (ms from the page's start):")
    # The server's clock placed on the page's: by the page's own request when it reached the server
    # (a first visit), else by when the bench asked for the page (a returning visit: the offline copy
    # serves it).
    page_request = [e for e in log if e.path.endswith("calculators/effect/")]
    t0 = page_request[0].at - seen["marks"]["requestStart"] / 1000 if page_request else seen["asked"]
    print("     on the network (the server's log):")
    print("        asked     done      bytes  status  file")
    for entry in log:
        path = entry.path if entry.path.startswith("/") else _site.SUB_PATH + entry.path
        name = path.removeprefix(prefix)
        asked, done = (entry.at - t0) * 1000, (entry.done - t0) * 1000
        if asked > first + 500:
            break
        print(f"     {asked:7.0f}  {done:7.0f}  {entry.bytes:9,}  {entry.status:6}  {name}")
    print("     received (resource timing):")
    print("        asked     done      bytes  by       source          file")
    rows = []
    for who, got in received:
        shift = got["origin"] - page_origin
        for e in got["entries"]:
            name = e["name"].split(prefix, 1)[-1] if prefix in e["name"] else e["name"][:60]
            rows.append((shift + e["start"], shift + e["end"], e["body"], who, source_of(e), name))
    for asked, done, size, who, source, name in sorted(rows):
        if asked <= first + 500:
            print(f"     {asked:7.0f}  {done:7.0f}  {size:9,}  {who:8} {source:15} {name}")
    for name, at in sorted(seen["marks"].items(), key=lambda item: item[1] or 0):
        print(f"     {at:7.0f}  mark {name}")
    shift = seen["shift"] if seen["shift"] is not None else seen["marks"].get("mneme:worker-start", 0.0)
    for step, at in seen["phases"].items():
        print(f"     {shift + at:7.0f}  worker {step} (worker clock {at})")
    for at, ms in seen["long"]:
        if at <= first + 500:
            print(f"     {at:7.0f}  main thread busy {ms:.0f} ms")


def timeline(profile: Any, base: str, server: PagesServer) -> None:
    """One first visit of the Effect calculator, then (once its offline copy and engine snapshot are
    stored) one returning visit in a new tab: for each, every response on the shared link (asked, last
    byte sent, bytes), every response the page and its workers received with its source (service
    worker, HTTP cache, network), the page's marks and the worker's start steps (ms from the worker's
    own start, placed on the page's clock by the two clocks' origins). ``profile``: as in
    ``first_and_returning``."""
    with profile as (ctx, page):
        print_visit("first visit", base, *visit(page, base, server))
        page.evaluate(STORED_JS)
        page.wait_for_timeout(1000)
        page.close()
        again = tab(ctx)
        print_visit("returning visit", base, *visit(again, base, server))
        if not again.evaluate(SERVED_BY_WORKER_JS):
            print("     (the returning page did not come through the service worker)")


def warm_start(browser: Any, base: str) -> float | None:
    ctx, page = phone(browser)
    try:
        page.goto(base + READING_PAGE)
        try:
            page.wait_for_function(
                "() => window.mnemeEngine && window.mnemeEngine.stats.timings", timeout=120_000, polling=200
            )
        except Exception:  # a site without the warm start
            return None
        page.evaluate(
            """() => { const a = Object.assign(document.createElement("a"), {href: "../calculators/effect/"});
              a.id = "go"; a.textContent = "go"; document.querySelector("article").append(a);
              window.__clicked = performance.now(); }"""
        )
        page.click("#go")
        waited = "async () => { const t = await (" + FIRST_RESULT_JS + ")(); return t - window.__clicked; }"
        return float(page.evaluate(waited))
    finally:
        ctx.close()


def fcp(browser: Any, url: str) -> float:
    ctx, page = phone(browser)
    try:
        page.goto(url)
        return float(page.evaluate(PAINT_JS)["fcp"])
    finally:
        ctx.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", type=Path, help="another built site to measure beside ours")
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="a first and a returning visit per site: every request and step",
    )
    parser.add_argument("--site", type=Path, help="a site already built for this server (skips our build)")
    parser.add_argument(
        "--private", action="store_true", help="first and returning visits in a private window"
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    med = statistics.median
    with tempfile.TemporaryDirectory() as folder:
        ours_dir, stock_dir, bare_dir = Path(folder) / "ours", Path(folder) / "stock", Path(folder) / "bare"
        shutil.copytree(ROOT / "node_modules" / "pyodide", bare_dir)
        (bare_dir / "bare.html").write_text(BARE_PAGE, encoding="utf-8")
        mounts = {BARE: bare_dir, "/stock/": stock_dir / "site"}
        if args.before:
            mounts[BEFORE] = args.before
        server = PagesServer(args.site or ours_dir, mounts=mounts)
        if not args.site:
            build_site(server.url, ours_dir)
        origin = server.url.removesuffix(_site.SUB_PATH)
        sites = {"ours": server.url} | ({"before": origin + BEFORE} if args.before else {})
        if args.timeline:
            server.set_link(Link(LINK_MBPS, LINK_RTT_MS))
            with sync_playwright() as pw:
                browser = launch_chromium(pw)
                for base in sites.values():
                    timeline(phone_browser(pw, browser, args.private), base, server)
                browser.close()
            server.stop()
            return
        build_stock(stock_dir, origin + "/stock/")
        server.set_link(Link(LINK_MBPS, LINK_RTT_MS))
        rows: dict[str, list[float]] = {}
        recomputes: dict[str, dict[str, list[float]]] = {}
        parts: dict[str, list[list[float]]] = {}
        sent: dict[str, dict[str, list[int]]] = {}

        def add(key: str, value: float | None) -> None:
            if value is not None and value == value:  # not NaN (a site without a measure of it)
                rows.setdefault(key, []).append(value)

        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            for run in range(args.runs):
                add("bare", bare(browser, origin))
                for name, base in sites.items() if run % 2 == 0 else reversed(sites.items()):
                    sent[name] = {}
                    first, again = first_and_returning(
                        phone_browser(pw, browser, args.private),
                        base,
                        recomputes.setdefault(name, {}),
                        parts.setdefault(name, []),
                        server,
                        sent[name],
                    )
                    add(f"{name} first", first)
                    add(f"{name} returning", again)
                    add(f"{name} warm start", warm_start(browser, base))
                    add(f"{name} reading fcp", fcp(browser, base + READING_PAGE))
                add("stock reading fcp", fcp(browser, origin + "/stock/" + READING_PAGE))
            browser.close()
        server.stop()

    floor = med(rows["bare"])
    print(
        f"phone profile: CPU {CPU_SLOWDOWN}x slower; one shared link {LINK_MBPS} Mbps / {LINK_RTT_MS} ms"
        f" for every request (service worker included), gzip as GitHub Pages; {args.runs} runs;"
        f" first and returning visits in {'a private window' if args.private else 'a profile kept on disk'}"
    )
    print(f"   bare stock Pyodide boot       {floor:7.0f} ms  {[round(x) for x in rows['bare']]}")
    for name in sites:
        for what in ("first", "returning"):
            values = rows[f"{name} {what}"]
            print(
                f"   {name:6} {what:9} live result {med(values):7.0f} ms  {[round(x) for x in values]}"
                f"  = {med(values) / floor:.2f} x bare"
            )
        for when, what in (("soon", "0.5 s after the answer"), ("settled", "page settled")):
            times = recomputes[name][when]
            print(
                f"   {name:6} warm recompute, {what}, over {len(times)} edits: median {med(times):.1f} ms,"
                f" p95 {percentile(times, 0.95):.1f} ms (target p95 <= 50 ms)"
            )
        python, apply, listeners = (med(float(p[i] or 0) for p in parts[name]) for i in range(3))
        print(
            f"          of which (medians, 0.5 s after): Python {python:.1f} ms, applying {apply:.1f} ms,"
            f" listeners {listeners:.1f} ms"
        )
        if rows.get(f"{name} warm start"):
            values = rows[f"{name} warm start"]
            print(
                f"   {name:6} warm start: click to live result {med(values):7.0f} ms"
                f"  {[round(x) for x in values]}"
            )
    for name in sites:
        files = sent[name]
        total = sum(sum(v) for v in files.values())
        print(f"   {name:6} first visit, bytes sent per file until the offline copy was done (last run):")
        for path, sizes in sorted(files.items(), key=lambda item: -sum(item[1])):
            if sum(sizes) >= 20_000:
                print(f"            {sum(sizes):>10,} B  {len(sizes)}x  {path or './'}")
        print(f"            {total:>10,} B  in all, {sum(len(v) for v in files.values())} responses")
    stock = med(rows["stock reading fcp"])
    print(f"   stock  reading page first contentful paint {stock:7.0f} ms")
    for name in sites:
        values = rows[f"{name} reading fcp"]
        print(
            f"   {name:6} reading page first contentful paint {med(values):7.0f} ms"
            f"  = {med(values) / stock:.2f} x stock"
        )


if __name__ == "__main__":
    main()
