"""The only place a number becomes text, for rules pages, calculators, the tracker and the comparison.

One rule each, so the same figure reads the same everywhere:

- :func:`signed`: modifiers and Effects with their sign, a true minus (U+2212) and ``+0`` for zero.
- :func:`percent`: a probability with two decimals, rounded half up from the exact fraction
  (``1/32`` is ``3.13%``); exactly 0 and 1 read ``0%`` and ``100%``, short of 1 never 100.
- :func:`axis_percent`: a chart axis' percentage, without trailing zeros (``20%``, ``2.5%``).
- :func:`dice`: dice notation with a signed modifier (``3d3-2`` (true minus), ``2d6+1``, ``1d6``).
- :func:`metres`, :func:`fraction_text`, :func:`number`: lengths, vulgar fractions and plain numbers.
- :func:`decimal`: a figure to at most two decimals, rounded half up (``63/2`` is ``31.5``).
- :func:`two_decimals`: an average with exactly two decimals, rounded half up (``21/2`` is ``10.50``).
- :func:`term`: a modifier added in a sum, `` + 2``, `` \u2212 3``, nothing for 0.
- :func:`plural`: a count with its noun, ``1 roll``, ``3 rolls``, ``11.25 spaces``; no count at all
  reads ``not possible`` (:data:`NOT_POSSIBLE`) or the word given.
- :func:`counted`: the same for a count an output already holds as text (``"1"`` is ``1 space``).
"""

from __future__ import annotations

from fractions import Fraction

__all__ = [
    "EMPTY",
    "MINUS",
    "NOT_POSSIBLE",
    "axis_percent",
    "counted",
    "decimal",
    "dice",
    "fraction_text",
    "metres",
    "number",
    "percent",
    "plural",
    "signed",
    "term",
    "two_decimals",
]

MINUS = "\u2212"
"""The true minus sign used for every negative number a player reads."""

EMPTY = "\u2014"
"""What an output shows when it does not apply or cannot be computed."""

NOT_POSSIBLE = "not possible"
"""What a count reads when the rules forbid the thing counted (a Dash while seriously wounded)."""

_NICE_FRACTIONS = {
    Fraction(1, 2): "½",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 6): "⅙",
    Fraction(1, 10): "⅒",
}


def number(value: int | Fraction) -> str:
    """A whole number, or a fraction as ``a/b``, negatives with a true minus: ``-3`` (U+2212), ``7/2``."""
    value = Fraction(value)
    text = (
        str(abs(value.numerator)) if value.denominator == 1 else f"{abs(value.numerator)}/{value.denominator}"
    )
    return f"{MINUS}{text}" if value < 0 else text


def signed(value: int | Fraction) -> str:
    """A modifier or Effect with its sign: ``+2``, ``-3``, ``+0`` (zero is a modifier too)."""
    return number(value) if value < 0 else f"+{number(value)}"


def _hundredths(value: Fraction, scale: int = 1) -> int:
    """``abs(value) * scale`` in hundredths, rounded half up (the one rounding rule of this module)."""
    return int((abs(value) * scale * 200 + 1) // 2)


def percent(p: Fraction | int) -> str:
    """A probability as a percentage, two decimals rounded half up from the exact value.

    ``Fraction(5, 12)`` is ``41.67%``, ``Fraction(1, 32)`` is ``3.13%``; exactly 0 is ``0%`` and
    exactly 1 is ``100%``, so a certain or impossible outcome never looks rounded; a chance short of
    certain never reads 100 (``Fraction(39999, 40000)`` is ``99.99%``).
    """
    p = Fraction(p)
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    hundredths = min(_hundredths(p, 100), 9999) if 0 < p < 1 else _hundredths(p, 100)
    text = f"{hundredths // 100}.{hundredths % 100:02d}%"
    return f"{MINUS}{text}" if p < 0 else text


def axis_percent(p: Fraction | int) -> str:
    """A chart axis' percentage: at most two decimals, rounded half up, no trailing zeros (``20%``,
    ``2.5%``, ``0.01%``): the round figures of a scale, where ``20.00%`` would only add noise."""
    return f"{decimal(Fraction(p) * 100)}%"


def decimal(value: Fraction | int) -> str:
    """A figure to at most two decimals, rounded half up, no trailing zeros: ``31.5``, ``\u22122.5``."""
    value = Fraction(value)
    hundredths = _hundredths(value)
    whole, cents = divmod(hundredths, 100)
    text = f"{whole}" if not cents else f"{whole}.{cents:02d}".rstrip("0")
    return f"{MINUS}{text}" if value < 0 and hundredths else text


def two_decimals(value: Fraction | int) -> str:
    """A figure with exactly two decimals, rounded half up: ``Fraction(21, 2)`` is ``10.50``."""
    value = Fraction(value)
    hundredths = _hundredths(value)
    sign = MINUS if value < 0 and hundredths else ""
    return f"{sign}{hundredths // 100}.{hundredths % 100:02d}"


def dice(count: int, sides: int, modifier: int = 0, scale: str = "") -> str:
    """Dice notation with a true minus: ``3d3-2``, ``2d6+1``, ``1d6`` (no ``+0``), ``D 3d3`` with a scale."""
    text = f"{count}d{sides}" + (signed(modifier) if modifier else "")
    return f"{scale} {text}" if scale else text


def fraction_text(value: Fraction | int) -> str:
    """A fraction as a vulgar-fraction character where one exists (``⅓``), else as :func:`number`."""
    value = Fraction(value)
    return _NICE_FRACTIONS.get(value, number(value))


def metres(value: Fraction | int) -> str:
    """A length in metres without a trailing ``.0``: ``1.5 m``, ``6 m``."""
    value = Fraction(value)
    if value.denominator == 1:
        return f"{number(value)} m"
    return f"{float(value):g} m".replace("-", MINUS)


def plural(count: int | Fraction | None, noun: str, many: str = "", *, absent: str = NOT_POSSIBLE) -> str:
    """A count with its noun in the right number: ``1 roll``, ``3 rolls``, ``0 rolls``, ``11.25 spaces``.

    ``None`` (the rules allow no such count) reads ``absent``: ``not possible`` unless told, never
    ``not possible rolls``.
    """
    if count is None:
        return absent
    value = Fraction(count)
    word = noun if value == 1 else (many or f"{noun}s")
    return f"{number(value) if value.denominator == 1 else decimal(value)} {word}"


def counted(text: str, noun: str, many: str = "") -> str:
    """A count an output already holds as text, with its noun: ``"1"`` is ``1 space``, ``"11"`` is
    ``11 spaces``; :data:`NOT_POSSIBLE`, :data:`EMPTY` and words such as ``never`` stay as they are."""
    try:
        value = Fraction(text.replace(MINUS, "-"))
    except (ValueError, ZeroDivisionError):
        return text
    word = noun if value == 1 else (many or f"{noun}s")
    return f"{text} {word}"


def term(value: int) -> str:
    """A modifier written into a sum after a number: ``" + 2"``, ``" \u2212 3"``, ``""`` for 0."""
    if not value:
        return ""
    return f" {MINUS} {number(-value)}" if value < 0 else f" + {number(value)}"
