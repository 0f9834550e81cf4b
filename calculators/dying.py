"""Dying: the chance to survive N rounds of dying rolls, massive damage, and the bleeding timeline.

Rules: Outcomes § Hit Points, § Injury Conditions, § Bleeding, § Dying, § Massive Damage, § First Aid.
Rulings: the End roll (2d6 + End DM + wound penalty) and bleeding while dying.
All maths is in :mod:`rules_core.injury`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from calculators import framework as fw
from calculators.format import number, percent, plural, signed, term
from calculators.parts import (
    characteristic_inputs,
    sentence,
    threshold_reading_input,
)
from calculators.parts.injury_parts import bleeding_rate_text, state_text
from calculators.parts.links import rule
from rules_core import injury, limits
from rules_core.tables import int_constant

__all__ = ["CALCULATOR", "chance_text"]


MAX_CHARACTERISTIC = limits.MAX_CHARACTERISTIC
MAX_FORM_DAMAGE = limits.MAX_DAMAGE
MAX_FORM_ROUNDS = injury.MAX_SURVIVAL_ROUNDS
CHART_POINTS = 20
"""Most points drawn in the survival chart (evenly spread over the rounds)."""


def chance_text(p: Fraction) -> str:
    """A chance as a percentage with two decimals; a chance too small to show is "< 0.01%", not 0."""
    text = percent(p)
    return "< 0.01%" if p and text == "0.00%" else text


def _chart_rounds(rounds: int) -> list[int]:
    """At most CHART_POINTS round counts from 1 to ``rounds``, always ending on ``rounds``."""
    if rounds <= CHART_POINTS:
        return list(range(1, rounds + 1))
    return sorted({max(1, rounds * i // CHART_POINTS) for i in range(1, CHART_POINTS + 1)})


def _bleeding_timeline(damage: int, hp: int, reading: injury.ThresholdReading, best: int) -> list[fw.Step]:
    """One step per condition the bleeding reaches, ending when the character is dying."""
    steps = []
    minutes = injury.minutes_until_dying(damage, hp)
    current = injury.injury_condition(damage, hp, reading=reading, best_physical=best)
    limits = injury.injury_thresholds(hp, reading=reading, best_physical=best)
    for condition in (
        injury.InjuryCondition.WOUNDED,
        injury.InjuryCondition.SERIOUSLY_WOUNDED,
        injury.InjuryCondition.CRITICALLY_WOUNDED,
        injury.InjuryCondition.DYING,
    ):
        if condition.severity <= current.severity:
            continue
        least = limits.least_damage(condition)
        reached = (m for m in range(minutes + 1) if damage + injury.bleeding_damage_after(m) >= least)
        minute = next(reached, None)
        if minute is None:  # a threshold above HP (table reading) is never reached before dying
            continue
        steps.append(
            fw.Step(
                f"After {minute} min untreated: {damage + injury.bleeding_damage_after(minute)} damage, "
                f"{state_text(condition)}.",
                rule("bleeding"),
            )
        )
    return steps


def _massive(values: Mapping[str, Any], hp: int) -> list[fw.Step]:
    """The massive-damage roll, when the last attack alone dealt more than HP."""
    blow = values["attack_damage"]
    if blow is None:
        return []
    with fw.on_field("attack_damage"):
        if blow > values["damage"]:
            raise ValueError("One attack cannot deal more than the damage taken in all.")
        massive = injury.is_massive_damage(blow, hp)
    if not massive:
        return [
            fw.Step(
                f"Last attack {number(blow)} damage, not more than {hp} HP: no massive damage.",
                rule("massive"),
            )
        ]
    difficulty = int_constant("injury", "massive_damage_difficulty")
    chance = injury.massive_damage_survival_chance(values["endurance"], values["damage"])
    return [
        fw.Step(
            f"Last attack {number(blow)} damage, more than {hp} HP: massive damage. End roll against "
            f"{difficulty} with the wound penalty, once: survives {chance_text(chance)} of the time.",
            rule("massive"),
        ),
        fw.Step(
            "Failing it is death; passing leaves the character crippled, and dying.",
            rule("dying.massive_ruling"),
        ),
    ]


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """HP and condition; if dying, the exact chance to survive the rounds; if bleeding, when dying starts."""
    endurance, damage, rounds, bleeding = (
        values["endurance"],
        values["damage"],
        values["rounds"],
        values["bleeding"],
    )
    with fw.on_field("endurance"):
        hp = injury.hit_points(values["strength"], values["dexterity"], endurance)
    reading = injury.ThresholdReading(values["reading"])
    best = max(values["strength"], values["dexterity"], endurance)
    condition = injury.injury_condition(damage, hp, reading=reading, best_physical=best)
    modifier = injury.end_roll_modifier(endurance, damage)
    penalty = injury.wound_penalty(damage)
    outputs = {"hp": str(hp), "state": state_text(condition), "end_modifier": signed(modifier)}
    steps = [
        fw.Step(
            f"HP = Str + Dex + End = {hp}; {damage} damage: {state_text(condition)}.", rule("hit_points")
        ),
        fw.Step(
            f"End roll: 2d6 + End DM {signed(modifier - penalty)} + wound penalty {signed(penalty)} "
            f"= 2d6{term(modifier)}.",
            rule("dying.end_roll"),
        ),
    ]
    if bleeding and not injury.bleeds_from_roll(damage, hp, reading=reading, best_physical=best):
        least = injury.injury_thresholds(hp, reading=reading, best_physical=best).seriously_wounded
        raise fw.FieldError(
            f"Bleeding starts from one roll of at least {least} damage (the seriously wounded "
            f"threshold); {number(damage)} damage in all cannot include one.",
            "bleeding",
        )
    steps.extend(_massive(values, hp))
    if values["attack_damage"] is not None and injury.is_massive_damage(values["attack_damage"], hp):
        outputs["massive"] = chance_text(injury.massive_damage_survival_chance(endurance, damage))
    charts: list[fw.Chart] = []
    if condition is injury.InjuryCondition.DYING:
        one = injury.dying_roll_chance(endurance, damage)
        with fw.on_field("rounds"):
            survive = injury.survive_dying_rounds_chance(endurance, damage, rounds, bleeding=bleeding)
        hours = injury.stabilised_hours(endurance)
        outputs |= {
            "round_chance": percent(one),
            "survive": chance_text(survive),
            "stabilised": f"{hours} h",
            "minutes_to_dying": "now",
        }
        difficulty = int_constant("injury", "dying_roll_difficulty")
        steps.append(
            fw.Step(
                f"Each round: End roll against {difficulty} succeeds {percent(one)} of the time.",
                rule("dying"),
            )
        )
        if bleeding:
            steps.append(
                fw.Step(
                    f"Bleeding adds {bleeding_rate_text()}: the wound penalty grows as rounds pass.",
                    rule("dying.bleeding_ruling"),
                )
            )
        steps.append(fw.Step(f"Passing all {rounds} rolls in a row: {chance_text(survive)}.", rule("dying")))
        steps.append(fw.Step(f"First aid stabilises the character for {hours} hours (End).", rule("dying")))
        chart_rounds = _chart_rounds(rounds)
        charts.append(
            fw.Chart(
                key="survival",
                caption="Chance to be alive after each number of rounds"
                + (" (bleeding)" if bleeding else ""),
                x_label="Rounds",
                y_label="Chance alive",
                points=tuple(
                    (r, injury.survive_dying_rounds_chance(endurance, damage, r, bleeding=bleeding))
                    for r in chart_rounds
                ),
                highlight=(rounds,) if rounds else (),
            )
        )
    else:
        steps.append(fw.Step(f"Not dying yet: dying starts above {hp} damage.", rule("thresholds")))
        if bleeding:
            minutes = injury.minutes_until_dying(damage, hp)
            outputs["minutes_to_dying"] = f"{minutes} min"
            steps.append(
                fw.Step(
                    f"Bleeding: {bleeding_rate_text(rounds=False)}, from the minute after the wound.",
                    rule("bleeding"),
                )
            )
            steps.extend(_bleeding_timeline(damage, hp, reading, best))
    return fw.Result(outputs=outputs, working=tuple(steps), charts=tuple(charts))


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """The character's state and the odds that matter now, in one line."""
    head = f"{out['state'].capitalize()} ({number(values['damage'])} damage, {out['hp']} HP)"
    if "round_chance" in out:
        head += (
            f": {out['round_chance']} to survive a round, {out['survive']} to survive "
            f"{plural(values['rounds'], 'round')}"
        )
    return sentence(
        head,
        out,
        massive="{massive} to survive the massive damage",
        stabilised="first aid holds for {stabilised}",
    )


