"""Mind's Eye Theatre fair escape: leaving a fight without playing out the chase.

Rules: Mind's Eye Theatre: Complex Scenarios § Fair Escape
(docs/peers/minds-eye-theatre.md#fair-escape).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.peers.minds_eye._figures import check_whole


@dataclass(frozen=True)
class FairEscape:
    """The outcome of a fair escape attempt.

    ``outcome`` is ``"escaped now"``, ``"escapes at end of round"`` or ``"fails"``;
    ``reason`` says which part of the rule decided it.
    """

    outcome: str
    reason: str

    @property
    def escaped(self) -> bool:
        """True when the character gets away (now or at the end of the round)."""
        return self.outcome != "fails"


def fair_escape(
    *,
    logical_exit: bool = True,
    attacked_before_initiative: bool = False,
    can_be_attacked: bool = True,
    declared_attackers: int = 0,
    attacked_later: bool = False,
    blocking_challenge: bool = False,
) -> FairEscape:
    """Decide a fair escape declared at the start of the character's initiative.

    Checked in this order: no logical way out (grappled, locked room) fails;
    an attack earlier in the round, even a miss, fails; if nobody can attack
    the character this round it succeeds; if nobody declares an attack it
    succeeds at once; otherwise it waits, failing if the character is then
    attacked or drawn into a blocking challenge (a Physical challenge, or a
    Mental or Social one against her Physical attribute), and succeeding at
    the end of the round if not.
    Mind's Eye Theatre: Complex Scenarios § Fair Escape.
    """
    check_whole("Declared attackers", declared_attackers)
    if not logical_exit:
        return FairEscape("fails", "There is no logical way out of the area.")
    if attacked_before_initiative:
        return FairEscape("fails", "The character was attacked before her initiative, hit or miss.")
    if not can_be_attacked:
        return FairEscape("escaped now", "Nobody can physically attack the character this round.")
    if declared_attackers == 0:
        return FairEscape("escaped now", "Nobody declared an attack on the character.")
    if attacked_later:
        return FairEscape("fails", "A declared attacker attacked the character later in the round.")
    if blocking_challenge:
        return FairEscape("fails", "The character was drawn into a challenge that blocks fair escape.")
    return FairEscape("escapes at end of round", "Attacks were declared but none came.")
