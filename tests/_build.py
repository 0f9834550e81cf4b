"""Helpers shared by the tests that build the site or load one of its build hooks."""

from __future__ import annotations

import importlib.util
import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

__all__ = ["ROOT", "load_hook", "mkdocs_build", "zip_of"]

ROOT = Path(__file__).resolve().parent.parent


def load_hook(name: str) -> ModuleType:
    """hooks/NAME.py, loaded by path (putting hooks/ on sys.path would shadow the calculators package)."""
    spec = importlib.util.spec_from_file_location(f"mneme_{name}_hook", ROOT / "hooks" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mkdocs_build(dest: Path, site_url: str) -> subprocess.CompletedProcess[str]:
    """Build the real site strictly into ``dest`` for ``site_url``; the finished process."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "-d", str(dest)],
        cwd=ROOT,
        env={**os.environ, "SITE_URL": site_url},
        capture_output=True,
        text=True,
        timeout=600,
    )


def zip_of(files: dict[str, str]) -> bytes:
    """A zip archive in memory holding ``files`` (name -> text)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()
