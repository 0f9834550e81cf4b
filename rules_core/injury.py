"""Hit points, injury thresholds, wound penalties, bleeding, massive damage and dying.

Rules: Outcomes § Hit Points (HP), § Character HP Thresholds, § Injury Conditions,
§ Massive Damage. An End roll is 2d6 + End's characteristic modifier + the wound
penalty against the difficulty (see ``notes/rulings-outcomes.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from math import floor

from rules_core import checks, limits
from rules_core._choices import choice
from rules_core.tables import constant, table

MAX_HIT_POINTS = limits.MAX_HIT_POINTS
MAX_DAMAGE = limits.MAX_DAMAGE
MAX_SURVIVAL_ROUNDS = 1000
"""Dying rounds beyond this (100 minutes) are rejected (bounded work)."""


class ThresholdReading(StrEnum):
    """Which reading of the seriously/critically wounded thresholds to use (ruling ``injury-thresholds``).

    ``FRACTIONS_OF_HP`` (default): 1/3 and 2/3 of HP rounded down, as the injury
    text, bleeding, care levels and targeted damage say. ``BEST_PHYSICAL``: the
    threshold table's column, at least the best physical characteristic and
    at least twice it.
    """

    FRACTIONS_OF_HP = "fractions_of_hp"
    BEST_PHYSICAL = "best_physical"


class InjuryCondition(StrEnum):
    """Injury conditions in increasing severity. Outcomes § Injury Conditions."""

    UNHURT = "unhurt"
    WOUNDED = "wounded"
    SERIOUSLY_WOUNDED = "seriously_wounded"
    CRITICALLY_WOUNDED = "critically_wounded"
    DYING = "dying"

    @property
    def severity(self) -> int:
        """0 for unhurt up to 4 for dying."""
        return list(InjuryCondition).index(self)


@dataclass(frozen=True)
class InjuryThresholds:
    """The least damage that makes each condition, for one character.

    ``dying`` is the least damage above HP (HP + 1).
    """

    hit_points: int
    wounded: int
    seriously_wounded: int
    critically_wounded: int
    dying: int

    def least_damage(self, condition: InjuryCondition | str, /) -> int:
        """The least damage that gives ``condition`` or worse (0 for unhurt)."""
        condition = choice(InjuryCondition, condition, "The injury condition")
        if condition is InjuryCondition.UNHURT:
            return 0
        value: int = getattr(self, condition.value)
        return value

    def condition(self, damage: int, /) -> InjuryCondition:
        """The injury condition that ``damage`` gives against these thresholds."""
        for condition in reversed(InjuryCondition):
            if damage >= self.least_damage(condition):
                return condition
        raise ValueError("Damage cannot be negative.")


@dataclass(frozen=True)
class Movement:
    """How an injury limits movement: share of normal movement and whether a dash is allowed."""

    factor: Fraction
    can_dash: bool


def _check_hp(hp: int) -> None:
    if not 1 <= hp <= MAX_HIT_POINTS:
        raise ValueError(f"HP must be between 1 and {MAX_HIT_POINTS}.")


def _check_damage(damage: int) -> None:
    if not 0 <= damage <= MAX_DAMAGE:
        raise ValueError(f"Damage must be between 0 and {MAX_DAMAGE}.")


def hit_points(strength: int, dexterity: int, endurance: int, /) -> int:
    """A character's HP: Str + Dex + End. Outcomes § Hit Points (HP).

    Raises:
        ValueError: if a characteristic is negative or the HP would be 0.
    """
    for label, value in (("Strength", strength), ("Dexterity", dexterity), ("Endurance", endurance)):
        if value < 0:
            raise ValueError(f"{label} cannot be negative.")
    total = strength + dexterity + endurance
    _check_hp(total)
    return total


def best_physical(strength: int, dexterity: int, endurance: int, /) -> int:
    """The best physical characteristic, used by the injury table's characteristic reading.

    Outcomes § Character HP Thresholds ("≥ best physical characteristic"; see the
    rulings on the injury thresholds).

    Raises:
        ValueError: if a characteristic is negative.
    """
    hit_points(strength, dexterity, endurance)
    return max(strength, dexterity, endurance)


def _row(condition: str) -> dict[str, object]:
    return dict(table("injury_thresholds").find(condition=condition))


def injury_thresholds(
    hp: int,
    /,
    *,
    reading: ThresholdReading | str = ThresholdReading.FRACTIONS_OF_HP,
    best_physical: int | None = None,
) -> InjuryThresholds:
    """The least damage for each injury condition.

    Seriously wounded: at least 1/3 of HP rounded down; critically wounded: at
    least 2/3 of HP rounded down; dying: more than HP (Outcomes § Injury
    Conditions). A threshold below 1 counts as 1 (no damage is no injury).
    With ``reading=BEST_PHYSICAL`` the first two are the best physical
    characteristic and twice it (Outcomes § Character HP Thresholds table).

    Raises:
        ValueError: for HP out of range, or BEST_PHYSICAL without ``best_physical``.
    """
    _check_hp(hp)
    how = choice(ThresholdReading, reading, "The threshold reading")
    levels: dict[str, int] = {}
    for name in ("seriously_wounded", "critically_wounded"):
        row = _row(name)
        if how is ThresholdReading.FRACTIONS_OF_HP:
            fraction = row["hp_fraction"]
            assert isinstance(fraction, Fraction)
            levels[name] = max(1, floor(hp * fraction))
        else:
            if best_physical is None or best_physical < 0:
                raise ValueError("The table reading needs the best physical characteristic (0 or more).")
            multiple = row["best_physical_multiple"]
            assert isinstance(multiple, int)
            levels[name] = max(1, best_physical * multiple)
    dying = _row("dying")["hp_fraction"]
    assert isinstance(dying, Fraction)
    return InjuryThresholds(
        hit_points=hp,
        wounded=1,
        seriously_wounded=levels["seriously_wounded"],
        critically_wounded=levels["critically_wounded"],
        dying=floor(hp * dying) + 1,
    )


def injury_condition(
    damage: int,
    hp: int,
    /,
    *,
    reading: ThresholdReading | str = ThresholdReading.FRACTIONS_OF_HP,
    best_physical: int | None = None,
) -> InjuryCondition:
    """The injury condition a total damage gives. Outcomes § Injury Conditions."""
    _check_damage(damage)
    return injury_thresholds(hp, reading=reading, best_physical=best_physical).condition(damage)


def wound_penalty(damage: int, /) -> int:
    """Wound penalty: -1 to all mental and physical rolls for every 3 damage.

    Outcomes § Character HP Thresholds.
    """
    _check_damage(damage)
    step: int = constant("injury", "wound_penalty_step")
    per_step: int = constant("injury", "wound_penalty_per_step")
    return (damage // step) * per_step


def end_roll_modifier(endurance: int, damage: int, /) -> int:
    """Modifier of an End roll: End's characteristic modifier plus the wound penalty.

    Core Mechanics § Characteristic Modifier (ChM); Outcomes § Character HP Thresholds.
    """
    return checks.characteristic_modifier(endurance) + wound_penalty(damage)


def end_roll_chance(endurance: int, damage: int, difficulty: int, /) -> Fraction:
    """Exact chance that an End roll, wound penalties applied, reaches ``difficulty``.

    The wound penalty grows with damage without bound; past the checks' bound on a modifier every
    roll is already certain to fail, so the modifier is brought within it (exactly). Core Mechanics
    § Dice Roll; Outcomes § Character HP Thresholds.
    """
    return checks.success_chance(checks.within_check_range(end_roll_modifier(endurance, damage)), difficulty)


def movement(condition: InjuryCondition | str, /) -> Movement:
    """Movement allowed by an injury condition.

    Seriously wounded: 3/4 of normal movement and no dash (Outcomes § Seriously
    Wounded). Critically wounded and dying characters are out or immobile
    (Outcomes § Critically Wounded, § Dying): no movement.
    """
    condition = choice(InjuryCondition, condition, "The injury condition")
    if condition.severity >= InjuryCondition.CRITICALLY_WOUNDED.severity:
        return Movement(Fraction(0), False)
    if condition is InjuryCondition.SERIOUSLY_WOUNDED:
        return Movement(constant("injury", "seriously_wounded_movement"), False)
    return Movement(Fraction(1), True)


def bleeds_from_roll(
    roll_damage: int,
    hp: int,
    /,
    *,
    reading: ThresholdReading | str = ThresholdReading.FRACTIONS_OF_HP,
    best_physical: int | None = None,
) -> bool:
    """Bleeding starts when one damage roll reaches the seriously wounded threshold.

    Outcomes § Bleeding (at least 1/3 of HP rounded down, from a single roll).
    """
    _check_damage(roll_damage)
    limits = injury_thresholds(hp, reading=reading, best_physical=best_physical)
    return roll_damage >= limits.seriously_wounded


def bleeding_damage_after(minutes: int, /) -> int:
    """Damage from bleeding after ``minutes`` whole minutes: 1 a minute from the minute after.

    Outcomes § Bleeding.
    """
    if minutes < 0:
        raise ValueError("Minutes cannot be negative.")
    delay: int = constant("injury", "bleeding_delay_minutes")
    per_minute: int = constant("injury", "bleeding_damage_per_minute")
    return max(0, minutes - delay + 1) * per_minute


def minutes_until_dying(damage: int, hp: int, /) -> int:
    """Whole minutes of untreated bleeding until the damage exceeds HP (0 if already dying).

    Outcomes § Bleeding, § Dying.
    """
    _check_damage(damage)
    _check_hp(hp)
    needed = hp + 1 - damage
    if needed <= 0:
        return 0
    delay: int = constant("injury", "bleeding_delay_minutes")
    per_minute: int = constant("injury", "bleeding_damage_per_minute")
    return delay - 1 + -(-needed // per_minute)


def is_massive_damage(attack_damage: int, hp: int, /) -> bool:
    """Massive damage: more than HP in damage from one attack. Outcomes § Massive Damage."""
    _check_damage(attack_damage)
    _check_hp(hp)
    return attack_damage > hp


def massive_damage_survival_chance(endurance: int, damage: int, /) -> Fraction:
    """Exact chance to pass the massive damage roll: End roll, difficulty 8, wound penalties apply.

    ``damage`` is the character's total damage after the attack (it sets the
    wound penalty). Outcomes § Massive Damage.
    """
    return end_roll_chance(endurance, damage, constant("injury", "massive_damage_difficulty"))


def dying_roll_chance(endurance: int, damage: int, /) -> Fraction:
    """Exact chance to survive one round while dying: End roll against 4, wound penalties apply.

    Outcomes § Dying.
    """
    return end_roll_chance(endurance, damage, constant("injury", "dying_roll_difficulty"))


def survive_dying_rounds_chance(
    endurance: int, damage: int, rounds: int, /, *, bleeding: bool = False
) -> Fraction:
    """Exact chance to pass ``rounds`` dying rolls in a row.

    Without bleeding the damage (so the penalty) stays the same and the chance
    is the one-round chance to the power ``rounds``. With ``bleeding`` the
    damage grows by 1 a minute (10 rounds), from the minute after the rolls
    begin, so later rolls carry larger wound penalties. Outcomes § Dying, § Bleeding.

    Raises:
        ValueError: for rounds outside 0..MAX_SURVIVAL_ROUNDS.
    """
    if not 0 <= rounds <= MAX_SURVIVAL_ROUNDS:
        raise ValueError(f"Rounds must be between 0 and {MAX_SURVIVAL_ROUNDS}.")
    _check_damage(damage)
    if not bleeding:
        return dying_roll_chance(endurance, damage) ** rounds
    per_minute: int = constant("injury", "rounds_per_minute")
    chance = Fraction(1)
    for index in range(rounds):
        chance *= dying_roll_chance(endurance, damage + bleeding_damage_after(index // per_minute))
        if not chance:
            break
    return chance


def stabilised_hours(endurance: int, /) -> int:
    """Hours that first aid stops a dying character's rolls: equal to their End.

    Outcomes § First Aid, § Dying.
    """
    if endurance < 0:
        raise ValueError("Endurance cannot be negative.")
    per_end: int = constant("injury", "first_aid_stabilises_hours_per_end")
    return endurance * per_end
