"""Every repository path a README or a Python docstring or comment names exists.

A path counts when it starts at a top-level entry of the checkout (``sitebuild/bundle.py``,
``tests/browser/test_table.py``, ``browser/``) or, in a README below the root, at an entry of the
README's own folder (``framework/spec.py`` in ``calculators/README.md``). A page path may be written
as the site's pages link it, from ``docs/`` (``calculators/damage.md``). Addresses (``https://...``),
query strings and placeholders (``docs/calculators/<name>.md``, ``calculators/NAME/``) are not paths;
what git ignores (``site/``, ``bench/out/``) is made by the build and not checked.
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_PATH = re.compile(r"(?<![\w./<>*$~-])((?:\.?[\w-]+/)+(?:[\w-]+(?:\.[\w-]+)*)?)(?![\w/<>*?=-])")
_URL = re.compile(r"\w+://\S+")
_PLACEHOLDER = re.compile(r"(^|/)[A-Z][A-Z_]+(/|\.|$)")
"""A path part in capitals (``NAME``, ``WHICH``) stands for any name."""


def _ignored() -> tuple[str, ...]:
    """Folders .gitignore names (``/site/``, ``node_modules/``): made by the build or set-up."""
    lines = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    return tuple(line.strip("/") + "/" for line in lines if line.endswith("/") and "*" not in line)


_GENERATED = _ignored()


def _tracked(*patterns: str) -> list[str]:
    done = subprocess.run(
        ["git", "ls-files", "--", *patterns], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return sorted(line for line in done.stdout.splitlines() if (ROOT / line).is_file())


READMES = _tracked("README.md", "*/README.md")
PYTHON = _tracked("*.py")
TOP = {p.name for p in ROOT.iterdir()}


def paths_in(text: str, folder: Path = ROOT) -> Iterator[str]:
    """The repository paths ``text`` names (see the module docstring)."""
    for match in _PATH.finditer(_URL.sub(" ", text)):
        path = match[1]
        first = path.split("/")[0]
        if path.startswith(_GENERATED) or _PLACEHOLDER.search(path):
            continue
        if first in TOP or (folder != ROOT and (folder / first).exists()):
            yield path


def _exists(path: str, folder: Path) -> bool:
    return any((base / path).exists() for base in (ROOT, folder, ROOT / "docs"))


def _python_prose(source: str) -> str:
    """The docstrings and comments of a Python source, joined."""
    parts = [
        tok.string
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                parts.append(doc)
        elif (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            parts.append(node.value.value)  # attribute docstrings
    return "\n".join(parts)


def _missing(text: str, folder: Path) -> list[str]:
    return sorted({p for p in paths_in(text, folder) if not _exists(p, folder)})


@pytest.mark.parametrize("readme", READMES)
def test_every_path_a_readme_names_exists(readme: str) -> None:
    folder = (ROOT / readme).parent
    missing = _missing((ROOT / readme).read_text(encoding="utf-8"), folder)
    assert not missing, f"{readme} names paths that do not exist: {missing}"


@pytest.mark.parametrize("module", PYTHON)
def test_every_path_a_docstring_or_comment_names_exists(module: str) -> None:
    missing = _missing(_python_prose((ROOT / module).read_text(encoding="utf-8")), ROOT)
    assert not missing, f"{module} names paths that do not exist: {missing}"


def test_the_path_finder_reads_paths_not_addresses() -> None:
    text = (
        "`sitebuild/bundle.py`, tests/browser/test_table.py and browser/; not https://x.org/browser/a.js, "
        "calculators/effect/?modifier=2, docs/calculators/<name>.md, calculators/NAME/ nor site/index.html"
    )
    assert list(paths_in(text)) == ["sitebuild/bundle.py", "tests/browser/test_table.py", "browser/"]
    assert _missing("see calculators/frontend/engine.js", ROOT) == ["calculators/frontend/engine.js"]
