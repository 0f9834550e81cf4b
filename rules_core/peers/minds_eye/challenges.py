"""Mind's Eye Theatre test pools and damage, as far as the worked example shows them.

The chapter does not define the test itself (how the initial test and retests
are thrown) nor health levels: only the sums and the tie rule visible in its
worked example are modelled (see notes/rulings-peers.md, "Test pools").
Rules: Mind's Eye Theatre: Complex Scenarios § Example: Combat
(docs/peers/minds-eye-theatre.md#test-pools).
"""

from __future__ import annotations

from rules_core.peers.minds_eye._figures import check_whole

BASE_DAMAGE = 1
"""Damage of a successful attack before powers, as the worked example adds it up."""


def challenge_pool(attribute: int, ability: int, /, bonus: int = 0) -> int:
    """The test pool of a challenge: attribute + ability (skill) + any equipment bonus.

    Mind's Eye Theatre: Complex Scenarios § Example: Combat (Physical 9 + Melee 4
    + baseball bat 2 = 15; Physical 3 + Dodge 4 = 7).
    """
    check_whole("The attribute", attribute)
    check_whole("The ability", ability)
    check_whole("The bonus", bonus)
    return attribute + ability + bonus


def tied_test_winner(challenger_pool: int, defender_pool: int, /) -> str | None:
    """Who wins a tied test: the larger pool, ``"challenger"`` or ``"defender"``; ``None`` if equal.

    Mind's Eye Theatre: Complex Scenarios § Example: Combat (a 9 ties a 12 and
    loses; a 16 ties a 10 and wins). Equal pools are not settled by the chapter.
    """
    check_whole("The challenger's pool", challenger_pool)
    check_whole("The defender's pool", defender_pool)
    if challenger_pool == defender_pool:
        return None
    return "challenger" if challenger_pool > defender_pool else "defender"


def hit_damage(*, bonus: int = 0, reduction: int = 0) -> int:
    """Damage of a hit: 1 base, plus bonuses (Potence), minus reductions (Fortitude), never below 0.

    Mind's Eye Theatre: Complex Scenarios § Example: Combat (1 + 1 Potence = 2;
    1 - 1 Fortitude = 0).
    """
    check_whole("The damage bonus", bonus)
    check_whole("The damage reduction", reduction)
    return max(0, BASE_DAMAGE + bonus - reduction)
