"""The registry finds calculators by their modules, from sources and from the browser's compiled wheel."""

from __future__ import annotations

import py_compile
import subprocess
import sys
import zipfile
from pathlib import Path

from calculators.framework import registry

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "calculators"


def _top_modules() -> set[str]:
    return {p.stem for p in PACKAGE.glob("*.py") if not p.stem.startswith("_")}


def test_every_top_level_module_but_the_named_exceptions_is_a_registered_calculator() -> None:
    assert set(registry.names()) == _top_modules() - registry.NOT_CALCULATORS
    assert list(registry.names()) == sorted(registry.names())
    for name in registry.names():
        assert registry.get(name).name == name


def test_the_exceptions_are_modules_that_declare_no_calculator() -> None:
    for name in registry.NOT_CALCULATORS:
        source = (PACKAGE / f"{name}.py").read_text(encoding="utf-8")
        assert "CALCULATOR =" not in source


def test_a_zipped_package_of_compiled_modules_is_listed_the_same(tmp_path: Path) -> None:
    """The browser imports ``calculators`` from a zip of sourceless ``.pyc`` files (sitebuild/bytecode.py)."""
    archive = tmp_path / "calculators.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for source in sorted(PACKAGE.rglob("*.py")):
            compiled = tmp_path / "pyc" / source.relative_to(ROOT).with_suffix(".pyc")
            compiled.parent.mkdir(parents=True, exist_ok=True)
            py_compile.compile(str(source), cfile=str(compiled), doraise=True)
            zipped.write(compiled, compiled.relative_to(tmp_path / "pyc").as_posix())
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from calculators.framework import registry as r;"
        "assert r.__file__.startswith(sys.argv[1]), r.__file__;"
        "print(' '.join(r.names()))"
    )
    listed = subprocess.run(
        [sys.executable, "-I", "-c", probe, str(archive)], capture_output=True, text=True, check=True
    )
    assert listed.stdout.split() == list(registry.names())
