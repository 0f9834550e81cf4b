"""The strict data loader: every data file loads, and a malformed file fails naming the file and key."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from rules_core import tables
from rules_core.tables import TableError, constant, constants, table, table_names

# Data files of the Core Mechanics and Actions chapters: their sources cite "Chapter § Section".
CORE_AND_ACTIONS_FILES = (
    "action_costs",
    "action_list",
    "action_economy",
    "action_options",
    "aim",
    "check_constants",
    "difficulty_ladder",
    "grappling",
    "grappling_modifiers",
    "initiative",
    "mitigation",
    "mitigation_order",
    "movement",
    "movement_checks",
    "stance_changes",
    "tactics",
    "tactics_risk",
    "thrown",
    "time_checks",
)

GOOD_TABLE: dict[str, Any] = {
    "kind": "table",
    "title": "T",
    "source": "Core Mechanics § Dice Roll",
    "description": "d",
    "columns": {"difficulty": "int", "label": "str|null", "share": "fraction"},
    "rows": [{"difficulty": 8, "label": None, "share": "1/3", "source": "Core Mechanics § Difficulty"}],
}
GOOD_CONSTANTS: dict[str, Any] = {
    "kind": "constants",
    "title": "C",
    "source": "Core Mechanics § Dice Roll",
    "description": "d",
    "values": {"dice": {"value": 2, "type": "int", "source": "Core Mechanics § Dice Roll"}},
}


def kind_of(name: str) -> str:
    path = Path(tables.__file__).parent / "data" / f"{name}.json"
    kind: str = json.loads(path.read_text(encoding="utf-8"))["kind"]
    return kind


@pytest.mark.parametrize("name", table_names())
def test_every_shipped_data_file_loads_strictly(name: str) -> None:
    if kind_of(name) == "table":
        assert table(name).rows
    else:
        assert constants(name)


@pytest.mark.parametrize("name", CORE_AND_ACTIONS_FILES)
def test_every_core_and_actions_figure_cites_its_chapter_and_section(name: str) -> None:
    if kind_of(name) == "table":
        loaded = table(name)
        sources = [loaded.source, *(row["source"] for row in loaded.rows)]
    else:
        sources = [c.source for c in constants(name).values()]
    assert all(s.split(" § ")[0] in {"Core Mechanics", "Actions"} and " § " in s for s in sources), sources


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point the loader at an empty temporary package whose ``data`` folder the test fills."""
    (tmp_path / "data").mkdir()
    monkeypatch.setattr(tables, "resources", SimpleNamespace(files=lambda package: tmp_path))
    tables.table.cache_clear()
    tables._constants.cache_clear()
    yield tmp_path / "data"
    tables.table.cache_clear()
    tables._constants.cache_clear()


def write(folder: Path, name: str, content: Any) -> None:
    text = content if isinstance(content, str) else json.dumps(content)
    (folder / f"{name}.json").write_text(text, encoding="utf-8")


def altered(
    base: dict[str, Any], path: tuple[Any, ...], value: Any = ..., drop: bool = False
) -> dict[str, Any]:
    """A deep copy of ``base`` with the key at ``path`` set to ``value`` (or removed)."""
    copy: dict[str, Any] = json.loads(json.dumps(base))
    target: Any = copy
    for key in path[:-1]:
        target = target[key]
    if drop:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return copy


