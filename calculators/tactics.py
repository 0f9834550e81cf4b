"""Tactics: the risk table (largest Effect by declared difficulty), rolls gained and attempts by skill.

Rules: Actions § Tactics Skill, § List of Significant Actions (Use Tactics).
Ruling: advantage rolls and attempts. All maths is in :mod:`rules_core.tactics`,
:mod:`rules_core.checks` and :mod:`rules_core.dice`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators.format import counted, percent, plural, signed
from calculators.parts import chance_chart, enum_choices, optional_modifier_input
from calculators.parts.links import rule
from rules_core import checks, dice, limits
from rules_core import tactics as rules
from rules_core.tables import int_constant

__all__ = ["CALCULATOR"]


DIFFICULTIES = tuple((str(d), f"{d}") for d in rules.tactics_difficulties())
READINGS = enum_choices(rules.TacticsReading, extra=int_constant("tactics", "extra_attempts"))
MAX_EFFECT_INPUT = limits.MAX_MODIFIER


def _rolls_text(found: rules.TacticsRolls) -> str:
    if found.advantage_rolls:
        return plural(found.advantage_rolls, "advantage roll")
    if found.disadvantage_rolls:
        return plural(found.disadvantage_rolls, "disadvantage roll")
    return "no rolls"


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """Largest Effect and success chance for each risk; rolls gained for an Effect; attempts and re-tries."""
    skill, modifier, effect, reading = (
        values["skill"],
        values["modifier"],
        values["effect"],
        values["reading"],
    )
    difficulty = int(values["difficulty"])
    with fw.on_field("skill"):
        attempts = rules.tactics_attempts(skill)
    with fw.on_field("attempts_made"):
        retry = rules.may_retry_tactics(
            values["attempts_made"], skill, battle_changed=values["battle_changed"]
        )
    cap = rules.tactics_max_effect(difficulty)
    with fw.on_field("modifier"):
        chances = {d: checks.success_chance(modifier, d) for d in rules.tactics_difficulties()}
    outputs = {
        "max_effect": str(cap),
        "chance": percent(chances[difficulty]),
        "attempts": str(attempts),
        "retry": "yes" if retry else "no",
    }
    steps = [
        *(
            fw.Step(
                f"Risk {d}: the Effect counts up to {rules.tactics_max_effect(d)} either way; "
                f"DM {signed(modifier)} succeeds {percent(c)}.",
                rule("tactics.tactics"),
            )
            for d, c in chances.items()
        ),
        fw.Step(f"Attempts per battle: skill {skill} + 1 = {attempts}.", rule("tactics.count")),
        fw.Step(
            f"Attempts made {values['attempts_made']}"
            + (", battle changed a lot" if values["battle_changed"] else "")
            + f": {'may' if retry else 'may not'} roll again once the rolls are used up.",
            rule("tactics.tactics"),
        ),
    ]
    if effect is not None:
        with fw.on_field("effect"):
            found = rules.tactics_rolls(effect, difficulty, skill=skill, reading=reading)
        outputs["rolls"] = _rolls_text(found)
        steps.append(
            fw.Step(
                f"Effect {signed(effect)} at difficulty {difficulty}: capped at {signed(found.effect)}, "
                f"{outputs['rolls']}.",
                rule("tactics.count"),
            )
        )

    def granted(total: int) -> int:
        found = rules.tactics_rolls(
            checks.effect(total + modifier, difficulty), difficulty, skill=skill, reading=reading
        )
        return found.advantage_rolls - found.disadvantage_rolls

    with fw.on_field("modifier"):
        spread = dice.map_values(checks.check_distribution(), granted)
    chart = chance_chart(
        "rolls", f"Rolls gained at difficulty {difficulty} (negative: disadvantage rolls)", "Rolls", spread
    )
    return fw.Result(outputs=outputs, working=tuple(steps), charts=(chart,))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """The tactics roll's odds and what it gains, in one line."""
    text = f"{out['chance']} chance of success, Effect at most {out['max_effect']}"
    if "rolls" in out:
        text += f"; you gain {out['rolls']}"
    text += f"; {counted(out['attempts'], 'attempt')} per battle"
    return text + "."


CALCULATOR = fw.Calculator(
    title="Tactics risk",
    summary="What each risk can win or lose, the rolls an Effect gives, and the attempts a battle allows.",
    inputs=(
        fw.IntInput("skill", "Tactics skill", 1, 0, checks.MAX_SKILL),
        fw.IntInput(
            "modifier",
            "Tactics DM",
            1,
            -limits.MAX_MODIFIER,
            limits.MAX_MODIFIER,
            help="Total DM on the Tactics check.",
        ),
        fw.ChoiceInput("difficulty", "Risk (difficulty)", DIFFICULTIES, "8"),
        optional_modifier_input("effect", "Effect rolled", placeholder="not rolled"),
        fw.IntInput(
            "attempts_made",
            "Attempts made",
            0,
            0,
            limits.MAX_TACTICS_ATTEMPTS,
            help="Tactics checks already made this battle.",
        ),
        fw.BoolInput("battle_changed", "The battle has changed a lot"),
        fw.ChoiceInput("reading", "Rolls gained (ruling)", READINGS, "effect"),
    ),
    outputs=(
        fw.Output("max_effect", "Largest Effect"),
        fw.Output("chance", "Chance of success"),
        fw.Output("rolls", "Rolls gained"),
        fw.Output("attempts", "Attempts per battle"),
        fw.Output("retry", "May roll again"),
    ),
    compute=_compute,
    answer=_summary,
    uses=(
        "rules_core.tactics.tactics_difficulties",
        "rules_core.tactics.tactics_max_effect",
        "rules_core.tactics.tactics_rolls",
        "rules_core.tactics.tactics_attempts",
        "rules_core.tactics.may_retry_tactics",
        "rules_core.checks.success_chance",
        "rules_core.checks.effect",
        "rules_core.checks.check_distribution",
        "rules_core.dice.map_values",
    ),
    rules=(rule("tactics.tactics"), rule("check"), rule("tactics.count")),
)
