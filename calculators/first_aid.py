"""First aid: how many rounds it takes when the medic rolls every round, as exact odds.

Rules: Outcomes § First Aid (Duration, Difficulty, Time Reduction); Actions § Extended Actions, § Full Actions
(Rolling). Rulings: first aid time, first aid as an extended action. Maths: :mod:`rules_core.healing`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators.format import decimal, percent, plural, term
from calculators.parts import advantage_inputs, chance_chart, check_dice, enum_choices, modifier_input
from calculators.parts.links import rule
from rules_core import checks, healing
from rules_core.tables import int_constant

__all__ = ["CALCULATOR"]

FULL_ROUNDS = int_constant("medical", "first_aid_rounds")
READINGS = enum_choices(healing.FirstAidReading)


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """One round's chance, then the exact chance of being done within each round and the mean."""
    modifier, on_self, within = values["modifier"], values["on_self"], values["within"]
    advantage, disadvantage, reading = values["advantage"], values["disadvantage"], values["reading"]
    difficulty = healing.first_aid_difficulty(on_self=on_self)
    with fw.on_field("advantage"):
        net = checks.net_advantage(advantage, disadvantage)
        chance = checks.success_chance(
            checks.within_check_range(modifier), difficulty, advantage, disadvantage
        )
    with fw.on_field("within"):
        odds = healing.first_aid_duration(
            modifier,
            on_self=on_self,
            advantage=advantage,
            disadvantage=disadvantage,
            horizon=max(within, FULL_ROUNDS),
            reading=reading,
        )
    done = odds.finished_by[within - 1]
    whose = "yourself" if on_self else "someone else"
    steps = [
        fw.Step(
            f"First aid on {whose}: {check_dice(net)}{term(modifier)} against {difficulty} every round, "
            f"{percent(chance)} a round.",
            rule("first_aid"),
        ),
        fw.Step(
            f"{FULL_ROUNDS} rounds less each round's success "
            "effect; a significant action every round, nothing else meanwhile.",
            rule("first_aid.action"),
        ),
    ]
    outputs = {"round_chance": percent(chance), "within": percent(done)}
    if reading == healing.FirstAidReading.SHORTENING_ONLY:
        steps.append(
            fw.Step(
                f"A fail effect only undoes time saved: never past {FULL_ROUNDS} rounds.",
                rule("first_aid.time"),
            )
        )
    else:
        steps.append(
            fw.Step(f"A fail effect puts rounds back, up to the full {FULL_ROUNDS}.", rule("first_aid.time"))
        )
    if odds.expected_rounds is None:
        outputs["expected"] = "never"
        steps.append(fw.Step("No roll can succeed: the treatment never ends.", rule("extended")))
    else:
        outputs["expected"] = decimal(odds.expected_rounds)
        steps.append(
            fw.Step(
                f"On average {outputs['expected']} rounds; done within "
                f"{plural(within, 'round')}: {percent(done)}.",
                rule("extended"),
            )
        )
    points = {n: p for n, p in enumerate(odds.finished_by, start=1) if p > 0 or n == within}
    chart = chance_chart("done", "Chance first aid is done by each round", "Rounds", points, (within,))
    return fw.Result(outputs=outputs, working=tuple(steps), charts=(chart,))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """The mean and the chance within the rounds asked."""
    if out["expected"] == "never":
        return "This medic can never finish first aid: no roll succeeds."
    return (
        f"First aid takes {out['expected']} rounds on average; done within "
        f"{plural(values['within'], 'round')} {out['within']} of the time."
    )


CALCULATOR = fw.Calculator(
    title="First aid duration",
    summary="How many rounds first aid takes when the medic rolls every round, as exact odds.",
    inputs=(
        modifier_input("modifier", "Medic DM", 0, help="Medic skill and ChM, and any tools."),
        fw.BoolInput(
            "on_self",
            "On oneself",
            help=f"Difficulty {healing.first_aid_difficulty(on_self=True)} "
            f"instead of {healing.first_aid_difficulty()}.",
        ),
        fw.IntInput(
            "within",
            "Done within (rounds)",
            20,
            1,
            healing.MAX_FIRST_AID_HORIZON,
            help="The chance the treatment is over by then.",
        ),
        *advantage_inputs(),
        fw.ChoiceInput("reading", "A fail effect loses (ruling)", READINGS, "shortening_only"),
    ),
    outputs=(
        fw.Output("expected", "Rounds on average"),
        fw.Output("within", "Done in time"),
        fw.Output("round_chance", "A round's success"),
    ),
    compute=_compute,
    answer=_summary,
    folded=frozenset({"advantage", "disadvantage"}),
    folded_label="More: advantage",
    uses=(
        "rules_core.healing.first_aid_duration",
        "rules_core.healing.first_aid_difficulty",
        "rules_core.checks.success_chance",
    ),
    rules=(rule("first_aid"), rule("extended"), rule("first_aid.time"), rule("first_aid.action")),
)
