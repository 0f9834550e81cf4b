"""Benchmark: warm recompute latency of the calculators in the browser (Pyodide), p95 per calculator.

Builds the site (``SITE_URL`` matching a 127.0.0.1 server), opens each calculator page in headless
Chromium, waits for the engine, then makes ``--changes`` input changes, each timed in the page from
the input event to the ``calculator:result`` event (the same measure as ``bench_boot.py``). Every
change sets a different realistic input set (so results are not merely cached), cycling through
the cases below; damage includes the heaviest realistic case (twelve rolls of 4d6, rate of attack
6, against armor 4, with the injury odds). The same cases are also timed under CPython for reference.

Calculators without hand-picked cases below get generic ones from their declaration.

Usage: ``.venv/bin/python bench/bench_calculators.py [--changes 40] [--only damage,attack]``.
Target: p95 <= 50 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _common import served_browser  # noqa: E402

from calculators.framework import registry, runtime  # noqa: E402
from calculators.framework.spec import IntInput  # noqa: E402

CASES: dict[str, list[dict[str, str]]] = {
    "mitigation": [
        {"fail_effect": str(f), "conditions": str(c), "cover": str(v), "skill": "2", "defend": d}
        for f in (3, 7, 12)
        for c in (0, 3)
        for v in (2, 5)
        for d in ("none", "cover")
    ],
    "damage": [
        {"effect": str(e), "damage": dice, "rate_of_attack": str(r), "armor": str(a), "hp": "21"}
        for e, dice, r in (
            (11, "4d6", 6),
            (2, "3d6-2", 4),
            (-3, "3d3-2", 0),
            (5, "2d6+2", 3),
            (8, "D 3d6", 0),
        )
        for a in (0, 2, 4, 6)
    ],
    "thresholds": [
        {"strength": str(s), "dexterity": "8", "endurance": "9", "damage": str(d), "largest_roll": "9"}
        for s in (5, 7, 10, 14)
        for d in (0, 8, 16, 30)
    ],
    "healing": [
        {"strength": "7", "dexterity": "8", "endurance": "9", "damage": str(d), "activity": a, "care": c}
        for d in (4, 10, 16, 25, 40)
        for a in ("light", "full_rest")
        for c in ("no", "yes")
    ],
    "attack": [
        {"modifier": str(m), "difficulty": "8", "roll": str(r), "damage": "3d6", "armor": "2", "hp": "21"}
        for m in (0, 2, 4, 6)
        for r in (3, 6, 9, 12)
    ],
}


def generic_cases(name: str) -> list[dict[str, str]]:
    """Input sets for a calculator without hand-picked cases: its defaults, with its first whole-number
    inputs stepped through nearby values inside their declared ranges (so no result is merely cached)."""
    calc = registry.get(name)
    ints = [i for i in calc.inputs if isinstance(i, IntInput)][:2]
    sets = []
    for a in range(-3, 4):
        for b in range(-1, 2):
            values = {}
            for field, step in zip(ints, (a, b), strict=False):
                values[field.key] = str(min(field.max, max(field.min, field.default + step)))
            sets.append(values)
    return sets


def all_cases() -> dict[str, list[dict[str, str]]]:
    """Hand-picked cases for the five named calculators and attack; generic ones for the rest."""
    return {name: CASES.get(name) or generic_cases(name) for name in registry.names()}


SETTLE_S = 4.0
"""Pause after the engine is ready: the worker stores its memory snapshot shortly after the first
result, which would otherwise land inside the measured changes."""

PAUSE_MS = 150
"""Pause between changes, as between a player's edits: the previous change's frame (its SVG charts
drawn) then finishes before the next change is timed (back to back, it would be billed to it)."""

RECOMPUTE_JS = """
async ([name, sets, pause]) => {
  const form = document.querySelector(`form[data-calculator="${name}"]`);
  const stats = window.mnemeCalculators.stats;
  const rows = [];
  for (const values of sets) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    const got = new Promise((resolve) => form.addEventListener("calculator:result", resolve, { once: true }));
    const t0 = performance.now();
    for (const [key, value] of Object.entries(values)) form.elements.namedItem(key).value = value;
    form.dispatchEvent(new Event("input", { bubbles: true }));
    await got;
    const t1 = performance.now();
    const python = stats.pythonMs, applying = stats.applyMs;
    // The frame that shows it: style, layout and paint of the patched answer and SVG charts.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const frame = performance.now() - t1;
    const bars = form.querySelectorAll(".calc-chart svg rect").length;
    rows.push([t1 - t0, python, applying, frame, bars]);
  }
  return rows;
}
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def cpython_times(name: str, sets: list[dict[str, str]]) -> list[float]:
    out = []
    for values in sets:
        start = time.perf_counter()
        result = runtime.compute(name, values)
        out.append((time.perf_counter() - start) * 1000)
        if not result["ok"]:
            raise SystemExit(f"{name}: bench case does not compute: {values} {result['errors']}")
    return out


def page_path(name: str) -> str:
    """The site path of a calculator's page (its module name with - for _, or the comparison page)."""
    return "peers/comparison/" if name == "comparison" else f"calculators/{name.replace('_', '-')}/"


def browser_times(browser: Any, base: str, name: str, sets: list[dict[str, str]]) -> list[list[float]]:
    """Per change: input event -> result shown, Python in the worker, applying it to the page, the
    frame after it (drawing the answer and the SVG charts), and the SVG bars on the page (ms; count)."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(f"{base}{page_path(name)}")
        page.wait_for_function(
            "n => document.querySelector(`form[data-calculator=\"${n}\"]`).dataset.state === 'ready'",
            arg=name,
            timeout=120_000,
        )
        page.wait_for_timeout(SETTLE_S * 1000)
        rows = page.evaluate(RECOMPUTE_JS, [name, sets, PAUSE_MS])
        return [[float(v or 0) for v in row] for row in rows]
    finally:
        ctx.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=40)
    parser.add_argument("--only", default="", help="comma-separated names (default: every calculator)")
    args = parser.parse_args()
    cases = all_cases()
    names = [n for n in args.only.split(",") if n] or list(cases)
    plan = {n: [cases[n][i % len(cases[n])] for i in range(args.changes)] for n in names}
    rows = []
    with served_browser() as (url, _site, browser):
        for name in names:
            sets = plan[name]
            cold = cpython_times(name, sets)
            rows.append((name, browser_times(browser, url, name, sets), cold))
    print(f"warm recompute, input event -> result shown (Pyodide, headless Chromium), {PAUSE_MS} ms apart;")
    print("then the frame that draws it (answer and SVG charts); CPython time of the same computation")
    for name, measured, cold in rows:
        times, python, applying, frame, bars = (list(column) for column in zip(*measured, strict=True))
        print(
            f"{name:<12} {len(times):3d} changes: median {statistics.median(times):6.1f} ms, "
            f"p95 {percentile(times, 0.95):6.1f} ms, max {max(times):6.1f} ms "
            f"(Python p95 {percentile(python, 0.95):5.1f}, applying p95 {percentile(applying, 0.95):5.1f}); "
            f"frame p95 {percentile(frame, 0.95):5.1f} ms, {min(bars):.0f}-{max(bars):.0f} SVG bars; "
            f"CPython median {statistics.median(cold):5.1f} ms, max {max(cold):5.1f} ms"
        )
    print("target: p95 <= 50 ms for every calculator")


if __name__ == "__main__":
    main()
