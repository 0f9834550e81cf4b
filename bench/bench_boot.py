"""Benchmark: bare Pyodide boot vs our first live Effect result, and warm recompute latency.

Builds the site (``SITE_URL`` matching a 127.0.0.1 server), then in headless Chromium, each run in a
NEW browser context (cold HTTP cache), alternating the order:

(a) bare boot: a module worker that only runs ``loadPyodide`` from the *stock* npm files
    (``node_modules/pyodide``, served on the same origin; no packages), timed from worker creation
    to ready (our site's files are trimmed and compiled for our worker, not for a bare boot);
(b) first live result: open the Effect page with query parameters; timed from our worker's creation
    (``mneme:worker-start``) to the first live result (``mneme:first-result``), also from navigation.

Then 50 input changes on a ready page, each timed in the page from the input event to the
``calculator:result`` event: median and p95. Prints the figures and the ratio b/a.

Usage: ``.venv/bin/python bench/bench_boot.py [--runs 5] [--changes 50]`` (after ``scripts/setup``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from _common import served_browser  # noqa: E402

BARE_BOOT_JS = """
async ([base, lock]) => {
  const src = `
    import { loadPyodide } from "${base}pyodide.mjs";
    await loadPyodide({ indexURL: "${base}", lockFileContents: ${JSON.stringify(lock)} });
    postMessage("ready");`;
  const url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
  const t0 = performance.now();
  const worker = new Worker(url, { type: "module" });
  await new Promise((resolve, reject) => {
    worker.onmessage = resolve;
    worker.onerror = (e) => reject(new Error(e.message));
  });
  const ms = performance.now() - t0;
  worker.terminate();
  return ms;
}
"""

FIRST_RESULT_JS = """
() => new Promise((resolve) => {
  const done = () => {
    const get = (n) => performance.getEntriesByName(n)[0];
    const first = get("mneme:first-result");
    if (!first) return false;
    resolve({ from_worker: first.startTime - get("mneme:worker-start").startTime,
              from_navigation: first.startTime,
              engine_ready: get("mneme:engine-ready").startTime - get("mneme:worker-start").startTime,
              pyodide_in_worker: window.mnemeCalculators.stats.timings.pyodide_ms,
              ours_in_worker: window.mnemeCalculators.stats.timings.total_ms
                - window.mnemeCalculators.stats.timings.pyodide_ms });
    return true;
  };
  if (!done()) { const t = setInterval(() => done() && clearInterval(t), 5); }
})
"""

RECOMPUTE_JS = """
async (changes) => {
  const form = document.querySelector('form[data-calculator="effect"]');
  const input = form.querySelector('[name="modifier"]');
  const times = [];
  const python = [];
  for (let i = 0; i < changes; i++) {
    const got = new Promise((resolve) => form.addEventListener("calculator:result", resolve, { once: true }));
    const t0 = performance.now();
    input.value = String((i % 21) - 10);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    await got;
    times.push(performance.now() - t0);
    const st = window.mnemeCalculators.stats;
    python.push([st.pythonMs, st.applyMs, st.listenersMs]);
  }
  return [times, python];
}
"""


BARE = "/bare/"  # the stock Pyodide files


def stock_lock() -> Any:
    """The stock lock file, without packages (a bare boot loads none)."""
    lock = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    lock["packages"] = {}
    return lock


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def spread(values: list[float]) -> str:
    """The median and 95th percentile of timings in ms."""
    return f"median {statistics.median(values):.1f} ms, p95 {percentile(values, 0.95):.1f} ms"


@contextmanager
def fresh_page(browser: Any, url: str) -> Iterator[Any]:
    """A page at ``url`` in a new browser context (cold cache), closed afterwards."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(url)
        yield page
    finally:
        ctx.close()


def bare_boot(browser: Any, base: str, lock: Any) -> float:
    with fresh_page(browser, base + "404-bench-blank/") as page:  # same origin, no calculator on the page
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(base))
        return float(page.evaluate(BARE_BOOT_JS, [origin + BARE, lock]))


def first_result(browser: Any, base: str) -> dict[str, float]:
    with fresh_page(browser, base + "calculators/effect/?modifier=2&difficulty=10&roll=9") as page:
        return dict(page.evaluate(FIRST_RESULT_JS))


def recompute(browser: Any, base: str, changes: int) -> tuple[list[float], list[list[float]]]:
    with fresh_page(browser, base + "calculators/effect/") as page:
        page.wait_for_selector('form[data-calculator="effect"][data-state="ready"]', timeout=120_000)
        # Let the engine settle (the offline memory snapshot is taken ~1.5 s after ready).
        page.wait_for_timeout(5000)
        times, python = page.evaluate(RECOMPUTE_JS, changes)
        return [float(t) for t in times], python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--changes", type=int, default=50)
    args = parser.parse_args()
    bare: list[float] = []
    ours: list[dict[str, float]] = []
    with served_browser({BARE: ROOT / "node_modules" / "pyodide"}) as (url, _site, browser):
        lock = stock_lock()
        bare_boot(browser, url, lock)  # one throw-away run: disk cache of the OS, JIT warm-up
        for run in range(args.runs):
            if run % 2:
                ours.append(first_result(browser, url))
                bare.append(bare_boot(browser, url, lock))
            else:
                bare.append(bare_boot(browser, url, lock))
                ours.append(first_result(browser, url))
        times, python = recompute(browser, url, args.changes)

    a = statistics.median(bare)
    b, ready, nav, inner, extra = (
        statistics.median(r[key] for r in ours)
        for key in ("from_worker", "engine_ready", "from_navigation", "pyodide_in_worker", "ours_in_worker")
    )
    print(f"runs: {args.runs} (new browser context each, cold cache)")
    print(f"(a) bare Pyodide boot, worker start -> ready:    median {a:8.0f} ms   {[round(x) for x in bare]}")
    print(
        f"(b) first live Effect result, worker -> result: median {b:8.0f} ms   "
        f"{[round(r['from_worker']) for r in ours]}"
    )
    print(f"    our engine ready, worker start -> ready:     median {ready:8.0f} ms")
    print(f"    first live result from navigation start:     median {nav:8.0f} ms")
    print(f"    in our worker: loadPyodide {inner:.0f} ms, then wheel + imports {extra:.0f} ms (medians)")
    print(f"ratio b/a: {b / a:.3f}  (target <= 1.15)")
    print(
        f"warm recompute over {len(times)} changes: {spread(times)}, max {max(times):.1f} ms"
        "  (target p95 <= 50 ms)"
    )
    for index, what in enumerate(
        ("Python in the worker", "updating the form (answer, working, SVG charts)", "result listeners")
    ):
        print(f"    of which {what}: {spread([row[index] for row in python])}")


if __name__ == "__main__":
    main()
