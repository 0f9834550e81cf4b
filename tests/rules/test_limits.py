"""Every shared limit is defined once, in rules_core/limits.py, and used from there."""

from __future__ import annotations

import ast
from importlib import import_module
from itertools import pairwise
from pathlib import Path

import pytest

from rules_core import limits

ROOT = Path(__file__).resolve().parents[2]

# (module, name it exposes, the rules_core.limits name it must be)
USES = [
    ("rules_core.checks", "MAX_MODIFIER", "MAX_MODIFIER"),
    ("rules_core.checks", "MAX_SKILL", "MAX_SKILL"),
    ("rules_core.damage", "MAX_ARMOR", "MAX_ARMOR"),
    ("rules_core.injury", "MAX_DAMAGE", "MAX_DAMAGE"),
    ("rules_core.injury", "MAX_HIT_POINTS", "MAX_HIT_POINTS"),
    ("rules_core.thrown", "MAX_STRENGTH", "MAX_CHARACTERISTIC"),
    ("rules_core.initiative", "MAX_COMBATANTS", "MAX_COMBATANTS"),
    ("rules_core.peers.minds_eye.initiative", "MAX_CHARACTERS", "MAX_COMBATANTS"),
    ("calculators.thresholds", "MAX_CHARACTERISTIC", "MAX_CHARACTERISTIC"),
    ("calculators.dying", "MAX_CHARACTERISTIC", "MAX_CHARACTERISTIC"),
    ("calculators.dying", "MAX_FORM_DAMAGE", "MAX_DAMAGE"),
    ("table.character", "MAX_CHARACTERISTIC", "MAX_CHARACTERISTIC"),
    ("table.character", "MAX_ARMOR", "MAX_ARMOR"),
    ("table.character", "MAX_CHARACTER_DAMAGE", "MAX_DAMAGE"),
    ("table.character", "MAX_NAME", "MAX_NAME"),
    ("table.tracker", "MAX_CHARACTERISTIC", "MAX_CHARACTERISTIC"),
    ("table.tracker", "MAX_COMBATANT_DAMAGE", "MAX_DAMAGE"),
    ("table.tracker", "MAX_NAME", "MAX_NAME"),
    ("calculators.initiative", "MAX_NAME", "MAX_NAME"),
    ("calculators.dice", "MAX_SEED", "MAX_SEED"),
    ("calculators.hit_location", "MAX_SEED", "MAX_SEED"),
    ("calculators.time", "MAX_EFFECT_INPUT", "MAX_MODIFIER"),
    ("calculators.tactics", "MAX_EFFECT_INPUT", "MAX_MODIFIER"),
]


@pytest.mark.parametrize(("module", "name", "limit"), USES, ids=[f"{m}.{n}" for m, n, _ in USES])
def test_a_module_limit_is_the_shared_one(module: str, name: str, limit: str) -> None:
    assert getattr(import_module(module), name) == getattr(limits, limit)


def test_every_shared_limit_has_a_docstring_line_in_limits_py() -> None:
    tree = ast.parse((ROOT / "rules_core" / "limits.py").read_text(encoding="utf-8"))
    body = tree.body
    documented = {
        node.targets[0].id
        for node, after in pairwise(body)
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and isinstance(after, ast.Expr)
        and isinstance(after.value, ast.Constant)
        and isinstance(after.value.value, str)
    }
    assert documented == set(limits.__all__)


# A dice expression's own modifier (3d6+1000) is another quantity than a check modifier.
OTHER_MEANING = {("rules_core/dice.py", "MAX_MODIFIER")}


def test_no_shared_limit_name_is_given_a_literal_outside_limits_py() -> None:
    shared = set(limits.__all__)
    offenders = []
    for folder in ("rules_core", "calculators"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name == "limits.py" and path.parent.name == "rules_core":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Assign)
                    and any(
                        isinstance(t, ast.Name)
                        and t.id in shared
                        and (str(path.relative_to(ROOT)), t.id) not in OTHER_MEANING
                        for t in node.targets
                    )
                    and isinstance(node.value, ast.Constant)
                ):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []
