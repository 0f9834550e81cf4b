"""Benchmark on a phone profile: bare stock Pyodide vs our first live result; reading pages.

In one run, headless Chromium with the CPU slowed 4x (``Emulation.setCPUThrottlingRate``) and the
network at 9 Mbps / 150 ms (``Network.emulateNetworkConditions``), every file served gzipped where a
static host would (HTML, JS, CSS, JSON, SVG, wasm; not zip or wheel files, already deflated):

1. **bare**: a blank page whose module worker runs ``loadPyodide`` from the *stock* npm files
   (``node_modules/pyodide``), from navigation to ready (the floor);
2. **first visit**: our Effect calculator, from navigation to its first live result (cold context);
3. **returning visit**: the same, in the same context once the service worker's precache and the
   engine's memory snapshot are stored (the service worker's own network slowed the same way; it
   answers a page the player opens from its cache, so only a reload or instant navigation would
   wait for it);
   then 30 edits there, each timed from the input to its result (warm recompute, median and p95);
4. **warm start**: a reading page left idle (the loader warms the engine), then instant navigation
   to the Effect calculator: from the click to its first live result;
5. **reading page**: first contentful paint of our glossary vs the same markdown built by a stock
   mkdocs-material site.

Each tab waits ``SETTLE_MS`` after it opens before it navigates, as in a browser already open.

``--before DIR`` also measures another built site (e.g. the previous commit's, built with
``SITE_URL`` set to any URL under the same sub-path) in the same run, side by side.
Usage: ``.venv/bin/python bench/bench_phone.py [--runs 3] [--before DIR]``.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import io
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import _site  # noqa: E402
from _site import SiteServer, build_site, launch_chromium  # noqa: E402
from bench_boot import BARE, RECOMPUTE_JS, percentile  # noqa: E402
from bench_site import PAINT_JS, READING_PAGE, build_stock  # noqa: E402

CPU_SLOWDOWN = 4
NETWORK = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 9_000_000 / 8,
    "uploadThroughput": 9_000_000 / 8,
}
GZIPPED = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".xml", ".wasm", ".webmanifest", ".txt", "/")
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

SERVED_BY_WORKER_JS = "() => performance.getEntriesByType('navigation')[0].workerStart > 0"

STORED_JS = """
async () => {
  await window.mnemeOffline.ready;
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


class _Gzipping(_site._Handler):
    """The tests' handler, sending gzip (level 6, cached) for what a static host compresses."""

    cache: dict[str, bytes] = {}  # noqa: RUF012 (shared on purpose: one cache per process)

    def send_head(self) -> Any:
        path = self.translate_path(self.path)
        if Path(path).is_dir():
            path = str(Path(path) / "index.html")
        if not (
            path.endswith(GZIPPED)
            and "gzip" in self.headers.get("Accept-Encoding", "")
            and Path(path).is_file()
        ):
            return super().send_head()
        if path not in self.cache:
            self.cache[path] = gzip.compress(Path(path).read_bytes(), 6)
        body = self.cache[path]
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")  # as GitHub Pages sends
        self.end_headers()
        return io.BytesIO(body)


def gzip_server(directory: Path, mounts: dict[str, Path]) -> SiteServer:
    server = SiteServer(directory, mounts)
    folders = {sub: str(folder) for sub, folder in mounts.items()}
    server.httpd.RequestHandlerClass = functools.partial(_Gzipping, directory=str(directory), mounts=folders)
    server.httpd.handle_error = lambda request, address: None
    return server


SETTLE_MS = 2500
"""How long a new tab waits before it navigates. Headless Chromium starts a tab's own browser UI (the
address bar's hidden WebUI popup, in a renderer of its own) as the tab opens: about a second of CPU,
which on a two-core machine slowed a page opened at once by a third (returning visit 1.1 s against
0.7 s after a wait). A player's browser is already open, so every measured tab, the bare boot's too,
waits until that is over."""


def phone(browser: Any) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport={"width": 360, "height": 760}, device_scale_factor=2, is_mobile=True)
    return ctx, tab(ctx)


def tab(ctx: Any) -> Any:
    """A new tab of ``ctx`` on the phone profile, once the browser's own start-up of it is over."""
    page = ctx.new_page()
    throttle(ctx, page)
    page.wait_for_timeout(SETTLE_MS)
    return page


def throttle(ctx: Any, page: Any) -> None:
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", NETWORK)


