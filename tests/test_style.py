"""The code base stays ruff clean (lint and format), and the rules, the calculators, the table documents
and the build ``mypy --strict`` clean, as the developers' guide asks."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m TOOL ARGS`` in the project environment, at the repository root; fails if it is missing."""
    if importlib.util.find_spec(tool) is None:
        pytest.fail(f"{tool} is not installed in this environment: run scripts/setup")
    return subprocess.run(
        [sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_ruff_finds_no_lint_problem() -> None:
    done = _run("ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_python_file_is_ruff_formatted() -> None:
    done = _run("ruff", "format", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_finds_no_type_error(tmp_path: Path) -> None:
    done = _run(
        "mypy",
        "--strict",
        "--cache-dir",
        str(tmp_path / "mypy_cache"),
        "rules_core",
        "calculators",
        "table",
        "sitebuild",
    )
    assert done.returncode == 0, done.stdout + done.stderr
