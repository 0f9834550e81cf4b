"""Lighthouse (mobile) performance and accessibility: every page of ours beside a stock mkdocs-material page.

Served as GitHub Pages serves it (``tests/_pages.py``: gzip, ETag, ``max-age=600``). Each built page
is scored and counted as a *calculator page* (it has a calculator or a table app: the engine starts
there) or a *reading page*; the summary gives the lowest of each beside the stock page (the targets:
every reading page at least the stock page, every calculator page at least 95, accessibility 100).

Lighthouse is not a dependency of the site: install it anywhere (``npm install --prefix DIR
lighthouse@13.5.0``) and pass ``--lighthouse DIR/node_modules/lighthouse/cli/index.js``. It drives
Debian's Chromium (``CHROME_PATH``), mobile form factor with its default simulated throttling.
``--before DIR`` also scores another built site (e.g. the previous commit's) in the same run.
Usage: ``.venv/bin/python bench/bench_lighthouse.py --lighthouse PATH [--runs 1] [--before DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import _site  # noqa: E402
from _pages import PagesServer  # noqa: E402
from _site import CHROMIUM, build_site  # noqa: E402
from bench_site import build_stock  # noqa: E402

from sitebuild.early_engine import COMPUTES  # noqa: E402  (what makes a page start the engine)


def pages(site: Path) -> dict[str, bool]:
    """Every page of a built site (its path under the site) -> whether it computes."""
    out = {}
    for path in sorted(site.rglob("index.html")):
        rel = path.parent.relative_to(site).as_posix()
        rel = "" if rel == "." else rel + "/"
        if rel.startswith("assets/"):
            continue
        text = path.read_text(encoding="utf-8")
        out[rel] = bool(COMPUTES.search(text))
    return out


def blocking(report: dict[str, Any]) -> str:
    """A report's total blocking time and its long tasks (simulated ms) summed by the file they are in."""
    audits = report["audits"]
    by_file: dict[str, list[float]] = {}
    for task in audits["long-tasks"].get("details", {}).get("items", []):
        name = str(task.get("url", "")).rstrip("/").rsplit("/", 1)[-1] or "?"
        by_file.setdefault(name.split(".")[0], []).append(float(task["duration"]))
    tasks = ", ".join(
        f"{name} {len(ms)}x {sum(ms):.0f}" for name, ms in sorted(by_file.items(), key=lambda kv: -sum(kv[1]))
    )
    return f"TBT {audits['total-blocking-time']['numericValue']:.0f} ms; long tasks: {tasks or 'none'}"


def score(lighthouse: str, url: str, save: Path | None = None) -> tuple[float, float]:
    """(performance, accessibility), 0-100, of one Lighthouse mobile run (its report kept in ``save``);
    its blocking time and long tasks go to stderr."""
    flags = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"
    done = subprocess.run(
        [
            "node",
            lighthouse,
            url,
            "--only-categories=performance,accessibility",
            "--output=json",
            "--quiet",
            f"--chrome-flags={flags}",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "CHROME_PATH": CHROMIUM},
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    if save is not None:
        save.write_text(done.stdout, encoding="utf-8")
    report = json.loads(done.stdout)
    print(f"      {blocking(report)}", file=sys.stderr, flush=True)
    categories = report["categories"]
    return categories["performance"]["score"] * 100, categories["accessibility"]["score"] * 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lighthouse", required=True)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--before", type=Path)
    parser.add_argument("--only", nargs="*", help="page paths to score (default: every page)")
    parser.add_argument("--save", type=Path, help="folder to keep each run's Lighthouse JSON report in")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        ours_dir, stock_dir = Path(folder) / "ours", Path(folder) / "stock"
        mounts = {"/stock/": stock_dir / "site"} | ({"/before/": args.before} if args.before else {})
        server = PagesServer(ours_dir, mounts=mounts)
        build_site(server.url, ours_dir)
        origin = server.url.removesuffix(_site.SUB_PATH)
        build_stock(stock_dir, origin + "/stock/")
        kinds = pages(ours_dir)
        if args.only is not None:
            kinds = {p: c for p, c in kinds.items() if p in args.only}
        urls = {f"stock {p}": f"{origin}/stock/{p}" for p in ("glossary/",)}
        urls |= {f"ours {p or 'home'}": server.url + p for p in kinds}
        if args.before:
            urls |= {f"before {p or 'home'}": f"{origin}/before/{p}" for p in kinds}
        results: dict[str, list[tuple[float, float]]] = {key: [] for key in urls}
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
        for run in range(args.runs):
            for key, url in urls.items():
                name = key.replace(" ", "_").replace("/", "_").strip("_") + f".{run}.json"
                results[key].append(score(args.lighthouse, url, args.save / name if args.save else None))
                print(f"   {key:32} {results[key][-1]}", file=sys.stderr, flush=True)
        server.stop()
    med = statistics.median
    print(f"Lighthouse mobile, {args.runs} run(s) each, median: performance / accessibility")
    for key, values in results.items():
        kind = (
            ""
            if key.startswith("stock")
            else ("calculator" if kinds[key.split(" ", 1)[1].replace("home", "")] else "reading")
        )
        print(
            f"   {key:32} {kind:10} {med(v[0] for v in values):5.0f} / {med(v[1] for v in values):3.0f}"
            f"   {[round(v[0]) for v in values]}"
        )
    stock = med(v[0] for v in results["stock glossary/"])
    for site in ("ours", "before") if args.before else ("ours",):
        for kind, computes in (("reading", False), ("calculator", True)):
            mine = [
                med(v[0] for v in results[f"{site} {p or 'home'}"]) for p, c in kinds.items() if c is computes
            ]
            if mine:
                print(
                    f"   {site:6} lowest {kind:10} page {min(mine):5.0f}"
                    f"  (stock page {stock:.0f}; {len(mine)} pages)"
                )
        a11y = [med(v[1] for v in values) for key, values in results.items() if key.startswith(site)]
        print(f"   {site:6} lowest accessibility {min(a11y):5.0f}")


if __name__ == "__main__":
    main()
