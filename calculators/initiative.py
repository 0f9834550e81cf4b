"""Initiative: yours (prepared, unprepared or ambushing, with a Tactics bonus) and the order of action.

Rules: Actions § Combat Round Summary, § Initiative. Rulings: the three initiative
formulas; a failed Tactics check and initiative. All maths is in
:mod:`rules_core.initiative` and :mod:`rules_core.checks`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators.format import number, percent, signed
from calculators.parts import (
    CHARACTERISTICS,
    chance_chart,
    characteristic_input,
    modifier_input,
    optional_characteristic_input,
    roll_input,
    sentence,
)
from calculators.parts.check_parts import chm_text
from calculators.parts.links import rule
from rules_core import checks, dice, limits
from rules_core import initiative as rules
from rules_core.tables import int_constant

__all__ = ["CALCULATOR", "parse_combatants"]


MAX_OTHERS = 20
"""Most other combatants the text field takes (one line each at the table)."""

MAX_NAME = limits.MAX_NAME
MAX_SCORE = limits.MAX_INITIATIVE
AMBUSH_ROLL = int_constant("initiative", "ambush_roll")
"""What an ambusher's dice count as, unrolled (Actions § Initiative)."""
YOU = "You"

CHARACTERISTIC_CHOICES = tuple((key, key.capitalize()) for key in CHARACTERISTICS)
"""Any characteristic may lead a prepared roll (Actions § Combat Round Summary > Initiative)."""

_ENTRY = re.compile(r"^(?P<name>.*?)\s*(?P<score>[+\-\u2212]?\d{1,3})$")


def parse_combatants(text: str) -> tuple[tuple[str, int], ...]:
    """Read ``Bo 9, Cy 7``: each other combatant's name and initiative, separated by commas or lines."""
    entries = [part.strip() for part in re.split(r"[,;\n]", text) if part.strip()]
    if len(entries) > MAX_OTHERS:
        raise ValueError(f"list at most {MAX_OTHERS} combatants.")
    seen: set[str] = set()
    found = []
    for entry in entries:
        match = _ENTRY.match(entry)
        if not match or not match["name"]:
            raise ValueError(f"write each as a name and an initiative, like Bo 9 (not {entry[:20]!r}).")
        name = " ".join(match["name"].split())
        if len(name) > MAX_NAME:
            raise ValueError(f"a name has at most {MAX_NAME} characters.")
        if name.casefold() in seen or name.casefold() == YOU.casefold():
            raise ValueError(f"the name {name} appears twice.")
        seen.add(name.casefold())
        score = int(match["score"].replace("\u2212", "-"))
        if abs(score) > MAX_SCORE:
            raise ValueError(f"an initiative must be between -{MAX_SCORE} and {MAX_SCORE}.")
        found.append((name, score))
    return tuple(found)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """Your initiative (or its chances before rolling) and where you act among the others."""
    dexterity, skill, roll = values["dexterity"], values["skill"], values["roll"]
    ambush, unprepared = values["ambush"], values["unprepared"]
    if ambush and unprepared:
        raise fw.FieldError("Choose ambushing or caught unprepared, not both.", "unprepared")
    with fw.on_field("dexterity"):
        dex_dm = checks.characteristic_modifier(dexterity)
    with fw.on_field("tactics_effect"):
        bonus = rules.tactics_initiative_bonus(
            values["tactics_effect"], negative_counts=values["negative_tactics"]
        )
    steps = [fw.Step(f"{chm_text('Dexterity', dexterity)}.", rule("chm"))]
    chosen, chm = values["characteristic"], dex_dm
    if chosen != "dexterity" and not (ambush or unprepared):
        if values["score"] is None:
            raise fw.FieldError(f"Give the {chosen.capitalize()} score, or choose Dexterity.", "score")
        with fw.on_field("score"):
            chm = checks.characteristic_modifier(values["score"])
        steps.append(
            fw.Step(
                f"{chm_text(chosen.capitalize(), values['score'])} leads the roll "
                "(any characteristic modifier when prepared).",
                rule("chm"),
            )
        )
    elif chosen != "dexterity":
        steps.append(
            fw.Step(
                "Ambushing or caught unprepared: Dexterity, whatever the skill.",
                rule("initiative.initiative"),
            )
        )
    if ambush:

        def score(dice_roll: int) -> int:  # ambushers do not roll: the dice count as AMBUSH_ROLL
            return rules.ambush_initiative(dex_dm, bonus)

        steps.append(
            fw.Step(
                f"Ambushing: no roll, the dice count as {AMBUSH_ROLL}: "
                f"{AMBUSH_ROLL} + Dexterity DM {signed(dex_dm)}.",
                rule("initiative.initiative"),
            )
        )
    elif unprepared:

        def score(dice_roll: int) -> int:
            return rules.unprepared_initiative(dice_roll, dex_dm, bonus)

        steps.append(
            fw.Step(
                f"Caught unprepared: 2d6 + Dexterity DM {signed(dex_dm)}, no skill.",
                rule("initiative.initiative"),
            )
        )
    else:

        def score(dice_roll: int) -> int:
            return rules.initiative(dice_roll, chm, skill, bonus)

        steps.append(
            fw.Step(
                f"Prepared: 2d6 + DM {signed(chm)} + skill {skill} (Recon, Tactics or a weapon).",
                rule("initiative.formula"),
            )
        )
    if values["tactics_effect"]:
        steps.append(
            fw.Step(
                f"Tactics Effect {signed(values['tactics_effect'])}: {signed(bonus)} for everyone in "
                "the unit in direct contact with the tactician.",
                rule("initiative.negative"),
            )
        )
    outputs: dict[str, str] = {}
    charts: tuple[fw.Chart, ...] = ()
    if ambush or roll is not None:
        with fw.on_field("roll"):
            mine = score(roll if roll is not None else AMBUSH_ROLL)
        outputs["initiative"] = number(mine)
        steps.append(fw.Step(f"Initiative: {number(mine)}.", rule("initiative.initiative")))
        scores = {YOU: mine, **dict(values["others"] or ())}
        with fw.on_field("others"):
            order = rules.initiative_order(scores)
        outputs["order"] = ", ".join(f"{name} {number(scores[name])}" for name in order)
        outputs["position"] = f"{_ordinal(order.index(YOU) + 1)} of {len(order)}"
        steps.append(
            fw.Step(
                "Highest initiative acts first; on a tie you are listed first (the rules do not break ties).",
                rule("initiative.formula"),
            )
        )
    else:
        totals = dice.map_values(checks.check_distribution(), score)
        charts = (
            chance_chart("initiative", "Chance of each initiative before you roll", "Initiative", totals),
        )
        low, high = min(totals), max(totals)
        outputs["initiative"] = f"{number(low)} to {number(high)}"
        steps.append(
            fw.Step(
                f"Not rolled yet: {outputs['initiative']}. Enter your 2d6 roll to place you.",
                rule("initiative.initiative"),
            )
        )
        if values["others"]:
            outputs["ahead"] = "; ".join(
                f"{name} {percent(dice.chance_at_least(totals, other + 1))}"
                for name, other in values["others"]
            )
            steps.append(
                fw.Step(
                    "Chance to beat each before rolling: a higher initiative, ties not counted.",
                    rule("initiative.order"),
                )
            )
    return fw.Result(outputs=outputs, working=tuple(steps), charts=charts)


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """Your initiative and your place in the order (or your odds), in one line."""
    return sentence(
        f"Your initiative: {out['initiative']}",
        out,
        position="you act {position}",  # after the roll
        ahead="chance to act before {ahead}",  # before it, against the others
    )


