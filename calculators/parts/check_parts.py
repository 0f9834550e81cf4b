"""Check parts shared by the calculators: the characteristic modifier worked out in words, and the
links to the rules of the ChM and of Competence.

The figures (divide by 3, round down, subtract 2) come from ``rules_core.checks``, so a DM and its
explanation cannot disagree.
"""

from __future__ import annotations

from calculators.format import number, signed, term
from rules_core import checks

__all__ = ["chm_text"]


def chm_text(name: str, characteristic: int, /) -> str:
    """``Dex 10 ÷ 3 = 3 (rounded down), 3 - 2: DM +1`` (a true minus), every figure from the rule.

    Core Mechanics § Characteristic Modifier (ChM).
    """
    work = checks.characteristic_modifier_working(characteristic)
    quotient = number(work.quotient)
    return (
        f"{name} {number(work.characteristic)} \u00f7 {work.divisor} = {quotient} (rounded down), "
        f"{quotient}{term(work.offset)}: DM {signed(work.modifier)}"
    )
