"""Each page links only what it uses, every file of ours is content-hashed, and every page names its build.

Light pages: one script (the loader) and one stylesheet of ours per page, print.css print-only.
Updates that never mix: ``<meta name="mneme-build">`` in every page's head equals the build
the worker reports; a new build renames every changed file of ours.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from _site import ROOT, zip_of

from sitebuild import bundle as bundle_hook

OURS = re.compile(r"""(?:src|href)="([^"]*assets/(?:calculators|offline)/[^"]+\.(?:js|css))\"""")
LOADER_CONFIG = re.compile(r"/\*MNEME_LOADER\*/ (.*?) /\*END_MNEME_LOADER\*/")
WORKER_CONFIG = re.compile(r"/\*MNEME_CONFIG\*/ (.*?) /\*END_MNEME_CONFIG\*/")


def pages(site: Path) -> list[Path]:
    found = sorted(site.rglob("*.html"))
    assert len(found) > 20
    return found


def test_every_page_links_only_the_loader_the_offline_script_and_one_stylesheet_of_ours(site: Path) -> None:
    calculator_pages = 0
    for page in pages(site):
        html = page.read_text(encoding="utf-8")
        names = sorted(Path(link).name.split(".")[0] for link in OURS.findall(html))
        # A calculator page also carries the engine client and the calculators (sitebuild/early_engine.py).
        has_calculator = 'data-calculator="' in html
        calculator_pages += has_calculator
        extra = ["calculators", "engine"] if has_calculator else []
        assert names == sorted(["loader", "mneme", "print", "register", *extra]), page
        # print.css never blocks the screen; the merged stylesheet is the only other one of ours.
        assert re.search(r'<link rel="stylesheet" media="print" href="[^"]*assets/calculators/print\.', html)
        absent = ["charts", "character", "tracker", *([] if extra else ["engine"])]
        for script in absent:
            assert f"assets/calculators/{script}." not in html, (page, script)
    assert calculator_pages >= 16


SCRIPT_TAG = re.compile(r"<script\b([^>]*)>")


def test_the_theme_s_script_and_ours_are_deferred_in_their_order(site: Path) -> None:
    """A parser-blocking script still downloading holds back a phone's first paint; all of
    them run once the page is parsed, in document order: engine, calculators, the theme, then ours.
    On a calculator page the theme's script is held, inert, where it stood: calculators.js starts it
    after the first result (sitebuild/early_engine.py: with_held_theme); on a table app's page too,
    where loader.js starts it once the app has drawn the engine's view."""
    for page in pages(site):
        html = page.read_text(encoding="utf-8")
        sources = [attrs for attrs in SCRIPT_TAG.findall(html) if " src=" in attrs]
        assert sources, page
        assert all(attrs.rstrip().endswith(" defer") for attrs in sources), (page, sources)
        order = [Path(re.search(r'src="([^"]+)"', a).group(1)).name.split(".")[0] for a in sources]
        held = re.findall(r'<script type="mneme/theme" data-mneme-theme="([^"]+)"></script>', html)
        if 'data-calculator="' in html:
            assert order == ["engine", "calculators", "loader", "register"], (page, order)
            assert [Path(h).name.split(".")[0] for h in held] == ["bundle"], (page, held)
            assert (page.parent / held[0]).resolve().is_file(), (page, held)
            between = html.index('data-mneme-theme="')
            assert html.rindex("assets/calculators/calculators.", 0, between) < between
            assert html.index("assets/calculators/loader.", between) > between
        elif 'data-mneme-table="' in html:
            assert order[-2:] == ["loader", "register"] and "bundle" not in order, (page, order)
            assert [Path(h).name.split(".")[0] for h in held] == ["bundle"], (page, held)
            assert (page.parent / held[0]).resolve().is_file(), (page, held)
            assert html.index('data-mneme-theme="') < html.index("assets/calculators/loader.")
        else:
            assert order[-3:] == ["bundle", "loader", "register"], (page, order)
            assert held == [], page


def test_the_loader_names_existing_hashed_scripts(site: Path) -> None:
    (loader,) = (site / "assets" / "calculators").glob("loader.*.js")
    config = json.loads(LOADER_CONFIG.search(loader.read_text(encoding="utf-8")).group(1))  # type: ignore[union-attr]
    assert {"calculators", "character", "engine", "tracker"} <= set(config["scripts"])
    assert "charts" not in config["scripts"]  # the charts arrive drawn, as SVG in the result's HTML
    assert set(config["everywhere"]) == set(config["scripts"]) - {
        n.removesuffix(".js") for n in bundle_hook.LOADED
    }
    for name, file in config["scripts"].items():
        path = site / "assets" / "calculators" / file
        assert path.is_file(), file
        assert re.fullmatch(rf"{name}\.[0-9a-f]{{16}}\.js", file)


