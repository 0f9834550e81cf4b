"""Rule links and choice labels as data: ``calculators/data/rule_links.json`` and
``calculators/data/choice_labels.json``, read strictly through :func:`rule` and :func:`enum_choices`.

A rule link's key is a short name: a bare one (``"dying"``) for a link several calculators cite, the
calculator's module before a dot (``"aim.correction"``) for a link one calculator cites. A choice set's
key is the ``rules_core`` enum as ``module.Class`` (``"aim.AimReading"``), with ``/variant`` where one
calculator words the same choices its own way. ``tests/calculators/test_declarations.py`` checks that
every key is used, every anchor exists and every set names every member of its enum exactly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from enum import StrEnum
from functools import cache
from typing import TypeVar

from calculators import framework as fw
from calculators.framework.registry import package_files

__all__ = ["choice_key", "choice_labels", "enum_choices", "rule", "rule_links"]

E = TypeVar("E", bound=StrEnum)


def _load(name: str) -> dict[str, object]:
    data = json.loads(package_files().joinpath("data", name).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise TypeError(f"calculators/data/{name}: an object expected")
    return data


@cache
def rule_links() -> Mapping[str, fw.RuleLink]:
    """Every rule link by key, from ``rule_links.json`` (``{key: [text, "page.md#anchor"]}``)."""
    links: dict[str, fw.RuleLink] = {}
    for key, value in _load("rule_links.json").items():
        match value:
            case [str(text), str(target)]:
                links[key] = fw.RuleLink(text, target)
            case _:
                raise TypeError(f"calculators/data/rule_links.json: {key!r} must be [text, target]")
    return links


def rule(key: str) -> fw.RuleLink:
    """The rule link named ``key`` in ``rule_links.json``; ``KeyError`` naming it when there is none."""
    try:
        return rule_links()[key]
    except KeyError:
        raise KeyError(f"calculators/data/rule_links.json has no rule link {key!r}") from None


@cache
def choice_labels() -> Mapping[str, Mapping[str, str]]:
    """Every choice set by key, from ``choice_labels.json`` (``{"module.Enum": {value: label}}``)."""
    sets: dict[str, Mapping[str, str]] = {}
    for key, labels in _load("choice_labels.json").items():
        if not (isinstance(labels, dict) and all(isinstance(v, str) for v in labels.values())):
            raise TypeError(f"calculators/data/choice_labels.json: {key!r} must map values to labels")
        sets[key] = labels
    return sets


def choice_key(enum: type[StrEnum], variant: str = "") -> str:
    """``"module.Class"`` of a ``rules_core`` enum, then ``/variant`` when given."""
    key = f"{enum.__module__.removeprefix('rules_core.')}.{enum.__qualname__}"
    return f"{key}/{variant}" if variant else key


def enum_choices(enum: type[E], variant: str = "", **fields: int | str) -> tuple[tuple[str, str], ...]:
    """``((member.value, label), ...)`` for every member of ``enum``, in the enum's order, the labels
    from ``choice_labels.json``; ``fields`` fill ``{name}`` in a label (a figure from ``rules_core``)."""
    key = choice_key(enum, variant)
    labels = choice_labels().get(key)
    if labels is None:
        raise KeyError(f"calculators/data/choice_labels.json has no choice set {key!r}")
    if set(labels) != {member.value for member in enum}:
        raise ValueError(f"{key}: labels must name every member exactly")
    return tuple((member.value, labels[member.value].format(**fields)) for member in enum)
