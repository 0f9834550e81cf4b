"""The engine starts from the top of <head> on pages that compute (``sitebuild/early_engine.py``).

The worker is created before the page's stylesheets and scripts load, from its own text inlined in
the page (a blob: its downloads do not wait for ``worker.HASH.js``); ``engine.js`` takes it over with
everything it said meanwhile (no second worker, no lost "ready"); Pyodide's files are all asked for
at once by the worker; reading pages start nothing.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import wait_instant_navigation, wait_ready

pytestmark = pytest.mark.browser

WORKER = re.compile(r"/assets/calculators/worker\.[0-9a-f]{16}\.js$|^blob:")
ENGINE_JS = re.compile(r"/assets/calculators/engine\.[0-9a-f]{16}\.js$")
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.")

TIMELINE_JS = """() => {
  const mark = performance.getEntriesByName("mneme:worker-start")[0];
  const engine = performance.getEntriesByType("resource")
    .find((e) => /\\/engine\\.[0-9a-f]+\\.js$/.test(e.name));
  const early = window.mnemeEarlyEngine;
  return { workerStart: mark ? mark.startTime : null, engineJs: engine ? engine.startTime : null,
           stats: window.mnemeEngine.stats, adopted: !!(early && early.adopted) };
}"""


def test_the_worker_starts_before_the_page_scripts_and_is_taken_over(page: Any) -> None:
    workers: list[str] = []
    files: list[str] = []
    page.on("worker", lambda worker: WORKER.search(worker.url) and workers.append(worker.url))
    page.on("request", lambda request: WORKER.search(request.url) and files.append(request.url))
    page.goto("calculators/effect/")
    wait_ready(page.locator('form[data-calculator="effect"]'))
    timeline = page.evaluate(TIMELINE_JS)
    assert timeline["adopted"]
    assert timeline["workerStart"] < timeline["engineJs"]
    assert len(workers) == 1 and timeline["stats"]["engineStarts"] == 1
    # Run from its text in the page: its file was not waited for (nor asked for by the page).
    assert workers[0].startswith("blob:") and not files, (workers, files)
    assert timeline["stats"]["timings"]["total_ms"] > 0  # "ready" reached engine.js
    # The WebAssembly was compiled as it arrived, and Pyodide instantiated that module.
    steps = timeline["stats"]["timings"]["phases"]
    assert steps["wasm compiled"] <= steps["wasm instantiated"] <= steps["pyodide"], steps


def test_what_the_worker_says_before_engine_js_arrives_is_not_lost(page: Any) -> None:
    """engine.js held back until the early worker is ready: its "ready" is replayed, the page computes."""

    held: list[Any] = []
    page.route(ENGINE_JS, lambda route: held.append(route))  # answered once the worker said "ready"
    page.goto("calculators/effect/", wait_until="commit")
    page.wait_for_function(
        "() => (window.mnemeEarlyEngine || {heard: []}).heard.some((e) => e.data && e.data.type === 'ready')",
        timeout=120_000,
        polling=100,
    )
    page.wait_for_timeout(50)
    assert held, "engine.js was never asked for"
    for route in held:
        route.continue_()
    form = page.locator('form[data-calculator="effect"]')
    wait_ready(form)
    assert page.evaluate("window.mnemeEngine.stats.engineStarts") == 1
    assert form.locator('[data-output="summary"]').inner_text().strip()


def test_pyodide_files_are_asked_for_at_once(page: Any) -> None:
    """pyodide.mjs held back: the WebAssembly and the standard library are asked for all the same (they do
    not wait for pyodide.mjs to load and ask for them), then the engine starts once it is let through."""
    asked: set[str] = set()
    held: list[Any] = []

    def note(request: Any) -> None:
        for name in PYODIDE_FILES:
            if re.search(rf"/assets/pyodide/([0-9a-f]{{16}}/)?{re.escape(name)}", request.url):
                asked.add(name)

    page.context.on("request", note)
    mjs = re.compile(r"/assets/pyodide/([0-9a-f]{16}/)?pyodide\.mjs$")
    page.context.route(mjs, lambda route: held.append(route))
    page.goto("calculators/effect/", wait_until="commit")
    for _ in range(600):  # up to a minute on a loaded machine
        if held and {"pyodide.asm.wasm", "python_stdlib."} <= asked:
            break
        page.wait_for_timeout(100)
    assert held, "pyodide.mjs was never asked for"
    assert {"pyodide.asm.wasm", "python_stdlib."} <= asked, asked  # while pyodide.mjs is still held
    page.context.unroute(mjs)
    for route in held:
        route.continue_()
    wait_ready(page.locator('form[data-calculator="effect"]'))
    assert asked == set(PYODIDE_FILES)


def test_reading_pages_start_no_worker(page: Any) -> None:
    workers: list[str] = []
    page.on("worker", lambda worker: WORKER.search(worker.url) and workers.append(worker.url))
    page.goto("glossary/")
    wait_instant_navigation(page)  # the page's scripts and the theme's start are over
    assert not workers
    assert page.evaluate("window.mnemeEarlyEngine === undefined")
