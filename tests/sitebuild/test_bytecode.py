"""Start-up build steps: bytecode (``sitebuild/bytecode.py``), the early engine start (``early_engine``)."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import zipfile
from pathlib import Path

import pytest
from _site import ROOT, zip_of

from sitebuild import bytecode, early_engine
from sitebuild.bundle import FROZEN, LATER
from sitebuild.bundle import PYODIDE_VERSION as VERSION
from sitebuild.errors import BuildError

pytestmark = pytest.mark.xdist_group("bytecode")
"""One test process for the whole module: its module fixtures (compiled archives, a Pyodide start under
Node) are made once, not once in each process that pytest-xdist hands one of its tests to."""

PYODIDE = ROOT / "node_modules" / "pyodide"
BROKEN = zip_of({"broken.py": "def (:\n"})


@pytest.fixture(scope="module")
def compiled() -> tuple[bytes, bytes]:
    source = zip_of(
        {
            "pkg/__init__.py": '"""A docstring, dropped."""\n',
            "pkg/mod.py": (
                "def f(x):\n    assert x > 0\n    return x * 2\n\n\n"
                'class A:\n    """Doc line.\n\n    More."""\n'
            ),
            "pkg/data.json": '{"kept": true}',
        }
    )
    # One Node run (one Pyodide boot) for both archives: the broken one fails the call, the good one
    # is compiled all the same and cached, so the second call below starts nothing.
    with pytest.raises(ValueError, match=r"(?s)bytecode\.mjs failed: .*SyntaxError"):
        bytecode.compile_archives(PYODIDE, VERSION, [source, BROKEN, source], class_docs=[False, False, True])
    (out,) = bytecode.compile_archives(PYODIDE, VERSION, [source])
    return source, out


def test_sources_become_sourceless_hash_based_pyc_files_and_data_stays(compiled: tuple[bytes, bytes]) -> None:
    _, out = compiled
    archive = zipfile.ZipFile(io.BytesIO(out))
    assert archive.namelist() == ["pkg/__init__.pyc", "pkg/mod.pyc", "pkg/data.json"]
    assert archive.read("pkg/data.json") == b'{"kept": true}'
    headers = {archive.read(n)[:8] for n in archive.namelist() if n.endswith(".pyc")}
    (header,) = headers  # one magic number (the browser's Python), one flag word
    assert header[2:4] == b"\r\n"
    assert int.from_bytes(header[4:8], "little") == 0b01  # hash-based, not checked against a source
    assert header[:4] != importlib.util.MAGIC_NUMBER  # made by Pyodide's Python, not this one


def test_docstrings_and_line_tables_are_left_out(compiled: tuple[bytes, bytes]) -> None:
    source, out = compiled
    archive = zipfile.ZipFile(io.BytesIO(out))
    assert b"A docstring, dropped." not in archive.read("pkg/__init__.pyc")
    assert len(out) < 2 * len(source)


def test_an_archive_may_keep_each_class_docstring_s_first_line(
    compiled: tuple[bytes, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """For the wheel: a dataclass with no __doc__ makes one from its signature at every engine start."""
    source, out = compiled
    monkeypatch.setattr(bytecode.shutil, "which", lambda name: None)  # compiled by the fixture's run
    (docs,) = bytecode.compile_archives(PYODIDE, VERSION, [source], class_docs=[True])
    assert docs != out
    kept = zipfile.ZipFile(io.BytesIO(docs)).read("pkg/mod.pyc")
    assert b"Doc line." in kept and b"More." not in kept
    assert b"Doc line." not in zipfile.ZipFile(io.BytesIO(out)).read("pkg/mod.pyc")


def test_results_are_cached_by_content(
    compiled: tuple[bytes, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, out = compiled
    monkeypatch.setattr(bytecode.shutil, "which", lambda name: None)  # Node cannot run again
    assert bytecode.compile_archives(PYODIDE, VERSION, [source]) == [out]
    with pytest.raises(FileNotFoundError, match=r"Node\.js"):
        bytecode.compile_archives(PYODIDE, VERSION, [zip_of({"new.py": "x = 1\n"})])


def test_a_source_that_does_not_compile_fails_the_build(
    compiled: tuple[bytes, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The failure itself is shown by the fixture (pytest.raises there); it is never cached as a result.
    monkeypatch.setattr(bytecode.shutil, "which", lambda name: None)
    with pytest.raises(FileNotFoundError, match=r"Node\.js"):
        bytecode.compile_archives(PYODIDE, VERSION, [BROKEN])


PAGE = '<html><head><meta charset="utf-8"><title>t</title></head><body>{}</body></html>'


@pytest.mark.parametrize(
    ("body", "starts"),
    [
        ('<form class="calc" data-calculator="effect"></form>', True),
        ('<div id="mneme-table-config" hidden></div>', True),
        ("<p>Reading only: data-calculator is just text here.</p>", False),
    ],
)
def test_only_pages_that_compute_start_the_engine_early(body: str, starts: bool) -> None:
    html = early_engine.with_early_start(
        PAGE.format(body), "assets/calculators/worker.abc.js", "calculators/effect/"
    )
    assert ("mneme:worker-start" in html) is starts
    if starts:
        head = html.split("<title>")[0]
        assert head.startswith('<html><head><meta charset="utf-8"><script data-mneme-worker=')
        assert 'data-mneme-worker="../../assets/calculators/worker.abc.js"' in head


def test_the_worker_s_text_goes_before_the_early_start_and_never_ends_its_element() -> None:
    html = early_engine.with_early_start(
        PAGE.format('<form data-calculator="x">'), "a/w.js", "", worker_source="const a = 1 < 2;"
    )
    block = '<script type="mneme/worker" id="mneme-worker">const a = 1 < 2;</script>'
    assert f'<meta charset="utf-8">{block}' in html
    assert html.index('id="mneme-worker"') < html.index("data-mneme-worker=")
    for text in ("x = '</script>';", "x = '</SCRIPT';", "// <!-- y"):
        with pytest.raises(BuildError, match="cannot be inlined"):
            early_engine.worker_block(text)


THEME = '<script src="../../assets/javascripts/bundle.0a1b2c3d.min.js"></script>'


@pytest.mark.parametrize(
    ("body", "held"),
    [
        ('<form class="calc" data-calculator="effect"></form>', True),
        ('<div class="mt-app" data-mneme-table="tracker" data-state="loading"></div>', True),
        ('<div class="mt-app" data-mneme-table="tracker" data-view="players"></div>', True),
        ('<div class="mt-app" data-mneme-table="character" data-state="loading"></div>', True),
        ('<div id="mneme-table-config" hidden></div>', False),  # the table settings alone: no app here
        ("<p>Reading only, <code>data-mneme-table=&quot;tracker&quot;</code>.</p>", False),
        ("<p>Reading only.</p>", False),
    ],
)
def test_calculator_and_table_app_pages_hold_the_theme_s_script_and_the_others_defer_it(
    body: str, held: bool
) -> None:
    html = PAGE.format(body + THEME)
    done = early_engine.with_deferred_theme(early_engine.with_held_theme(html))
    assert early_engine.with_deferred_theme(early_engine.with_held_theme(done)) == done  # once
    theme = '"../../assets/javascripts/bundle.0a1b2c3d.min.js"'
    if held:
        assert done == html.replace(THEME, f'<script type="mneme/theme" data-mneme-theme={theme}></script>')
    else:
        assert done == html.replace(THEME, f"<script src={theme} defer></script>")


def test_the_early_script_is_one_text_on_every_page() -> None:
    bodies = {
        early_engine.with_early_start(PAGE.format('<form data-calculator="x">'), "a/w.js", url)
        .split('">', 2)[2]
        .split("</script>")[0]
        for url in ("", "calculators/effect/", "rules/checks/")
    }
    assert len(bodies) == 1  # one hash in the Content-Security-Policy


def test_built_calculator_pages_start_the_engine_before_any_stylesheet(site: Path) -> None:
    html = (site / "calculators" / "effect" / "index.html").read_text(encoding="utf-8")
    early = html.index("data-mneme-worker=")
    assert early < html.index('<link rel="stylesheet"') and early > html.index("Content-Security-Policy")
    (worker,) = (site / "assets" / "calculators").glob("worker.*.js")
    assert f'data-mneme-worker="../../assets/calculators/{worker.name}"' in html
    # The worker's own text, just before the early start (which runs it from a blob).
    block = early_engine.worker_block(worker.read_text(encoding="utf-8"))
    assert html.index(block) + len(block) == html.index("<script data-mneme-worker=")
    reading = (site / "glossary" / "index.html").read_text(encoding="utf-8")
    assert "data-mneme-worker=" not in reading


PYODIDE_JS = """
const { loadPyodide } = await import(process.argv[1]);
const pyodide = await loadPyodide();
pyodide.globals.set("names", process.argv[2]);
console.log(pyodide.runPython(`
import sys
started = sorted(sys.modules)  # before this script imports anything
import importlib
for name in names.split():
    importlib.import_module(name)
frozen = [n for n in names.split() if getattr(sys.modules[n].__spec__, "origin", "") == "frozen"]
import json
json.dumps({"started": started, "frozen": frozen})
`));
"""


@pytest.fixture(scope="module")
def pyodide_node() -> dict[str, set[str]]:
    """What the pinned Pyodide's Python shows under Node, from one start (a Pyodide boot costs seconds
    of CPU): ``started``, the modules its start imported (read before anything else is imported), and
    ``frozen``, which of ``bundle.FROZEN`` it imports as frozen modules."""
    script = (PYODIDE / "pyodide.mjs").as_uri()
    done = subprocess.run(
        ["node", "--input-type=module", "-e", PYODIDE_JS, script, " ".join(sorted(FROZEN))],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    return {key: set(names) for key, names in shown.items()}


def test_the_modules_left_out_of_the_standard_library_as_frozen_are_frozen_in_pyodide(
    pyodide_node: dict[str, set[str]],
) -> None:
    """``bundle.FROZEN`` leaves modules out of the shipped zip because the pinned Pyodide's Python has
    them frozen in (it imports them from there, or names the frozen module so): each one really is."""
    frozen = pyodide_node["frozen"]
    assert {"os", "site", "zipimport"} <= frozen
    assert frozen == FROZEN, sorted(FROZEN - frozen)


def test_the_standard_library_s_later_part_is_never_imported_by_pyodide_s_start(
    site: Path, pyodide_node: dict[str, set[str]]
) -> None:
    """``bundle.LATER`` ships apart (``python_stdlib_later.HASH.zip``), fetched with the wheel after the
    WebAssembly: the pinned Pyodide's start (with its whole standard library) imports none of it, the
    first archive holds none of its files and the second holds only them."""
    started = pyodide_node["started"]
    assert {"encodings", "asyncio"} <= started  # the start's imports were read
    assert not LATER & started, sorted(LATER & started)
    folder = site / "assets" / "pyodide"
    (first,) = folder.glob("python_stdlib.*.zip")
    (later,) = folder.glob("python_stdlib_later.*.zip")

    def modules(path: Path) -> set[str]:
        names = zipfile.ZipFile(path).namelist()
        return {n[:-4].replace("/", ".").removesuffix(".__init__") for n in names if n.endswith(".pyc")}

    assert modules(later) == LATER
    assert not modules(first) & LATER