CALCULATOR = fw.Calculator(
    title="Initiative",
    summary="Your initiative when prepared, unprepared or ambushing, and the order of action.",
    inputs=(
        characteristic_input("dexterity", "Dexterity", help="The characteristic; its DM is worked out."),
        fw.ChoiceInput(
            "characteristic",
            "Characteristic when prepared",
            CHARACTERISTIC_CHOICES,
            "dexterity",
            help="Any characteristic modifier with the relevant skill; ambush and unprepared use Dexterity.",
        ),
        optional_characteristic_input(
            "score", "Its score", "Only when the characteristic is not Dexterity.", placeholder="Dexterity"
        ),
        fw.IntInput(
            "skill", "Skill", 0, 0, checks.MAX_SKILL, help="Recon, Tactics or the weapon skill you lead with."
        ),
        roll_input("Roll (2d6)", "Your two dice, once rolled.", "not rolled"),
        fw.BoolInput("ambush", "Ambushing (ready while the foes are not)"),
        fw.BoolInput("unprepared", "Caught unprepared (ambushed, or nobody ready)"),
        modifier_input(
            "tactics_effect", "Tactics Effect", help="Effect of your unit's tactician's check (0 if none)."
        ),
        fw.BoolInput("negative_tactics", "A failed Tactics check lowers initiative", default=True),
        fw.TextInput(
            "others",
            "Other combatants",
            "Bo 9, Cy 7",
            max_length=400,
            required=False,
            placeholder="Bo 9, Cy 7",
            help="Name and initiative of each, separated by commas.",
            parser=parse_combatants,
        ),
    ),
    outputs=(
        fw.Output("initiative", "Your initiative"),
        fw.Output("position", "You act"),
        fw.Output("order", "Order of action"),
        fw.Output("ahead", "Chance to beat"),
    ),
    compute=_compute,
    answer=_summary,
    uses=(
        "rules_core.checks.characteristic_modifier",
        "rules_core.checks.check_distribution",
        "rules_core.dice.map_values",
        "rules_core.dice.chance_at_least",
        "rules_core.initiative.initiative",
        "rules_core.initiative.unprepared_initiative",
        "rules_core.initiative.ambush_initiative",
        "rules_core.initiative.tactics_initiative_bonus",
        "rules_core.initiative.initiative_order",
    ),
    rules=(
        rule("initiative.initiative"),
        rule("initiative.order"),
        rule("initiative.formula"),
        rule("initiative.negative"),
    ),
)
