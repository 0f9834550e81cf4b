"""The registry of calculators: name -> module. Adding a calculator is one line here.

Modules are imported only when first asked for, so the browser engine starts
fast and a page only pays for the calculators it shows.
"""

from __future__ import annotations

from importlib import import_module

from calculators.framework.spec import Calculator

__all__ = ["CALCULATORS", "get", "names"]

CALCULATORS: dict[str, str] = {
    "effect": "calculators.effect",
    "comparison": "calculators.comparison",
    "odds": "calculators.odds",
    "dying": "calculators.dying",
    "initiative": "calculators.initiative",
    "movement": "calculators.movement",
    "thrown": "calculators.thrown",
    "tactics": "calculators.tactics",
    "time": "calculators.time",
    "hit_location": "calculators.hit_location",
    "dice": "calculators.dice",
    "mitigation": "calculators.mitigation",
    "damage": "calculators.damage",
    "thresholds": "calculators.thresholds",
    "healing": "calculators.healing",
    "attack": "calculators.attack",
    "grappling": "calculators.grappling",
    "check": "calculators.check",
    "round": "calculators.round",
    "aim": "calculators.aim",
}
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
