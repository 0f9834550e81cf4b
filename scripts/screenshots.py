"""Screenshots of site pages at desktop (1280) and phone (360) width, light and dark, for looking at.

Usage: ``.venv/bin/python scripts/screenshots.py [PAGE ...]`` (default: the Effect calculator with a roll);
PAGE is a site path such as ``calculators/effect/?roll=5``. Files go to ``bench/out/screenshots/``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from _common import ROOT, served_browser

SIZES = {"desktop": (1280, 900), "phone": (360, 740)}


def main(pages: list[str]) -> None:
    out = ROOT / "bench" / "out" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    with served_browser() as (url, _site, browser):
        for path in pages:
            slug = re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-") or "home"
            for size, (width, height) in SIZES.items():
                for scheme in ("light", "dark"):
                    ctx = browser.new_context(
                        viewport={"width": width, "height": height},
                        color_scheme=scheme,
                        device_scale_factor=1,
                    )
                    page = ctx.new_page()
                    page.goto(url + path)
                    form = page.locator("form[data-calculator]")
                    if form.count():
                        page.wait_for_function(
                            "() => [...document.querySelectorAll('form[data-calculator]')]"
                            ".every(f => f.dataset.state !== 'loading')",
                            timeout=90_000,
                        )
                    target = out / f"{slug}-{size}-{scheme}.png"
                    page.screenshot(path=str(target), full_page=True)
                    print(target)
                    ctx.close()


if __name__ == "__main__":
    main(sys.argv[1:] or ["calculators/effect/?modifier=2&difficulty=10&roll=9&advantage=1"])
