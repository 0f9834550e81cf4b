"""Input and computation limits shared by the rules engine and the calculators, each defined once.

A limit here bounds one kind of value wherever it appears (a rules function, a calculator form,
the character sheet, the tracker), so the same value is accepted or refused everywhere. Limits
that only keep one computation bounded stay beside it (``MAX_HEALING_DAMAGE`` in
:mod:`rules_core.healing`, ``MAX_ROLLS`` in :mod:`rules_core.dice`, ...).

The bounds of a roll a player enters (``CHECK_ROLL_MIN`` ... ``SIDE_ROLL_MAX``) are read from
``rules_core/data/``, so a form or document never writes 2, 12 or 6 for the dice itself.
A bound that is a form's or another game's, wider or narrower than a rules limit, is named here too
and says why (``MAX_PEER_SCORE``, ``MAX_PEER_STEP_METRES``).
"""

from __future__ import annotations

from rules_core.tables import int_constant, table

__all__ = [
    "CHECK_ROLL_MAX",
    "CHECK_ROLL_MIN",
    "MAX_ARMOR",
    "MAX_CHARACTERISTIC",
    "MAX_COMBATANTS",
    "MAX_DAMAGE",
    "MAX_HIT_POINTS",
    "MAX_INITIATIVE",
    "MAX_MODIFIER",
    "MAX_NAME",
    "MAX_PEER_SCORE",
    "MAX_PEER_STEP_METRES",
    "MAX_SEED",
    "MAX_SKILL",
    "MAX_TACTICS_ATTEMPTS",
    "SIDE_ROLL_MAX",
    "SIDE_ROLL_MIN",
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

MAX_INITIATIVE = 99
"""An initiative a player enters as told (the tracker, the initiative calculator's list), either sign."""

MAX_TACTICS_ATTEMPTS = 100
"""Tactics checks already made in one battle (:func:`rules_core.tactics` refuses more)."""

CHECK_ROLL_MIN = int_constant("check_constants", "dice")
"""The lowest total of a check's two kept dice (each shows at least 1). Core Mechanics § Dice Roll."""

CHECK_ROLL_MAX = int_constant("check_constants", "dice") * int_constant("check_constants", "sides")
"""The highest total of a check's two kept dice (2d6: 12). Core Mechanics § Dice Roll."""

SIDE_ROLL_MIN = min(int(row["lowest"]) for row in table("hit_location_sides").rows)
"""The lowest side roll for a hand or a foot (1 on 1d6). Actions § Targeted Attack."""

SIDE_ROLL_MAX = max(int(row["highest"]) for row in table("hit_location_sides").rows)
"""The highest side roll for a hand or a foot (6 on 1d6). Actions § Targeted Attack."""

MAX_PEER_SCORE = 100
"""A score, die result or damage of another game entered on the comparison form, either sign.

Not a Mneme limit: the peers' own modules refuse the same size (``MAX_SCORE`` of
:mod:`rules_core.peers.mistrunner`, ``MAX_ATTRIBUTE`` of :mod:`rules_core.peers.minds_eye`).
"""

MAX_PEER_STEP_METRES = 10
"""The longest Mind's Eye Theatre step length the comparison accepts, in metres (its check refuses more)."""
