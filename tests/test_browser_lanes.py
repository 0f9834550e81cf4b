"""The browser modules' lanes (tests/conftest.py): the timing-bound modules in the first lane at the
normal CPU priority, the others in an idle-priority lane; the same lanes in every process."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from conftest import BROWSER_DIR, IDLE_LANE, IDLE_MODULES, browser_lanes

MODULES = sorted(path.stem for path in BROWSER_DIR.glob("test_*.py"))
TIMED = {
    "test_engine_faults",
    "test_nothing_lost",
    "test_offline",
    "test_offline_copy",
    "test_robustness",
    "test_search",
    "test_storage",
    "test_table_phones",
    "test_updates",
}
"""Modules with a check bound to time (a slow or cut link, two tabs racing, a deploy during a copy, a page's
timer raced, an answer due within a budget, search results read while the query is typed)."""


def test_the_idle_lane_names_only_existing_modules_and_none_bound_to_time() -> None:
    assert len(MODULES) >= 20
    gone = IDLE_MODULES - set(MODULES)
    assert not gone, f"IDLE_MODULES names modules that no longer exist: {gone}"
    assert not IDLE_MODULES & TIMED
    assert set(MODULES) >= TIMED


def test_two_lanes_put_the_idle_modules_apart_and_a_new_module_in_the_first() -> None:
    lanes = browser_lanes(MODULES, 2)
    assert set(lanes) == set(MODULES)
    assert {module for module, lane in lanes.items() if lane == IDLE_LANE} == IDLE_MODULES
    assert {lane for module, lane in lanes.items() if module not in IDLE_MODULES} == {"browser"}
    assert browser_lanes(["test_new_one"], 2) == {"test_new_one": "browser"}


def test_one_lane_is_one_process_and_the_order_given_changes_nothing() -> None:
    assert set(browser_lanes(MODULES, 1).values()) == {"browser"}
    shuffled = MODULES[:]
    random.Random(7).shuffle(shuffled)
    assert browser_lanes(shuffled, 2) == browser_lanes(MODULES, 2)


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux only")
def test_an_idle_process_starts_its_children_idle() -> None:
    """What the idle lane relies on: a child (Chromium, its renderers) keeps the idle priority."""
    code = (
        "import os, subprocess, sys; from conftest import yield_cpu; yield_cpu(); "
        "print(subprocess.run([sys.executable, '-c', 'import os; print(os.sched_getscheduler(0))'],"
        " capture_output=True, text=True).stdout.strip())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=BROWSER_DIR.parent,
        env={**os.environ, "PYTHONPATH": str(BROWSER_DIR.parent)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == str(os.SCHED_IDLE)
