"""Dice expressions as players write them, and their exact distributions.

A damage expression is ``NdS+M`` (``3d6-2``, ``3d3``, ``d6``), optionally
preceded by a scale prefix that multiplies the whole expression: ``D`` (Deka,
x10), ``H`` (Heka, x100) or ``K`` (Kilo, x1000), as in ``H 2d6-2`` =
(2d6-2) x 100 (Outcomes § Damage Scale).

Distributions are read-only ``Mapping[int, Fraction]`` sorted by value. All
work is exact (integer weights over a common denominator) and bounded: sizes
beyond sane limits raise :class:`ValueError` instead of grinding.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import accumulate
from math import comb, gcd, lcm
from types import MappingProxyType

from rules_core.checks import net_advantage
from rules_core.tables import constant, table

Distribution = Mapping[int, Fraction]
"""An exact probability distribution: value -> probability, sorted by value."""

MAX_DICE = 50
"""Dice in one expression beyond this are rejected (bounded work)."""
MIN_SIDES = 2
MAX_SIDES = 100
MAX_MODIFIER = 1000
MAX_EXPRESSION_LENGTH = 40
MAX_ROLLS = 50
"""Repeated rolls (damage rolls) beyond this are rejected (bounded work)."""
_MAX_WORK = 3_000_000
"""Rough budget of multiply-adds for one exact computation (well under a tenth of a second)."""
_MAX_PACKED_BITS = 1_000_000
"""Size budget of the packed integer that :func:`repeat_sum` raises to a power."""
_TOO_LARGE = "Too large to compute exactly: use fewer rolls or smaller dice."

_EXPRESSION = re.compile(
    r"^\s*(?:(?P<scale>[A-Za-z])\s*)?(?P<count>\d*)\s*[dD]\s*(?P<sides>\d+)"
    r"\s*(?:(?P<sign>[+-])\s*(?P<modifier>\d+))?\s*$"
)
_MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\u2014": "-"})


@cache
def _scales() -> Mapping[str, tuple[int, int]]:
    return MappingProxyType(
        {row["prefix"]: (row["factor"], row["rank"]) for row in table("damage_scale").rows}
    )


def scale_prefixes() -> tuple[str, ...]:
    """The scale prefixes in rank order: ``""`` (default), ``"D"``, ``"H"``, ``"K"``.

    Outcomes § Damage Scale.
    """
    return tuple(sorted(_scales(), key=lambda p: _scales()[p][1]))


def _check_scale(prefix: str) -> tuple[int, int]:
    if prefix not in _scales():
        raise ValueError(f"Unknown scale {prefix!r}: use D (x10), H (x100) or K (x1000).")
    return _scales()[prefix]


def scale_factor(prefix: str, /) -> int:
    """The multiplier of a scale prefix: D x10, H x100, K x1000, none x1. Outcomes § Damage Scale."""
    return _check_scale(prefix)[0]


def scale_rank(prefix: str, /) -> int:
    """The rank of a scale (0 default, 1 Deka, 2 Heka, 3 Kilo), for scale immunity."""
    return _check_scale(prefix)[1]


@dataclass(frozen=True)
class DiceExpression:
    """``count`` dice of ``sides`` sides plus ``modifier``, the whole times the scale's factor."""

    count: int
    sides: int
    modifier: int = 0
    scale: str = ""

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_DICE:
            raise ValueError(f"Roll between 1 and {MAX_DICE} dice.")
        if not MIN_SIDES <= self.sides <= MAX_SIDES:
            raise ValueError(f"A die has between {MIN_SIDES} and {MAX_SIDES} sides.")
        if not -MAX_MODIFIER <= self.modifier <= MAX_MODIFIER:
            raise ValueError(f"The modifier must be between -{MAX_MODIFIER} and +{MAX_MODIFIER}.")
        _check_scale(self.scale)

    def __str__(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.modifier:
            text += f"{self.modifier:+d}"
        return f"{self.scale} {text}" if self.scale else text

    @property
    def factor(self) -> int:
        """The scale's multiplier (1 without a prefix)."""
        return scale_factor(self.scale)

    @property
    def minimum(self) -> int:
        """The lowest total, scale applied."""
        return (self.count + self.modifier) * self.factor

    @property
    def maximum(self) -> int:
        """The highest total, scale applied."""
        return (self.count * self.sides + self.modifier) * self.factor

    @property
    def mean(self) -> Fraction:
        """The exact average total, scale applied: (count x (sides + 1) / 2 + modifier) x factor.

        Computed from the figures alone, without building the distribution.
        """
        return (Fraction(self.count * (self.sides + 1), 2) + self.modifier) * self.factor

    def with_modifier(self, modifier: int, /) -> DiceExpression:
        """The same dice with another modifier."""
        return DiceExpression(self.count, self.sides, modifier, self.scale)

    def distribution(self) -> Distribution:
        """Exact distribution of the total, scale applied."""
        return _expression_distribution(self)


def parse_dice(text: str, /) -> DiceExpression:
    """Read a dice expression as players write it: ``3d6-2``, ``d6``, ``D 3d3``, ``K 5d6-4``.

    The scale prefix (D, H, K) multiplies the whole expression. Outcomes § Damage Scale.

    Raises:
        ValueError: if the text is not a dice expression or is out of bounds.
    """
    if not isinstance(text, str):
        raise ValueError("Write the dice as text, like 3d6-2.")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise ValueError(f"A dice expression is at most {MAX_EXPRESSION_LENGTH} characters.")
    match = _EXPRESSION.match(text.translate(_MINUS_SIGNS))
    if match is None:
        if not text.strip():
            raise ValueError("Enter dice, like 3d6-2.")
        raise ValueError(f"{text.strip()!r} is not a dice expression; write it like 3d6-2 or D 3d3.")
    scale = (match["scale"] or "").upper()
    count = int(match["count"]) if match["count"] else 1
    modifier = int(match["modifier"] or 0) * (-1 if match["sign"] == "-" else 1)
    return DiceExpression(count, int(match["sides"]), modifier, scale)


def _freeze(weights: Mapping[int, int], denominator: int) -> Distribution:
    return MappingProxyType({v: Fraction(w, denominator) for v, w in sorted(weights.items()) if w})


def _integer_weights(distribution: Distribution) -> tuple[dict[int, int], int]:
    if not distribution:
        raise ValueError("A distribution needs at least one value.")
    denominator = lcm(*(p.denominator for p in distribution.values()))
    weights = {v: int(p * denominator) for v, p in distribution.items() if p}
    if any(p < 0 for p in distribution.values()) or sum(weights.values()) != denominator:
        raise ValueError("Probabilities must be non-negative and add up to 1.")
    return weights, denominator


def constant_distribution(value: int, /) -> Distribution:
    """A certain value."""
    return MappingProxyType({value: Fraction(1)})


@cache
def die(sides: int, /) -> Distribution:
    """One fair die of ``sides`` sides."""
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise ValueError(f"A die has between {MIN_SIDES} and {MAX_SIDES} sides.")
    return _freeze(dict.fromkeys(range(1, sides + 1), 1), sides)


def _convolve_weights(a: Mapping[int, int], b: Mapping[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for va, wa in a.items():
        for vb, wb in b.items():
            out[va + vb] = out.get(va + vb, 0) + wa * wb
    return out


@lru_cache(maxsize=128)
def sum_of_dice(count: int, sides: int, /) -> Distribution:
    """Exact distribution of the sum of ``count`` dice of ``sides`` sides."""
    if not 1 <= count <= MAX_DICE:
        raise ValueError(f"Roll between 1 and {MAX_DICE} dice.")
    die(sides)
    # ways[t] counts the faces summing to (dice so far + t); adding a die is a sliding window sum.
    ways = [1] * sides
    for _ in range(count - 1):
        cumulative = list(accumulate(ways))
        shifted = [0] * sides + cumulative + [cumulative[-1]] * (sides - 1)
        ways = [high - low for low, high in zip(shifted, shifted[sides:], strict=False)]
    return _freeze({count + t: w for t, w in enumerate(ways)}, sides**count)


@lru_cache(maxsize=128)
def _expression_distribution(expression: DiceExpression) -> Distribution:
    base = sum_of_dice(expression.count, expression.sides)
    factor, shift = expression.factor, expression.modifier
    return MappingProxyType({(v + shift) * factor: p for v, p in base.items()})


def map_values(distribution: Distribution, function: Callable[[int], int], /) -> Distribution:
    """The distribution of ``function(value)``; equal results merge."""
    out: dict[int, Fraction] = {}
    for v, p in distribution.items():
        key = function(v)
        out[key] = out.get(key, Fraction(0)) + p
    return MappingProxyType(dict(sorted(out.items())))


def convolve(a: Distribution, b: Distribution, /) -> Distribution:
    """Distribution of the sum of two independent values."""
    wa, da = _integer_weights(a)
    wb, db = _integer_weights(b)
    _check_work(len(wa) * len(wb))
    return _freeze(_convolve_weights(wa, wb), da * db)


def _step(weights: Mapping[int, int]) -> int:
    """The common step between the values (10 for a Deka expression), at least 1."""
    low = min(weights)
    return gcd(*(v - low for v in weights)) or 1


def _check_work(work: int) -> None:
    if work > _MAX_WORK:
        raise ValueError(_TOO_LARGE)


def _check_rolls(rolls: int, keep: int) -> None:
    if not 0 <= rolls <= MAX_ROLLS:
        raise ValueError(f"Make between 0 and {MAX_ROLLS} rolls.")
    if not 0 <= keep <= rolls:
        raise ValueError("Keep between 0 and the number of rolls.")


def repeat_sum(distribution: Distribution, rolls: int, /) -> Distribution:
    """Distribution of the sum of ``rolls`` independent draws of ``distribution``."""
    _check_rolls(rolls, rolls)
    weights, denominator = _integer_weights(distribution)
    if rolls == 0:
        return constant_distribution(0)
    # Kronecker substitution: pack the weights into one integer, one fixed-width slot per value,
    # and let Python's integer power do the repeated convolution. No slot can overflow: each
    # coefficient of the power is at most denominator**rolls.
    low, step = min(weights), _step(weights)
    span = (max(weights) - low) // step + 1
    width = (denominator**rolls).bit_length() // 8 + 1
    size = rolls * (span - 1) + 1
    if size * width * 8 > _MAX_PACKED_BITS:
        raise ValueError(_TOO_LARGE)
    packed = int.from_bytes(
        b"".join(weights.get(low + i * step, 0).to_bytes(width, "little") for i in range(span)), "little"
    )
    data = (packed**rolls).to_bytes(size * width, "little")
    total = {
        rolls * low + i * step: int.from_bytes(data[i * width : (i + 1) * width], "little")
        for i in range(size)
    }
    return _freeze(total, denominator**rolls)


def keep_highest(distribution: Distribution, rolls: int, keep: int, /) -> Distribution:
    """Exact distribution of the sum of the ``keep`` highest of ``rolls`` independent draws.

    Dynamic programming over the distinct values from the highest down: the
    state is how many draws lie above the current value and the sum they
    make; once ``keep`` draws are placed, the rest only need to lie lower,
    which has a closed-form weight. Used for a limited rate of attack
    (Outcomes § Weapons with Limited Rate of Attack).

    Raises:
        ValueError: for negative counts, ``keep > rolls``, more than :data:`MAX_ROLLS`
            rolls or too much work.
    """
    _check_rolls(rolls, keep)
    if keep == 0:
        return constant_distribution(0)
    if keep == rolls:
        return repeat_sum(distribution, rolls)
    weights, denominator = _integer_weights(distribution)
    values = sorted(weights, reverse=True)
    span = (values[0] - values[-1]) // _step(weights) + 1
    _check_work(len(values) * keep * span * keep * rolls)
    below = denominator
    # groups[placed] maps the sum of the draws placed above the current value to its weight.
    groups: list[dict[int, int]] = [{0: 1}] + [{} for _ in range(keep - 1)]
    result: dict[int, int] = {}
    for value in values:
        weight = weights[value]
        below -= weight
        new_groups: list[dict[int, int]] = [{} for _ in range(keep)]
        for placed, group in enumerate(groups):
            if not group:
                continue
            remaining = rolls - placed
            # m more draws show this value and some stay to be placed lower down.
            for m in range(keep - placed):
                factor = comb(remaining, m) * weight**m
                target, shift = new_groups[placed + m], m * value
                for subtotal, count in group.items():
                    key = subtotal + shift
                    target[key] = target.get(key, 0) + count * factor
            # Enough draws show this value to fill the kept ones; the rest lie lower.
            closing = sum(
                comb(remaining, m) * weight**m * below ** (remaining - m)
                for m in range(keep - placed, remaining + 1)
            )
            shift = (keep - placed) * value
            for subtotal, count in group.items():
                key = subtotal + shift
                result[key] = result.get(key, 0) + count * closing
        groups = new_groups
    return _freeze(result, denominator**rolls)


def expected_keep_highest(distribution: Distribution, rolls: int, keep: int, /) -> Fraction:
    """Exact mean of the sum of the ``keep`` highest of ``rolls`` draws of a non-negative distribution.

    The mean of :func:`keep_highest` without building that distribution: the kept sum is the sum
    over ``t >= 1`` of ``min(keep, N_t)``, ``N_t`` (binomial) counting draws of at least ``t``.
    Outcomes § Weapons with Limited Rate of Attack.

    Raises:
        ValueError: for negative counts, ``keep > rolls``, more than :data:`MAX_ROLLS` rolls or a
            negative value.
    """
    _check_rolls(rolls, keep)
    weights, whole = _integer_weights(distribution)
    if min(weights) < 0:
        raise ValueError("Every value must be 0 or more.")
    if keep == rolls:
        return rolls * Fraction(sum(v * n for v, n in weights.items()), whole)
    weight = [min(keep, m) * comb(rolls, m) for m in range(rolls + 1)]
    total, previous, high = 0, 0, whole
    for value in sorted(weights):
        if value > 0:
            # ``high`` ways give at least t for every t in (previous, value].
            low = whole - high
            term = sum(weight[m] * high**m * low ** (rolls - m) for m in range(1, rolls + 1))
            total += (value - previous) * term
            previous = value
        high -= weights[value]
    return Fraction(total, whole**rolls)


def mean(distribution: Distribution, /) -> Fraction:
    """The expected value."""
    return sum((v * p for v, p in distribution.items()), Fraction(0))


def chance_at_least(distribution: Distribution, threshold: int, /) -> Fraction:
    """The chance that the value is at least ``threshold``."""
    return sum((p for v, p in distribution.items() if v >= threshold), Fraction(0))


@dataclass(frozen=True)
class RolledDice:
    """One roll of an expression: each die's face, the modifier, the scale factor and the total."""

    faces: tuple[int, ...]
    modifier: int
    factor: int
    total: int


@dataclass(frozen=True)
class RolledCheck:
    """One check roll: every die rolled, the two kept (in rolled order) and their total."""

    rolled: tuple[int, ...]
    kept: tuple[int, ...]
    total: int


def _check_rng(rng: random.Random) -> None:
    if not isinstance(rng, random.Random):
        raise ValueError("Rolling needs a random.Random generator.")


def roll_faces(expression: DiceExpression, rng: random.Random, /) -> RolledDice:
    """Roll an expression with the injected generator ``rng``, keeping each die's face.

    The total is (sum of the faces + modifier) x the scale's factor (Outcomes § Damage Scale).
    Only ``rng.randint`` is used, so a seed gives the same faces in CPython and Pyodide.
    """
    _check_rng(rng)
    faces = tuple(rng.randint(1, expression.sides) for _ in range(expression.count))
    total = (sum(faces) + expression.modifier) * expression.factor
    return RolledDice(faces, expression.modifier, expression.factor, total)


def roll(expression: DiceExpression, rng: random.Random, /) -> int:
    """Roll an expression with the injected generator ``rng``; scale applied."""
    return roll_faces(expression, rng).total


def roll_check(rng: random.Random, /, advantage: int = 0, disadvantage: int = 0) -> RolledCheck:
    """Roll the dice of a check with the injected generator ``rng``.

    Advantage and disadvantage cancel one for one; a net advantage rolls 3d6 and keeps the two
    highest, a net disadvantage the two lowest, otherwise 2d6. Core Mechanics § Dice Roll,
    § Advantage and Disadvantage.

    Raises:
        ValueError: for a negative or absurd advantage or disadvantage count, or no generator.
    """
    net = net_advantage(advantage, disadvantage)
    _check_rng(rng)
    sides, keep = constant("check_constants", "sides"), constant("check_constants", "dice")
    rolled = tuple(
        rng.randint(1, sides)
        for _ in range(keep if net == 0 else constant("check_constants", "advantage_dice"))
    )
    # Drop the lowest faces for an advantage, the highest for a disadvantage; ties drop the later die.
    order = sorted(range(len(rolled)), key=lambda i: (rolled[i] if net < 0 else -rolled[i], i))
    chosen = sorted(order[:keep])
    kept = tuple(rolled[i] for i in chosen)
    return RolledCheck(rolled, kept, sum(kept))
