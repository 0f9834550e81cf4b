"""Damage rolls: how many, what armor leaves of each, and the exact totals.

Rules: Outcomes § Damage, § Weapons with Limited Rate of Attack, § Damage Rolls,
§ Armor, § Damage Scale, § Armor Scale, § Hit Point Scale. Choices between
readings of the source are options here, written up in ``notes/rulings-outcomes.md``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from rules_core import dice, limits
from rules_core._choices import choice
from rules_core.injury import InjuryCondition, ThresholdReading, injury_thresholds
from rules_core.tables import constant

MAX_ARMOR = limits.MAX_ARMOR
"""Armor (in plain points, scale applied) beyond this is rejected."""

_SCALED = re.compile(
    r"^\s*(?P<before>\d+)?\s*(?P<scale>[DHK])?(?P<unit>AR|HP)?\s*(?P<after>\d+)?\s*$", re.IGNORECASE
)


class MinimumDamageReading(StrEnum):
    """How "a hit with Effect 6+ inflicts at least 1" applies (ruling ``minimum-damage``).

    ``EACH_ROLL`` (default): every damage roll of such an attack is a hit and
    deals at least 1. ``WHOLE_ATTACK``: the attack as a whole deals at least 1
    (only the highest kept roll is raised).
    """

    EACH_ROLL = "each_roll"
    WHOLE_ATTACK = "whole_attack"


@dataclass(frozen=True)
class RollCount:
    """Damage rolls made and, for a limited rate of attack, how many of the highest are kept."""

    made: int
    kept: int


@dataclass(frozen=True)
class DamageOutcome:
    """The exact result of an attack's damage rolls against armor.

    ``per_roll`` is the distribution of one roll after armor; ``total`` the
    distribution of the kept rolls' sum. ``per_roll_text`` writes one roll
    after armor as players do (``3d3-5``).
    """

    expression: dice.DiceExpression
    rolls: RollCount
    armor: int
    minimum_applies: bool
    immune: bool
    per_roll_text: str
    per_roll: dice.Distribution
    total: dice.Distribution
    expected_total: Fraction


@dataclass(frozen=True)
class InjuryChances:
    """Exact chances that an attack's damage brings a character to each condition (or worse)."""

    wounded: Fraction
    seriously_wounded: Fraction
    critically_wounded: Fraction
    dying: Fraction
    massive_damage: Fraction
    bleeding: Fraction


def _rate(rate_of_attack: int | None) -> int | None:
    if rate_of_attack is not None and not 1 <= rate_of_attack <= dice.MAX_ROLLS:
        raise ValueError(f"Rate of attack must be between 1 and {dice.MAX_ROLLS}, or unlimited.")
    return rate_of_attack


def _count(made: int, rate_of_attack: int | None) -> RollCount:
    rate = _rate(rate_of_attack)
    return RollCount(made, made if rate is None else min(made, rate))


def rolls_from_success_effect(effect: int, /, rate_of_attack: int | None = None) -> RollCount:
    """Damage rolls from a success: 1, plus 1 per point of Success Effect.

    Beyond the rate of attack the rolls are still made but only the highest,
    as many as the rate, count (``None``: no limit). Outcomes § Damage
    (automatic rifle example), § Weapons with Limited Rate of Attack.

    Raises:
        ValueError: for a negative Effect or more than the bounded number of rolls.
    """
    if effect < 0:
        raise ValueError("A Success Effect is 0 or more.")
    made = constant("damage_rules", "rolls_on_success") + effect * constant(
        "damage_rules", "rolls_per_success_effect"
    )
    if made > dice.MAX_ROLLS:
        raise ValueError(f"At most {dice.MAX_ROLLS} damage rolls can be computed.")
    return _count(made, rate_of_attack)


