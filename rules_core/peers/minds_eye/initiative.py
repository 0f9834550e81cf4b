"""Mind's Eye Theatre initiative: the better of Physical and Mental, its tie-breaks, delays.

Rules: Mind's Eye Theatre: Complex Scenarios § Measuring Time, § Delaying Your Actions
(docs/peers/minds-eye-theatre.md#initiative).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rules_core import limits
from rules_core.peers.minds_eye._figures import check_whole, figure
from rules_core.tables import table

MAX_CHARACTERS = limits.MAX_COMBATANTS


@dataclass(frozen=True)
class Character:
    """A character's three attributes and how many Celerity rounds she can act in (0 to 3)."""

    name: str
    physical: int
    mental: int
    social: int = 0
    celerity_rounds: int = 0

    def __post_init__(self) -> None:
        for label, value in (("Physical", self.physical), ("Mental", self.mental), ("Social", self.social)):
            check_whole(f"{self.name}'s {label} attribute", value)
        check_whole(
            f"{self.name}'s Celerity rounds", self.celerity_rounds, maximum=figure("max_celerity_rounds")
        )


@dataclass(frozen=True)
class OrderEntry:
    """A place in the initiative order and what decided it against the character before.

    ``decided_by`` is ``"initiative"``, ``"mental"``, ``"physical"``, ``"social"``
    or ``"random"`` (a draw: with no generator given, the order supplied stands).
    The first entry is ``"initiative"``.
    """

    name: str
    initiative: int
    decided_by: str


def initiative(physical: int, mental: int, /) -> int:
    """Initiative: the higher of the Physical and Mental attributes.

    Mind's Eye Theatre: Complex Scenarios § Measuring Time (Physical 5, Mental 8 gives 8).
    """
    check_whole("The Physical attribute", physical)
    check_whole("The Mental attribute", mental)
    return max(physical, mental)


def _key(character: Character, initiative_value: int) -> tuple[int, ...]:
    by_attribute = {"mental": character.mental, "physical": character.physical, "social": character.social}
    breaks = [
        row["key"] for row in table("minds_eye_initiative_tiebreaks").rows if row["key"] in by_attribute
    ]
    return (initiative_value, *(by_attribute[key] for key in breaks))


def initiative_order(
    characters: Sequence[Character],
    /,
    *,
    bonus: Sequence[int] | None = None,
    rng: random.Random | None = None,
) -> tuple[OrderEntry, ...]:
    """Everyone from highest initiative down, ties split by Mental, then Physical, then Social, then a draw.

    ``bonus`` adds to each character's initiative (for example the +5 for
    having forgone both actions). Characters equal on every attribute are
    shuffled with ``rng`` when given.
    Mind's Eye Theatre: Complex Scenarios § Measuring Time.

    Raises:
        ValueError: if names repeat, lists differ in length, or there are too many characters.
    """
    if len(characters) > MAX_CHARACTERS:
        raise ValueError(f"At most {MAX_CHARACTERS} characters can be ordered.")
    names = [c.name for c in characters]
    if len(set(names)) != len(names):
        raise ValueError("Each character needs a different name.")
    bonuses = list(bonus) if bonus is not None else [0] * len(characters)
    if len(bonuses) != len(characters):
        raise ValueError("Give one bonus per character.")
    for value in bonuses:
        check_whole("An initiative bonus", value, maximum=figure("delay_bonus"))
    keyed = [
        (_key(c, initiative(c.physical, c.mental) + b), c) for c, b in zip(characters, bonuses, strict=True)
    ]
    groups: dict[tuple[int, ...], list[Character]] = {}
    for key, character in keyed:
        groups.setdefault(key, []).append(character)
    labels = ("initiative", "mental", "physical", "social")
    order: list[OrderEntry] = []
    previous: tuple[int, ...] | None = None
    for key in sorted(groups, reverse=True):
        tied = list(groups[key])
        if rng is not None and len(tied) > 1:
            rng.shuffle(tied)
        for position, character in enumerate(tied):
            if previous is None:
                decided = "initiative"
            elif position > 0:
                decided = "random"
            else:
                decided = labels[
                    next(i for i, (a, b) in enumerate(zip(key, previous, strict=True)) if a != b)
                ]
            order.append(OrderEntry(character.name, key[0], decided))
            previous = key
    return tuple(order)


def initiative_with_delay_bonus(base: int, /, *, forwent_both_actions: bool) -> int:
    """Initiative on the next round with actions: +5 after a round in which both actions were forgone.

    The bonus does not grow when actions are held for several rounds.
    Mind's Eye Theatre: Complex Scenarios § Delaying Your Actions.
    """
    check_whole("The initiative", base)
    return base + (figure("delay_bonus") if forwent_both_actions else 0)


def resolve_shared_moment(natural: Sequence[str], delayed: Sequence[tuple[str, int]], /) -> tuple[str, ...]:
    """Who acts first when delayed actions land on the same moment.

    A character acting on her natural initiative resolves before anyone who
    delayed to that moment; several who delayed go from highest initiative down
    (equal initiatives keep the order given).
    Mind's Eye Theatre: Complex Scenarios § Delaying Your Actions.
    """
    for _, value in delayed:
        check_whole("An initiative", value)
    ordered = sorted(enumerate(delayed), key=lambda item: (-item[1][1], item[0]))
    return (*natural, *(name for _, (name, _value) in ordered))
