"""Stealth and search: whether a way of hiding meets a way of looking, and the roll when one decides.

Rules: Actions § List of Minor Actions (Quick Scan, Minor Stealth), § Deliberate Stealth, § Scan/Search;
Core Mechanics § Stealth Rolls, § Unskilled Penalty. Rulings: search modifiers, the stealth skill, which
look beats which hiding. All maths is in :mod:`rules_core.stealth`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from calculators import framework as fw
from calculators.format import percent, signed, term
from calculators.parts import advantage_inputs, enum_choices, modifier_input
from calculators.parts.links import rule
from rules_core import checks, stealth

__all__ = ["CALCULATOR"]


SIDES = (("hide", "I hide"), ("search", "I search"))
HIDING = enum_choices(stealth.Hiding)
WATCHING = enum_choices(stealth.Watching)
READINGS = enum_choices(stealth.StealthRollReading)
_WORDS = {
    stealth.Detection.HIDDEN: "hidden, no roll",
    stealth.Detection.SEEN: "seen, no roll",
    stealth.Detection.ROLL: "a roll decides",
}


def _skill(value: int | None) -> str:
    return f"no skill ({signed(checks.unskilled_penalty())})" if value is None else f"skill {value}"


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """The matchup first; when a roll decides, its Difficulty built term by term and the chance."""
    hiding_side = values["side"] == "hide"
    hiding, watching = values["hiding"], values["watching"]
    found = stealth.detection(hiding, watching, reading=values["reading"])
    hider = "you" if hiding_side else "the adversary"
    looker = "the adversary" if hiding_side else "you"
    hide_name = dict(HIDING)[hiding].lower()
    look_name = dict(WATCHING)[watching].lower()
    link = rule("stealth.deliberate") if hiding == stealth.Hiding.DELIBERATE else rule("stealth.minor")
    if watching == stealth.Watching.QUICK_SCAN:
        link = rule("stealth.quick_scan")
    steps = [
        fw.Step(
            f"{hider.capitalize()} in {hide_name}, {looker}: {look_name}. Outcome: {_WORDS[found]}.", link
        ),
    ]
    if found is not stealth.Detection.ROLL:
        steps.append(
            fw.Step(
                "Only one in line of sight (or known indirectly) can be found at all.",
                rule("stealth.detection"),
            )
        )
        outcome = "hidden" if found is stealth.Detection.HIDDEN else "seen"
        sure = Fraction(int(hiding_side == (outcome == "hidden")))
        return fw.Result(outputs={"outcome": outcome, "chance": percent(sure)}, working=tuple(steps))
    adversary_chm, adversary_skill = values["adversary_chm"], values["adversary_skill"]
    if hiding_side:
        with fw.on_field("adversary_skill"):
            difficulty = stealth.deliberate_stealth_difficulty(
                adversary_skill,
                adversary_chm,
                adversary_conditions=values["conditions"],
                hiding_factors=values["hiding_factors"],
            )
        roll_name, their = "Stealth (Recon or Streetwise)", "Recon"
        extra = f" + their conditions {values['conditions']} \u2212 what hides you {values['hiding_factors']}"
        link = rule("stealth.deliberate")
    else:
        with fw.on_field("adversary_skill"):
            difficulty = stealth.scan_difficulty(
                adversary_skill, adversary_chm, conditions=values["conditions"]
            )
        roll_name, their = "Recon", "Stealth"
        extra = f" + conditions that hide them {values['conditions']}"
        link = rule("stealth.search")
    steps.append(
        fw.Step(
            f"Difficulty {checks.default_difficulty()} + their {their} ({_skill(adversary_skill)}) + their "
            f"ChM {signed(adversary_chm)}{extra} = {difficulty}.",
            link,
        )
    )
    with fw.on_field("advantage"):
        chance = stealth.roll_chance(
            values["modifier"], difficulty, values["advantage"], values["disadvantage"]
        )
    steps.append(
        fw.Step(
            f"You roll {roll_name}: 2d6{term(values['modifier'])} against {difficulty}: {percent(chance)}.",
            rule("stealth.skill") if hiding_side else rule("stealth.modifiers"),
        )
    )
    return fw.Result(
        outputs={"outcome": "roll", "difficulty": str(difficulty), "chance": percent(chance)},
        working=tuple(steps),
    )


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """Who stays hidden, in one line."""
    goal = "stay hidden" if values["side"] == "hide" else "find them"
    if out["outcome"] == "roll":
        return f"Roll against {out['difficulty']}: you {goal} {out['chance']} of the time."
    if out["outcome"] == "hidden":
        return (
            "Hidden without a roll." if values["side"] == "hide" else "They stay hidden: no roll finds them."
        )
    return "Seen without a roll." if values["side"] == "hide" else "Found without a roll."


CALCULATOR = fw.Calculator(
    title="Stealth and search",
    summary="Whether hiding beats looking without a roll, and the Difficulty and chance when a roll decides.",
    inputs=(
        fw.ChoiceInput("side", "The question", SIDES, "hide"),
        fw.ChoiceInput("hiding", "The hider uses", HIDING, stealth.Hiding.DELIBERATE.value),
        fw.ChoiceInput("watching", "The looker uses", WATCHING, stealth.Watching.SEARCH.value),
        modifier_input(
            "modifier", "Your DM", 0, help="Your skill (Stealth: Recon or Streetwise; search: Recon) and ChM."
        ),
        modifier_input("adversary_chm", "Their ChM", 0),
        fw.OptionalIntInput(
            "adversary_skill",
            "Their skill",
            0,
            checks.MAX_SKILL,
            default=0,
            help="Their Recon when you hide, their stealth skill when you search. "
            f"Empty: none ({signed(checks.unskilled_penalty())}).",
            placeholder="none",
        ),
        fw.IntInput(
            "conditions",
            "Conditions",
            0,
            -checks.MAX_MODIFIER,
            checks.MAX_MODIFIER,
            help="You hide: theirs (sensors, alertness). You search: what hides them (range, cover, noise).",
        ),
        fw.IntInput(
            "hiding_factors",
            "What hides you",
            0,
            0,
            stealth.MAX_HIDING_FACTORS,
            help="Range, concealment, cover, terrain: lowers your stealth Difficulty.",
        ),
        *advantage_inputs(),
        fw.ChoiceInput("reading", "Deliberate stealth rolls (ruling)", READINGS, "against_search"),
    ),
    outputs=(
        fw.Output("outcome", "Outcome"),
        fw.Output("difficulty", "Difficulty"),
        fw.Output("chance", "Your chance"),
    ),
    compute=_compute,
    answer=_summary,
    shown_when={"hiding_factors": (("side", "hide"),)},
    folded=frozenset({"advantage", "disadvantage"}),
    folded_label="More: advantage",
    uses=(
        "rules_core.stealth.detection",
        "rules_core.stealth.deliberate_stealth_difficulty",
        "rules_core.stealth.scan_difficulty",
        "rules_core.stealth.roll_chance",
    ),
    rules=(
        rule("stealth.minor"),
        rule("stealth.quick_scan"),
        rule("stealth.deliberate"),
        rule("stealth.search"),
        rule("stealth.detection"),
    ),
)
