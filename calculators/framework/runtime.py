"""Entry points for the browser worker (Pyodide) and the build hook (CPython).

The worker imports only this module at boot; it pulls in the declaration
framework and the renderer, and a calculator's module on first use.
"""

from __future__ import annotations

import json
from importlib import import_module
from typing import Any

from calculators.framework import registry
from calculators.framework.render import payload, render_calculator
from calculators.framework.spec import evaluate

__all__ = ["call_json", "compute", "compute_json", "prerender", "warm"]

SERVICES: frozenset[str] = frozenset({"table.api"})
"""Modules the browser may ``call`` (each answers ``call_json(name, args_json)``)."""


def compute(name: str, raw: dict[str, Any] | None = None, root: str = "") -> dict[str, Any]:
    """Validate and compute calculator ``name`` for the form texts ``raw``; a JSON-ready payload."""
    return payload(evaluate(registry.get(name), raw), root)


def compute_json(name: str, raw_json: str, root: str = "") -> str:
    """:func:`compute` with JSON in and out (what the worker calls: one string each way)."""
    raw = json.loads(raw_json) if raw_json else {}
    if not isinstance(raw, dict):
        raw = {}
    texts = {str(k): (v if isinstance(v, str) or v is None else str(v)) for k, v in raw.items()}
    return json.dumps(compute(name, texts, root), separators=(",", ":"))


def call_json(module: str, name: str, args_json: str) -> str:
    """Run ``module.call_json(name, args_json)`` for a module of this package (the worker's ``call``).

    Lets front-end features other than forms (e.g. the table's character store) ask Python;
    the module validates its own arguments and answers JSON, never raising for bad input.
    """
    if module not in SERVICES:
        return json.dumps({"ok": False, "error": "Unknown engine module.", "path": ""})
    target = getattr(import_module(module), "call_json", None)
    if target is None:
        return json.dumps({"ok": False, "error": "That module answers no calls.", "path": ""})
    answer: str = target(str(name), args_json)
    return answer


def warm(names: str) -> None:
    """Import the calculators named (comma separated) ahead of their first computation."""
    for name in filter(None, names.split(",")):
        registry.get(name)


def prerender(name: str, root: str = "", prefix: str = "") -> str:
    """The calculator's HTML with its default inputs computed (build time, CPython)."""
    return render_calculator(evaluate(registry.get(name)), root, prefix)
