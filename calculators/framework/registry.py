"""The registry of calculators: every module of the ``calculators`` package that declares one.

A calculator is found by being there: ``calculators/<name>.py`` defining ``CALCULATOR`` (a
:class:`~calculators.framework.spec.Calculator` named ``<name>``) is registered under ``<name>``, with no
list to edit. Only the package's listing is read here (``importlib.resources``, which also reads the
zipped wheel the browser imports from); a module is imported when first asked for, so the browser engine
starts fast and a page only pays for the calculators it shows.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module, resources
from importlib.resources.abc import Traversable

from calculators.framework.spec import Calculator

__all__ = ["CALCULATORS", "NOT_CALCULATORS", "get", "names", "package_files"]

PACKAGE = "calculators"
NOT_CALCULATORS = frozenset({"format"})
"""Modules at the top of the package that are not calculators (shared pieces live in sub-packages)."""
SOURCE_SUFFIXES = frozenset({"py", "pyc"})
"""Module files: sources under CPython; compiled ones in the browser's wheel (``sitebuild/bytecode.py``)."""


@cache
def package_files() -> Traversable:
    """The ``calculators`` package's files (``importlib.resources``), found once: in the browser's zipped
    wheel each ``resources.files`` reads the archive's whole directory again."""
    return resources.files(PACKAGE)


def _discover() -> dict[str, str]:
    """Calculator name -> module, for every calculator module in the package, sorted by name."""
    found: set[str] = set()
    for entry in package_files().iterdir():
        stem, _, suffix = entry.name.partition(".")
        if suffix in SOURCE_SUFFIXES and not stem.startswith("_") and stem not in NOT_CALCULATORS:
            found.add(stem)
    return {name: f"{PACKAGE}.{name}" for name in sorted(found)}


CALCULATORS: dict[str, str] = _discover()
"""Calculator name (used in markers, URLs and ``data-calculator``) -> module defining ``CALCULATOR``."""


def names() -> tuple[str, ...]:
    """Every registered calculator name, sorted."""
    return tuple(sorted(CALCULATORS))


def get(name: str) -> Calculator:
    """The calculator registered under ``name``; ``KeyError`` if there is none."""
    if name not in CALCULATORS:
        raise KeyError(f"unknown calculator {name!r}; known: {', '.join(names())}")
    calc = import_module(CALCULATORS[name]).CALCULATOR
    if not isinstance(calc, Calculator) or calc.name != name:
        raise TypeError(f"{CALCULATORS[name]}.CALCULATOR must be a Calculator named {name!r}")
    return calc
