"""The worked-example figures of the rules pages, computed by ``rules_core``.

``VALUES`` maps a name (the ``<!-- value: NAME -->`` marker) to a function returning one
figure as text, written by :mod:`calculators.format`. Where the page's prose already writes
the sign (``Effect +<!-- value: effect-example -->``) the figure is a plain :func:`number`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from calculators.format import MINUS, number, percent, signed
from calculators.format import dice as dice_notation
from rules_core import (
    action_options,
    checks,
    damage,
    grappling,
    healing,
    initiative,
    injury,
    mitigation,
    movement,
    tactics,
    thrown,
    time_checks,
)

__all__ = ["VALUES"]


def _decimals(value: Fraction | None, places: int) -> str:
    """``value`` with ``places`` decimals, rounded half up from the exact fraction (a true minus)."""
    if value is None:
        raise ValueError("the worked example never finishes")
    scale = 10**places
    units = (abs(value) * scale * 2 + 1) // 2
    whole, part = divmod(units, scale)
    text = f"{whole}.{part:0{places}d}" if places else str(whole)
    return f"{MINUS}{text}" if value < 0 and units else text


def _mitigation_step(name: str) -> Callable[[], str]:
    def value() -> str:
        result = mitigation.mitigate(7, conditions=3, cover=2, skill=2)
        if name == "start":
            return number(result.fail_effect)
        return number(next(s.remaining for s in result.steps if s.name == name))

    return value


def _damage_example(effect: int, expression: str, rate: int | None, armor: int) -> damage.DamageOutcome:
    if effect >= 0:
        return damage.damage_outcome(expression, success_effect=effect, rate_of_attack=rate, armor=armor)
    return damage.damage_outcome(expression, fail_effect=-effect, rate_of_attack=rate, armor=armor)


def _per_roll(effect: int, expression: str, rate: int | None, armor: int) -> str:
    """One damage roll after armor, in dice notation (the examples are all on the personal scale)."""
    outcome = _damage_example(effect, expression, rate, armor)
    expr = outcome.expression
    if expr.scale:
        raise ValueError("the worked examples of damage per roll are on the personal scale")
    return dice_notation(expr.count, expr.sides, expr.modifier - outcome.armor)


def _hp_7_8_9() -> int:
    return injury.hit_points(7, 8, 9)


def _healing_days() -> str:
    days = healing.healing_timeline(10, _hp_7_8_9(), healing.Activity.FULL_REST).days
    if days is None:
        raise ValueError("the worked example of healing never finishes")
    return number(days)


def _dash_spaces() -> str:
    spaces = movement.movement("dash", "medium", "crouching").spaces
    if spaces is None:
        raise ValueError("the worked example of a dash is a movement that is not possible")
    return number(spaces)


VALUES: dict[str, Callable[[], str]] = {
    # Checks
    "chm-of-10": lambda: number(checks.characteristic_modifier(10)),
    "chm-divisor": lambda: number(checks.characteristic_modifier_working(0).divisor),
    "chm-offset": lambda: number(-checks.characteristic_modifier_working(0).offset),
    "chm-example-quotient": lambda: number(checks.characteristic_modifier_working(10).quotient),
    "effect-example": lambda: number(checks.effect(9 + 2, 10)),
    "odds-8-plain": lambda: percent(checks.success_chance(0, 8)),
    "odds-8-advantage": lambda: percent(checks.success_chance(0, 8, advantage=1)),
    "odds-8-disadvantage": lambda: percent(checks.success_chance(0, 8, disadvantage=1)),
    # Failure and mitigation
    "fail-effect-example": lambda: number(checks.fail_degree(5, 8)),
    "mitigation-example-start": _mitigation_step("start"),
    "mitigation-example-after-conditions": _mitigation_step("conditions"),
    "mitigation-example-after-cover": _mitigation_step("cover"),
    "mitigation-example-remaining": _mitigation_step("skill"),
    "shield-example-cover": lambda: number(mitigation.mitigate(3, cover=2).cover_absorbed),
    "shield-example-character": lambda: number(mitigation.mitigate(3, cover=2).remaining),
    "costly-success-example": lambda: number(checks.costly_success(-2).fail_degree),
    "defend-skill-example": lambda: number(mitigation.defend_roll_modifier(0, 2, mitigation.Defend.SKILL)),
    # Actions
    "ambush-example": lambda: number(initiative.ambush_initiative(checks.characteristic_modifier(9))),
    "ambush-tactics-example": lambda: number(
        initiative.ambush_initiative(
            checks.characteristic_modifier(9), tactics_bonus=initiative.tactics_initiative_bonus(2)
        )
    ),
    "reckless-example-success-effect": lambda: number(action_options.reckless_action(2).success_effect),
    "reckless-example-harm": lambda: number(action_options.reckless_action(2).fail_degree),
    "reckless-example-big-harm": lambda: number(action_options.reckless_action(4).fail_degree),
    "reckless-example-failure": lambda: number(action_options.reckless_action(-2).fail_degree),
    "time-example-plus-one": lambda: number(time_checks.task_duration(1).units),
    "time-example-zero": lambda: number(time_checks.task_duration(0).units),
    "time-example-minus-one": lambda: number(time_checks.task_duration(-1).units),
    "time-example-minus-three": lambda: number(time_checks.task_duration(-3).units),
    # Attacks
    "grapple-throw-example": lambda: number(grappling.grapple_effect_cost("throw", hp=24)),
    "tactics-example-rolls": lambda: number(tactics.tactics_rolls(5, 10, skill=1).advantage_rolls),
    "tactics-example-attempts": lambda: number(tactics.tactics_attempts(1)),
    # The page writes the unit: "3.5 → **3** m".
    "thrown-example-short": lambda: number(thrown.thrown_range(7, "0.5").straight_m),
    "thrown-example-short-lobbed": lambda: number(thrown.thrown_range(7, "0.5").lobbed_m),
    "thrown-example-long": lambda: number(thrown.thrown_range(7, "1.5").straight_m),
    "thrown-example-long-lobbed": lambda: number(thrown.thrown_range(7, "1.5").lobbed_m),
    # Movement
    "movement-example-dash": _dash_spaces,
    # Damage
    "rifle-example-rolls": lambda: number(_damage_example(2, "3d6-2", 4, 0).rolls.kept),
    "broadsword-example-per-roll": lambda: _per_roll(1, "3d3-2", None, 3),
    "roa-example-kept": lambda: number(_damage_example(-3, "3d6", 2, 0).rolls.kept),
    "rifle-armor-per-roll": lambda: _per_roll(3, "3d6", 3, 5),
    "flak-example-per-roll": lambda: _per_roll(-3, "3d3-2", None, 4),
    "flak-example-expected": lambda: _decimals(_damage_example(-3, "3d3-2", None, 4).expected_total, 2),
    # Injury
    "injury-example-hp": lambda: number(_hp_7_8_9()),
    "injury-example-serious": lambda: number(injury.injury_thresholds(_hp_7_8_9()).seriously_wounded),
    "injury-example-critical": lambda: number(injury.injury_thresholds(_hp_7_8_9()).critically_wounded),
    "wound-penalty-example": lambda: signed(injury.wound_penalty(10)),
    "dying-example-chance": lambda: percent(injury.dying_roll_chance(9, 25)),
    # Healing
    "healing-example-days": _healing_days,
    "first-aid-minimum": lambda: number(healing.first_aid_healing(0)),
    "first-aid-expected-rounds": lambda: _decimals(healing.first_aid_duration(0).expected_rounds, 1),
    "surgery-example": lambda: number(healing.surgery_outcome(2, 1, 5).healed),
    "surgery-fail-minutes": lambda: number(healing.surgery_outcome(-4, 1, 5).minutes),
    "surgery-fail-harm": lambda: number(healing.surgery_outcome(-4, 1, 5).harm),
    "care-capacity-example": lambda: number(healing.care_capacity(2)),
}
"""Value markers: name -> function returning one figure computed by ``rules_core``."""