def test_well_formed_files_load_with_typed_values(data_dir: Path) -> None:
    write(data_dir, "good_table", GOOD_TABLE)
    write(data_dir, "good_constants", GOOD_CONSTANTS)
    assert table("good_table").find(difficulty=8)["share"] == Fraction(1, 3)
    assert table("good_table").column("label") == (None,)
    assert constant("good_constants", "dice") == 2
    assert table_names() == ("good_constants", "good_table")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (altered(GOOD_TABLE, ("rows", 0, "colour"), "red"), r"bad\.json: rows\[0\]: unknown key 'colour'"),
        (
            altered(GOOD_TABLE, ("rows", 0, "source"), drop=True),
            r"bad\.json: rows\[0\]: missing key 'source'",
        ),
        (
            altered(GOOD_TABLE, ("rows", 0, "difficulty"), "8"),
            r"bad\.json: rows\[0\]\.difficulty: expected int",
        ),
        (altered(GOOD_TABLE, ("rows", 0, "difficulty"), True), r"rows\[0\]\.difficulty: expected int"),
        (altered(GOOD_TABLE, ("rows", 0, "difficulty"), None), r"rows\[0\]\.difficulty: value is null"),
        (altered(GOOD_TABLE, ("rows", 0, "share"), "a third"), r"rows\[0\]\.share: expected fraction"),
        (altered(GOOD_TABLE, ("rows", 0, "source"), 3), r"rows\[0\]\.source: expected str"),
        (
            altered(GOOD_TABLE, ("columns", "label"), "text"),
            r"bad\.json: columns\.label: unknown type 'text'",
        ),
        (altered(GOOD_TABLE, ("columns", "label"), 1), r"columns\.label: type must be a string"),
        (altered(GOOD_TABLE, ("columns",), {}), r"key 'columns' must be a non-empty object"),
        (altered(GOOD_TABLE, ("rows",), {}), r"key 'rows' must be a list"),
        (altered(GOOD_TABLE, ("rows", 0), 5), r"rows\[0\]: must be an object"),
        (altered(GOOD_TABLE, ("source",), drop=True), r"bad\.json: missing key 'source'"),
        (altered(GOOD_TABLE, ("notes",), "x"), r"bad\.json: unknown key 'notes'"),
        (altered(GOOD_TABLE, ("title",), 5), r"bad\.json: title: expected str"),
        (altered(GOOD_TABLE, ("kind",), "constants"), r"bad\.json: key 'kind' must be 'table'"),
        ("[1, 2]", r"bad\.json: top level must be an object"),
        ("{not json", r"bad\.json: invalid JSON"),
    ],
)
def test_a_malformed_table_fails_naming_the_file_and_key(data_dir: Path, content: Any, message: str) -> None:
    write(data_dir, "bad", content)
    with pytest.raises(TableError, match=message):
        table("bad")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (altered(GOOD_CONSTANTS, ("values", "dice", "colour"), "red"), r"values\.dice: unknown key 'colour'"),
        (
            altered(GOOD_CONSTANTS, ("values", "dice", "source"), drop=True),
            r"values\.dice: missing key 'source'",
        ),
        (altered(GOOD_CONSTANTS, ("values", "dice", "value"), 2.5), r"values\.dice\.value: expected int"),
        (altered(GOOD_CONSTANTS, ("values", "dice", "type"), "float"), r"values\.dice\.type: unknown type"),
        (altered(GOOD_CONSTANTS, ("values", "dice"), 2), r"values\.dice: must be an object"),
        (altered(GOOD_CONSTANTS, ("values",), []), r"key 'values' must be an object"),
        (altered(GOOD_CONSTANTS, ("kind",), "table"), r"key 'kind' must be 'constants'"),
    ],
)
def test_a_malformed_constants_file_fails_naming_the_file_and_key(
    data_dir: Path, content: Any, message: str
) -> None:
    write(data_dir, "bad", content)
    with pytest.raises(TableError, match=message):
        constants("bad")


def test_a_missing_file_or_constant_is_named(data_dir: Path) -> None:
    write(data_dir, "good_constants", GOOD_CONSTANTS)
    with pytest.raises(TableError, match=r"no data file 'absent\.json'"):
        table("absent")
    with pytest.raises(TableError, match=r"good_constants\.json: no constant 'sides'"):
        constant("good_constants", "sides")


def test_a_table_lookup_of_an_unknown_column_or_row_fails(data_dir: Path) -> None:
    write(data_dir, "good_table", GOOD_TABLE)
    with pytest.raises(KeyError, match="no column 'colour'"):
        table("good_table").column("colour")
    with pytest.raises(KeyError, match="0 rows match"):
        table("good_table").find(difficulty=9)
