"""Pieces several calculators share, declared once: input groups and choices built from the rules.

- :func:`enum_choices`: the options of a :class:`~calculators.framework.ChoiceInput` for every member
  of a ``rules_core`` ``StrEnum``, in the enum's order (a member without a label is an error, so a new
  member cannot be forgotten on a form).
- :func:`characteristic_inputs`: the Strength / Dexterity / Endurance inputs (keys ``strength``,
  ``dexterity``, ``endurance``; "use my character" fills them).
- :func:`threshold_reading_input`: the ``reading`` ruling choice between thirds of HP and the
  threshold table (:class:`rules_core.injury.ThresholdReading`).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import TypeVar

from calculators import framework as fw
from rules_core import injury, limits

__all__ = ["THRESHOLD_READINGS", "characteristic_inputs", "enum_choices", "threshold_reading_input"]

E = TypeVar("E", bound=StrEnum)


def enum_choices(enum: type[E], labels: Mapping[E, str]) -> tuple[tuple[str, str], ...]:
    """``((member.value, label), ...)`` for every member of ``enum``, in the enum's order."""
    if set(labels) != set(enum):
        missing = ", ".join(sorted(m.value for m in set(enum) - set(labels)))
        raise ValueError(f"{enum.__name__}: labels must name every member exactly (missing: {missing})")
    return tuple((member.value, labels[member]) for member in enum)


THRESHOLD_READINGS = enum_choices(
    injury.ThresholdReading,
    {
        injury.ThresholdReading.FRACTIONS_OF_HP: "Thirds of HP (ruling)",
        injury.ThresholdReading.BEST_PHYSICAL: "Characteristics (table)",
    },
)
"""The two readings of the injury thresholds, as form choices."""


def threshold_reading_input(label: str = "Thresholds (ruling)") -> fw.ChoiceInput:
    """The ``reading`` input: thirds of HP (the default) or the threshold table."""
    return fw.ChoiceInput("reading", label, THRESHOLD_READINGS, injury.ThresholdReading.FRACTIONS_OF_HP.value)


def characteristic_inputs(
    defaults: tuple[int, int, int] = (7, 7, 7), *, abbreviated: bool = False
) -> tuple[fw.IntInput, fw.IntInput, fw.IntInput]:
    """Strength, Dexterity and Endurance, each from 0 to ``limits.MAX_CHARACTERISTIC``.

    ``abbreviated`` adds the short name to each label ("Strength (Str)").
    """
    names = (
        ("strength", "Strength", "Str"),
        ("dexterity", "Dexterity", "Dex"),
        ("endurance", "Endurance", "End"),
    )
    strength, dexterity, endurance = (
        fw.IntInput(
            key, f"{label} ({short})" if abbreviated else label, default, 0, limits.MAX_CHARACTERISTIC
        )
        for (key, label, short), default in zip(names, defaults, strict=True)
    )
    return strength, dexterity, endurance
