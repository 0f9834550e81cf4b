"""Every reading (a switch between interpretations of the rules) is a StrEnum checked on entry.

A reading passed as its string value gives the same result as the member; anything else is a
``ValueError`` naming the valid values (rules_core/_choices.py).
"""

from __future__ import annotations

import enum
import inspect
import pkgutil
from collections.abc import Callable
from enum import StrEnum
from fractions import Fraction
from importlib import import_module
from typing import Any

import pytest

import rules_core
from rules_core import (
    action_options,
    aim,
    checks,
    damage,
    grappling,
    healing,
    injury,
    mitigation,
    movement,
    patients,
    stealth,
    support,
    tactics,
    targeting,
    thrown,
    time_checks,
)

# (call taking the reading as its only argument, the reading's class)
CASES: dict[str, tuple[Callable[[Any], object], type[StrEnum]]] = {
    "damage_outcome.minimum_reading": (
        lambda r: damage.damage_outcome("1d2", success_effect=6, armor=50, minimum_reading=r),
        damage.MinimumDamageReading,
    ),
    "injury_chances.reading": (
        lambda r: damage.injury_chances(
            damage.damage_outcome("3d6", success_effect=2), 21, reading=r, best_physical=9
        ),
        injury.ThresholdReading,
    ),
    "injury_thresholds.reading": (
        lambda r: injury.injury_thresholds(21, reading=r, best_physical=9),
        injury.ThresholdReading,
    ),
    "injury_condition.reading": (
        lambda r: injury.injury_condition(8, 21, reading=r, best_physical=9),
        injury.ThresholdReading,
    ),
    "bleeds_from_roll.reading": (
        lambda r: injury.bleeds_from_roll(8, 21, reading=r, best_physical=9),
        injury.ThresholdReading,
    ),
    "healing_rate.care_rate": (
        lambda r: healing.healing_rate("critically_wounded", "full_rest", care=True, care_rate=r),
        healing.CareRateReading,
    ),
    "healing_timeline.lost_progress": (
        lambda r: healing.healing_timeline(10, 21, "full_rest", setback_days=(2, 5), lost_progress=r),
        healing.LostProgressReading,
    ),
    "healing_timeline.care_rate": (
        lambda r: healing.healing_timeline(18, 21, "full_rest", care=True, care_rate=r),
        healing.CareRateReading,
    ),
    "healing_timeline.reading": (
        lambda r: healing.healing_timeline(12, 21, "full_rest", reading=r, best_physical=9),
        injury.ThresholdReading,
    ),
    "first_aid_progress.reading": (
        lambda r: healing.first_aid_progress((3, -4, 2, 0), reading=r),
        healing.FirstAidReading,
    ),
    "first_aid_duration.reading": (
        lambda r: healing.first_aid_duration(0, horizon=10, reading=r),
        healing.FirstAidReading,
    ),
    "surgery_outcome.time_reading": (
        lambda r: healing.surgery_outcome(-5, 1, 7, time_reading=r),
        healing.SurgeryTimeReading,
    ),
    "care_level.reading": (lambda r: healing.care_level(7, 21, reading=r), healing.CareLevelReading),
    "aim_bonus.reading": (lambda r: aim.aim_bonus(3, 2, r), aim.AimReading),
    "max_aim_bonus.reading": (lambda r: aim.max_aim_bonus(2, r), aim.AimReading),
    "ballistic_correction.reading": (lambda r: aim.ballistic_correction(3, 2, r), aim.AimReading),
    "thrown_range.rounding": (lambda r: thrown.thrown_range(7, "1.5", r), thrown.ThrownRounding),
    "reckless_action.reading": (
        lambda r: action_options.reckless_action(2, r),
        action_options.RecklessReading,
    ),
    "area_threshold.rounding": (
        lambda r: targeting.area_threshold(targeting.targeted_effects(20)[0].area, 20, rounding=r),
        targeting.Rounding,
    ),
    "targeted_effects.rounding": (lambda r: targeting.targeted_effects(20, rounding=r), targeting.Rounding),
    "task_duration.floor": (lambda r: time_checks.task_duration(5, 2, 6, floor=r), time_checks.DurationFloor),
    "manoeuvre_difficulty.sweep": (
        lambda r: grappling.manoeuvre_difficulty("sweep", dex=7, sweep=r),
        grappling.SweepReading,
    ),
    "grapple_difficulty.pistol": (
        lambda r: grappling.grapple_difficulty(0, own_weapon="pistol", pistol=r),
        grappling.PistolReading,
    ),
    "grapple_difficulty.sweep": (
        lambda r: grappling.grapple_difficulty(0, manoeuvre="sweep", dex=7, sweep=r),
        grappling.SweepReading,
    ),
    "movement.reading": (lambda r: movement.movement("dash", reading=r), movement.DistanceReading),
    "movement.wounded_rounding": (
        lambda r: movement.movement("run", seriously_wounded=True, wounded_rounding=r),
        movement.WoundedRounding,
    ),
    "ballistic_correction.tracer_reading": (
        lambda r: aim.ballistic_correction(2, tracers="full_auto", tracer_reading=r),
        aim.TracerReading,
    ),
    "ballistic_correction.tracers": (
        lambda r: aim.ballistic_correction(2, tracers=r),
        aim.Tracers,
    ),
    "grapple_damage.untargeted_armor": (
        lambda r: grappling.grapple_damage("damage", armor=2, untargeted_armor=r),
        grappling.UntargetedArmorReading,
    ),
    "run_roll.characteristic": (
        lambda r: movement.run_roll(9, 12, 1, characteristic=r),
        movement.RunCharacteristic,
    ),
    "movement.condition": (
        lambda r: movement.movement("run", condition=r),
        injury.InjuryCondition,
    ),
    "stance_change_cost.reading": (
        lambda r: movement.stance_change_cost("standing", "prone", r),
        movement.StanceReading,
    ),
    "defence_modifier.cover_cap": (
        lambda r: mitigation.defence_modifier("cover", 3, "cover", r),
        mitigation.CoverCap,
    ),
    "mitigate.cover_cap": (
        lambda r: mitigation.mitigate(9, cover=3, defend="cover", cover_cap=r),
        mitigation.CoverCap,
    ),
    "mitigate.order": (
        lambda r: mitigation.mitigate(5, cover=2, skill=2, order=r),
        mitigation.MitigationOrder,
    ),
    "tactics_rolls.reading": (
        lambda r: tactics.tactics_rolls(2, 8, skill=1, reading=r),
        tactics.TacticsReading,
    ),
    "costly_success.reading": (lambda r: checks.costly_success(-2, r), checks.CostlySuccessReading),
    "stealth.detection.reading": (
        lambda r: stealth.detection("deliberate", "quick_scan", reading=r),
        stealth.StealthRollReading,
    ),
    "patients.monitoring_capacity.reading": (
        lambda r: patients.monitoring_capacity(2, reading=r),
        patients.MonitoringReading,
    ),
    "support.support_distribution.stacking": (
        lambda r: support.support_distribution(0, 8, 2, stacking=r),
        support.SupportStacking,
    ),
}