def test_every_file_of_ours_is_named_by_its_content(site: Path) -> None:
    for folder in ("calculators", "offline"):
        for path in (site / "assets" / folder).iterdir():
            if path.suffix not in (".js", ".css", ".whl"):
                continue  # icons are named by their drawing
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
            assert re.fullmatch(rf"[a-z_]+\.{digest}\.(js|css|whl)", path.name), path.name


def test_the_merged_stylesheet_holds_each_source_stylesheet_and_print_rules_are_print_only(
    site: Path,
) -> None:
    (merged,) = (site / "assets" / "calculators").glob("mneme.*.css")
    (printed,) = (site / "assets" / "calculators").glob("print.*.css")
    text = merged.read_text(encoding="utf-8")
    frontend = ROOT / "browser"
    names = bundle_hook.stylesheets(frontend)
    assert names[0] == "calculators.css" and names[-1] == "offline/a11y.css"
    assert {p.name for p in frontend.glob("*.css")} == {*names[:-1], "print.css"}  # every stylesheet
    for name in names:
        assert (frontend / name).read_text(encoding="utf-8").strip() in text, name
    screen, print_only = bundle_hook.split_print((frontend / "print.css").read_text(encoding="utf-8"))
    assert screen.strip() in text and "@media print" not in text
    assert printed.read_text(encoding="utf-8") == print_only and print_only.strip()


def test_print_rules_are_split_from_screen_rules() -> None:
    css = ".a { b: c; }\n@media print {\n  /* } */ .x { y: z; }\n  @page { margin: 1cm; }\n}\n.d { e: f; }\n"
    screen, printed = bundle_hook.split_print(css)
    assert screen == ".a { b: c; }\n\n.d { e: f; }\n"
    assert printed == "/* } */ .x { y: z; }\n  @page { margin: 1cm; }\n"
    with pytest.raises(ValueError, match="not closed"):
        bundle_hook.split_print("@media print { .x { y: z; }")


def test_every_page_and_the_worker_carry_one_build_hash(site: Path) -> None:
    (worker,) = (site / "assets" / "calculators").glob("worker.*.js")
    build = json.loads(WORKER_CONFIG.search(worker.read_text(encoding="utf-8")).group(1))["build"]  # type: ignore[union-attr]
    (loader,) = (site / "assets" / "calculators").glob("loader.*.js")
    assert json.loads(LOADER_CONFIG.search(loader.read_text(encoding="utf-8")).group(1))["build"] == build  # type: ignore[union-attr]
    assert re.fullmatch(r"[0-9a-f]{16}", build)
    for page in pages(site):
        html = page.read_text(encoding="utf-8")
        assert html.count('<meta name="mneme-build"') == 1, page
        assert f'<meta name="mneme-build" content="{build}">' in html, page


def test_a_new_build_label_or_source_gives_a_new_build_and_new_names(monkeypatch: pytest.MonkeyPatch) -> None:
    first = bundle_hook.make_bundle(ROOT)
    again = bundle_hook.make_bundle(ROOT)
    assert first.build == again.build and first.scripts == again.scripts  # reproducible
    monkeypatch.setenv("MNEME_BUILD_LABEL", "next")
    other = bundle_hook.make_bundle(ROOT)
    assert other.build != first.build
    assert other.wheel_name != first.wheel_name and other.worker_name != first.worker_name
    assert other.scripts[0] != first.scripts[0]  # the loader names the new scripts, so it is new too


# ---------------------------------------------------------------- the trimmed standard library


def test_trimming_keeps_the_wanted_modules_what_they_import_as_they_load_and_their_packages() -> None:
    full = zip_of(
        {
            "wanted.py": "import json\nfrom pkg.sub import thing\nif True:\n    import cond\n"
            "def later():\n    import lazy\n",
            "json/__init__.py": "from .decoder import x\n",
            "json/decoder.py": "x = 1\n",
            "pkg/__init__.py": "",
            "pkg/sub.py": "from . import (\n    sibling,\n)\nthing = 1\n",
            "pkg/sibling.py": "",
            "cond.py": "",
            "lazy.py": "",
            "unused.py": "import wanted\n",
            "data.txt": "kept: not a module",
        }
    )
    kept = set(zipfile.ZipFile(io.BytesIO(bundle_hook.trim_stdlib(full, {"wanted"}))).namelist())
    assert kept == {
        "wanted.py",
        "json/__init__.py",
        "json/decoder.py",
        "pkg/__init__.py",
        "pkg/sub.py",
        "pkg/sibling.py",
        "cond.py",
        "data.txt",
    }


