"""The browser modules' lanes (tests/conftest.py): every module weighed, the lanes balanced, the same
lanes in every process."""

from __future__ import annotations

import random

from conftest import BROWSER_DIR, MODULE_SECONDS, browser_lanes

MODULES = sorted(path.stem for path in BROWSER_DIR.glob("test_*.py"))


def test_every_browser_module_has_its_measured_seconds() -> None:
    assert len(MODULES) >= 20
    missing = [module for module in MODULES if module not in MODULE_SECONDS]
    assert not missing, f"add each new browser module's seconds (--durations) to MODULE_SECONDS: {missing}"
    gone = [module for module in MODULE_SECONDS if module not in MODULES]
    assert not gone, f"MODULE_SECONDS names modules that no longer exist: {gone}"


def test_two_lanes_differ_by_less_than_the_longest_module() -> None:
    lanes = browser_lanes(MODULES, 2)
    assert set(lanes) == set(MODULES)
    sums = {lane: 0 for lane in ("browser", "browser-2")}
    for module, lane in lanes.items():
        sums[lane] += MODULE_SECONDS[module]
    assert set(sums) == {"browser", "browser-2"}
    assert abs(sums["browser"] - sums["browser-2"]) <= max(MODULE_SECONDS.values())


def test_one_lane_is_one_process_and_the_order_given_changes_nothing() -> None:
    assert set(browser_lanes(MODULES, 1).values()) == {"browser"}
    shuffled = MODULES[:]
    random.Random(7).shuffle(shuffled)
    assert browser_lanes(shuffled, 3) == browser_lanes(MODULES, 3)
    assert set(browser_lanes(MODULES, 3).values()) == {"browser", "browser-2", "browser-3"}
    assert browser_lanes(["test_new_one"], 2) == {"test_new_one": "browser"}
