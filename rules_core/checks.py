"""The 2d6 check: modifiers, advantage, Effect, degrees and the costly success.

Rules: Core Mechanics (docs/rules/checks.md). Rulings: notes/rulings-core-actions.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from itertools import product
from types import MappingProxyType

from rules_core import limits
from rules_core._choices import choice
from rules_core.tables import int_constant

MAX_ADVANTAGE = 20
"""Advantage or disadvantage counts beyond this are rejected (bounded input)."""
MAX_MODIFIER = limits.MAX_MODIFIER
"""Modifiers (and Effects) beyond plus or minus this are rejected (bounded input)."""
MIN_DIFFICULTY = 2
"""Lowest difficulty accepted (bounded input)."""
MAX_DIFFICULTY = 50
"""Highest difficulty accepted (bounded input)."""
MAX_SKILL = limits.MAX_SKILL
"""Skill levels beyond this are rejected (bounded input)."""


def _c(key: str) -> int:
    return int_constant("check_constants", key)


def check_modifier(modifier: int, /, label: str = "A modifier") -> int:
    """Return ``modifier`` unchanged if it lies within plus or minus :data:`MAX_MODIFIER`.

    Raises:
        ValueError: if it is out of range.
    """
    if not -MAX_MODIFIER <= modifier <= MAX_MODIFIER:
        raise ValueError(f"{label} must be between -{MAX_MODIFIER} and {MAX_MODIFIER}.")
    return modifier


def within_check_range(modifier: int, /) -> int:
    """A modifier the rules derive (a wound penalty grows with damage, without bound) brought within
    plus or minus :data:`MAX_MODIFIER`, so a chance can be computed for it.

    Exact for every chance of a check: the kept dice total 2 to 12 against a difficulty of
    :data:`MIN_DIFFICULTY` to :data:`MAX_DIFFICULTY`, so at plus or minus :data:`MAX_MODIFIER` every
    check is already certain to succeed or to fail, and stays so beyond.
    """
    return max(-MAX_MODIFIER, min(MAX_MODIFIER, modifier))


def check_difficulty(difficulty: int, /) -> int:
    """Return ``difficulty`` unchanged if it lies between :data:`MIN_DIFFICULTY` and :data:`MAX_DIFFICULTY`.

    Raises:
        ValueError: if it is out of range.
    """
    if not MIN_DIFFICULTY <= difficulty <= MAX_DIFFICULTY:
        raise ValueError(f"The difficulty must be between {MIN_DIFFICULTY} and {MAX_DIFFICULTY}.")
    return difficulty


def _check_skill(skill: int, label: str = "A skill level") -> None:
    if not 0 <= skill <= MAX_SKILL:
        raise ValueError(f"{label} must be between 0 and {MAX_SKILL}.")


def characteristic_modifier(characteristic: int, /) -> int:
    """Characteristic modifier (ChM): the characteristic divided by 3, rounded down, minus 2.

    Core Mechanics § Characteristic Modifier (ChM).

    Raises:
        ValueError: if the characteristic is negative.
    """
    if characteristic < 0:
        raise ValueError("A characteristic cannot be negative.")
    return characteristic // _c("characteristic_divisor") + _c("characteristic_offset")


@dataclass(frozen=True)
class ChmWorking:
    """The characteristic modifier worked out: ``characteristic // divisor + offset = modifier``."""

    characteristic: int
    divisor: int
    quotient: int
    """The characteristic divided by ``divisor``, rounded down."""
    offset: int
    modifier: int


