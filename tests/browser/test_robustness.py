"""Robustness in headless Chromium: hostile input into every calculator, and an engine that cannot start.

- Every field of every calculator (on every page that has one) gets empty, textual, hostile, huge,
  negative and odd-unicode input, one field at a time: each answer comes back promptly, shows no
  traceback, and a rejected value carries a message beside its field (``aria-invalid`` plus the
  ``role="alert"`` slot in the same field). The ``page`` fixture fails on any console or page error,
  which is how a crashing computation would show. One tab, moving by instant navigation, so the
  engine boots once.
- Pyodide failing to load (its WebAssembly blocked, or a browser without module workers) leaves every
  page readable, the prerendered result in place, and a clear message with a retry button.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ._forms import follow_link
from .conftest import PageLog, outputs, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.returning_visit]

HOSTILE = ["", "abc", "<img src=x onerror=__pwned++>", "-999999999999999999999999", "9" * 60]
"""Every field gets these; each field also gets one of EXTRA in turn (hypothesis fuzzes the Python side)."""
EXTRA = [
    "1e309",
    "3.5",
    "\u0663",  # ARABIC-INDIC DIGIT THREE
    "\u00a0 7 \u00a0",
    "7\u0000\U0001f3b2",
    "__import__('os').system('true')",
    "1d6" * 40,
]

FUZZ_JS = """
async ([core, extra, budgetMs]) => {
  const form = document.querySelector("form[data-calculator]");
  const controls = [...form.elements].filter(
    (e) => e.name && (e.tagName === "INPUT" || e.tagName === "SELECT"));
  const report = [];
  const answer = () => new Promise((resolve) => {
    const t0 = performance.now();
    const timer = setTimeout(() => resolve({ timeout: true, ms: budgetMs }), budgetMs);
    form.addEventListener("calculator:result", (e) => {
      clearTimeout(timer);
      resolve({ timeout: false, ms: performance.now() - t0, payload: e.detail.payload });
    }, { once: true });
  });
  let turn = Number(sessionStorage.getItem("fuzz-turn") || 0);
  for (const el of controls) {
    if (el.type === "checkbox") continue;
    const original = el.value;
    const values = [...core, extra[turn++ % extra.length]];
    sessionStorage.setItem("fuzz-turn", String(turn));
    for (const value of values) {
      const got = answer();
      if (el.tagName === "SELECT") {
        const option = document.createElement("option");  // a tampered page or URL: a value not offered
        option.value = value; option.textContent = "tampered";
        el.append(option); el.value = value;
        el.dispatchEvent(new Event("change", { bubbles: true }));
        option.remove();
      } else {
        el.value = value;
        el.dispatchEvent(new Event("input", { bubbles: true }));
      }
      const result = await got;
      const slot = form.querySelector(`[data-error-for="${CSS.escape(el.name)}"]`);
      const field = el.closest(".calc-field") || el.parentElement;
      report.push({
        name: el.name, value, timeout: result.timeout, ms: result.ms,
        invalid: el.getAttribute("aria-invalid") === "true",
        message: slot ? slot.textContent : null,
        besides: !!(slot && field && (field.contains(slot) || field.parentElement.contains(slot))),
        role: slot ? slot.getAttribute("role") : null,
        formError: form.querySelector("[data-form-error]").textContent,
        text: form.innerText,
        injected: form.querySelectorAll("script, img, [onerror]").length + window.__pwned,
        ok: result.payload ? result.payload.ok : null,
      });
    }
    el.value = original;
    const back = answer();
    el.dispatchEvent(new Event(el.tagName === "SELECT" ? "change" : "input", { bubbles: true }));
    await back;
  }
  return report;
}
"""

TRACEBACK = re.compile(r"Traceback|File \"|Error:|Exception|undefined|NaN%|\[object ")


def calculator_pages(site_dir: Path) -> list[str]:
    """Site paths of pages with exactly one calculator (those whose URL carries its inputs)."""
    found = []
    for page in sorted(site_dir.rglob("index.html")):
        if page.read_text(encoding="utf-8").count('<form class="calc-form"') == 1:
            found.append(page.relative_to(site_dir).as_posix().removesuffix("index.html"))
    return found


PWNED = "window.__pwned = 0"
"""What a hostile value that ran as markup counts up (``onerror=__pwned++``): set in the module's tab
before any hostile value is typed or loaded (the theme's instant navigation keeps the tab's window)."""


def test_every_calculator_field_survives_hostile_input(page: Any, site_dir: Path) -> None:
    pages = calculator_pages(site_dir)
    assert len(pages) >= 10, pages
    problems: list[str] = []
    checked = 0
    page.goto(pages[0])
    page.evaluate(PWNED)
    for path in pages:
        if path != pages[0]:
            follow_link(page, path, "form[data-calculator]")
        wait_ready(page.locator("form[data-calculator]"))
        for row in page.evaluate(FUZZ_JS, [HOSTILE, EXTRA, 5000]):
            checked += 1
            where = f"{path} {row['name']}={row['value']!r}"
            if row["timeout"]:
                problems.append(f"{where}: no answer within 5 s")
                continue
            if TRACEBACK.search(row["text"]) or TRACEBACK.search(row["formError"] or ""):
                problems.append(
                    f"{where}: the form shows {TRACEBACK.search(row['text'] + row['formError'])[0]!r}"
                )
            if row["invalid"] and not (row["message"] or "").strip():
                problems.append(f"{where}: marked invalid without a message")
            if row["invalid"] and not (row["besides"] and row["role"] == "alert"):
                problems.append(f"{where}: the message is not an alert beside the field")
            if row["ok"] is False and not row["invalid"] and not (row["formError"] or "").strip():
                problems.append(f"{where}: rejected without any message")
            if row["injected"]:
                problems.append(f"{where}: markup from the input was interpreted")
    assert checked > 300
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:80])
    assert page.evaluate("window.mnemeCalculators.stats.engineStarts") == 1  # one start for the walk


def test_a_hostile_value_is_never_executed_as_markup(page: Any) -> None:
    page.park()  # a page of the site, with no calculator: the hostile address is reached by a link
    page.evaluate(PWNED)
    page.goto("calculators/effect/?modifier=" + "%3Cimg%20src%3Dx%20onerror%3D__pwned%2B%2B%3E")
    form = page.locator('form[data-calculator="effect"]')
    wait_ready(form)
    assert form.locator('[name="modifier"]').get_attribute("aria-invalid") == "true"
    assert form.locator("img").count() == 0
    assert page.evaluate("window.__pwned") == 0


def blocked_engine(page: Any, page_log: PageLog) -> None:
    page_log.allow(
        r"net::ERR_FAILED|Failed to fetch|WebAssembly|wasm|pyodide|engine",
    )
    page.route("**/*.wasm", lambda route: route.abort())


@pytest.mark.first_visit  # the engine must start from nothing here
def test_a_blocked_engine_leaves_the_prerendered_result_and_a_clear_message(
    page: Any, page_log: PageLog, python_outputs: Any
) -> None:
    blocked_engine(page, page_log)
    page.goto("calculators/effect/")
    form = page.locator('form[data-calculator="effect"]')
    page.wait_for_function("f => f.dataset.state === 'error'", arg=form.element_handle(), timeout=60_000)
    assert outputs(form) == python_outputs("effect")  # the defaults, prerendered at build time
    status = form.locator("[data-status]").inner_text()
    assert "could not start" in status and "last computed" in status
    assert form.locator("[data-retry]").is_visible()
    # Reading pages stay whole while the engine is unavailable.
    page.goto("rules/damage/")
    assert page.locator("article h1").inner_text()
    assert page.locator("article table").count() > 0


@pytest.mark.first_visit  # the engine must start from nothing here
def test_a_browser_without_module_workers_still_reads_and_explains(page: Any, page_log: PageLog) -> None:
    page_log.allow(r"Worker|engine")
    page.add_init_script("window.Worker = undefined;")
    page.goto("calculators/damage/")
    form = page.locator('form[data-calculator="damage"]')
    page.wait_for_function("f => f.dataset.state === 'error'", arg=form.element_handle(), timeout=30_000)
    assert all(v for v in outputs(form).values())
    assert "could not start" in form.locator("[data-status]").inner_text()
    assert page.locator("article h1").is_visible()