def test_trimming_skips_imports_that_never_run_as_pyodide_loads_a_module_and_frozen_modules() -> None:
    """Not followed: a function whose header spans lines, a docstring's example, Windows' branch, a
    fallback for a module that fails to import; a frozen module is left out, what it imports kept."""
    full = zip_of(
        {
            "wanted.py": 'import frozen\n"""Example:\n\n    import in_doc\n"""\n'
            "def f(a,\n      b):\n    import late\n"
            'if sys.platform == "win32":\n    import windows\nelse:\n    import unix\n'
            "try:\n    import _fast\nexcept ImportError:\n    import _slow\n",
            "frozen.py": "import needed\n",
            **{f"{n}.py": "" for n in ("needed", "in_doc", "late", "windows", "unix", "_fast", "_slow")},
        }
    )
    trimmed = bundle_hook.trim_stdlib(full, {"wanted"}, frozenset({"frozen"}))
    kept = set(zipfile.ZipFile(io.BytesIO(trimmed)).namelist())
    assert kept == {"wanted.py", "needed.py", "unix.py", "_fast.py"}


def _stdlib_imports(root: Path) -> set[str]:
    """Every module our browser code imports, at any level (an AST walk of rules_core and calculators)."""
    found: set[str] = set()
    for package in bundle_hook.PACKAGES:
        for path in (root / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    found |= {alias.name for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    found.add(node.module)
    return found


def test_the_shipped_standard_library_holds_every_module_our_code_imports(site: Path) -> None:
    (shipped,) = (site / "assets" / "pyodide").glob("python_stdlib.*.zip")
    (later,) = (site / "assets" / "pyodide").glob("python_stdlib_later.*.zip")  # fetched with the wheel
    full = zipfile.ZipFile(ROOT / "node_modules" / "pyodide" / "python_stdlib.zip")
    names = zipfile.ZipFile(shipped).namelist() + zipfile.ZipFile(later).namelist()
    in_full = {
        n[:-3].replace("/", ".").removesuffix(".__init__") for n in full.namelist() if n.endswith(".py")
    }
    # Shipped compiled (sitebuild/bytecode.py): modules are .pyc files, with no source beside them.
    assert not [n for n in names if n.endswith(".py")]
    in_trimmed = {n[:-4].replace("/", ".").removesuffix(".__init__") for n in names if n.endswith(".pyc")}
    needed = {m for m in _stdlib_imports(ROOT) if m in in_full}
    assert needed, "no standard-library import found: the scan is broken"
    assert needed <= in_trimmed, sorted(needed - in_trimmed)
    assert (
        shipped.stat().st_size
        < 0.6 * (ROOT / "node_modules" / "pyodide" / "python_stdlib.zip").stat().st_size
    )
    for dropped in ("unittest", "pydoc", "doctest", "tkinter", "idlelib"):
        assert dropped not in in_trimmed


def test_every_calculator_chart_is_in_the_built_page_as_svg(site: Path) -> None:
    """A chart is drawn before the engine starts: the build prerenders it (calculators/framework/chart_svg.py)
    as an SVG image with a title, a description and its table; no page or asset names a chart library."""
    from calculators.framework import runtime

    charted = 0
    for page in pages(site):
        html = page.read_text(encoding="utf-8")
        assert "chart.umd" not in html and "data-chart-canvas" not in html, page
        for figure in re.findall(
            r'<figure class="calc-chart" data-chart="[^"]+">.*?</figure>', html, re.DOTALL
        ):
            charted += 1
            assert re.search(
                r'<svg class="calc-chart-svg" role="img"[^>]*><title>[^<]+</title><desc>', figure
            )
            assert figure.count("<rect") == figure.count('<tr><th scope="row">') + figure.count(
                '<tr class="calc-highlight"><th scope="row">'
            )
    assert charted >= 10
    # The damage page's default chart is CPython's, bar for bar.
    damage = (site / "calculators" / "damage" / "index.html").read_text(encoding="utf-8")
    built = re.search(r'<figure class="calc-chart" data-chart="total">.*?</figure>', damage, re.DOTALL)
    expected = re.search(
        r'<figure class="calc-chart" data-chart="total">.*?</figure>',
        runtime.compute("damage", {})["details"],
    )
    assert built and expected
    assert re.findall(r'height="([^"]+)"', built.group(0)) == re.findall(
        r'height="([^"]+)"', expected.group(0)
    )
    assert not list((site / "assets").rglob("chart*.js"))
