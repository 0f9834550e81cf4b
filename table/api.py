"""The table's one entry point for the browser worker: ``call_json(name, args_json)``.

Nothing else imports this module; it sits above the character store, the prefill plan and the
tracker. Only a bad document or bad arguments become an error message for the player: a bug
deeper down (any other exception) propagates, so the worker reports it as an engine fault
instead of disguising it as "wrong arguments".
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping
from typing import Any

from calculators.framework import registry
from table import character, prefill, tracker
from table.character import MAX_CALL_CHARS, MAX_NESTING, DocumentError, nesting_within

__all__ = ["ENTRIES", "call", "call_json"]

ENTRIES: dict[str, Callable[..., Any]] = {
    "check_character": character.check_character,
    "derive_character": character.derive_character,
    "import_character": character.import_character,
    "export_link": character.export_link,
    "prefill_plan": prefill.prefill_plan,
    "prefill": prefill.prefill,
    "write_back": prefill.write_back,
    "check_tracker": tracker.check_tracker,
    "derive_tracker": tracker.derive_tracker,
    "tracker_action": tracker.tracker_action,
    "combatant_from_character": tracker.combatant_from_character,
}
"""What the browser may call, by name."""


def _arguments_fit(function: Callable[..., Any], args: Mapping[str, Any]) -> bool:
    """Whether ``args`` bind to ``function``'s parameters (checked before the call, not by catching)."""
    try:
        inspect.signature(function).bind(**dict(args))
    except TypeError:
        return False
    return True


def _argument_problem(args: Mapping[str, Any]) -> tuple[str, str]:
    """(sentence, argument) for an argument of the wrong type or an unknown name; ("", "") if all fit.

    The documents (``doc``, ``character``, ``tracker``, ``action``, ``text``) are checked by the
    entry points themselves; these are the plain arguments they take on trust.
    """
    calculator = args.get("calculator", "")
    if "calculator" in args and (not isinstance(calculator, str) or calculator not in registry.names()):
        return "Unknown calculator.", "calculator"
    if "using" in args and not isinstance(args["using"], str):
        return "Pick a skill or a weapon.", "using"
    if "reading" in args and (
        not isinstance(args["reading"], str) or args["reading"] not in tracker.READINGS
    ):
        return "Unknown injury threshold reading.", "reading"
    if "values" in args and not isinstance(args["values"], dict):
        return "The values must be an object.", "values"
    return "", ""


def call(name: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """Call entry point ``name`` with keyword ``args``: ``{"ok": True, "value": ...}`` or an error.

    An error is ``{"ok": False, "error": sentence, "path": field}`` for a bad document or
    argument (with ``"prompt": True`` when it is not a mistake but what to give next, a
    :class:`table.tracker.Prompt`); any other exception is a bug and propagates.
    """
    entry = ENTRIES.get(name)
    if entry is None:
        return {"ok": False, "error": f"Unknown entry point {name[:40]!r}.", "path": ""}
    if not _arguments_fit(entry, args):
        return {"ok": False, "error": f"Wrong arguments for {name}.", "path": ""}
    problem, path = _argument_problem(args)
    if problem:
        return {"ok": False, "error": problem, "path": path}
    try:
        return {"ok": True, "value": entry(**dict(args))}
    except tracker.Prompt as exc:  # not a mistake: what to give next, shown as a question
        return {"ok": False, "error": str(exc), "path": exc.path, "prompt": True}
    except DocumentError as exc:
        return {"ok": False, "error": str(exc), "path": exc.path}


def call_json(name: str, args_json: str) -> str:
    """:func:`call` with JSON in and out (what the worker's ``call`` message uses)."""
    if len(args_json) > MAX_CALL_CHARS or not nesting_within(args_json, MAX_NESTING):
        return json.dumps({"ok": False, "error": "Too large or too deeply nested to be read.", "path": ""})
    try:
        args = json.loads(args_json) if args_json else {}
    except (ValueError, RecursionError):
        args = None
    if not isinstance(args, dict):
        return json.dumps({"ok": False, "error": "The arguments must be a JSON object.", "path": ""})
    return json.dumps(call(str(name), args), separators=(",", ":"), ensure_ascii=False)
