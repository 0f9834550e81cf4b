"""Stealth and search difficulties.

Rules: Actions § Deliberate Stealth, § Scan/Search (docs/rules/actions.md).
Rulings: notes/rulings-core-actions.md.
"""

from __future__ import annotations

from rules_core.checks import check_modifier, competence, default_difficulty


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
    if not 0 <= hiding_factors <= 50:
        raise ValueError("The hiding factors must be between 0 and 50.")
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
