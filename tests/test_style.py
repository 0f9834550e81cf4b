"""The code base stays ruff clean (lint and format), as the developers' guide asks."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec("ruff") is None:
        pytest.fail("ruff is not installed in this environment: run scripts/setup")
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_ruff_finds_no_lint_problem() -> None:
    done = _ruff("check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_python_file_is_ruff_formatted() -> None:
    done = _ruff("format", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr
