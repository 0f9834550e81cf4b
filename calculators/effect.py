"""Effect calculator: the chance to succeed at a check and, given a roll, its Effect.

Rules: Core Mechanics § Dice Roll, § Effect, § Advantage and Disadvantage.
All maths is in :mod:`rules_core.checks`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators import parts
from calculators.format import number, percent, signed, term
from calculators.parts import difficulty_input, modifier_input, roll_input
from calculators.parts.links import rule
from rules_core import action_options, checks
from rules_core.tables import constant

__all__ = ["CALCULATOR"]

RECKLESS_BONUS: int = action_options.reckless_roll_modifier()
RECKLESS_EFFECT_PENALTY: int = constant("action_options", "reckless_effect_penalty")
RECKLESS_FAIL_PENALTY: int = constant("action_options", "reckless_fail_penalty")
RECKLESS_READINGS = parts.enum_choices(action_options.RecklessReading, penalty=RECKLESS_EFFECT_PENALTY)
COSTLY_READINGS = parts.enum_choices(
    checks.CostlySuccessReading, added=constant("check_constants", "costly_success_addend")
)


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """Chance of success (exact, as a percentage) and, when a roll is given, the Effect and outcome.

    With the reckless option the roll gains its DM and the result follows Actions § Reckless Action;
    with costly success a failure becomes a success effect of 0 at a larger fail effect.
    """
    modifier, difficulty = values["modifier"], values["difficulty"]
    advantage, disadvantage, roll = values["advantage"], values["disadvantage"], values["roll"]
    reckless, costly = values["reckless"], values["costly_success"]
    if reckless and costly:
        raise fw.FieldError("Pick a reckless action or a costly success, not both.", "costly_success")
    steps = []
    if reckless:
        steps.append(fw.Step(f"Reckless: {signed(RECKLESS_BONUS)} DM on the roll.", rule("reckless")))
        modifier += RECKLESS_BONUS
    with fw.on_field("advantage"):
        net = checks.net_advantage(advantage, disadvantage)
    if abs(modifier) > checks.MAX_MODIFIER:
        raise fw.FieldError(
            f"With the reckless {signed(RECKLESS_BONUS)}, keep the modifier at most "
            f"{checks.MAX_MODIFIER - RECKLESS_BONUS}.",
            "modifier",
        )
    with fw.on_field("difficulty"):
        chance = checks.success_chance(modifier, difficulty, advantage, disadvantage)
    dice = parts.check_dice(net)
    steps += [
        fw.Step(
            f"Advantage {advantage} and disadvantage {disadvantage} cancel: net {signed(net)}.",
            rule("advantage"),
        ),
        fw.Step(f"Roll {dice}.", rule("advantage")),
        fw.Step(
            f"Succeed when the dice{term(modifier)} reach difficulty {difficulty}: "
            f"chance {percent(chance)} (exact: {chance.numerator}/{chance.denominator}).",
            rule("check"),
        ),
    ]
    outputs = {"chance": percent(chance)}
    if roll is not None:
        total = roll + modifier
        eff = checks.effect(total, difficulty)
        outputs["effect"] = signed(eff)
        outputs["outcome"] = "success" if eff >= 0 else "failure"
        steps.append(
            fw.Step(
                f"Effect = roll {roll}{term(modifier)} \u2212 difficulty {difficulty} = {signed(eff)}: "
                f"{outputs['outcome']}.",
                rule("effect"),
            )
        )
        outputs["success_effect"], outputs["fail_effect"] = str(max(eff, 0)), str(max(-eff, 0))
        if reckless:
            _reckless(eff, values["reckless_reading"], outputs, steps)
        elif costly:
            _costly(eff, values["costly_reading"], outputs, steps)
    return fw.Result(
        outputs=outputs, working=tuple(steps), charts=(parts.check_chart(advantage, disadvantage, roll),)
    )


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """The chance, and with a roll its Effect and outcome, in one line."""
    head = f"{out['chance']} chance to reach {number(values['difficulty'])}"
    return parts.sentence(head, out, effect="your roll: Effect {effect}, {outcome}")


def _next(values: Mapping[str, Any], out: Mapping[str, str]) -> tuple[fw.Handoff, ...]:
    """A fail effect left by the roll (a failure, a costly success's price, a reckless success's harm)
    goes on to the mitigation calculator (Core Mechanics § Mitigating Factors, § Costly Success)."""
    fail = int(out.get("fail_effect", "0") or "0")
    if not fail:
        return ()
    whose = {"costly success": "the costly success's", "success, with harm": "the reckless success's"}
    text = f"mitigate {whose.get(out['outcome'], 'the')} fail effect of {fail}"
    return (fw.Handoff(text, "calculators/mitigation.md", (("fail_effect", str(fail)),)),)


def _reckless(eff: int, reading: str, outputs: dict[str, str], steps: list[fw.Step]) -> None:
    """Resolve the roll as a reckless action (Actions § Reckless Action)."""
    result = action_options.reckless_action(eff, reading)
    outputs["success_effect"], outputs["fail_effect"] = str(result.success_effect), str(result.fail_degree)
    if not result.success:
        outputs["outcome"] = "failure"
        text = f"Reckless failure: the fail effect grows by {RECKLESS_FAIL_PENALTY} to {result.fail_degree}."
    elif result.fail_degree:
        outputs["outcome"] = "success, with harm"
        text = (
            f"Reckless success: success effect {result.success_effect}; the Effect less "
            f"{RECKLESS_EFFECT_PENALTY} is {number(eff - RECKLESS_EFFECT_PENALTY)}, so you also suffer "
            f"a fail effect of {result.fail_degree}."
        )
    else:
        text = (
            f"Reckless success: success effect {result.success_effect}; "
            f"the Effect less {RECKLESS_EFFECT_PENALTY} is not below 0."
        )
    steps.append(fw.Step(text, rule("reckless")))
    steps.append(fw.Step(f"Reading: {reading.replace('_', ' ')}.", rule("effect.reckless_ruling")))


def _costly(eff: int, reading: str, outputs: dict[str, str], steps: list[fw.Step]) -> None:
    """Turn a failure into a costly success (Core Mechanics § Costly Success)."""
    if eff >= 0:
        steps.append(fw.Step("The roll succeeded: no costly success is needed.", rule("costly")))
        return
    result = checks.costly_success(eff, checks.CostlySuccessReading(reading))
    outputs["outcome"] = "costly success"
    outputs["success_effect"], outputs["fail_effect"] = str(result.success_effect), str(result.fail_degree)
    steps.append(
        fw.Step(
            f"Costly success: success effect {result.success_effect}, and the fail effect of "
            f"{-eff} becomes {result.fail_degree} (reading: {reading}).",
            rule("costly"),
        )
    )
    steps.append(fw.Step("Why this reading: see the ruling.", rule("effect.costly_ruling")))


CALCULATOR = fw.Calculator(
    title="Effect calculator",
    summary="Chance to succeed at a check and, for a roll, its Effect.",
    inputs=(
        modifier_input("modifier", "Modifier (DM)", help="Total of every DM on the roll."),
        difficulty_input(f"{checks.default_difficulty()} unless the referee sets another."),
        *parts.advantage_inputs("Count of advantages.", "Count of disadvantages."),
        roll_input(
            "Roll (two kept dice)",
            "Optional: the total of the two dice you kept, before modifiers.",
            "not rolled",
        ),
        fw.BoolInput(
            "reckless",
            "Reckless action",
            help=(
                f"{signed(RECKLESS_BONUS)} DM, but the Effect is taken "
                f"{RECKLESS_EFFECT_PENALTY} lower afterwards."
            ),
        ),
        fw.ChoiceInput(
            "reckless_reading",
            "Reckless success counts (ruling)",
            RECKLESS_READINGS,
            action_options.RecklessReading.FULL_SUCCESS.value,
            help="The chapter describes it twice; see the rulings.",
        ),
        fw.BoolInput("costly_success", "Costly success", help="On a failure, pay a price to succeed anyway."),
        fw.ChoiceInput(
            "costly_reading",
            "Costly fail effect (ruling)",
            COSTLY_READINGS,
            checks.CostlySuccessReading.DEGREE.value,
            help="The source's example uses the degree; see the rulings.",
        ),
    ),
    outputs=(
        fw.Output("chance", "Chance of success"),
        fw.Output("effect", "Effect"),
        fw.Output("outcome", "Outcome"),
        fw.Output("success_effect", "Success effect"),
        fw.Output("fail_effect", "Fail effect"),
    ),
    compute=_compute,
    answer=_summary,
    handoffs=_next,
    uses=(
        "rules_core.checks.success_chance",
        "rules_core.checks.effect",
        "rules_core.checks.net_advantage",
        "rules_core.checks.costly_success",
        "rules_core.action_options.reckless_action",
        "rules_core.action_options.reckless_roll_modifier",
    ),
    rules=(rule("check"), rule("effect"), rule("advantage"), rule("costly"), rule("reckless")),
)
