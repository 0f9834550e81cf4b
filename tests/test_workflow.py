"""The GitHub Actions workflow and the Python lock file are checked like code.

- The workflow validates against GitHub's workflow schema (check-jsonschema's vendored copy) and
  passes zizmor's offline audit under ``.github/zizmor.yml``.
- ``requirements/dev.lock`` pins, with hashes, every package of pyproject.toml's dev extra.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
LOCK = ROOT / "requirements" / "dev.lock"


def _tool(name: str) -> str:
    found = Path(sys.executable).parent / name  # the project environment's own copy first
    if not found.exists():
        found = Path(shutil.which(name) or name)
    if not found.exists():
        pytest.fail(f"{name} is not installed: run scripts/setup (it installs requirements/dev.lock)")
    return str(found)


def test_there_is_a_workflow() -> None:
    assert WORKFLOWS, "no workflow in .github/workflows"


def test_every_workflow_matches_githubs_schema() -> None:
    run = subprocess.run(
        [_tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", *map(str, WORKFLOWS)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_zizmor_finds_nothing_in_the_workflows() -> None:
    run = subprocess.run(
        [
            _tool("zizmor"),
            "--offline",
            "--no-progress",
            "--config",
            str(ROOT / ".github" / "zizmor.yml"),
            str(ROOT / ".github" / "workflows"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_the_lock_pins_every_dev_dependency_with_hashes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = {_name(r) for r in project["optional-dependencies"]["dev"]}
    lock = LOCK.read_text(encoding="utf-8")
    pinned = dict(re.findall(r"^([a-z0-9][a-z0-9._-]*)==(\S+)", lock, flags=re.MULTILINE))
    assert wanted <= set(pinned), f"missing from the lock (run scripts/lock): {sorted(wanted - set(pinned))}"
    for block in re.split(r"\n(?=[a-z0-9])", lock.split("\n", 1)[1]):
        if "==" in block.split("\n", 1)[0]:
            assert "--hash=sha256:" in block, f"no hash for {block.split()[0]}"