def rolls_from_fail_effect(fail_effect: int, /, rate_of_attack: int | None = None) -> RollCount:
    """Damage rolls against the character from a Fail Effect (after mitigation): one per point.

    The sign is ignored (the source writes both "3" and "-3"); 0 is an ordinary
    failure with no rolls. Only the highest rolls up to the (summed) rate of
    attack of the adversaries count. Outcomes § Damage Rolls.
    """
    made = abs(fail_effect) * constant("damage_rules", "rolls_per_fail_effect")
    if made > dice.MAX_ROLLS:
        raise ValueError(f"At most {dice.MAX_ROLLS} damage rolls can be computed.")
    return _count(made, rate_of_attack)


def combined_rate_of_attack(rates: Iterable[int | None], /) -> int | None:
    """Several adversaries' rates of attack summed; ``None`` (unlimited) if any is unlimited.

    Outcomes § Damage Rolls ("up to the sum of the Rate of Attacks").
    """
    total = 0
    for rate in rates:
        if rate is None:
            return None
        if rate < 1:
            raise ValueError("Each rate of attack is at least 1.")
        total += rate
    if total == 0:
        raise ValueError("Give at least one rate of attack.")
    return min(total, dice.MAX_ROLLS)


def minimum_damage_applies(effect: int, /) -> bool:
    """A hit with Effect 6 or more (either sign) deals at least 1 damage. Outcomes § Armor."""
    least: int = constant("damage_rules", "minimum_damage_effect")
    return abs(effect) >= least


def is_scale_immune(damage_scale: str, target_scale: str, /) -> bool:
    """A target of a higher scale ignores damage of a lesser scale. Outcomes § Damage Scale."""
    return dice.scale_rank(damage_scale) < dice.scale_rank(target_scale)


def armor_after_scale(armor: int, scale: str = "", /) -> int:
    """Armor in plain points: ``DAR 2`` is 20, ``HAR 9`` is 900, ``KAR 3`` is 3000. Outcomes § Armor Scale."""
    if armor < 0:
        raise ValueError("Armor cannot be negative.")
    value = armor * dice.scale_factor(scale)
    if value > MAX_ARMOR:
        raise ValueError(f"Armor is at most {MAX_ARMOR}.")
    return value


def parse_scaled_value(text: str, /) -> int:
    """Read an armor or HP value with its scale: ``DAR 2`` = 20, ``20 DHP`` = 200, ``67 KHP`` = 67000.

    Plain numbers (``5``, ``AR 5``, ``12 HP``) are taken as they are.
    Outcomes § Armor Scale, § Hit Point Scale.
    """
    if not isinstance(text, str) or len(text) > dice.MAX_EXPRESSION_LENGTH:
        raise ValueError("Write a value like 5, DAR 2 or 20 DHP.")
    match = _SCALED.match(text)
    if match is None or (match["before"] is None) == (match["after"] is None):
        raise ValueError(f"{text.strip()!r} is not a value like 5, DAR 2 or 20 DHP.")
    if match["scale"] and not match["unit"]:
        raise ValueError("Write the scale with AR or HP, like DAR 2 or 20 DHP.")
    number = int(match["before"] or match["after"])
    value = number * dice.scale_factor((match["scale"] or "").upper())
    if value > MAX_ARMOR:
        raise ValueError(f"The value is at most {MAX_ARMOR}.")
    return value


