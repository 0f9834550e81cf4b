"""Helpers shared by the calculator browser tests: fill a form in one event and wait for its outputs."""

from __future__ import annotations

from typing import Any

__all__ = ["set_values", "wait_outputs"]


def set_values(form: Any, values: dict[str, str]) -> None:
    """Type every value into the form at once and let it recompute (one input event)."""
    form.evaluate(
        """(f, values) => {
            for (const [key, value] of Object.entries(values)) {
                const el = f.elements.namedItem(key);
                if (el.type === 'checkbox') el.checked = value === '1'; else el.value = value;
            }
            f.dispatchEvent(new Event('input', {bubbles: true}));
        }""",
        values,
    )


def wait_outputs(form: Any, expected: dict[str, str]) -> None:
    form.page.wait_for_function(
        "([f, want]) => Object.entries(want).every("
        '([k, v]) => f.querySelector(`[data-output="${k}"]`).textContent === v)',
        arg=[form.element_handle(), expected],
        timeout=20_000,
    )
