"""Browser modules import only browser modules: a relative path inside ``browser/`` to a file that
is there (or an npm package bundled on purpose, ``BUNDLED_PACKAGES``), never Python-side code nor
a file outside. ``sitebuild/bundle.py`` bundles each entry with esbuild; the service worker
(``offline/sw.js``) is a template ``hooks/offline.py`` fills as it is, so it imports nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BROWSER = ROOT / "browser"
BUNDLED_PACKAGES: frozenset[str] = frozenset({"uqr"})
"""npm packages a browser module may import (bundled into the script that imports it): uqr, the QR
codes of the links shown to players and the referee (about 10 kB minified)."""
UNBUNDLED = ("offline/sw.js",)

STATIC_IMPORT = re.compile(
    r"""^\s*(?:import\s*(['"])(?P<bare>[^'"]+)\1|(?:import|export)\b[^;'"]*?\bfrom\s*(['"])(?P<target>[^'"]+)\3)""",
    re.MULTILINE,
)
"""``import "x"``, and ``import ... from "x"`` / ``export ... from "x"`` (over several lines)."""
SOURCES = sorted(p.relative_to(BROWSER).as_posix() for p in BROWSER.rglob("*.js"))


def _imports(text: str) -> list[str]:
    return [found.group("bare") or found.group("target") for found in STATIC_IMPORT.finditer(text)]


def test_the_scanner_reads_every_form_of_static_import() -> None:
    text = (
        'import { a, b } from "./lib/a.js";\nimport * as c from \'../c.js\';\nimport "./side.js";\n'
        'export { d } from "./d.js";\nimport {\n  e,\n} from "./e.js";\nconst f = "import x from y";\n'
        'export const g = "from z";\nexport function h() {}\n'
    )
    assert _imports(text) == ["./lib/a.js", "../c.js", "./side.js", "./d.js", "./e.js"]


@pytest.mark.parametrize("name", SOURCES)
def test_a_browser_module_imports_only_browser_modules(name: str) -> None:
    path = BROWSER / name
    for target in _imports(path.read_text(encoding="utf-8")):
        if not target.startswith("."):
            assert target in BUNDLED_PACKAGES, f"browser/{name} imports {target!r}, not a browser module"
            continue
        assert target.endswith(".js"), f"browser/{name}: {target!r} must name its file"
        resolved = (path.parent / target).resolve()
        assert resolved.is_relative_to(BROWSER), f"browser/{name} imports {target!r}, outside browser/"
        assert resolved.is_file(), f"browser/{name} imports {target!r}, which does not exist"


@pytest.mark.parametrize("name", UNBUNDLED)
def test_a_script_shipped_unbundled_imports_nothing(name: str) -> None:
    assert _imports((BROWSER / name).read_text(encoding="utf-8")) == []