CALCULATOR = fw.Calculator(
    title="Dying and bleeding",
    summary="Your chance to survive the next rounds of dying rolls, and how soon bleeding leaves you dying.",
    inputs=(
        *characteristic_inputs(),
        fw.IntInput("damage", "Damage taken", 22, 0, MAX_FORM_DAMAGE, help="Total damage so far."),
        fw.IntInput(
            "rounds",
            "Rounds",
            3,
            0,
            MAX_FORM_ROUNDS,
            help=f"Dying rolls to survive ({int_constant('injury', 'rounds_per_minute')} rounds = 1 minute).",
        ),
        fw.OptionalIntInput(
            "attack_damage",
            "Damage of the last attack",
            0,
            MAX_FORM_DAMAGE,
            help="Optional: one attack's damage; more than HP calls for the massive-damage roll.",
        ),
        fw.BoolInput(
            "bleeding",
            "Bleeding",
            default=False,
            help="One condition, however many wounds started it.",
        ),
        threshold_reading_input(),
    ),
    outputs=(
        fw.Output("hp", "HP"),
        fw.Output("state", "Condition"),
        fw.Output("end_modifier", "End roll modifier"),
        fw.Output("massive", "Survive the massive damage"),
        fw.Output("round_chance", "Survive one round"),
        fw.Output("survive", "Survive all the rounds"),
        fw.Output("minutes_to_dying", "Bleeding: dying in"),
        fw.Output("stabilised", "First aid holds for"),
    ),
    compute=_compute,
    answer=_summary,
    uses=(
        "rules_core.injury.hit_points",
        "rules_core.injury.injury_condition",
        "rules_core.injury.injury_thresholds",
        "rules_core.injury.end_roll_modifier",
        "rules_core.injury.wound_penalty",
        "rules_core.injury.dying_roll_chance",
        "rules_core.injury.survive_dying_rounds_chance",
        "rules_core.injury.minutes_until_dying",
        "rules_core.injury.bleeding_damage_after",
        "rules_core.injury.stabilised_hours",
        "rules_core.injury.bleeds_from_roll",
        "rules_core.injury.is_massive_damage",
        "rules_core.injury.massive_damage_survival_chance",
    ),
    rules=(
        rule("hit_points"),
        rule("thresholds"),
        rule("penalties"),
        rule("bleeding"),
        rule("dying"),
        rule("massive"),
        rule("dying.threshold_ruling"),
        rule("dying.bleeding_one"),
    ),
)
