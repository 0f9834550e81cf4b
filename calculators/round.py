"""Round planner: whether the actions chosen fit in one round's minor actions, and what still fits.

Rules: Actions § Action Economy, § Action Types, § Minor Actions, § List of Minor, Significant and Full
Actions; ruling: three minor actions and the significant action. All maths is in :mod:`rules_core.actions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators.format import counted, plural
from calculators.parts.links import rule
from rules_core import actions

__all__ = ["CALCULATOR"]


NOTHING = "nothing"
FREE_ONLY = "free only"


def _choices(action_type: actions.ActionType) -> tuple[tuple[str, str], ...]:
    """Nothing, then the chapter's named actions of one type."""
    named = ((a.action, a.name) for a in actions.named_actions() if a.action_type is action_type)
    return ((NOTHING, "Nothing"), *named)


SLOTS = (
    ("full", "Full action", actions.ActionType.FULL, NOTHING),
    ("significant", "Significant action", actions.ActionType.SIGNIFICANT, "attack"),
    ("minor1", "Minor action", actions.ActionType.MINOR, "aim"),
    ("minor2", "Another minor action", actions.ActionType.MINOR, NOTHING),
    ("minor3", "A third minor action", actions.ActionType.MINOR, NOTHING),
)
TYPE_ORDER = (actions.ActionType.FULL, actions.ActionType.SIGNIFICANT, actions.ActionType.MINOR)


def _fits(remaining: int) -> str:
    """The action types that fit in ``remaining`` minor actions, largest first: ``significant or minor``."""
    kinds = [t.value for t in TYPE_ORDER if actions.action_cost(t) <= remaining]
    if not kinds:
        return FREE_ONLY
    return f"{', '.join(kinds[:-1])}{' or ' if len(kinds) > 1 else ''}{kinds[-1]}"


def _room(fits: str) -> str:
    """The same in a sentence: ``a significant or minor action``, ``free actions only``."""
    return "free actions only" if fits == FREE_ONLY else f"a {fits} action"


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """The plan's cost in minor actions, what is left, and what still fits."""
    keys = [key for key, *_ in SLOTS if values[key] != NOTHING]
    chosen = [values[key] for key in keys]
    per_round = actions.minor_actions_per_round()
    significant = actions.action_cost(actions.ActionType.SIGNIFICANT)
    full = actions.action_cost(actions.ActionType.FULL)
    steps = [
        fw.Step(
            f"A round of about {actions.round_seconds()} seconds holds {plural(per_round, 'minor action')}: "
            f"a significant action costs {significant}, a full action {full}.",
            rule("round.economy"),
        )
    ]
    for key in chosen:
        named = actions.named_action(key)
        steps.append(
            fw.Step(
                f"{named.name}: {named.action_type.value}, {plural(named.minor_actions, 'minor action')}.",
                rule("round.types"),
            )
        )
    with fw.on_field(keys[-1] if keys else SLOTS[0][0]):
        plan = actions.plan_round(chosen)
    outputs = {
        "used": f"{plan.used} of {per_round}",
        "remaining": str(plan.remaining),
        "fits": _fits(plan.remaining),
    }
    steps.append(
        fw.Step(
            f"Used {plan.used} of {per_round}; left {plan.remaining}: room for {_room(outputs['fits'])}. "
            "Free actions (a word, a glance) cost nothing.",
            rule("round.free"),
        )
    )
    if plan.actions.count(actions.ActionType.MINOR) == per_round:
        steps.append(
            fw.Step(
                "Three minor actions take the place of the significant action.", rule("round.three_minor")
            )
        )
    return fw.Result(outputs=outputs, working=tuple(steps))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """What is left of the round, in one line."""
    left = counted(out["remaining"], "minor action")
    return f"Uses {out['used']} minor actions; {left} left, room for {_room(out['fits'])}."


CALCULATOR = fw.Calculator(
    title="Round planner",
    summary="Do these actions fit in one round, and what is left for the rest of it?",
    inputs=tuple(fw.ChoiceInput(key, label, _choices(kind), default) for key, label, kind, default in SLOTS),
    outputs=(
        fw.Output("used", "Minor actions used"),
        fw.Output("remaining", "Minor actions left"),
        fw.Output("fits", "Still fits"),
    ),
    compute=_compute,
    answer=_summary,
    uses=(
        "rules_core.actions.named_action",
        "rules_core.actions.plan_round",
        "rules_core.actions.action_cost",
        "rules_core.actions.minor_actions_per_round",
    ),
    rules=(rule("round.economy"), rule("round.types"), rule("round.free"), rule("round.three_minor")),
)
