"""Benchmark: is the site ready for the table? Reading speed, engine start, returning visits, bytes.

In one run (headless Chromium, the built site served on 127.0.0.1 under a project sub-path):

1. **Reading page vs stock**: the glossary page of our site against the same markdown built by a stock
   mkdocs-material site (a tiny project in a temp dir: theme ``material``, no hooks, no extras); cold
   context each run, alternating; first contentful paint and load event, medians and ratio.
2. **First live result vs bare Pyodide**: cold context each run; ``loadPyodide`` alone in a worker vs
   our worker from start to the first live Effect result (the ``bench_boot.py`` measures).
3. **Returning visit vs cold**: in ONE context (as a player's browser), the Effect page's engine-ready
   time (``mneme:worker-start`` to ``mneme:engine-ready``) on the first visit and then on later visits,
   after the service worker's precache and the engine's memory snapshot are stored. Target <= 0.3.
4. **Bytes on a first visit** to a rules page and to a calculator page, counted by the server (every
   response body: page, theme, worker, Pyodide, wheel), without the service worker and with it (its
   precache of the whole site); also the gzip size of the same files (what a compressing host sends).

Usage: ``.venv/bin/python bench/bench_site.py [--runs 3] [--returning 3]`` (after ``scripts/setup``).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import _site  # noqa: E402
from _site import SiteServer, build_site, launch_chromium, mkdocs_build  # noqa: E402
from bench_boot import BARE, bare_boot, first_result, stock_lock  # noqa: E402

READING_PAGE = "glossary/"
RULES_PAGE = "rules/checks/"
CALCULATOR_PAGE = "calculators/effect/"
SNAPSHOT_CACHE = "mneme-engine-snapshot"

PAINT_JS = """
() => new Promise((resolve) => {
  const done = () => {
    const nav = performance.getEntriesByType("navigation")[0];
    const fcp = performance.getEntriesByName("first-contentful-paint")[0];
    if (!nav || nav.loadEventEnd === 0 || !fcp) return false;
    resolve({ fcp: fcp.startTime, load: nav.loadEventEnd, dcl: nav.domContentLoadedEventEnd });
    return true;
  };
  if (!done()) { const t = setInterval(() => done() && clearInterval(t), 20); }
})
"""

ENGINE_READY_JS = """
() => new Promise((resolve) => {
  const done = () => {
    const ready = performance.getEntriesByName("mneme:engine-ready")[0];
    const start = performance.getEntriesByName("mneme:worker-start")[0];
    const first = performance.getEntriesByName("mneme:first-result")[0];
    if (!ready || !start || !first) return false;
    resolve({ ready: ready.startTime - start.startTime, first: first.startTime,
              timings: (window.mnemeCalculators.stats || {}).timings || null });
    return true;
  };
  if (!done()) { const t = setInterval(() => done() && clearInterval(t), 10); }
})
"""

STORED_JS = f"""
async () => {{
  const reg = await window.mnemeOffline.ready;
  for (let i = 0; i < 600; i++) {{
    const names = await caches.keys();
    if (names.includes("{SNAPSHOT_CACHE}")) {{
      const keys = await (await caches.open("{SNAPSHOT_CACHE}")).keys();
      if (keys.length) return {{ offline: !!reg, snapshot: true }};
    }}
    await new Promise((r) => setTimeout(r, 100));
  }}
  return {{ offline: !!reg, snapshot: false }};
}}
"""

STOCK_CONFIG = """site_name: Stock
site_url: {url}
theme:
  name: material
  font: false
markdown_extensions: [abbr, admonition, attr_list, def_list, footnotes, md_in_html, tables, toc,
  pymdownx.details, pymdownx.superfences]
nav:
  - Glossary: glossary.md