PAIRS = [
    pytest.param(call, member, id=f"{name}={member.value}")
    for name, (call, kind) in CASES.items()
    for member in kind
]


@pytest.mark.parametrize(("call", "member"), PAIRS)
def test_a_reading_given_as_its_string_gives_the_same_result_as_the_member(
    call: Callable[[Any], object], member: StrEnum
) -> None:
    assert call(member.value) == call(member)


@pytest.mark.parametrize("name", list(CASES))
def test_an_unknown_reading_is_a_short_sentence_naming_the_valid_values(name: str) -> None:
    call, kind = CASES[name]
    with pytest.raises(ValueError, match="must be one of: ") as caught:
        call("no_such_reading")
    assert all(member.value in str(caught.value) for member in kind)


def test_the_minimum_damage_reading_given_as_a_string_takes_the_each_roll_branch() -> None:
    # Outcomes § Armor: Effect 6 makes 7 rolls of 1d2 against armor 50; each roll deals at least 1.
    outcome = damage.damage_outcome("1d2", success_effect=6, armor=50, minimum_reading="each_roll")
    assert outcome.total == {7: Fraction(1)}
    whole = damage.damage_outcome("1d2", success_effect=6, armor=50, minimum_reading="whole_attack")
    assert whole.total == {1: Fraction(1)}


def test_value_enums_taken_by_healing_and_injury_accept_their_strings() -> None:
    assert healing.healing_rate("wounded", "light") == healing.healing_rate(
        injury.InjuryCondition.WOUNDED, healing.Activity.LIGHT
    )
    assert healing.patient_load(["moderate", healing.CareLevel.SERIOUS]) == 6
    assert injury.movement("seriously_wounded") == injury.movement(injury.InjuryCondition.SERIOUSLY_WOUNDED)
    with pytest.raises(ValueError, match="must be one of"):
        injury.movement("bruised")


def _rules_core_enums() -> list[type[enum.Enum]]:
    found: list[type[enum.Enum]] = []
    for info in pkgutil.walk_packages(rules_core.__path__, "rules_core."):
        module = import_module(info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, enum.Enum) and value.__module__ == module.__name__:
                found.append(value)
    return found


def test_every_enum_in_rules_core_is_a_str_enum() -> None:
    enums = _rules_core_enums()
    assert enums
    assert [e.__qualname__ for e in enums if not issubclass(e, StrEnum)] == []


def test_every_reading_class_has_a_case_here() -> None:
    readings = {e for e in _rules_core_enums() if e.__name__.endswith(("Reading", "Rounding", "Floor"))}
    readings |= {mitigation.CoverCap, mitigation.MitigationOrder}
    covered = {kind for _, kind in CASES.values()}
    assert sorted(e.__name__ for e in readings - covered) == []
