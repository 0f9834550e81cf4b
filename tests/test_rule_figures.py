"""Every rules figure has one home, ``rules_core``: no number is written in ``calculators/`` or ``table/``.

An AST scan of every numeric literal in those two packages. A number there is either a rules figure
(a limit, a dice bound, a difficulty, a threshold...), which must be read from ``rules_core``
(``rules_core/limits.py``, ``rules_core/data/``), or one of the few kinds allowed below, each with
its reason:

- ``ALLOWED_VALUES``: 0, 1 and -1 (nothing, one, a sign or an index: no rule hides in them);
- a literal inside a slice or used as an index (``text[:20]`` quotes back a bad input,
  ``pair[2]`` is a position);
- an argument bound to a parameter in ``EXAMPLE_PARAMETERS`` of a form-building call: the example
  a form opens with, or how many characters a text field takes (not a rule);
- ``ALLOWED_FILES`` and ``ALLOWED_FUNCTIONS``: number formatting and English, not rules;
- ``LOCAL_BOUNDS``: module constants that bound one module's work or display (how many points a
  chart draws, how long a log is), each named and documented beside its use.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from calculators import framework as fw
from calculators import parts

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("calculators", "table")

ALLOWED_VALUES = frozenset({0, 1, -1})
"""Nothing, one (a count, a step, a first day) and a sign: never a rules figure on their own."""

EXAMPLE_PARAMETERS = frozenset({"default", "defaults", "placeholder", "max_length"})
"""Form-call parameters whose numbers are a form's example values or a text field's length."""

ALLOWED_FILES = {
    "calculators/format.py": "the one formatter: percent's 100, half-up rounding, vulgar-fraction glyphs",
}
ALLOWED_FUNCTIONS = {
    ("calculators/initiative.py", "_ordinal"): "English ordinals (1st, 2nd, 3rd, 11th-13th)",
    ("calculators/thrown.py", "_metres"): "denominators whose decimal is short (formatting)",
    ("calculators/odds.py", "_window"): "a window of rows on both (2) sides of the centre",
    ("table/character.py", "_b64url_decode"): "base64 padding to a multiple of 4",
}
LOCAL_BOUNDS = {
    "calculators/comparison.py": {
        "CM_PER_METRE": "a unit conversion",
        "MAX_SHOWN": "the largest figure the comparison writes out in full",
    },
    "calculators/dice.py": {
        "MAX_TIMES": "how many rolls the dice roller lists",
        "MAX_CHART_VALUES": "bars one chart draws",
    },
    "calculators/dying.py": {"CHART_POINTS": "points of the survival chart"},
    "calculators/healing.py": {"MAX_TIMELINE_POINTS": "points of the recovery timeline"},
    "calculators/parts/damage_parts.py": {"MAX_CHART_BARS": "bars of the damage chart"},
    "calculators/odds.py": {
        "MAX_GRID_DIFFICULTY": "the odds grid's last row",
        "MAX_GRID_MODIFIER": "the odds grid's last column",
        "ROWS_EACH_SIDE": "rows shown either side of the chosen one",
    },
    "calculators/initiative.py": {"MAX_OTHERS": "combatants the text field lists"},
    "calculators/time.py": {
        "SECONDS_PER": "a unit conversion (60 seconds a minute)",
        "MAX_DICE": "duration dice the time calculator computes exactly",
        "MAX_DICE_OVER_20": "large duration dice it computes exactly",
        "LISTED_SIDES": "dice small enough to list every Effect",
        "NEARBY": "Effects listed either side",
    },
    "calculators/framework/render.py": {"URL_TEXT_LIMIT": "the longest text value written into a link"},
    "calculators/framework/chart_svg.py": {
        "HEIGHT": "a chart's height in CSS pixels",
        "PLOT_TOP": "room above a chart's plot (px)",
        "PLOT_HEIGHT": "a chart's plot height (px)",
        "X_LABEL_BASELINE": "where a chart's x labels sit (px)",
        "X_TITLE_BASELINE": "where a chart's x title sits (px)",
        "TICK_GAP": "a gap in a chart's drawing (px)",
        "TICK_DROP": "a scale label's offset from its line (px)",
        "VALUE_GAP": "a gap in a chart's drawing (px)",
        "WIDTH_PERCENT": "a width in percent",
        "BAR_SHARE": "the share of its slot a bar fills",
        "HALF": "the middle of a bar's slot",
        "EDGE_SHARE": "where a chart's edge begins, as a share of its width",
        "MOST_NAMED": "x values a chart's description names",
        "NARROW_PLOT_PX": "a phone's plot width (px)",
        "LABEL_CHAR_PX": "a character's width in a chart label (px)",
        "LABEL_GAP_PX": "the least gap between chart labels (px)",
        "MAX_INTERVALS": "intervals of a chart's scale",
        "SCALE_STEPS": "round steps of a chart's scale (1, 2, 2.5, 5 times a power of ten)",
    },
    "calculators/framework/spec.py": {
        "MAX_DIGITS": "digits a number field accepts (bounded parsing)",
        "max_length": "a text field's default length",
    },
    "table/character.py": {
        "MAX_IMPORT_CHARS": "the size of an imported character",
        "MAX_NESTING": "JSON depth the engine accepts",
        "MAX_CALL_CHARS": "the size of one call's arguments",
        "MAX_NOTES": "characters of the notes",
        "MAX_SKILLS": "skills on one sheet",
        "MAX_WEAPONS": "weapons on one sheet",
    },
    "table/tracker.py": {
        "MAX_TRACKED": "combatants one tracker holds",
        "MAX_ROUND": "the round counter",
        "MAX_LOG": "entries of the tracker's log",
        "MAX_LOG_TEXT": "characters of one log entry",
        "MAX_ROLLS_TEXT": "characters of the damage rolls typed for one hit",
        "MAX_ROLL_DIGITS": "digits of one damage roll typed",
        "_COMBATANT_DEFAULTS": "a new combatant's example values, as a form's defaults",
    },
}


def _callables() -> dict[str, Callable[..., Any]]:
    """Form-building callables by name, to bind a call's arguments to their parameters."""
    found: dict[str, Callable[..., Any]] = {}
    for module in (fw, parts):
        for name in module.__all__:
            value = getattr(module, name)
            if callable(value):
                found[name] = value
    return found


