"""The action economy: what each action type costs and what fits in a round.

Rules: Actions § Action Types, § Minor Actions, § Combat Round Summary
(docs/rules/actions.md). Rulings: notes/rulings-core-actions.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from itertools import islice

from rules_core._choices import choice
from rules_core.tables import constant, table

MAX_ACTIONS_LISTED = 50
"""A round plan listing more actions than this is rejected (bounded input)."""


class ActionType(StrEnum):
    """The four action types, by their cost in minor actions (Actions § Action Types)."""

    FREE = "free"
    MINOR = "minor"
    SIGNIFICANT = "significant"
    FULL = "full"


def action_cost(action_type: ActionType | str, /) -> int:
    """Minor actions an action type costs: free 0, minor 1, significant 2, full 3.

    Actions § Action Types.

    Raises:
        ValueError: for an unknown action type.
    """
    kind = choice(ActionType, action_type, "The action type")
    cost: int = table("action_costs").find(action_type=kind.value)["minor_actions"]
    return cost


def minor_actions_per_round() -> int:
    """Minor actions each character receives per round: 3. Actions § Action Types."""
    value: int = constant("action_economy", "minor_actions_per_round")
    return value


def round_seconds() -> int:
    """Game time of a combat round: about 6 seconds. Actions § Combat Round Summary."""
    value: int = constant("action_economy", "round_seconds")
    return value


@dataclass(frozen=True)
class NamedAction:
    """One of the chapter's named actions (Aim, Dash, Defend ...) with its type and cost."""

    action: str
    name: str
    action_type: ActionType
    category: str
    summary: str
    minor_actions: int
    source: str


def named_actions() -> tuple[NamedAction, ...]:
    """Every named action of the chapter, free actions first.

    Actions § Examples of Free Actions, § List of Minor Actions, § List of
    Significant Actions, § List of Full Actions.
    """
    return tuple(
        NamedAction(
            r["action"],
            r["name"],
            ActionType(r["action_type"]),
            r["category"],
            r["summary"],
            action_cost(r["action_type"]),
            r["source"],
        )
        for r in table("action_list").rows
    )


def named_action(action: str, /) -> NamedAction:
    """The named action ``action`` (e.g. ``"dash"``): its type and cost in minor actions.

    Raises:
        ValueError: for an unknown action.
    """
    for item in named_actions():
        if item.action == action:
            return item
    raise ValueError(f"Unknown action {action!r}; see the list of actions.")


def _action_type(item: ActionType | str) -> ActionType:
    if isinstance(item, str) and item not in {t.value for t in ActionType}:
        try:
            return named_action(item).action_type
        except ValueError:
            pass
    return choice(ActionType, item, "The action type")


@dataclass(frozen=True)
class RoundPlan:
    """The actions planned for one round, the minor actions they use and those left."""

    actions: tuple[ActionType, ...]
    used: int
    remaining: int


def plan_round(actions: Iterable[ActionType | str], /) -> RoundPlan:
    """Check that a round's actions fit in its 3 minor actions.

    A significant action is two minor actions and a full action all three, so a
    round holds a significant and a minor action, or three minor actions (at the
    loss of the significant action), or one full action; free actions cost
    nothing. Each item is an action type or a named action (``"aim"``, ``"dash"``).
    Actions § Action Types, § Minor Actions.

    Raises:
        ValueError: for an unknown action type or action, more than 50 actions, or a plan
            that needs more minor actions than a round has.
    """
    listed = tuple(islice(actions, MAX_ACTIONS_LISTED + 1))
    if len(listed) > MAX_ACTIONS_LISTED:
        raise ValueError(f"List at most {MAX_ACTIONS_LISTED} actions for a round.")
    kinds = tuple(_action_type(a) for a in listed)
    used = sum(action_cost(k) for k in kinds)
    budget = minor_actions_per_round()
    if used > budget:
        raise ValueError(f"These actions need {used} minor actions; a round has {budget}.")
    return RoundPlan(kinds, used, budget - used)
