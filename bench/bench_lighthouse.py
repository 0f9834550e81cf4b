"""Lighthouse (mobile) performance and accessibility: our pages beside a stock mkdocs-material page.

Lighthouse is not a dependency of the site: install it anywhere (``npm install --prefix DIR
lighthouse@13.5.0``) and pass ``--lighthouse DIR/node_modules/lighthouse/cli/index.js``. It drives
Debian's Chromium (``CHROME_PATH``), mobile form factor with its default simulated throttling.
``--before DIR`` also scores another built site (e.g. the previous commit's) in the same run.
Usage: ``python3 bench/bench_lighthouse.py --lighthouse PATH [--runs 1] [--before DIR]``.
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "bench"))

import _site  # noqa: E402
from _site import CHROMIUM, SiteServer, build_site  # noqa: E402
from bench_site import build_stock  # noqa: E402

PAGES = ("", "rules/checks/", "glossary/", "calculators/effect/")


def score(lighthouse: str, url: str) -> tuple[float, float]:
    """(performance, accessibility), 0-100, of one Lighthouse mobile run."""
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
    categories = json.loads(done.stdout)["categories"]
    return categories["performance"]["score"] * 100, categories["accessibility"]["score"] * 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lighthouse", required=True)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--before", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        ours_dir, stock_dir = Path(folder) / "ours", Path(folder) / "stock"
        mounts = {"/stock/": stock_dir / "site"} | ({"/before/": args.before} if args.before else {})
        server = SiteServer(ours_dir, mounts)
        build_site(server.url, ours_dir)
        origin = server.url.removesuffix(_site.SUB_PATH)
        build_stock(stock_dir, origin + "/stock/")
        server.start()
        urls = {f"stock {p}": f"{origin}/stock/{p}" for p in ("glossary/",)}
        urls |= {f"ours {p or 'home'}": server.url + p for p in PAGES}
        if args.before:
            urls |= {f"before {p or 'home'}": f"{origin}/before/{p}" for p in PAGES}
        results: dict[str, list[tuple[float, float]]] = {key: [] for key in urls}
        for _ in range(args.runs):
            for key, url in urls.items():
                results[key].append(score(args.lighthouse, url))
        server.stop()
    print(f"Lighthouse mobile, {args.runs} run(s) each, median: performance / accessibility")
    for key, values in results.items():
        perf = statistics.median(v[0] for v in values)
        a11y = statistics.median(v[1] for v in values)
        print(f"   {key:32} {perf:5.0f} / {a11y:3.0f}   {[round(v[0]) for v in values]}")


if __name__ == "__main__":
    main()
