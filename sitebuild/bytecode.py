"""Build-time bytecode for the browser engine: Python compiled before it ships.

Pyodide imports the standard library and our wheel from zip files of ``.py`` sources, so every engine
start compiled each module again: on a phone (CPU 4x slower) that was most of the 4-5 s between the
last byte of ``pyodide.asm.wasm`` and a live result. ``compile_archives`` turns each archive's
``.py`` members into sourceless ``.pyc`` files (hash-based, unchecked), compiled by the Python inside
the pinned Pyodide itself (``sitebuild/bytecode.mjs`` under Node, which ``npm ci`` already needs), so the
bytecode's magic number is exactly the browser's. ``optimize=2`` drops docstrings and asserts, as
``python -OO`` does: nothing the engine runs reads a docstring, and its asserts only narrow types.
Line-number tables are left out too (they made the compiled files 1.5x the zipped sources; without
them the download is about the same as before): a browser-side traceback has no line numbers, but
players never see one, and CPython's tests run the same sources with them.
Results are cached by content (``node_modules/.cache/mneme-bytecode/``): a rebuild with the same
sources does not start Node again.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

SCRIPT = Path(__file__).with_name("bytecode.mjs")
OPTIMIZE = 2
"""As ``python -OO``: no docstrings, no asserts (smaller files; the engine never reads either)."""
TIMEOUT_S = 300
KEEP = 24
"""Cached results kept (the newest): enough for the builds the tests make, not a growing pile."""


def _cache_dir(pyodide: Path) -> Path:
    return pyodide.parent / ".cache" / "mneme-bytecode"


def _key(pyodide_version: str, data: bytes, optimize: int, class_docs: bool = False) -> str:
    digest = hashlib.sha256(SCRIPT.read_bytes())
    digest.update(f"\0{pyodide_version}\0{optimize}\0{int(class_docs)}\0".encode())
    digest.update(data)
    return digest.hexdigest()[:32]


def compile_archives(
    pyodide: Path,
    pyodide_version: str,
    archives: Sequence[bytes],
    optimize: int = OPTIMIZE,
    class_docs: Sequence[bool] = (),
) -> list[bytes]:
    """Each zip of ``archives`` with its ``.py`` members compiled to ``.pyc`` by the Pyodide in
    ``pyodide`` (one Node run for all that are not cached yet), in the same order. An archive whose
    ``class_docs`` flag is set keeps each class docstring's first line as its ``__doc__``: a dataclass
    with none builds one from ``inspect.signature`` as it is created (our wheel: about 20 ms of a
    phone's engine start; the standard library's few are left as they are, its zip stays small)."""
    cache = _cache_dir(pyodide)
    docs = [bool(flag) for flag in class_docs] + [False] * (len(archives) - len(class_docs))
    keys = [_key(pyodide_version, data, optimize, doc) for data, doc in zip(archives, docs, strict=True)]
    flags = dict(zip(keys, docs, strict=True))
    missing = {key: data for key, data in zip(keys, archives, strict=True) if not (cache / key).is_file()}
    if missing:
        node = shutil.which("node")
        if not node:
            raise FileNotFoundError("Node.js is missing: the build compiles the engine's Python with it.")
        cache.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as folder:
            jobs: list[dict[str, str | int | bool]] = []
            outputs: list[Path] = []
            for key, data in missing.items():
                source = Path(folder) / f"{key}.zip"
                source.write_bytes(data)
                outputs.append(Path(folder) / f"{key}.out")
                job: dict[str, str | int | bool] = {"input": str(source), "output": str(outputs[-1])}
                jobs.append({**job, "optimize": optimize, "classDocs": flags[key]})
            jobs_file = Path(folder) / "jobs.json"
            jobs_file.write_text(json.dumps(jobs), encoding="utf-8")
            done = subprocess.run(
                [node, str(SCRIPT), str(pyodide), str(jobs_file)],
                capture_output=True,
                text=True,
                timeout=TIMEOUT_S,
                check=False,
            )
            for output, key in zip(outputs, missing, strict=True):
                if output.is_file():  # compiled, even if another archive failed
                    output.replace(cache / key)
            if done.returncode != 0:
                raise ValueError(f"sitebuild/bytecode.mjs failed: {done.stderr.strip()[-2000:]}")
    results = [(cache / key).read_bytes() for key in keys]
    for old in sorted(cache.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True)[KEEP:]:
        old.unlink(missing_ok=True)
    return results
