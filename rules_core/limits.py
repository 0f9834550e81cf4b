"""Input and computation limits shared by the rules engine and the calculators, each defined once.

A limit here bounds one kind of value wherever it appears (a rules function, a calculator form,
the character sheet, the tracker), so the same value is accepted or refused everywhere. Limits
that only keep one computation bounded stay beside it (``MAX_HEALING_DAMAGE`` in
:mod:`rules_core.healing`, ``MAX_ROLLS`` in :mod:`rules_core.dice`, ...).
"""

from __future__ import annotations

__all__ = [
    "MAX_ARMOR",
    "MAX_CHARACTERISTIC",
    "MAX_COMBATANTS",
    "MAX_DAMAGE",
    "MAX_HIT_POINTS",
    "MAX_MODIFIER",
    "MAX_NAME",
    "MAX_SEED",
    "MAX_SKILL",
]

MAX_CHARACTERISTIC = 99
"""A characteristic value (Str, Dex, End, ...) a player can enter: two digits, far past human 15."""

MAX_SKILL = 20
"""A skill level."""

MAX_MODIFIER = 50
"""A check modifier (DM) or an Effect, either sign."""

MAX_ARMOR = 10_000_000
"""Armor in plain points, scale applied (KAR 9999 is 9,999,000); also a scaled HP value as written."""

MAX_HIT_POINTS = 1_000_000
"""A character's or target's hit points."""

MAX_DAMAGE = 10_000_000
"""Damage in plain points: one attack's or a character's total damage taken."""

MAX_NAME = 40
"""The length of a name (a combatant, a character, a skill, a weapon), in characters."""

MAX_SEED = 999_999_999
"""A random seed a player can enter to repeat a roll."""

MAX_COMBATANTS = 500
"""Combatants put in one initiative order (bounded work)."""
