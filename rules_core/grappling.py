"""Grappling: the difficulty, the manoeuvres and what the Effect buys.

Rules: Actions § Grappling (docs/rules/actions.md). Rulings: notes/rulings-core-actions.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from itertools import islice
from math import ceil
from typing import Any

from rules_core import dice, limits
from rules_core._choices import choice
from rules_core.checks import characteristic_modifier, check_modifier, default_difficulty
from rules_core.tables import constant, table

MAX_GRAPPLE_CHOICES = 20
"""Spending the Effect on more effects than this at once is rejected (bounded input)."""


class GrappleEffect(StrEnum):
    """What the grappler can buy with the Effect (Actions § Grappling > Step 3)."""

    TARGET_LIMB = "target_limb"
    TARGET_EXTREMITY = "target_extremity"
    DAMAGE = "damage"
    BIND = "bind"
    THROW = "throw"
    SWEEP = "sweep"


class GrappleWeapon(StrEnum):
    """A weapon one party holds in the grapple (Actions § Grappling > Weapons Factor)."""

    NONE = "none"
    CLOSE_QUARTERS = "close_quarters_weapon"
    PISTOL = "pistol"


class PistolReading(StrEnum):
    """Whom a pistol hinders in a grapple (ruling ``grapple-pistol``).

    ``EDGE`` (default): Like a knife but by 2: it favours its holder.
    ``HINDRANCE``: It raises its holder's own difficulty by 2.
    """

    EDGE = "edge"
    HINDRANCE = "hindrance"


class UntargetedArmorReading(StrEnum):
    """Whether armor counts against untargeted Damage (ruling ``grapple-untargeted-damage``).

    Untargeted: the Damage effect bought with no limb or extremity named.

    ``COUNTS`` (default): A body throw, like the Throw: armor comes off the 1d3.
    ``IGNORED``: The Damage row's "armor does not affect this damage" for every target, the body included.
    """

    COUNTS = "counts"
    IGNORED = "ignored"


class SweepReading(StrEnum):
    """What a sweep adds to the difficulty when declared (ruling ``grapple-special``).

    ``TWO`` (default): +2, as Step 2 and the table's difficulty column say.
    ``HALF_DEX``: Half the target's Dex, rounded up, like its Effect cost ("Effect/Diff equal to 1/2 their
        Dex").
    """

    TWO = "two"
    HALF_DEX = "half_dex"


def _row(effect: GrappleEffect) -> dict[str, Any]:
    return dict(table("grappling").find(effect=effect.value))


_STAT_LIMITS = {"HP": limits.MAX_HIT_POINTS, "Dex": limits.MAX_CHARACTERISTIC}
"""The largest target HP and Dex a cost is worked out for (the project's limits)."""


def _check_stat(value: int | None, label: str) -> int:
    if value is None:
        raise ValueError(f"This effect needs the target's {label}.")
    if not 0 <= value <= _STAT_LIMITS[label]:
        raise ValueError(f"The target's {label} must be between 0 and {_STAT_LIMITS[label]}.")
    return value


def grapple_effect_cost(
    effect: GrappleEffect | str, /, *, hp: int | None = None, dex: int | None = None
) -> int:
    """Effect a grappling effect costs: limb 2, extremity 3, damage 2, bind 2,
    throw 1/6 of the target's HP and sweep 1/2 of its Dex (both rounded up).

    Actions § Grappling > Step 3 - Grappling Outcome.

    Raises:
        ValueError: for an unknown effect, or a throw or sweep without the target's HP or Dex.
    """
    row = _row(choice(GrappleEffect, effect, "The grappling effect"))
    if row["effect_cost"] is not None:
        cost: int = row["effect_cost"]
        return cost
    stat = _check_stat(hp if row["cost_basis"] == "hp" else dex, "HP" if row["cost_basis"] == "hp" else "Dex")
    fraction: Fraction = row["cost_fraction"]
    return ceil(stat * fraction)


def manoeuvre_difficulty(
    effect: GrappleEffect | str, /, *, dex: int | None = None, sweep: SweepReading | str = SweepReading.TWO
) -> int:
    """Difficulty added by declaring a manoeuvre: limb +1, extremity +2, throw +3, sweep +2 (damage, bind +1).

    Actions § Grappling > Step 2 - Grappling Roll; Step 3 table (Difficulty column).

    Raises:
        ValueError: for an unknown effect or reading, or a half-Dex sweep without the target's Dex.
    """
    kind = choice(GrappleEffect, effect, "The grappling effect")
    if (
        kind is GrappleEffect.SWEEP
        and choice(SweepReading, sweep, "The sweep reading") is SweepReading.HALF_DEX
    ):
        return grapple_effect_cost(kind, dex=dex)
    value: int = _row(kind)["difficulty"]
    return value


def _weapon_factor(weapon: GrappleWeapon) -> int:
    if weapon is GrappleWeapon.NONE:
        return 0
    value: int = constant("grappling_modifiers", weapon.value)
    return value


def grapple_difficulty(
    adversary_modifier: int,
    /,
    *,
    adversary_unskilled: bool = False,
    own_weapon: GrappleWeapon | str = GrappleWeapon.NONE,
    adversary_weapon: GrappleWeapon | str = GrappleWeapon.NONE,
    manoeuvre: GrappleEffect | str | None = None,
    dex: int | None = None,
    pistol: PistolReading | str = PistolReading.EDGE,
    sweep: SweepReading | str = SweepReading.TWO,
) -> int:
    """Difficulty of a grappling roll: 8 plus the adversary's Str or Dex DM, -3 if the adversary is
    unskilled, the weapons factor, and the declared manoeuvre.

    A weapon held by one party over the other shifts the difficulty by its factor
    (knife 1, pistol 2) in its holder's favour. An unskilled grappler also takes
    the -3 unskilled penalty to the roll (see :func:`rules_core.checks.competence`).
    Actions § Grappling > Step 1, Step 2.

    Raises:
        ValueError: for an out-of-range modifier or an unknown weapon, manoeuvre or reading.
    """
    check_modifier(adversary_modifier, "The adversary's DM")
    mine = choice(GrappleWeapon, own_weapon, "The weapon")
    theirs = choice(GrappleWeapon, adversary_weapon, "The weapon")
    hindrance = choice(PistolReading, pistol, "The pistol reading") is PistolReading.HINDRANCE
    difficulty = default_difficulty() + adversary_modifier
    if adversary_unskilled:
        difficulty += constant("grappling_modifiers", "unskilled_adversary")
    for weapon, sign in ((theirs, 1), (mine, -1)):
        if hindrance and weapon is GrappleWeapon.PISTOL:
            difficulty += _weapon_factor(weapon) if sign < 0 else 0
        else:
            difficulty += sign * _weapon_factor(weapon)
    if manoeuvre is not None:
        difficulty += manoeuvre_difficulty(manoeuvre, dex=dex, sweep=sweep)
    return difficulty


@dataclass(frozen=True)
class GrappleSpend:
    """Grappling effects bought with an Effect: their costs, the total and what is left."""

    effect: int
    choices: tuple[GrappleEffect, ...]
    costs: tuple[int, ...]
    total: int
    remaining: int


def spend_grapple_effect(
    effect: int, choices: Iterable[GrappleEffect | str], /, *, hp: int | None = None, dex: int | None = None
) -> GrappleSpend:
    """Buy grappling effects with the Effect of a grappling roll; their costs must not exceed it.

    Actions § Grappling > Step 3 - Grappling Outcome.

    Raises:
        ValueError: for an Effect out of range, unknown effects, more than 20 choices,
            or choices costing more than the Effect.
    """
    if not 0 <= effect <= limits.MAX_MODIFIER:
        raise ValueError(f"The Effect to spend must be between 0 and {limits.MAX_MODIFIER}.")
    listed = tuple(islice(choices, MAX_GRAPPLE_CHOICES + 1))
    if len(listed) > MAX_GRAPPLE_CHOICES:
        raise ValueError(f"Choose at most {MAX_GRAPPLE_CHOICES} grappling effects at once.")
    kinds = tuple(choice(GrappleEffect, c, "The grappling effect") for c in listed)
    costs = tuple(grapple_effect_cost(k, hp=hp, dex=dex) for k in kinds)
    total = sum(costs)
    if total > effect:
        raise ValueError(f"These grappling effects cost {total}; the Effect is only {effect}.")
    return GrappleSpend(effect, kinds, costs, total, effect - total)


def grapple_next_round(success: bool, /) -> tuple[int, int]:
    """Next round: 1 advantage after a won grapple, 1 disadvantage after a lost one (advantage, disadvantage).

    Actions § Grappling > Step 3 - Grappling Outcome.
    """
    rolls: int = constant("grappling_modifiers", "outcome_rolls")
    return (rolls, 0) if success else (0, rolls)


def adversary_modifier(strength: int, dexterity: int, /) -> int:
    """The adversary's DM that raises the grappling Difficulty: the higher of its Str and Dex DM.

    Actions § Grappling > Step 1 ("DM from Str or Dex of the Adversary"); ruling: the adversary's Str or Dex.

    Raises:
        ValueError: for a negative characteristic.
    """
    return max(characteristic_modifier(strength), characteristic_modifier(dexterity))


@dataclass(frozen=True)
class GrappleDamage:
    """Damage a grappling effect deals: its dice, the armor taken off each roll, and the exact result."""

    effect: GrappleEffect
    expression: dice.DiceExpression
    armor: int
    """The armor that counts (0 when the effect ignores it)."""
    ignores_armor: bool
    distribution: dice.Distribution


def grapple_damage(
    effect: GrappleEffect | str,
    /,
    *,
    armor: int = 0,
    targeted: bool = False,
    untargeted_armor: UntargetedArmorReading | str = UntargetedArmorReading.COUNTS,
) -> GrappleDamage:
    """The damage of the Damage effect (1d3) or a Throw (2d3), after the target's armor, never below 0.

    Twisting a targeted limb or extremity ignores armor; a throw does not (ruling: armor against
    grappling damage); Damage with no target "assumes a body Throw", so armor counts unless
    ``untargeted_armor="ignored"`` (ruling: untargeted grappling damage). Actions § Grappling > Step 3.

    Raises:
        ValueError: for an effect that deals no damage, negative armor or an unknown reading.
    """
    kind = choice(GrappleEffect, effect, "The grappling effect")
    how = choice(UntargetedArmorReading, untargeted_armor, "The untargeted armor reading")
    row = _row(kind)
    if row["damage"] is None:
        raise ValueError(f"The {kind.value.replace('_', ' ')} effect deals no damage.")
    if not 0 <= armor <= limits.MAX_ARMOR:
        raise ValueError(f"Armor must be between 0 and {limits.MAX_ARMOR}.")
    expression = dice.parse_dice(row["damage"])
    ignores: bool = row["ignores_armor"] and (targeted or how is UntargetedArmorReading.IGNORED)
    counted = 0 if ignores else armor
    distribution = dice.map_values(expression.distribution(), lambda value: max(0, value - counted))
    return GrappleDamage(kind, expression, counted, ignores, distribution)


def affordable_effects(
    effect: int, /, *, hp: int | None = None, dex: int | None = None
) -> tuple[tuple[GrappleEffect, int], ...]:
    """Each grappling effect with its cost, for those an Effect of ``effect`` can buy on its own.

    Throw and sweep need the target's HP and Dex; without them they are left out.
    Actions § Grappling > Step 3.

    Raises:
        ValueError: for an Effect out of range.
    """
    if not 0 <= effect <= limits.MAX_MODIFIER:
        raise ValueError(f"The Effect to spend must be between 0 and {limits.MAX_MODIFIER}.")
    found = []
    for kind in GrappleEffect:
        row = _row(kind)
        if row["effect_cost"] is None and (hp if row["cost_basis"] == "hp" else dex) is None:
            continue
        cost = grapple_effect_cost(kind, hp=hp, dex=dex)
        if cost <= effect:
            found.append((kind, cost))
    return tuple(found)


def cost_share(effect: GrappleEffect | str, /) -> tuple[str, Fraction] | None:
    """For a throw or a sweep, what its cost is a share of and how much: ``("hp", 1/6)``, ``("dex", 1/2)``,
    rounded up; ``None`` for an effect with a fixed cost. Actions § Grappling > Step 3.

    Raises:
        ValueError: for an unknown effect.
    """
    row = _row(choice(GrappleEffect, effect, "The grappling effect"))
    if row["effect_cost"] is not None:
        return None
    share: Fraction = row["cost_fraction"]
    return str(row["cost_basis"]), share