def characteristic_modifier_working(characteristic: int, /) -> ChmWorking:
    """The steps of :func:`characteristic_modifier` with the rule's own figures (divide by 3, round down,
    subtract 2), for a page or a calculator to show: Dex 10 is 10 // 3 = 3, 3 - 2 = +1.

    Core Mechanics § Characteristic Modifier (ChM).

    Raises:
        ValueError: if the characteristic is negative.
    """
    modifier = characteristic_modifier(characteristic)
    divisor, offset = _c("characteristic_divisor"), _c("characteristic_offset")
    return ChmWorking(characteristic, divisor, characteristic // divisor, offset, modifier)


def unskilled_penalty() -> int:
    """The modifier of a character rolling a skill they do not have: -3.

    Core Mechanics § Skill Modifier (Skill) > Unskilled Penalty.
    """
    return _c("unskilled_penalty")


def competence(characteristic_modifier: int, skill: int | None, /) -> int:
    """Competence (Cmp): the characteristic modifier plus the skill, or plus -3 when unskilled.

    ``skill=None`` means the character does not have the skill at all (skill 0
    is a trained level). Core Mechanics § Competence (Cmp), § Unskilled Penalty.

    Raises:
        ValueError: if a value is out of range.
    """
    check_modifier(characteristic_modifier, "The characteristic modifier")
    if skill is None:
        return characteristic_modifier + unskilled_penalty()
    _check_skill(skill)
    return characteristic_modifier + skill


@dataclass(frozen=True)
class Modifier:
    """One modifier to a roll, with its kind (e.g. "sight", "range") and an optional label."""

    kind: str
    value: int
    label: str = ""


@dataclass(frozen=True)
class ModifierTotal:
    """The total of the counted modifiers, those counted (one per kind) and those dropped."""

    total: int
    counted: tuple[Modifier, ...]
    dropped: tuple[Modifier, ...]


_MAX_MODIFIERS = 100


def combine_modifiers(modifiers: Iterable[Modifier], /) -> ModifierTotal:
    """Add modifiers, counting only the most favourable (highest) one of each kind.

    Modifiers of the same kind do not stack: two scopes give the better scope's
    bonus only. Kinds are compared as written (case-insensitive, trimmed); on a
    tie the first listed counts. Core Mechanics § Modifiers to Rolls > Important Rules.

    Raises:
        ValueError: for an empty kind, an out-of-range value or more than 100 modifiers.
    """
    items = tuple(modifiers)
    if len(items) > _MAX_MODIFIERS:
        raise ValueError(f"At most {_MAX_MODIFIERS} modifiers can be combined.")
    best: dict[str, int] = {}
    for index, item in enumerate(items):
        key = item.kind.strip().casefold()
        if not key:
            raise ValueError("Every modifier needs a kind.")
        check_modifier(item.value)
        if key not in best or item.value > items[best[key]].value:
            best[key] = index
    kept = set(best.values())
    counted = tuple(items[i] for i in sorted(kept))
    dropped = tuple(m for i, m in enumerate(items) if i not in kept)
    return ModifierTotal(sum(m.value for m in counted), counted, dropped)


_MODIFIER_ENTRY = re.compile(r"^(?P<kind>[^\d+\-\u2212]*?)\s*(?P<value>[+\-\u2212]?\s*\d{1,3})$")


def parse_modifiers(text: str, /) -> tuple[Modifier, ...]:
    """Modifiers written as ``kind value`` pairs separated by commas: ``scope +2, scope +1, light -1``.

    The kind is the words before the number (the same words make the same kind, see
    :func:`combine_modifiers`); a true minus (U+2212) reads as a minus. Core Mechanics § Modifiers to Rolls.

    Raises:
        ValueError: for an entry without a kind or a whole number, or more than 100 entries.
    """
    entries = [part.strip() for part in text.split(",")]
    if len(entries) > _MAX_MODIFIERS:
        raise ValueError(f"At most {_MAX_MODIFIERS} modifiers can be combined.")
    found = []
    for entry in entries:
        if not entry:
            continue
        match = _MODIFIER_ENTRY.match(entry)
        if match is None or not match["kind"].strip():
            raise ValueError(f"write each as a kind and a number, like scope +2 (not {entry[:20]!r}).")
        value = int(match["value"].replace("\u2212", "-").replace(" ", ""))
        found.append(Modifier(match["kind"].strip(), check_modifier(value), match["kind"].strip()))
    return tuple(found)


def default_difficulty() -> int:
    """The difficulty of a check when the referee sets no other: 8. Core Mechanics § Difficulty."""
    return _c("default_difficulty")


def combined_difficulty(difficulty: int, missing_skills: int, /) -> int:
    """Difficulty of a task needing several skills: +1 for each further skill the character lacks.

    Core Mechanics § Combined Difficulties (Athletic Attack: no Athletics, 8 becomes 9).

    Raises:
        ValueError: if the difficulty is out of range or the count is negative or above 10.
    """
    check_difficulty(difficulty)
    if not 0 <= missing_skills <= 10:
        raise ValueError("The number of missing skills must be between 0 and 10.")
    return check_difficulty(difficulty + missing_skills * _c("combined_skill_step"))


def net_advantage(advantage: int, disadvantage: int, /) -> int:
    """Advantage and disadvantage cancel one for one; positive is a net advantage.

    Core Mechanics § Advantage and Disadvantage.

    Raises:
        ValueError: if a count is negative or above :data:`MAX_ADVANTAGE`.
    """
    for label, count in (("Advantage", advantage), ("Disadvantage", disadvantage)):
        if count < 0:
            raise ValueError(f"{label} cannot be negative.")
        if count > MAX_ADVANTAGE:
            raise ValueError(f"{label} is at most {MAX_ADVANTAGE}.")
    return advantage - disadvantage


@cache
def _distribution(net: int) -> Mapping[int, Fraction]:
    sides, kept = _c("sides"), _c("dice")
    rolled = kept if net == 0 else _c("advantage_dice")
    counts: dict[int, int] = {}
    for faces in product(range(1, sides + 1), repeat=rolled):
        ordered = sorted(faces, reverse=net > 0)
        total = sum(ordered[:kept])
        counts[total] = counts.get(total, 0) + 1
    whole = sides**rolled
    return MappingProxyType({t: Fraction(n, whole) for t, n in sorted(counts.items())})


def check_distribution(advantage: int = 0, disadvantage: int = 0) -> Mapping[int, Fraction]:
    """Exact distribution of the two kept dice of a check.

    A net advantage rolls 3d6 and keeps the two highest, a net disadvantage
    the two lowest; otherwise 2d6. Core Mechanics § Advantage and Disadvantage.
    """
    net = net_advantage(advantage, disadvantage)
    return _distribution((net > 0) - (net < 0))


def success_chance(modifier: int, difficulty: int, advantage: int = 0, disadvantage: int = 0) -> Fraction:
    """Exact chance that dice + modifier reach the difficulty (a success).

    Core Mechanics § Dice Roll: a roll equal to or greater than the difficulty succeeds.

    Raises:
        ValueError: if the modifier, difficulty or advantage counts are out of range.
    """
    check_modifier(modifier)
    check_difficulty(difficulty)
    dist = check_distribution(advantage, disadvantage)
    return sum((p for total, p in dist.items() if total + modifier >= difficulty), Fraction(0))


def effect(roll: int, difficulty: int, /) -> int:
    """Effect: the dice roll (with modifiers) minus the difficulty.

    Core Mechanics § Effect.
    """
    return roll - difficulty


def is_success(roll: int, difficulty: int, /) -> bool:
    """A dice roll (with modifiers) equal to or greater than the difficulty succeeds.

    Core Mechanics § Dice Roll.
    """
    return roll >= difficulty


def success_degree(roll: int, difficulty: int, /) -> int:
    """Degree of the success effect: roll minus difficulty on a success, else 0.

    Core Mechanics § Success Effect.
    """
    return max(roll - difficulty, 0)


def fail_degree(roll: int, difficulty: int, /) -> int:
    """Degree of the fail effect: difficulty minus roll on a failure, else 0.

    Difficulty 8 and a roll of 5 give a degree of 3 (Core Mechanics § Fail
    Effect, example; Outcomes § Fail Effect). The chapter's sentence "difficulty
    minus the Effect" is read as "difficulty minus the roll": see the rulings.
    """
    return max(difficulty - roll, 0)


def fail_effect_degree(fail_effect: int, /) -> int:
    """The degree of a fail effect, whichever way it is written.

    The chapters write a fail effect both signed (``-3``) and as a degree
    (``3``); both mean a degree of 3 (Core Mechanics § Fail Effect; ruling
    "fail-effect-sign"). The functions that use the degree bound it.
    """
    return abs(fail_effect)


@dataclass(frozen=True)
class CheckOutcome:
    """A resolved check: Effect (signed), success, and the degree of success or failure."""

    roll: int
    difficulty: int
    effect: int
    success: bool
    success_degree: int
    fail_degree: int


def resolve_check(roll: int, difficulty: int, /) -> CheckOutcome:
    """Resolve a dice roll (dice plus modifiers) against a difficulty.

    Core Mechanics § Dice Roll, § Effect, § Fail Effect, § Success Effect.

    Raises:
        ValueError: if the difficulty or the roll is out of range.
    """
    check_difficulty(difficulty)
    if not -MAX_MODIFIER <= roll <= MAX_DIFFICULTY + MAX_MODIFIER:
        raise ValueError(f"The roll must be between -{MAX_MODIFIER} and {MAX_DIFFICULTY + MAX_MODIFIER}.")
    return CheckOutcome(
        roll=roll,
        difficulty=difficulty,
        effect=effect(roll, difficulty),
        success=is_success(roll, difficulty),
        success_degree=success_degree(roll, difficulty),
        fail_degree=fail_degree(roll, difficulty),
    )


class CostlySuccessReading(StrEnum):
    """How to read "double the Effect of Failure and add 3" (ruling ``costly-success-sign``).

    ``DEGREE`` (default): Double the degree and add 3: an Effect of -2 becomes -7, as the source's example
        says.
    ``SIGNED``: Double the signed Effect and add 3: -2 becomes -1 (the sentence taken literally).
    """

    DEGREE = "degree"
    SIGNED = "signed"


@dataclass(frozen=True)
class CostlySuccess:
    """A failure turned into a success at a price: success effect 0 plus a (larger) fail effect."""

    success_effect: int
    fail_effect: int
    fail_degree: int


def costly_success(
    effect: int, /, reading: CostlySuccessReading | str = CostlySuccessReading.DEGREE
) -> CostlySuccess:
    """Costly success: the failure becomes a success effect of 0, and the fail effect is doubled plus 3.

    An Effect of -2 gives a fail effect of -7 (-2 x 2 + 3 in the source's
    notation). Core Mechanics § Costly Success; Outcomes § Costly Success.

    Raises:
        ValueError: if the Effect is not a failure (0 or more) or is out of range.
    """
    how = choice(CostlySuccessReading, reading, "The costly success reading")
    if effect >= 0:
        raise ValueError("A costly success needs a failed roll (an Effect below 0).")
    check_modifier(effect, "The Effect")
    multiplier, addend = _c("costly_success_multiplier"), _c("costly_success_addend")
    if how is CostlySuccessReading.DEGREE:
        degree = -effect * multiplier + addend
    else:
        degree = max(-(effect * multiplier + addend), 0)
    return CostlySuccess(_c("costly_success_effect"), -degree, degree)
