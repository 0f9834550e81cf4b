"""Strict loader for the rules' data tables.

Every figure of the rules lives in a JSON file in ``rules_core/data``. A file is
either a *table* (typed columns, rows that each cite their ``source``) or a set
of *constants* (named values, each with its ``source``). Loading is strict: an
unknown key, a missing key or a value of the wrong type raises
:class:`TableError` naming the file and the key, so a typo never becomes a
silent wrong number.

File format::

    {"kind": "table", "title": "...", "source": "Chapter § Section",
     "description": "...",
     "columns": {"difficulty": "int", "label": "str|null"},
     "rows": [{"difficulty": 8, "label": "Challenging", "source": "..."}]}

    {"kind": "constants", "title": "...", "source": "...", "description": "...",
     "values": {"default_difficulty": {"value": 8, "type": "int",
                                       "source": "...", "description": "..."}}}

Types: ``int``, ``str``, ``bool``, ``fraction`` (written ``"1/3"``), each
optionally ``|null``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from types import MappingProxyType
from typing import Any

_TABLE_KEYS = {"kind", "title", "source", "description", "columns", "rows"}
_CONSTANTS_KEYS = {"kind", "title", "source", "description", "values"}
_CONSTANT_KEYS = {"value", "type", "source", "description", "unit"}
_BASE_TYPES = {"int", "str", "bool", "fraction"}


class TableError(ValueError):
    """A data file does not match its declared shape."""


@dataclass(frozen=True)
class Column:
    """One typed column of a table."""

    name: str
    type: str
    nullable: bool


@dataclass(frozen=True)
class Table:
    """A loaded table: typed columns and read-only rows, each with a source."""

    name: str
    title: str
    source: str
    description: str
    columns: tuple[Column, ...]
    rows: tuple[Mapping[str, Any], ...]

    def column(self, name: str) -> tuple[Any, ...]:
        """All values of one column, in row order."""
        if name not in {c.name for c in self.columns}:
            raise KeyError(f"table {self.name!r} has no column {name!r}")
        return tuple(row[name] for row in self.rows)

    def find(self, **match: Any) -> Mapping[str, Any]:
        """The single row whose columns equal ``match``; ``KeyError`` if none or several."""
        found = [row for row in self.rows if all(row[k] == v for k, v in match.items())]
        if len(found) != 1:
            raise KeyError(f"table {self.name!r}: {len(found)} rows match {match!r}")
        return found[0]


@dataclass(frozen=True)
class Constant:
    """A named rule figure with its source."""

    name: str
    value: Any
    source: str
    description: str
    unit: str


def _parse_type(spec: Any, where: str) -> tuple[str, bool]:
    if not isinstance(spec, str):
        raise TableError(f"{where}: type must be a string, got {spec!r}")
    base, _, rest = spec.partition("|")
    if base not in _BASE_TYPES or rest not in ("", "null"):
        raise TableError(f"{where}: unknown type {spec!r}")
    return base, rest == "null"


def _coerce(value: Any, base: str, nullable: bool, where: str) -> Any:
    if value is None:
        if nullable:
            return None
        raise TableError(f"{where}: value is null but the type is not nullable")
    if base == "int" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if base == "str" and isinstance(value, str):
        return value
    if base == "bool" and isinstance(value, bool):
        return value
    if base == "fraction":
        if isinstance(value, int) and not isinstance(value, bool):
            return Fraction(value)
        if isinstance(value, str):
            try:
                return Fraction(value)
            except ValueError:
                pass
    raise TableError(f"{where}: expected {base}, got {value!r}")


def _check_keys(got: Mapping[str, Any], allowed: set[str], required: set[str], where: str) -> None:
    unknown = sorted(set(got) - allowed)
    if unknown:
        raise TableError(f"{where}: unknown key {unknown[0]!r}")
    missing = sorted(required - set(got))
    if missing:
        raise TableError(f"{where}: missing key {missing[0]!r}")


@cache
def _folder(files: Callable[[str], Traversable]) -> Traversable:
    """``rules_core/data`` as ``files`` finds it, found once: in the browser's zipped wheel each
    ``resources.files`` reads the archive's whole directory again (about 5 ms a file on a phone)."""
    return files("rules_core") / "data"