CALLABLES = _callables()


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _example_nodes(call: ast.Call) -> Iterator[ast.AST]:
    """The argument expressions of ``call`` bound to an :data:`EXAMPLE_PARAMETERS` parameter."""
    target = CALLABLES.get(_call_name(call))
    if target is None:
        return
    parameters = list(inspect.signature(target).parameters)
    for index, arg in enumerate(call.args):
        if index < len(parameters) and parameters[index] in EXAMPLE_PARAMETERS:
            yield arg
    for keyword in call.keywords:
        if keyword.arg in EXAMPLE_PARAMETERS:
            yield keyword.value


def _example_defaults(arguments: ast.arguments) -> Iterator[ast.AST]:
    """The default values of a function's :data:`EXAMPLE_PARAMETERS` parameters (``defaults=(7, 7, 7)``)."""
    positional = [*arguments.posonlyargs, *arguments.args]
    for arg, default in zip(
        positional[len(positional) - len(arguments.defaults) :], arguments.defaults, strict=True
    ):
        if arg.arg in EXAMPLE_PARAMETERS:
            yield default
    for arg, kw_default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        if kw_default is not None and arg.arg in EXAMPLE_PARAMETERS:
            yield kw_default


def _exempt(tree: ast.Module, path: str) -> set[int]:
    """Ids of every node whose literals are allowed by place (see the module docstring)."""
    roots: list[ast.AST] = []
    bounds = LOCAL_BOUNDS.get(path, {})
    for node in ast.walk(tree):
        if isinstance(node, ast.Slice) or (
            isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice)
        ):
            roots.append(node.slice if isinstance(node, ast.Subscript) else node)
        elif isinstance(node, ast.Call):
            roots.extend(_example_nodes(node))
        elif isinstance(node, ast.FunctionDef) and (path, node.name) in ALLOWED_FUNCTIONS:
            roots.append(node)
        elif isinstance(node, ast.arguments):
            roots.extend(_example_defaults(node))
    for node in [*tree.body, *(n for c in tree.body if isinstance(c, ast.ClassDef) for n in c.body)]:
        names = []
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        if any(name in bounds for name in names):
            roots.append(node)
    return {id(n) for root in roots for n in ast.walk(root)}