"""


class CountingServer(SiteServer):
    """The tests' server, also counting response body bytes per path (reset with ``take``)."""

    def __init__(self, directory: Path, mounts: dict[str, Path] | None = None) -> None:
        super().__init__(directory, mounts)
        folders = {sub: str(folder) for sub, folder in (mounts or {}).items()}
        self.lock = threading.Lock()
        self.served: list[tuple[str, int]] = []
        server = self

        class Counting(_site._Handler):
            def copyfile(self, source: Any, outputfile: Any) -> None:
                data = source.read()
                with server.lock:
                    server.served.append((self.path.split("?")[0], len(data)))
                outputfile.write(data)

        self.httpd.RequestHandlerClass = functools.partial(Counting, directory=str(directory), mounts=folders)
        self.httpd.handle_error = lambda request, address: None  # a tab closed mid-transfer: not news

    def take(self) -> list[tuple[str, int]]:
        with self.lock:
            out, self.served = self.served, []
        return out


def gzip_size(site: Path, url_path: str, cache: dict[str, int]) -> int:
    if url_path not in cache:
        rel = url_path[len(_site.SUB_PATH) :]
        target = site / rel
        if rel == "" or rel.endswith("/"):
            target = target / "index.html"
        cache[url_path] = len(gzip.compress(target.read_bytes(), 6)) if target.is_file() else 0
    return cache[url_path]


def build_stock(dest: Path, url: str) -> None:
    """A tiny stock mkdocs-material site holding our glossary's markdown."""
    project = dest / "project"
    (project / "docs").mkdir(parents=True)
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    (project / "docs" / "glossary.md").write_text(text, encoding="utf-8")
    (project / "docs" / "index.md").write_text("# Stock\n", encoding="utf-8")
    (project / "mkdocs.yml").write_text(STOCK_CONFIG.format(url=url), encoding="utf-8")
    done = mkdocs_build(dest / "site", url, config=project / "mkdocs.yml", strict=False)
    if done.returncode != 0:
        raise RuntimeError(f"stock build failed:\n{done.stderr}")


def paint(browser: Any, url: str) -> dict[str, float]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script("window.mnemeOfflineConfig = { register: false };")
    try:
        page = ctx.new_page()
        page.goto(url)
        return dict(page.evaluate(PAINT_JS))
    finally:
        ctx.close()


def first_visit_bytes(
    browser: Any, server: CountingServer, path: str, offline: bool
) -> list[tuple[str, int]]:
    ctx = browser.new_context()
    if not offline:
        ctx.add_init_script("window.mnemeOfflineConfig = { register: false };")
    try:
        page = ctx.new_page()
        server.take()
        page.goto(server.url + path)
        if page.locator("form[data-calculator]").count():
            page.wait_for_function(
                "() => document.querySelector('form[data-calculator]').dataset.state !== 'loading'",
                timeout=180_000,
            )
        page.wait_for_load_state("networkidle")
        if offline:
            page.evaluate("window.mnemeOffline.ready.then((r) => !!r)")
            page.wait_for_load_state("networkidle")
        time.sleep(0.5)
        return server.take()
    finally:
        ctx.close()


def returning(
    browser: Any, base: str, visits: int
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, bool]]:
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(base + CALCULATOR_PAGE)
        cold = dict(page.evaluate(ENGINE_READY_JS))
        stored = dict(page.evaluate(STORED_JS))
        page.close()
        later = []
        for _ in range(visits):
            page = ctx.new_page()
            page.goto(base + CALCULATOR_PAGE)
            later.append(dict(page.evaluate(ENGINE_READY_JS)))
            page.close()
        return cold, later, stored
    finally:
        ctx.close()


