"""Every reading of a contradiction or a gap in the rules (a ``StrEnum`` of ``rules_core`` citing a
ruling) is described once, on the rulings page: its docstring cites the ruling's anchor, names each
member and the default, and the ruling names each member's value (the readings' behaviour:
``test_readings.py``)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from enum import StrEnum
from pathlib import Path

import pytest

import rules_core

RULINGS = (Path(__file__).resolve().parents[2] / "docs" / "rulings.md").read_text(encoding="utf-8")
CITE = re.compile(r"\(.*ruling ``([\w-]+)``\)")


def _enums() -> list[type[StrEnum]]:
    found = []
    for info in pkgutil.iter_modules(rules_core.__path__):
        module = importlib.import_module(f"rules_core.{info.name}")
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, StrEnum) and value.__module__ == module.__name__:
                found.append(value)
    return found


READINGS = [enum for enum in _enums() if "ruling" in (enum.__doc__ or "")]


def _section(anchor: str) -> str:
    """The rulings page's section under the heading ``{#anchor}``, up to the next heading."""
    match = re.search(r"^#+ .*\{#" + re.escape(anchor) + r"\}\n(.*?)(?=^#+ |\Z)", RULINGS, re.M | re.S)
    assert match, f"docs/rulings.md has no section {anchor}"
    return match.group(1)


def test_every_reading_enum_cites_a_ruling() -> None:
    named = [enum.__name__ for enum in _enums() if enum.__name__.endswith("Reading")]
    assert named and set(named) <= {enum.__name__ for enum in READINGS}
    assert len(READINGS) >= len(named)


@pytest.mark.parametrize("enum", READINGS, ids=lambda enum: enum.__name__)
def test_a_reading_cites_its_ruling_and_names_each_member_there_and_the_default(enum: type[StrEnum]) -> None:
    doc = inspect.getdoc(enum) or ""
    first = doc.partition("\n")[0]
    cited = CITE.search(first)
    assert cited, f"{enum.__name__}: the first line cites (ruling ``anchor``)"
    section = _section(cited.group(1))
    for member in enum:
        assert f"``{member.name}``" in doc, f"{enum.__name__}.{member.name} is not described"
        assert f"`{member.value}`" in section, f"ruling {cited.group(1)} does not name {member.value}"
    assert len(re.findall(r"``\w+`` \(default\)", doc)) == 1, f"{enum.__name__}: one default"
