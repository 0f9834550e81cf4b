"""Mind's Eye Theatre: Complex Scenarios, as exact rules (seed ``004_b2916bfdb50875cc.txt``).

Modules: :mod:`.initiative` (initiative, tie-breaks, delay), :mod:`.actions`
(standard and simple actions, steps, prone), :mod:`.rounds` (everyman and
Celerity rounds), :mod:`.fair_escape`, :mod:`.challenges` (test pools and
damage as the worked example shows them). The page is
``docs/peers/minds-eye-theatre.md``; the chapter never defines the test
itself, the length of a step, or health levels.
"""

from rules_core.peers.minds_eye.actions import (
    ActionBudget,
    action_kind,
    movement_steps,
    prone_defence_modifier,
    round_actions,
)
from rules_core.peers.minds_eye.challenges import BASE_DAMAGE, challenge_pool, hit_damage, tied_test_winner
from rules_core.peers.minds_eye.fair_escape import FairEscape, fair_escape
from rules_core.peers.minds_eye.initiative import (
    Character,
    OrderEntry,
    initiative,
    initiative_order,
    initiative_with_delay_bonus,
    resolve_shared_moment,
)
from rules_core.peers.minds_eye.rounds import (
    Round,
    TurnActions,
    action_allowed_in_round,
    turn_actions,
    turn_rounds,
)

__all__ = [
    "BASE_DAMAGE",
    "ActionBudget",
    "Character",
    "FairEscape",
    "OrderEntry",
    "Round",
    "TurnActions",
    "action_allowed_in_round",
    "action_kind",
    "challenge_pool",
    "fair_escape",
    "hit_damage",
    "initiative",
    "initiative_order",
    "initiative_with_delay_bonus",
    "movement_steps",
    "prone_defence_modifier",
    "resolve_shared_moment",
    "round_actions",
    "tied_test_winner",
    "turn_actions",
    "turn_rounds",
]
