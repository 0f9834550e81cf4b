"""Hit location roller: a random (or given) 2d6 location, its side, and what damage there does.

Rules: Actions § Targeted Attack (location table, 1d6 for the side of a hand or
foot); Outcomes § Targeted Damage. Ruling: targeted damage thresholds rounding.
Rolling uses a ``random.Random`` seeded from the ``seed`` input, so a roll can be
shared as a link; all maths is in :mod:`rules_core.targeting`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from calculators import framework as fw
from calculators import parts
from calculators.format import signed
from calculators.parts.links import rule
from rules_core import limits, targeting

__all__ = ["CALCULATOR", "MAX_SEED"]


MAX_SEED = limits.MAX_SEED
"""Largest seed; the page draws a fresh one below it when the field is empty."""

ROUNDINGS = parts.enum_choices(targeting.Rounding, "hit_location")


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """The location of the given roll (or rolled from the seed), its side, and a targeted effect."""
    seed, roll, side_roll = values["seed"], values["roll"], values["side_roll"]
    hp, damage = values["hp"], values["damage"]
    steps: list[fw.Step] = []
    outputs: dict[str, str] = {}
    side: str | None = None
    if roll is not None:
        with fw.on_field("roll"):
            location = targeting.hit_location(roll)
        steps.append(fw.Step(f"Your 2d6 roll {roll}: {location.location}.", rule("hit_location.targeted")))
        if location.sided and side_roll is not None:
            side = targeting.side(side_roll)
            steps.append(
                fw.Step(f"Your 1d6 roll {side_roll}: the {side} side.", rule("hit_location.targeted"))
            )
    elif seed is not None:
        location, side = targeting.roll_hit_location(random.Random(seed))
        steps.append(
            fw.Step(
                f"Rolled 2d6 (roll number {seed}): {location.roll}, {location.location}.",
                rule("hit_location.targeted"),
            )
        )
        if side is not None:
            steps.append(
                fw.Step(f"Hands and feet: rolled 1d6 for the side: {side}.", rule("hit_location.targeted"))
            )
    else:
        location = None
        steps.append(
            fw.Step(
                "Press Roll (or enter your own 2d6 roll) to pick a location.", rule("hit_location.targeted")
            )
        )
    if location is not None:
        outputs |= {
            "roll": str(location.roll),
            "location": location.location,
            "difficulty": signed(location.difficulty),
        }
        if location.sided:
            outputs["side"] = side if side is not None else "roll 1d6: 1-3 primary, 4-6 secondary"
        steps.append(
            fw.Step(
                f"Aiming there raises the Difficulty by {location.difficulty}."
                if location.difficulty
                else "Aiming there does not change the Difficulty.",
                rule("hit_location.targeted"),
            )
        )
        if location.area is None:
            outputs["effect"] = "none"
        elif hp is not None:
            with fw.on_field("hp"):
                threshold = targeting.area_threshold(
                    location.area, hp, rounding=targeting.Rounding(values["rounding"])
                )
            what = next(e for e in targeting.targeted_effects(hp) if e.area == location.area).effect
            outputs["threshold"] = f"{threshold} damage ({what})"
            steps.append(
                fw.Step(
                    f"One hit of {threshold} or more damage there ({location.area}, HP {hp}): {what}.",
                    rule("targeted_damage"),
                )
            )
            if damage is not None:
                with fw.on_field("damage"):
                    found = targeting.targeted_effect(
                        location.area, damage, hp, rounding=targeting.Rounding(values["rounding"])
                    )
                outputs["effect"] = found or "none"
                steps.append(fw.Step(f"{damage} damage: {outputs['effect']}.", rule("targeted_damage")))
    chart = fw.Chart(
        key="locations",
        caption="Chance of each 2d6 roll ("
        + "; ".join(f"{r.roll} {r.location}" for r in targeting.hit_locations())
        + ")",
        x_label="2d6 roll",
        y_label="Chance",
        points=tuple((row.roll, row.odds) for row in targeting.hit_locations()),
        highlight=(location.roll,) if location is not None else (),
    )
    return fw.Result(outputs=outputs, working=tuple(steps), charts=(chart,))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """Where the hit lands and what it does, in one line."""
    if "location" not in out:
        return "Enter the 2d6 roll, or a roll number, to find where the hit lands."
    side = f" ({out['side']})" if out.get("side") not in (None, "", "\u2014") else ""
    text = f"Roll {out['roll']}: {out['location']}{side}"
    if out.get("effect", "none") != "none":
        text += f"; {out['effect']}"
    return text + "."


CALCULATOR = fw.Calculator(
    title="Hit location roller",
    summary="Roll a random hit location (or read your own roll) and see what damage there does.",
    inputs=(
        parts.seed_input(),
        fw.OptionalIntInput("hp", "Target's HP", 1, limits.MAX_HIT_POINTS, placeholder="optional"),
        fw.OptionalIntInput("damage", "Damage of the hit", 0, limits.MAX_DAMAGE, placeholder="optional"),
        parts.roll_input("Your own 2d6 roll", "Rolled real dice? It replaces the roll."),
        fw.OptionalIntInput(
            "side_roll",
            "Your 1d6 for the side",
            limits.SIDE_ROLL_MIN,
            limits.SIDE_ROLL_MAX,
            placeholder="optional",
        ),
        fw.ChoiceInput("rounding", "Thresholds (ruling)", ROUNDINGS, "down"),
    ),
    outputs=(
        fw.Output("roll", "2d6"),
        fw.Output("location", "Location"),
        fw.Output("side", "Side"),
        fw.Output("difficulty", "Targeting difficulty"),
        fw.Output("threshold", "Extra effect from"),
        fw.Output("effect", "Extra effect"),
    ),
    compute=_compute,
    answer=_summary,
    uses=(
        "rules_core.targeting.roll_hit_location",
        "rules_core.targeting.hit_location",
        "rules_core.targeting.side",
        "rules_core.targeting.hit_locations",
        "rules_core.targeting.area_threshold",
        "rules_core.targeting.targeted_effects",
        "rules_core.targeting.targeted_effect",
    ),
    rules=(rule("hit_location.targeted"), rule("targeted_damage"), rule("hit_location.rounding_ruling")),
)
