"""The phone profile's returning visit and warm recompute, traced: where the page's main thread goes.

On the phone profile of ``bench_phone.py`` (CPU 4x slower, one shared 9 Mbps / 150 ms link), one first
visit of the Effect calculator stores the offline copy and the engine's snapshot; then a returning
visit in a new tab is traced (Chromium's trace, every process) from its navigation to its first live
result, and 30 edits made 0.5 s after it (as the bench's "soon" series). From the trace, for the
page's main thread: every task until the first result (wall and thread time, and what it spent on
style, layout, parsing, script), and for the edits, each task of the worker's answer (the message
handler) with the same split, then each edit whole: every main-thread task from its input event to its
answer's ``calculator:result`` (the bench's measure), by kind, and the slowest tenth task by task (what a
slow edit waited behind). Thread time counts only the main thread's own CPU: the machine's other load
does not inflate it much, so two builds compare by it on a busy host.

Usage: ``.venv/bin/python bench/trace_phone.py [--site DIR --port N] [--edits 30] [--save FILE]``
(``--site DIR --port N``: the site built there for that port the first time, served as it is after;
``--read FILE``: only the report of a saved trace).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from _pages import Link, PagesServer  # noqa: E402
from _site import build_site, launch_chromium  # noqa: E402
from bench_boot import RECOMPUTE_JS, percentile  # noqa: E402
from bench_phone import FIRST_RESULT_JS, LINK_MBPS, LINK_RTT_MS, STORED_JS, phone, tab  # noqa: E402

CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,v8.execute,toplevel"
KINDS = {
    "UpdateLayoutTree": "style",
    "Layout": "layout",
    "ParseHTML": "parse",
    "ParseAuthorStyleSheet": "parse css",
    "FunctionCall": "script",
    "EvaluateScript": "script",
    "v8.compile": "compile",
    "v8.compileModule": "compile",
    "Paint": "paint",
    "PrePaint": "paint",
    "Layerize": "paint",
    "UpdateLayer": "paint",
    "HitTest": "hit test",
    "EventDispatch": "events",
}


def main_thread(events: list[dict[str, Any]], url_part: str) -> tuple[int, int]:
    """The (pid, tid) of the renderer main thread that navigated to a URL containing ``url_part``."""
    mains = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
    }
    for e in events:
        frame = e.get("args", {}).get("data", {})
        if (e["pid"], e["tid"]) in mains and url_part in str(frame.get("url", "")):
            return e["pid"], e["tid"]
    raise RuntimeError("no main thread of the traced page found")


def tasks(events: list[dict[str, Any]], thread: tuple[int, int]) -> list[dict[str, Any]]:
    """The thread's top-level tasks, each with its children's time by kind (wall, ms; and ``cpu``)."""
    mine = sorted(
        (e for e in events if (e["pid"], e["tid"]) == thread and e.get("ph") == "X"), key=lambda e: e["ts"]
    )
    out: list[dict[str, Any]] = []
    for e in mine:
        if e["name"] == "RunTask":
            out.append(
                {
                    "ts": e["ts"],
                    "end": e["ts"] + e.get("dur", 0),
                    "dur": e.get("dur", 0) / 1000,
                    "cpu": e.get("tdur", 0) / 1000,
                    "kinds": defaultdict(float),
                    "names": [],
                }
            )
            continue
        if not out or e["ts"] >= out[-1]["end"]:
            continue
        kind = KINDS.get(e["name"])
        task = out[-1]
        if kind and not task.get("_open_" + kind, 0) > e["ts"]:
            task["kinds"][kind] += e.get("tdur", e.get("dur", 0)) / 1000
            task["_open_" + kind] = e["ts"] + e.get("dur", 0)
        if e["name"] in ("FunctionCall", "EvaluateScript") and len(task["names"]) < 3:
            data = e.get("args", {}).get("data", {})
            where = str(data.get("functionName") or data.get("url", "")).rsplit("/", 1)[-1]
            task["names"].append(f"{where[:30]}:{data.get('lineNumber', '')}")
        if e["name"] == "EventDispatch" and len(task["names"]) < 4:
            task["names"].append("event:" + str(e.get("args", {}).get("data", {}).get("type", "")))
        if e["name"] in ("BeginMainFrame", "Animation Frame Fired", "TimerFire") and len(task["names"]) < 4:
            task["names"].append(e["name"])
    return out


def marks(events: list[dict[str, Any]], thread: tuple[int, int]) -> dict[str, float]:
    """The page's performance marks (trace clock, us)."""
    out: dict[str, float] = {}
    for e in events:
        if e.get("cat", "").startswith("blink.user_timing") and e["pid"] == thread[0]:
            out.setdefault(e["name"], e["ts"])
    return out