def _read(name: str) -> tuple[str, dict[str, Any]]:
    filename = f"{name}.json"
    ref = _folder(resources.files) / filename
    if not ref.is_file():
        raise TableError(f"no data file {filename!r} in rules_core/data")
    try:
        raw = json.loads(ref.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise TableError(f"{filename}: invalid JSON ({exc})") from exc
    if not isinstance(raw, dict):
        raise TableError(f"{filename}: top level must be an object")
    return filename, raw


@cache
def table(name: str) -> Table:
    """Load the table ``rules_core/data/<name>.json``, strictly."""
    filename, raw = _read(name)
    if raw.get("kind") != "table":
        raise TableError(f"{filename}: key 'kind' must be 'table'")
    _check_keys(raw, _TABLE_KEYS, _TABLE_KEYS, filename)
    if not isinstance(raw["columns"], dict) or not raw["columns"]:
        raise TableError(f"{filename}: key 'columns' must be a non-empty object")
    columns = tuple(
        Column(col, *_parse_type(spec, f"{filename}: columns.{col}")) for col, spec in raw["columns"].items()
    )
    names = {c.name for c in columns} | {"source"}
    rows = []
    if not isinstance(raw["rows"], list):
        raise TableError(f"{filename}: key 'rows' must be a list")
    for i, row in enumerate(raw["rows"]):
        where = f"{filename}: rows[{i}]"
        if not isinstance(row, dict):
            raise TableError(f"{where}: must be an object")
        _check_keys(row, names, names, where)
        parsed = {c.name: _coerce(row[c.name], c.type, c.nullable, f"{where}.{c.name}") for c in columns}
        parsed["source"] = _coerce(row["source"], "str", False, f"{where}.source")
        rows.append(MappingProxyType(parsed))
    for key in ("title", "source", "description"):
        _coerce(raw[key], "str", False, f"{filename}: {key}")
    return Table(name, raw["title"], raw["source"], raw["description"], columns, tuple(rows))


@cache
def _constants(name: str) -> Mapping[str, Constant]:
    filename, raw = _read(name)
    if raw.get("kind") != "constants":
        raise TableError(f"{filename}: key 'kind' must be 'constants'")
    _check_keys(raw, _CONSTANTS_KEYS, _CONSTANTS_KEYS, filename)
    if not isinstance(raw["values"], dict):
        raise TableError(f"{filename}: key 'values' must be an object")
    out: dict[str, Constant] = {}
    for key, entry in raw["values"].items():
        where = f"{filename}: values.{key}"
        if not isinstance(entry, dict):
            raise TableError(f"{where}: must be an object")
        _check_keys(entry, _CONSTANT_KEYS, {"value", "type", "source"}, where)
        base, nullable = _parse_type(entry["type"], f"{where}.type")
        out[key] = Constant(
            key,
            _coerce(entry["value"], base, nullable, f"{where}.value"),
            _coerce(entry["source"], "str", False, f"{where}.source"),
            str(entry.get("description", "")),
            str(entry.get("unit", "")),
        )
    return MappingProxyType(out)


def constant(name: str, key: str) -> Any:
    """The value of constant ``key`` in ``rules_core/data/<name>.json``."""
    values = _constants(name)
    if key not in values:
        raise TableError(f"{name}.json: no constant {key!r}")
    return values[key].value


def int_constant(name: str, key: str) -> int:
    """Constant ``key`` of ``rules_core/data/<name>.json``, typed as the whole number it is."""
    value: int = constant(name, key)
    return value


def constants(name: str) -> Mapping[str, Constant]:
    """Every constant in ``rules_core/data/<name>.json``, with sources."""
    return _constants(name)


def table_names() -> tuple[str, ...]:
    """Names of every data file shipped with the engine."""
    folder = _folder(resources.files)
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json")))