def throttle_service_workers(browser: Any) -> int:
    """Slow the network of every running service worker too: a page's CDP session throttles only the
    page and its dedicated workers, so the service worker's own fetches (a file not cached, a page
    asked network-first) would go at full speed. Attached through the browser's session
    (``Target.sendMessageToTarget``); returns how many service workers were throttled."""
    session = browser.new_browser_cdp_session()
    count = 0
    for target in session.send("Target.getTargets")["targetInfos"]:
        if target["type"] != "service_worker":
            continue
        sid = session.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": False})
        for number, (method, params) in enumerate(
            [("Network.enable", {}), ("Network.emulateNetworkConditions", NETWORK)], start=1
        ):
            message = json.dumps({"id": number, "method": method, "params": params})
            session.send("Target.sendMessageToTarget", {"sessionId": sid["sessionId"], "message": message})
        count += 1
    return count


def bare(browser: Any, origin: str) -> float:
    ctx, page = phone(browser)
    try:
        page.goto(origin + BARE + "bare.html")
        page.wait_for_function("() => window.bareReady", timeout=300_000, polling=100)
        return float(page.evaluate("window.bareReady"))
    finally:
        ctx.close()


def first_and_returning(
    browser: Any, base: str, recomputes: list[float], breakdown: list[list[float]]
) -> tuple[float, float]:
    """First live result on a first visit and on a returning one; then 30 edits on the returning
    page, each timed from the input event to its result (appended to ``recomputes``; Python in the
    worker, applying the result and listeners, in ms, to ``breakdown``)."""
    ctx, page = phone(browser)
    try:
        page.goto(base + "calculators/effect/")
        first = float(page.evaluate(FIRST_RESULT_JS))
        page.evaluate(STORED_JS)
        page.wait_for_timeout(1000)
        page.close()
        if not throttle_service_workers(browser):
            raise RuntimeError("no service worker to throttle: the returning visit would not be one")
        again = tab(ctx)
        again.goto(base + "calculators/effect/")
        returning = float(again.evaluate(FIRST_RESULT_JS))
        if not again.evaluate(SERVED_BY_WORKER_JS):
            raise RuntimeError("the returning page did not come through the service worker")
        again.wait_for_timeout(500)
        times, parts = again.evaluate(RECOMPUTE_JS, 30)
        recomputes.extend(float(t) for t in times)
        breakdown.extend(parts)
        return first, returning
    finally:
        ctx.close()


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
        server = gzip_server(ours_dir, mounts)
        build_site(server.url, ours_dir)
        origin = server.url.removesuffix(_site.SUB_PATH)
        build_stock(stock_dir, origin + "/stock/")
        server.start()
        sites = {"ours": server.url} | ({"before": origin + BEFORE} if args.before else {})
        rows: dict[str, list[float]] = {}
        recomputes: dict[str, list[float]] = {}
        parts: dict[str, list[list[float]]] = {}

        def add(key: str, value: float | None) -> None:
            if value is not None and value == value:  # not NaN (a site without a measure of it)
                rows.setdefault(key, []).append(value)

        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            for run in range(args.runs):
                add("bare", bare(browser, origin))
                for name, base in sites.items() if run % 2 == 0 else reversed(sites.items()):
                    first, again = first_and_returning(
                        browser, base, recomputes.setdefault(name, []), parts.setdefault(name, [])
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
        f"phone profile: CPU {CPU_SLOWDOWN}x slower, 9 Mbps / 150 ms, gzip as a static host; {args.runs} runs"
    )
    print(f"   bare stock Pyodide boot       {floor:7.0f} ms  {[round(x) for x in rows['bare']]}")
    for name in sites:
        for what in ("first", "returning"):
            values = rows[f"{name} {what}"]
            print(
                f"   {name:6} {what:9} live result {med(values):7.0f} ms  {[round(x) for x in values]}"
                f"  = {med(values) / floor:.2f} x bare"
            )
        times = recomputes[name]
        print(
            f"   {name:6} warm recompute over {len(times)} edits: median {med(times):.1f} ms,"
            f" p95 {percentile(times, 0.95):.1f} ms (target p95 <= 50 ms)"
        )
        python, apply, listeners = (med(float(p[i] or 0) for p in parts[name]) for i in range(3))
        print(
            f"          of which (medians): Python {python:.1f} ms, applying {apply:.1f} ms,"
            f" listeners {listeners:.1f} ms"
        )
        if rows.get(f"{name} warm start"):
            values = rows[f"{name} warm start"]
            print(
                f"   {name:6} warm start: click to live result {med(values):7.0f} ms"
                f"  {[round(x) for x in values]}"
            )
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
