"""The shape of the Python, by where it runs: layers that import downwards only, and no import circle.

Every ``import`` counts, at module level or inside a function: a function-level import that closes a
circle is still a circle, only a later one.

- ``rules_core`` (the rules) imports the standard library and itself.
- ``calculators`` imports ``rules_core``, the standard library and itself; one calculator never
  imports another (what two share lives in ``calculators.parts`` or ``calculators.framework``).
- ``table`` (the character and tracker documents) imports those two, the standard library and itself.
- Those three are what the browser runs (the wheel is made of them, whole); none imports the build
  (``sitebuild``) or the generator's glue (``hooks``). Nothing imports ``table.api`` (the worker's entry).
- ``sitebuild`` never imports MkDocs: only ``hooks/`` speaks to the generator.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from calculators.framework import registry

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("rules_core", "calculators", "table")
BUILD = ("sitebuild",)
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(packages: tuple[str, ...] = SHIPPED + BUILD) -> dict[str, Path]:
    return {_module_name(p): p for package in packages for p in sorted((ROOT / package).rglob("*.py"))}


MODULES = _modules()


def _imports(name: str, path: Path) -> Iterator[str]:
    """Every module ``name`` imports, resolved to absolute dotted names (relative imports too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base
            # ``from package import module`` imports the module too.
            yield from (f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in MODULES)


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        if not name.startswith(SHIPPED):
            continue
        targets = set()
        for target in _imports(name, path):
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
        graph[name] = targets
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle, as the list of modules around it, or ``[]``."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_shipped_packages_are_found() -> None:
    assert "rules_core.dice" in MODULES and "calculators.framework.spec" in MODULES


def test_there_is_no_import_circle_in_the_shipped_python() -> None:
    cycle = _cycle(_graph())
    assert not cycle, "import circle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("rules_core")))
def test_rules_core_imports_only_the_standard_library_and_itself(name: str) -> None:
    outside = {
        top
        for target in _imports(name, MODULES[name])
        if (top := target.split(".")[0]) not in STDLIB and top != "rules_core"
    }
    assert not outside, f"{name} imports {sorted(outside)}"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("calculators")))
def test_calculators_import_only_rules_core_the_standard_library_and_themselves(name: str) -> None:
    outside = {
        top
        for target in _imports(name, MODULES[name])
        if (top := target.split(".")[0]) not in STDLIB | {"rules_core", "calculators"}
    }
    assert not outside, f"{name} imports {sorted(outside)}"


def _outside(name: str, allowed: set[str]) -> set[str]:
    """The top-level packages ``name`` imports beyond the standard library and ``allowed``."""
    return {
        top
        for target in _imports(name, MODULES[name])
        if (top := target.split(".")[0]) not in STDLIB | allowed
    }


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("table")))
def test_the_table_documents_import_only_the_rules_the_calculators_and_themselves(name: str) -> None:
    outside = _outside(name, {"rules_core", "calculators", "table"})
    assert not outside, f"{name} imports {sorted(outside)}"


CALCULATOR_MODULES = frozenset(registry.CALCULATORS.values())


@pytest.mark.parametrize("name", sorted(CALCULATOR_MODULES))
def test_no_calculator_imports_another(name: str) -> None:
    others = {target for target in _imports(name, MODULES[name]) if target in CALCULATOR_MODULES - {name}}
    assert not others, f"{name} imports the calculators {sorted(others)}: share through calculators.parts"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("sitebuild")))
def test_the_build_never_imports_the_generator(name: str) -> None:
    outside = _outside(name, {"rules_core", "calculators", "table", "sitebuild"})
    assert not outside, f"{name} imports {sorted(outside)}: only hooks/ may speak to MkDocs"


def test_the_browser_bundle_is_the_shipped_packages_whole() -> None:
    from sitebuild import bundle

    assert bundle.PACKAGES == SHIPPED
    names = {name for name, _ in bundle._sources(ROOT)}
    assert {n.split("/")[0] for n in names} == set(SHIPPED)
    assert {_module_name(ROOT / n) for n in names if n.endswith(".py")} == set(_modules(SHIPPED))


@pytest.mark.parametrize("entry", ["table.api", "sitebuild", "hooks"])
def test_nothing_shipped_imports_an_entry_or_the_build(entry: str) -> None:
    users = sorted(
        name
        for name in _modules(SHIPPED)
        if any(t == entry or t.startswith(entry + ".") for t in _imports(name, MODULES[name]))
        and not name.startswith(entry)
    )
    assert not users, f"{entry} is imported by {users}"