def describe(task: dict[str, Any], t0: float) -> str:
    kinds = ", ".join(
        f"{k} {v:.1f}" for k, v in sorted(task["kinds"].items(), key=lambda kv: -kv[1]) if v >= 0.5
    )
    return (
        f"   {(task['ts'] - t0) / 1000:8.0f}  {task['dur']:6.1f}  {task['cpu']:6.1f}  {kinds}"
        f"  [{' '.join(task['names'])}]"
    )


def report(trace: dict[str, Any] | list[Any]) -> None:
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    thread = main_thread(events, "calculators/effect/")
    all_tasks = tasks(events, thread)
    seen = marks(events, thread)
    parsed = min(e["ts"] for e in events if e.get("name") == "ParseHTML" and (e["pid"], e["tid"]) == thread)
    start = max(
        (
            e["ts"]
            for e in events
            if e.get("name") == "navigationStart" and e["pid"] == thread[0] and e["ts"] < parsed
        ),
        default=all_tasks[0]["ts"],
    )
    first = seen.get("mneme:first-result", float("inf"))
    print(f"returning visit: first result at {(first - start) / 1000:.0f} ms (from navigationStart)")
    print(
        "   until the first result, the main thread's tasks of 5 ms or more"
        " (at ms, wall ms, thread ms, by kind):"
    )
    before = [t for t in all_tasks if start <= t["ts"] <= first]
    for task in before:
        if task["dur"] >= 5:
            print(describe(task, start))
    total = defaultdict(float)
    for task in before:
        for kind, ms in task["kinds"].items():
            total[kind] += ms
    print(
        f"   in all: {sum(t['dur'] for t in before):.0f} ms wall,"
        f" {sum(t['cpu'] for t in before):.0f} ms thread; "
        + ", ".join(f"{k} {v:.0f}" for k, v in sorted(total.items(), key=lambda kv: -kv[1]))
    )
    edits = [e for e in events if e.get("name") == "mneme:edit" and e["pid"] == thread[0]]
    if not edits:
        return
    begin = min(e["ts"] for e in edits)
    after = [t for t in all_tasks if t["ts"] >= begin and any("onmessage" in n for n in t["names"])]
    cpu = [t["cpu"] for t in after]
    wall = [t["dur"] for t in after]
    print(
        f"edits: {len(after)} answer tasks (the worker's message handler on the page):"
        f" thread ms median {statistics.median(cpu):.1f}, p95 {percentile(cpu, 0.95):.1f};"
        f" wall median {statistics.median(wall):.1f}, p95 {percentile(wall, 0.95):.1f}"
    )
    print("   per answer task, on average: " + average_kinds([[task] for task in after]))
    for task in after[:8]:
        print(describe(task, begin))
    slowest(events, thread, all_tasks)


def average_kinds(groups: list[list[dict[str, Any]]]) -> str:
    """What a group of tasks spent on average over the groups, by kind (thread ms), largest first."""
    total: defaultdict[str, float] = defaultdict(float)
    for tasks in groups:
        for task in tasks:
            for kind, ms in task["kinds"].items():
                total[kind] += ms / len(groups)
    return ", ".join(f"{k} {v:.1f}" for k, v in sorted(total.items(), key=lambda kv: -kv[1]))