def mb(n: float) -> str:
    return f"{n / 1e6:6.2f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--returning", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        ours_dir, stock_dir = Path(folder) / "ours", Path(folder) / "stock"
        ours = CountingServer(ours_dir, {BARE: ROOT / "node_modules" / "pyodide"})
        build_site(ours.url, ours_dir)
        stock = SiteServer(stock_dir / "site")
        build_stock(stock_dir, stock.url)
        ours.start()
        stock.start()
        lock = stock_lock()
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            paint(browser, ours.url + READING_PAGE)  # warm-up: OS file cache, JIT
            paint(browser, stock.url + READING_PAGE)
            reading: dict[str, list[dict[str, float]]] = {"ours": [], "stock": [], "rules": []}
            for run in range(args.runs):
                order = ["ours", "stock"] if run % 2 == 0 else ["stock", "ours"]
                for which in order:
                    url = (ours.url if which == "ours" else stock.url) + READING_PAGE
                    reading[which].append(paint(browser, url))
                reading["rules"].append(paint(browser, ours.url + RULES_PAGE))

            bare_boot(browser, ours.url, lock)  # warm-up
            bare: list[float] = []
            live: list[dict[str, float]] = []
            for run in range(args.runs):
                if run % 2:
                    live.append(first_result(browser, ours.url))
                    bare.append(bare_boot(browser, ours.url, lock))
                else:
                    bare.append(bare_boot(browser, ours.url, lock))
                    live.append(first_result(browser, ours.url))

            cold, later, stored = returning(browser, ours.url, args.returning)

            ours.take()
            visits = {
                (path, sw): first_visit_bytes(browser, ours, path, sw)
                for path in (RULES_PAGE, CALCULATOR_PAGE)
                for sw in (False, True)
            }
            browser.close()
        ours.stop()
        stock.stop()
        zipped: dict[str, int] = {}
        sizes = {
            key: (
                sum(n for _, n in served),
                sum(gzip_size(ours_dir, p, zipped) for p, _ in served),
                len(served),
            )
            for key, served in visits.items()
        }
        shutil.rmtree(ours_dir, ignore_errors=True)

    med = statistics.median
    print(f"runs: {args.runs} (new browser context each, cold cache), returning visits: {args.returning}")
    print("1. reading page (glossary), cold:")
    for which in ("ours", "stock", "rules"):
        label = {"ours": "ours ", "stock": "stock", "rules": "ours, rules/checks/"}[which]
        fcp = med(r["fcp"] for r in reading[which])
        load = med(r["load"] for r in reading[which])
        print(f"   {label:20} first contentful paint {fcp:7.0f} ms   load {load:7.0f} ms")
    fcp_ratio = med(r["fcp"] for r in reading["ours"]) / med(r["fcp"] for r in reading["stock"])
    load_ratio = med(r["load"] for r in reading["ours"]) / med(r["load"] for r in reading["stock"])
    print(f"   ratio ours/stock: first paint {fcp_ratio:.2f}, load {load_ratio:.2f}")
    a = med(bare)
    b = med(r["from_worker"] for r in live)
    print("2. cold first live result vs bare Pyodide boot:")
    print(f"   bare loadPyodide: median {a:7.0f} ms {[round(x) for x in bare]}")
    runs = [round(r["from_worker"]) for r in live]
    print(f"   first live Effect result from worker start: median {b:7.0f} ms {runs}")
    print(f"   ratio {b / a:.2f}  (target <= 1.15)")
    warm = med(r["ready"] for r in later)
    print("3. returning visit (same browser) vs first visit, engine ready (worker start -> ready):")
    print(f"   snapshot stored: {stored['snapshot']}, offline cache: {stored['offline']}")
    print(f"   first visit {cold['ready']:7.0f} ms {cold.get('timings')}")
    print(f"   returning   {warm:7.0f} ms {[round(r['ready']) for r in later]} {later[-1].get('timings')}")
    print(f"   ratio {warm / cold['ready']:.2f}  (target <= 0.30)")
    print("4. bytes on a first visit (server-counted bodies; gzip = what a compressing host would send):")
    for (path, sw), (raw, packed, count) in sizes.items():
        label = f"{path} {'with' if sw else 'without'} offline precache"
        print(f"   {label:50} {mb(raw)} raw  {mb(packed)} gzip  ({count} responses)")


if __name__ == "__main__":
    main()
