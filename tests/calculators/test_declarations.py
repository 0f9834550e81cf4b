"""The calculators' declarations kept as data (``calculators/data/``): every rule link and every choice
set is used, every link points at an existing page and anchor, every choice set labels exactly the
members of its ``rules_core`` enum."""

from __future__ import annotations

import ast
import importlib
import re
import unicodedata
from enum import StrEnum
from pathlib import Path
from string import Formatter

import pytest

from calculators.parts.links import choice_key, choice_labels, enum_choices, rule, rule_links
from rules_core import action_options
from rules_core.tables import constant

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SOURCES = [*sorted((ROOT / "calculators").rglob("*.py")), ROOT / "sitebuild" / "table_ui.py"]


def _calls(name: str) -> list[tuple[Path, ast.Call]]:
    """Every call of the function ``name`` (bare or as an attribute) in the sources that read the data."""
    found = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if called == name:
                    found.append((path, node))
    return found


def _rule_keys() -> dict[str, set[str]]:
    """Rule link key -> the modules (file stems) that name it, from ``rule("key")`` calls."""
    used: dict[str, set[str]] = {}
    for path, call in _calls("rule"):
        assert len(call.args) == 1 and isinstance(call.args[0], ast.Constant), path
        used.setdefault(str(call.args[0].value), set()).add(path.stem)
    return used


def test_every_rule_link_is_named_and_every_name_has_a_link() -> None:
    used = _rule_keys()
    assert set(used) == set(rule_links()), {
        "unused": sorted(set(rule_links()) - set(used)),
        "missing": sorted(set(used) - set(rule_links())),
    }


def test_a_calculators_own_rule_link_is_named_in_that_calculator_only() -> None:
    for key, modules in _rule_keys().items():
        owner, dot, _ = key.partition(".")
        if dot:
            assert modules == {owner}, f"{key} is named in {sorted(modules)}"


@pytest.mark.parametrize("key", sorted(rule_links()))
def test_every_rule_link_points_at_an_existing_page_and_anchor(key: str) -> None:
    path, _, anchor = rule(key).target.partition("#")
    text = (DOCS / path).read_text(encoding="utf-8")
    assert re.search(r"\{[^}]*#" + re.escape(anchor) + r"[\s}]", text), rule(key).target


def test_one_target_has_one_link_unless_its_text_differs() -> None:
    pairs = [(link.text, link.target) for link in rule_links().values()]
    assert len(pairs) == len(set(pairs))


def test_an_unknown_rule_link_is_an_error_naming_it() -> None:
    with pytest.raises(KeyError, match="no rule link 'nowhere'"):
        rule("nowhere")


def _enum(key: str) -> type[StrEnum]:
    name = key.partition("/")[0]
    module, _, cls = name.rpartition(".")
    enum = getattr(importlib.import_module(f"rules_core.{module}"), cls)
    assert isinstance(enum, type) and issubclass(enum, StrEnum), key
    return enum


@pytest.mark.parametrize("key", sorted(choice_labels()))
def test_every_choice_set_labels_exactly_the_members_of_its_enum(key: str) -> None:
    enum = _enum(key)
    assert list(choice_labels()[key]) == [member.value for member in enum], key
    variant = key.partition("/")[2]
    assert choice_key(enum, variant) == key
    labels = choice_labels()[key].values()
    figures = {name: 0 for text in labels for _, name, _, _ in Formatter().parse(text) if name}  # {cap}, ...
    assert all(label.strip() for _, label in enum_choices(enum, variant, **figures))


def test_every_choice_set_is_read_and_every_read_set_exists() -> None:
    read = set()
    for path, call in _calls("enum_choices"):
        if path.name == "links.py":
            continue
        enum_node = call.args[0]
        cls = enum_node.attr if isinstance(enum_node, ast.Attribute) else getattr(enum_node, "id", "")
        variant = call.args[1].value if len(call.args) > 1 and isinstance(call.args[1], ast.Constant) else ""
        read.add((cls, variant))
    table = {(key.partition("/")[0].rpartition(".")[2], key.partition("/")[2]) for key in choice_labels()}
    assert read == table


def test_a_label_takes_its_figure_from_the_rules() -> None:
    penalty = constant("action_options", "reckless_effect_penalty")
    labels = dict(enum_choices(action_options.RecklessReading, penalty=penalty))
    assert labels["reduced_success"] == f"At its Effect less {penalty}"


def _written_figures(label: str) -> str:
    """The numeric characters of ``label`` outside its ``{figure}`` fields (``3``, ``¾``)."""
    text = "".join(literal for literal, _, _, _ in Formatter().parse(label))
    return "".join(c for c in text if unicodedata.numeric(c, None) is not None)


WRITTEN_ONES = {
    ("healing.SurgeryTimeReading", "one_plus"): "the reading's own formula, 1 + the fail effect left",
    ("targeting.Rounding/hit_location", "down"): "a threshold's floor of 1 (targeting.area_threshold)",
}
"""Labels that may write a 1 that is no figure of the rules data but the form of the rule in the engine."""


@pytest.mark.parametrize("key", sorted(choice_labels()))
def test_no_label_writes_a_rules_figure_by_hand(key: str) -> None:
    # A figure in a label ("+2", "32 at any level", "¾") is a {field} filled from rules_core by the
    # calculator (enum_choices(Enum, name=figure)), so the label follows the rules data.
    written = {
        value: _written_figures(label)
        for value, label in choice_labels()[key].items()
        if not ((key, value) in WRITTEN_ONES and _written_figures(label) == "1")
    }
    assert not any(written.values()), {value: digits for value, digits in written.items() if digits}


def test_every_label_allowed_a_1_exists() -> None:
    for key, value in WRITTEN_ONES:
        assert _written_figures(choice_labels()[key][value]) == "1", (key, value)


def test_the_figure_check_sees_digits_and_vulgar_fractions_but_not_fields() -> None:
    assert _written_figures("{times} x miss + 3") == "3"
    assert _written_figures("Exactly ¾ of the distance") == "¾"
    assert _written_figures("{spaces} = {metres}") == ""