def slowest(events: list[dict[str, Any]], thread: tuple[int, int], all_tasks: list[dict[str, Any]]) -> None:
    """Each edit's main-thread work from its input event to its answer's ``calculator:result``; the
    slowest tenth (by that wall time) in full, task by task, and what all edits spent, by kind."""
    edits = sorted(e["ts"] for e in events if e.get("name") == "mneme:edit" and e["pid"] == thread[0])
    answers = sorted(e["ts"] for e in events if e.get("name") == "mneme:answered" and e["pid"] == thread[0])
    windows = []
    for at in edits:
        end = next((a for a in answers if a > at), None)
        if end is None:
            continue
        # The edit's own task began before its mark (the last answer's listeners run the next edit).
        inside = [t for t in all_tasks if t["end"] > at and t["ts"] <= end]
        windows.append((at, end, inside))
    if not windows:
        return
    thread_ms = [sum(t["cpu"] for t in inside) for _, _, inside in windows]
    print(
        f"each edit, input event to its answer's calculator:result ({len(windows)} edits): main-thread"
        f" thread ms median {statistics.median(thread_ms):.1f}, p95 {percentile(thread_ms, 0.95):.1f};"
        f" wall median {statistics.median([(e - a) / 1000 for a, e, _ in windows]):.1f},"
        f" p95 {percentile([(e - a) / 1000 for a, e, _ in windows], 0.95):.1f}"
    )
    print("   per edit, on average (thread ms): " + average_kinds([inside for _, _, inside in windows]))
    ranked = sorted(windows, key=lambda w: w[0] - w[1])
    for at, end, inside in ranked[: max(1, len(windows) // 10)]:
        spent = sum(t["cpu"] for t in inside)
        print(f"   a slow edit: {(end - at) / 1000:.1f} ms wall, {spent:.1f} ms thread")
        for task in inside:
            print(describe(task, at))


EDIT_MARK_JS = """
() => {
  const form = document.querySelector('form[data-calculator="effect"]');
  form.addEventListener("input", () => performance.mark("mneme:edit"), { capture: true });
  form.addEventListener("calculator:result", () => performance.mark("mneme:answered"));
}
"""


def traced(browser: Any, base: str, edits: int) -> bytes:
    ctx, page = phone(browser)
    try:
        page.goto(base + "calculators/effect/")
        page.evaluate(FIRST_RESULT_JS)
        page.evaluate(STORED_JS)
        page.wait_for_timeout(1000)
        page.close()
        again = tab(ctx)
        browser.start_tracing(page=again, categories=CATEGORIES.split(","))
        again.goto(base + "calculators/effect/")
        again.evaluate(FIRST_RESULT_JS)
        again.wait_for_timeout(500)
        if edits:
            again.evaluate(EDIT_MARK_JS)
            times, _ = again.evaluate(RECOMPUTE_JS, edits)
            print(
                f"edits, input to result (wall, under this machine's load): median "
                f"{statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms"
            )
        return bytes(browser.stop_tracing())
    finally:
        ctx.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="build the site there, or serve the one built there before")
    parser.add_argument(
        "--port", type=int, default=0, help="the server's port (a kept site is built for one)"
    )
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--save", type=Path, help="keep the trace (JSON) there")
    parser.add_argument("--read", type=Path, help="only report a trace saved before")
    args = parser.parse_args()
    if args.read:
        report(json.loads(args.read.read_text()))
        return
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        site = args.site or Path(folder)
        server = PagesServer(site, port=args.port)
        if not (site / "index.html").exists():
            build_site(server.url, site)
        server.set_link(Link(LINK_MBPS, LINK_RTT_MS))
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            data = traced(browser, server.url, args.edits)
            browser.close()
        server.stop()
    if args.save:
        args.save.write_bytes(data)
    report(json.loads(data))


if __name__ == "__main__":
    main()
