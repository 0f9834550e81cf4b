"""Stealth and search difficulties.

Rules: Actions § Deliberate Stealth, § Scan/Search, § Quick Scan, § Minor Stealth (docs/rules/actions.md).
Rulings: notes/rulings-core-actions.md (search modifiers, the stealth skill, which look beats which hiding).
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction

from rules_core._choices import choice
from rules_core.checks import check_distribution, check_modifier, competence, default_difficulty

MAX_HIDING_FACTORS = 50
"""Most that range, concealment, cover and terrain can lower a stealth Difficulty by (bounded input)."""


def deliberate_stealth_difficulty(
    adversary_recon: int | None,
    adversary_modifier: int,
    /,
    *,
    adversary_conditions: int = 0,
    hiding_factors: int = 0,
) -> int:
    """Difficulty of a Deliberate Stealth roll: 8 + the adversary's Recon and ChM + their conditions,
    lowered by range, concealment, cover, terrain and the like.

    An adversary without Recon counts -3 (the unskilled penalty). The result may
    fall below 2: the stealth then cannot fail. Actions § Deliberate Stealth > Roll, > Modifiers.

    Raises:
        ValueError: for out-of-range values.
    """
    check_modifier(adversary_conditions, "The adversary's conditions")
    if not 0 <= hiding_factors <= MAX_HIDING_FACTORS:
        raise ValueError(f"The hiding factors must be between 0 and {MAX_HIDING_FACTORS}.")
    return (
        default_difficulty()
        + competence(adversary_modifier, adversary_recon)
        + adversary_conditions
        - hiding_factors
    )


def scan_difficulty(adversary_stealth: int | None, adversary_modifier: int, /, *, conditions: int = 0) -> int:
    """Difficulty of a Scan/Search (Recon) roll: 8 + the adversary's Stealth and ChM + conditions.

    Conditions that help the hider (range, concealment, cover, terrain,
    distractions) raise it. An adversary without Stealth counts -3.
    Actions § Scan/Search > Roll, > Modifiers, > Distractions.

    Raises:
        ValueError: for out-of-range values.
    """
    check_modifier(conditions, "The conditions")
    return default_difficulty() + competence(adversary_modifier, adversary_stealth) + conditions


class Hiding(StrEnum):
    """How the hider hides. Actions § List of Minor Actions (Minor Stealth), § Deliberate Stealth."""

    MINOR = "minor"
    DELIBERATE = "deliberate"


class Watching(StrEnum):
    """How the other side looks: not at all (careless, busy, a glance), a Quick Scan, or a Scan/Search.

    Actions § Quick Scan, § Scan/Search; § Examples of Free Actions (Quick Glance).
    """

    NONE = "none"
    QUICK_SCAN = "quick_scan"
    SEARCH = "search"


class Detection(StrEnum):
    """What happens when a way of hiding meets a way of looking: hidden, seen, or a roll decides."""

    HIDDEN = "hidden"
    SEEN = "seen"
    ROLL = "roll"


class StealthRollReading(StrEnum):
    """When Deliberate Stealth is rolled (ruling ``stealth-detection``).

    ``AGAINST_SEARCH`` (default): only against a Scan/Search; anything less is beaten without a roll.
    ``ALWAYS``: the list's "roll against the adversary's Recon" taken as a roll every time.
    """

    AGAINST_SEARCH = "against_search"
    ALWAYS = "always"


def detection(
    hiding: Hiding | str,
    watching: Watching | str,
    /,
    *,
    reading: StealthRollReading | str = StealthRollReading.AGAINST_SEARCH,
) -> Detection:
    """Whether a hider in line of sight is seen, stays hidden, or rolls.

    Minor Stealth escapes anyone not scanning; a Quick Scan or a Scan/Search finds it. Deliberate Stealth
    beats a Quick Scan (and less) and is rolled against a Scan/Search. Actions § Quick Scan > Stealth
    Detection, § Minor Stealth > Effect, § Deliberate Stealth, § Scan/Search > Stealth Detection.
    """
    how = choice(Hiding, hiding, "The way of hiding")
    looking = choice(Watching, watching, "The way of looking")
    rolled = choice(StealthRollReading, reading, "The stealth roll reading")
    if how is Hiding.MINOR:
        return Detection.HIDDEN if looking is Watching.NONE else Detection.SEEN
    if looking is Watching.SEARCH or rolled is StealthRollReading.ALWAYS:
        return Detection.ROLL
    return Detection.HIDDEN


def roll_chance(modifier: int, difficulty: int, /, advantage: int = 0, disadvantage: int = 0) -> Fraction:
    """Exact chance that 2d6 + ``modifier`` reaches a stealth or search difficulty.

    Unlike an ordinary check the difficulty may fall below 2 (the roll cannot fail) or rise past 50 (it
    cannot succeed). Core Mechanics § Dice Roll.

    Raises:
        ValueError: for a modifier out of range or too many advantage rolls.
    """
    check_modifier(modifier)
    dist = check_distribution(advantage, disadvantage)
    return sum((p for total, p in dist.items() if total + modifier >= difficulty), Fraction(0))