def figures(source: str, path: str) -> list[tuple[int, int | float]]:
    """``(line, value)`` of every numeric literal in ``source`` that is not allowed."""
    if path in ALLOWED_FILES:
        return []
    tree = ast.parse(source)
    exempt = _exempt(tree, path)
    found = []
    for node in ast.walk(tree):
        if id(node) in exempt:
            continue
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            exempt.add(id(node.operand))
            node, value = node.operand, _number(node.operand)
            value = None if value is None else -value
        else:
            value = _number(node)
        if value is not None and value not in ALLOWED_VALUES:
            found.append((getattr(node, "lineno", 0), value))
    return sorted(found)


def _number(node: ast.AST) -> int | float | None:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        value: int | float = node.value
        return value
    return None


FILES = sorted(str(p.relative_to(ROOT)) for package in SCANNED for p in (ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", FILES)
def test_no_rules_figure_is_written_as_a_number_above_rules_core(path: str) -> None:
    found = figures((ROOT / path).read_text(encoding="utf-8"), path)
    assert not found, (
        f"{path}: numbers written here {found}; read the figure from rules_core "
        "(rules_core/limits.py, rules_core/data/), or, when it is no rule, allow it here with a reason"
    )


def test_the_scan_finds_a_bound_a_roll_and_a_negative_figure() -> None:
    source = (
        "X = fw.IntInput('best', 'Best', 7, 0, 100)\n"
        "Y = fw.OptionalIntInput('roll', 'Roll', 2, 12, default=9)\n"
        "def f(n):\n    return n > -3 and n[:20]\n"
    )
    assert figures(source, "calculators/x.py") == [(1, 100), (2, 2), (2, 12), (4, -3)]


def test_the_scan_allows_named_local_bounds_only_where_listed() -> None:
    assert figures("MAX_TIMES = 20\n", "calculators/dice.py") == []
    assert figures("MAX_TIMES = 20\n", "calculators/effect.py") == [(1, 20)]


@pytest.mark.parametrize("path", sorted({*LOCAL_BOUNDS, *ALLOWED_FILES, *(p for p, _ in ALLOWED_FUNCTIONS)}))
def test_every_allowed_place_exists(path: str) -> None:
    source = (ROOT / path).read_text(encoding="utf-8")
    for name in LOCAL_BOUNDS.get(path, {}):
        assert f"{name}" in source, f"{path} no longer defines {name}: drop it from LOCAL_BOUNDS"
    for file, function in ALLOWED_FUNCTIONS:
        if file == path:
            assert f"def {function}(" in source, f"{path} no longer defines {function}"


def _string_literals(path: str) -> set[str]:
    """Every string written in ``path`` but keys (a subscript, a call's first argument: an input's key)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    keys = {id(n.slice) for n in ast.walk(tree) if isinstance(n, ast.Subscript)}
    keys |= {id(n.args[0]) for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args}
    return {
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in keys
    }


@pytest.mark.parametrize("path", FILES)
def test_the_injury_threshold_readings_are_declared_once_in_rules_core(path: str) -> None:
    from rules_core.injury import ThresholdReading

    written = _string_literals(path) & {reading.value for reading in ThresholdReading}
    assert not written, f"{path} writes the readings {sorted(written)}: use injury.ThresholdReading"


def test_the_named_bounds_are_the_ones_rules_core_checks() -> None:
    """A bound named in limits.py for a check that rules_core writes itself agrees with that check."""
    from rules_core import limits, tactics
    from rules_core.peers import minds_eye, mistrunner
    from rules_core.peers.comparison import OneCharacter, compare

    assert tactics.may_retry_tactics(limits.MAX_TACTICS_ATTEMPTS, 0) is not None
    with pytest.raises(ValueError, match="between 0 and"):
        tactics.may_retry_tactics(limits.MAX_TACTICS_ATTEMPTS + 1, 0)
    assert minds_eye.initiative(limits.MAX_PEER_SCORE, 0) is not None
    with pytest.raises(ValueError):
        minds_eye.initiative(limits.MAX_PEER_SCORE + 1, 0)
    mistrunner.attack_damage(limits.MAX_PEER_SCORE, 10, 5)
    with pytest.raises(ValueError):
        mistrunner.attack_damage(limits.MAX_PEER_SCORE + 1, 10, 5)
    compare(OneCharacter(met_step_metres=limits.MAX_PEER_STEP_METRES))
    with pytest.raises(ValueError, match="step length"):
        compare(OneCharacter(met_step_metres=limits.MAX_PEER_STEP_METRES + 1))
