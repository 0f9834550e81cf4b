"""The tests' Chromium flags (``tests/_site.py``: ``TEST_ARGS``) keep what Playwright sets and do what they
say: Chromium keeps only the last ``--disable-features`` it is given, so ours must repeat Playwright's."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from _site import PLAYWRIGHT_DISABLED_FEATURES, TEST_ARGS, launch_chromium

pytestmark = pytest.mark.browser

VERSION = "chrome://version"
"""Chromium's own page, which shows the browser process's command line."""


def switch(browser: Any, name: str) -> list[str]:
    """The comma-separated values of the last ``--NAME=`` switch on the browser's command line."""
    page = browser.new_page()
    try:
        page.goto(VERSION)
        line = page.locator("#command_line").inner_text()
    finally:
        page.close()
    values = re.findall(rf"--{name}=(\S+)", line)
    return values[-1].split(",") if values else []


def test_playwright_turns_off_no_feature_that_the_tests_turn_back_on(browser: Any) -> None:
    """A browser started as the benches start it carries Playwright's own list: each of its features is
    in ``PLAYWRIGHT_DISABLED_FEATURES``, so the tests' list (which replaces it) keeps them all off. (It is
    started by the session's Playwright, which the tests' browser came from: one process runs one.)"""
    plain = launch_chromium(SimpleNamespace(chromium=browser.browser_type))
    try:
        theirs = switch(plain, "disable-features")
    finally:
        plain.close()
    assert theirs, "Playwright passes no --disable-features any more: PLAYWRIGHT_DISABLED_FEATURES can go"
    missing = set(theirs) - set(PLAYWRIGHT_DISABLED_FEATURES)
    assert not missing, f"add Playwright's {sorted(missing)} to PLAYWRIGHT_DISABLED_FEATURES"


def test_the_tests_browser_has_the_test_flags_and_no_address_bar_popup(browser: Any) -> None:
    ours = switch(browser, "disable-features")
    assert set(ours) >= {*PLAYWRIGHT_DISABLED_FEATURES, "WebUIOmniboxPopup", "WebUIOmniboxAimPopup"}
    assert switch(browser, "js-flags") == ["--no-wasm-dynamic-tiering", "--no-wasm-tier-up"]
    assert any(arg.startswith("--js-flags=") for arg in TEST_ARGS)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto("about:blank")
        session = browser.new_browser_cdp_session()
        targets = session.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
        session.detach()
    finally:
        context.close()
    urls = [target["url"] for target in targets]
    assert "about:blank" in urls
    assert not [url for url in urls if url.startswith("chrome://omnibox-popup")], urls
