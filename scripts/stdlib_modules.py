"""Re-makes ``sitebuild/stdlib_modules.txt``: the standard-library modules Pyodide and the engine import.

Builds the site with the FULL ``python_stdlib.zip`` offered beside the trimmed one, boots Pyodide from
it in headless Chromium (a module worker, as the site's engine does), installs our wheel, warms and
computes every calculator and imports the table API, then lists ``sys.modules``. The build ships
those modules and what they import as they load (``sitebuild/bundle.py``: ``trim_stdlib``).
Run it after upgrading Pyodide or adding an import the engine makes only at run time; the tests
(``tests/hooks/test_page_assets.py``, ``tests/browser/test_loading.py``) say when it is needed.
Usage: ``.venv/bin/python scripts/stdlib_modules.py``.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from _site import SiteServer, build_site, launch_chromium  # noqa: E402

OUT = ROOT / "sitebuild" / "stdlib_modules.txt"
HEADER = """\
# Modules Pyodide and the engine import in the browser (every calculator computed, table API imported),
# recorded by scripts/stdlib_modules.py from a full python_stdlib.zip. sitebuild/bundle.py ships only
# these and what they import at module level; tests/browser/test_loading.py checks nothing else is used.
"""

RUN_JS = """
async ([wheel, lock]) => {
  const base = new URL("assets/", location.href).href;
  const src = `
    try {
      const { loadPyodide } = await import("${base}pyodide/pyodide.mjs");
      const py = await loadPyodide({ indexURL: "${base}pyodide/", lockFileContents: ${JSON.stringify(lock)},
                                     stdLibURL: "${base}pyodide/full_stdlib.zip" });
      const buffer = await (await fetch("${base}calculators/${wheel}")).arrayBuffer();
      py.FS.writeFile("/lib/${wheel}", new Uint8Array(buffer));  // imported as a zip, as worker.js does
      py.runPython("import sys\\\\nsys.path.insert(0, '/lib/${wheel}')");
      py.runPython([
        "import calculators.framework.registry as g, calculators.framework.runtime as r",
        "for n in g.names():",
        "    r.warm(n)",
        "    r.compute_json(n, '{}', '')",
        "import table.api",
      ].join("\\\\n"));
      postMessage({ modules: py.runPython("import sys\\\\n','.join(sorted(sys.modules))") });
    } catch (error) {
      postMessage({ error: String(error) });
    }`;
  const blob = new Blob([src], { type: "text/javascript" });
  const worker = new Worker(URL.createObjectURL(blob), { type: "module" });
  return await new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => resolve({ error: event.message || "the worker did not load" });
  });
}
"""


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder)
        server = SiteServer(site)
        build_site(server.url, site)
        shutil.copy(
            ROOT / "node_modules" / "pyodide" / "python_stdlib.zip", site / "assets/pyodide/full_stdlib.zip"
        )
        (wheel,) = (site / "assets" / "calculators").glob("mneme_rules.*.whl")
        lock = json.loads(
            (ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8")
        )
        lock["packages"] = {}
        server.start()
        try:
            with sync_playwright() as pw:
                browser = launch_chromium(pw)
                page = browser.new_page()
                page.goto(server.url + "sw.js")  # a same-origin document without the pages' CSP
                answer = page.evaluate(RUN_JS, [wheel.name, lock])
                browser.close()
        finally:
            server.stop()
    if "error" in answer:
        raise SystemExit(answer["error"])
    ours = ("calculators", "rules_core", "__main__")
    modules = sorted(m for m in answer["modules"].split(",") if not m.startswith(ours))
    OUT.write_text(HEADER + "\n".join(modules) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(modules)} modules")


if __name__ == "__main__":
    main()