def per_roll_text(expression: dice.DiceExpression, armor: int, /) -> str:
    """One damage roll after armor as players write it: 3d3-2 against armor 3 is ``3d3-5``.

    With a scale prefix the armor is taken off in that scale's units when it
    divides evenly (``D 3d3`` against 20 is ``D 3d3-2``); otherwise the armor is
    written after the expression. Outcomes § Example: Success Effect Damage Rolls.
    """
    if armor < 0:
        raise ValueError("Armor cannot be negative.")
    factor = expression.factor
    if armor % factor == 0 and abs(expression.modifier - armor // factor) <= dice.MAX_MODIFIER:
        return str(expression.with_modifier(expression.modifier - armor // factor))
    return f"{expression} - {armor}"


def per_roll_distribution(
    expression: dice.DiceExpression,
    armor: int = 0,
    /,
    *,
    minimum: int = 0,
    immune: bool = False,
) -> dice.Distribution:
    """Exact distribution of one damage roll after armor: the roll less armor, never below ``minimum``.

    ``minimum`` is 1 for a hit with Effect 6+ (each-roll reading), else 0. A
    scale-immune target takes nothing. Outcomes § Armor, § Damage Rolls.
    """
    if armor < 0:
        raise ValueError("Armor cannot be negative.")
    if immune:
        return dice.constant_distribution(0)
    return dice.map_values(expression.distribution(), lambda v: max(minimum, v - armor))


def total_distribution(per_roll: dice.Distribution, rolls: RollCount, /) -> dice.Distribution:
    """Exact distribution of the damage total: the ``kept`` highest of ``made`` rolls summed.

    Outcomes § Weapons with Limited Rate of Attack.
    """
    return dice.keep_highest(per_roll, rolls.made, rolls.kept)


def damage_outcome(
    damage: dice.DiceExpression | str,
    /,
    *,
    success_effect: int | None = None,
    fail_effect: int | None = None,
    rate_of_attack: int | None = None,
    armor: int = 0,
    target_scale: str = "",
    minimum_reading: MinimumDamageReading | str = MinimumDamageReading.EACH_ROLL,
) -> DamageOutcome:
    """Everything about an attack's damage: rolls made and kept, one roll after armor, the exact total.

    Give exactly one of ``success_effect`` (the attacker's) or ``fail_effect``
    (the character's, after mitigation). ``armor`` is in plain points (see
    :func:`armor_after_scale`). Outcomes § Damage, § Damage Rolls, § Armor, § Damage Scale.

    Raises:
        ValueError: for a bad expression, both or neither Effect, or bounds exceeded.
    """
    how = choice(MinimumDamageReading, minimum_reading, "The minimum damage reading")
    expression = dice.parse_dice(damage) if isinstance(damage, str) else damage
    if (success_effect is None) == (fail_effect is None):
        raise ValueError("Give either a Success Effect or a Fail Effect.")
    if success_effect is not None:
        rolls, effect = rolls_from_success_effect(success_effect, rate_of_attack), success_effect
    else:
        assert fail_effect is not None
        rolls, effect = rolls_from_fail_effect(fail_effect, rate_of_attack), fail_effect
    if not 0 <= armor <= MAX_ARMOR:
        raise ValueError(f"Armor must be between 0 and {MAX_ARMOR}.")
    immune = is_scale_immune(expression.scale, target_scale)
    applies = minimum_damage_applies(effect) and rolls.kept > 0 and not immune
    least: int = constant("damage_rules", "minimum_damage")
    each_roll = applies and how is MinimumDamageReading.EACH_ROLL
    per_roll = per_roll_distribution(expression, armor, minimum=least if each_roll else 0, immune=immune)
    total = total_distribution(per_roll, rolls)
    if applies and not each_roll:
        total = dice.map_values(total, lambda v: max(least, v))
    return DamageOutcome(
        expression=expression,
        rolls=rolls,
        armor=armor,
        minimum_applies=applies,
        immune=immune,
        per_roll_text=per_roll_text(expression, armor),
        per_roll=per_roll,
        total=total,
        expected_total=dice.mean(total),
    )


def damage_from_effect(damage: dice.DiceExpression | str, effect: int, /, **options: Any) -> DamageOutcome:
    """:func:`damage_outcome` of a signed Effect: a Success Effect when 0 or more, else a Fail Effect of its
    size (Outcomes § Damage: a success damages the target, a failure the character). ``options`` are
    :func:`damage_outcome`'s other keywords."""
    if effect >= 0:
        return damage_outcome(damage, success_effect=effect, **options)
    return damage_outcome(damage, fail_effect=-effect, **options)


def expected_damage(
    damage: dice.DiceExpression | str,
    /,
    *,
    success_effect: int,
    rate_of_attack: int | None = None,
    armor: int = 0,
    minimum_reading: MinimumDamageReading | str = MinimumDamageReading.EACH_ROLL,
) -> Fraction:
    """The exact average damage of a hit: :attr:`DamageOutcome.expected_total` without the whole distribution.

    Same rules as :func:`damage_outcome` with a Success Effect (rolls, rate of attack, armor,
    minimum damage), but only the mean is computed, so many kept rolls of wide dice stay quick.
    Outcomes § Damage, § Weapons with Limited Rate of Attack, § Armor.

    Raises:
        ValueError: for a bad expression, a negative Effect or bounds exceeded.
    """
    how = choice(MinimumDamageReading, minimum_reading, "The minimum damage reading")
    expression = dice.parse_dice(damage) if isinstance(damage, str) else damage
    rolls = rolls_from_success_effect(success_effect, rate_of_attack)
    if not 0 <= armor <= MAX_ARMOR:
        raise ValueError(f"Armor must be between 0 and {MAX_ARMOR}.")
    applies = minimum_damage_applies(success_effect) and rolls.kept > 0
    least: int = constant("damage_rules", "minimum_damage")
    each_roll = applies and how is MinimumDamageReading.EACH_ROLL
    per_roll = per_roll_distribution(expression, armor, minimum=least if each_roll else 0)
    mean = dice.expected_keep_highest(per_roll, rolls.made, rolls.kept)
    if applies and not each_roll:
        if least != 1:  # pragma: no cover - the table's minimum is 1
            return damage_outcome(
                expression,
                success_effect=success_effect,
                rate_of_attack=rate_of_attack,
                armor=armor,
                minimum_reading=how,
            ).expected_total
        # The total is 0 only when every roll is; raising it to 1 adds that chance.
        mean += per_roll.get(0, Fraction(0)) ** rolls.made
    return mean


def injury_chances(
    outcome: DamageOutcome,
    hp: int,
    /,
    *,
    current_damage: int = 0,
    reading: ThresholdReading | str = ThresholdReading.FRACTIONS_OF_HP,
    best_physical: int | None = None,
) -> InjuryChances:
    """Exact chances that the attack brings a character of ``hp`` to each injury condition or worse.

    Also the chance of massive damage (the attack alone deals more than HP,
    Outcomes § Massive Damage) and of bleeding (one kept roll reaches the
    seriously wounded threshold, Outcomes § Bleeding).
    """
    if current_damage < 0:
        raise ValueError("Current damage cannot be negative.")
    limits = injury_thresholds(hp, reading=reading, best_physical=best_physical)

    def reach(condition: InjuryCondition) -> Fraction:
        return dice.chance_at_least(outcome.total, limits.least_damage(condition) - current_damage)

    bleeding = Fraction(0)
    if outcome.rolls.kept:
        below = 1 - dice.chance_at_least(outcome.per_roll, limits.seriously_wounded)
        bleeding = 1 - below**outcome.rolls.made
    return InjuryChances(
        wounded=reach(InjuryCondition.WOUNDED),
        seriously_wounded=reach(InjuryCondition.SERIOUSLY_WOUNDED),
        critically_wounded=reach(InjuryCondition.CRITICALLY_WOUNDED),
        dying=reach(InjuryCondition.DYING),
        massive_damage=dice.chance_at_least(outcome.total, hp + 1),
        bleeding=bleeding,
    )


def past_hp_chance(outcome: DamageOutcome, hp: int, /, *, current_damage: int = 0) -> Fraction:
    """Exact chance that a vehicle's or object's damage, with what it already took, passes its HP.

    Vehicles and objects have HP, a threshold to compare damage against
    (Outcomes § Hit Points (HP) > Definition); the injury conditions, bleeding
    and dying are the character's (§ Character HP Thresholds), so they are not applied.
    """
    if current_damage < 0:
        raise ValueError("Current damage cannot be negative.")
    if hp < 1:
        raise ValueError("HP must be at least 1.")
    return dice.chance_at_least(outcome.total, hp + 1 - current_damage)


@dataclass(frozen=True)
class ProtectionDamage:
    """The attacks a cover or protection absorbed, rolled against its armor and HP."""

    outcome: DamageOutcome
    expected_left: Fraction
    past_hp: Fraction


def protection_damage(
    expression: str | dice.DiceExpression, attacks: int, /, *, armor: int = 0, hp: int
) -> ProtectionDamage:
    """Roll the attacks a cover absorbed against its armor: exact damage, HP left on average, chance past HP.

    The shield of protection 2 against a fail effect of 3 "takes two attacks of 3d6".
    Outcomes § Cover Takes Damage > Mechanic, > Example: Shield Taking Damage; § Armor.

    Raises:
        ValueError: for a bad expression, or out-of-range attacks, armor or HP.
    """
    outcome = damage_outcome(expression, fail_effect=attacks, armor=armor)
    left = sum((max(0, hp - total) * p for total, p in outcome.total.items()), Fraction(0))
    return ProtectionDamage(outcome, left, past_hp_chance(outcome, hp))


def roll_damage(outcome: DamageOutcome, rng: random.Random, /) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Roll an attack's damage with an injected generator: (every roll after armor, the kept ones).

    Kept rolls are the highest, as many as the rate of attack allows.
    """
    if not isinstance(rng, random.Random):
        raise ValueError("Rolling needs a random.Random generator.")
    if outcome.immune:
        rolls = tuple(0 for _ in range(outcome.rolls.made))
    else:
        floor = min(outcome.per_roll)
        rolls = tuple(
            max(floor, dice.roll(outcome.expression, rng) - outcome.armor) for _ in range(outcome.rolls.made)
        )
    kept = tuple(sorted(rolls, reverse=True)[: outcome.rolls.kept])
    return rolls, kept


def grappling_damage() -> dice.DiceExpression:
    """Damage of the grappling Damage manoeuvre (1d3; armor does not reduce it). Actions § Grappling."""
    return dice.parse_dice(constant("damage_rules", "grappling_damage"))


def throw_damage() -> dice.DiceExpression:
    """Damage a thrown adversary takes (2d3). Actions § Grappling (Throws)."""
    return dice.parse_dice(constant("damage_rules", "throw_damage"))


@dataclass(frozen=True)
class RolledDamage:
    """Damage rolls as rolled at the table, after armor: every roll, the kept ones, their sum, the largest.

    ``largest`` is the largest kept roll after armor, the one that may start bleeding (Outcomes § Bleeding).
    """

    after_armor: tuple[int, ...]
    kept: tuple[int, ...]
    total: int
    largest: int


def rolled_damage(outcome: DamageOutcome, rolls: Iterable[int], /) -> RolledDamage:
    """The damage of the rolls a player made for ``outcome``: armor off each roll (never below the floor
    the outcome computed), the highest kept by the rate of attack. Outcomes § Armor, § Damage Rolls,
    § Weapons with Limited Rate of Attack.

    Raises:
        ValueError: not as many rolls as the attack makes, or a roll the dice cannot give.
    """
    raw = tuple(rolls)
    made = outcome.rolls.made
    if len(raw) != made:
        raise ValueError(f"This attack makes {made} damage roll{'s' if made != 1 else ''}: enter {made}.")
    possible = outcome.expression.distribution()
    low, high = min(possible), max(possible)
    for value in raw:
        if not low <= value <= high:
            raise ValueError(f"{outcome.expression} rolls {low} to {high}, not {value}.")
    if outcome.immune:
        after = tuple(0 for _ in raw)
    else:
        floor = min(outcome.per_roll)
        after = tuple(max(floor, value - outcome.armor) for value in raw)
    kept = tuple(sorted(after, reverse=True)[: outcome.rolls.kept])
    return RolledDamage(after, kept, sum(kept), max(kept, default=0))
