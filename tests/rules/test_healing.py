"""Natural healing, first aid, surgery and medical care.

Outcomes § Healing and Recovery, § Medical Treatment.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import healing, injury
from rules_core.healing import Activity, CareLevel, CareLevelReading, LostProgressReading, SurgeryTimeReading
from rules_core.injury import InjuryCondition as C

NONE, IMMOBILE = "no_healing", "immobile"
# Outcomes § Natural Healing and Medical Care Table, row by row, as printed.
PRINTED = {
    C.WOUNDED: [NONE, (1, 3), (1, 2), (1, 1), (1, 1), (2, 1)],
    C.SERIOUSLY_WOUNDED: [NONE, NONE, (1, 3), (1, 2), (1, 2), (1, 1)],
    C.CRITICALLY_WOUNDED: [IMMOBILE, IMMOBILE, IMMOBILE, IMMOBILE, (1, 7), (1, 3)],
    C.DYING: [IMMOBILE, IMMOBILE, IMMOBILE, IMMOBILE, (1, 7), (1, 3)],
}
COLUMNS = [
    (a, care) for a in (Activity.MODERATE, Activity.LIGHT, Activity.FULL_REST) for care in (False, True)
]


@pytest.mark.parametrize(
    ("condition", "activity", "care", "printed"),
    [(c, a, care, PRINTED[c][i]) for c in PRINTED for i, (a, care) in enumerate(COLUMNS)],
)
def test_every_cell_of_the_healing_table(condition, activity, care, printed):
    rate = healing.healing_rate(condition, activity, care=care)
    if isinstance(printed, tuple):
        assert (rate.status, rate.damage, rate.days) == ("heals", *printed)
        assert rate.per_day == Fraction(*printed)
    else:
        assert rate.status == printed
        assert rate.per_day == 0


def test_care_in_the_healing_table_is_the_level_each_condition_needs():
    """Outcomes § Healing and Recovery while Wounded (Light Care), § Seriously Wounded (Moderate), ..."""
    levels = [healing.healing_rate(c, Activity.FULL_REST, care=True).care_level for c in PRINTED]
    assert levels == [CareLevel.LIGHT, CareLevel.MODERATE, CareLevel.SERIOUS, CareLevel.INTENSIVE]
    assert healing.healing_rate(C.WOUNDED, Activity.LIGHT).care_level is None


def test_seriously_wounded_at_full_rest_alone_heal_one_point_every_two_days():
    """Outcomes § Seriously Wounded: "Light Activity with Moderate Care OR Full Rest" = 1 per 2 days."""
    assert healing.healing_rate(C.SERIOUSLY_WOUNDED, Activity.FULL_REST).per_day == Fraction(1, 2)
    assert healing.healing_rate(C.SERIOUSLY_WOUNDED, Activity.LIGHT, care=True).per_day == Fraction(1, 2)


@pytest.mark.parametrize(
    ("condition", "per_day"),
    [
        (C.WOUNDED, Fraction(2)),
        (C.SERIOUSLY_WOUNDED, Fraction(1)),
        (C.CRITICALLY_WOUNDED, Fraction(2, 7)),
        (C.DYING, Fraction(2, 7)),
    ],
)
def test_the_double_rate_reading_of_medical_care_doubles_full_rest(condition, per_day):
    """Outcomes § Medical Care (Healing Rate): double the rate of natural healing with full rest."""
    reading = healing.CareRateReading.DOUBLE_FULL_REST
    assert (
        healing.healing_rate(condition, Activity.FULL_REST, care=True, care_rate=reading).per_day == per_day
    )
    assert healing.healing_rate(
        condition, Activity.LIGHT, care=True, care_rate=reading
    ) == healing.healing_rate(condition, Activity.LIGHT, care=True)


def test_the_double_rate_reading_changes_the_timeline_of_a_critically_wounded_patient():
    table_reading = healing.healing_timeline(15, 21, Activity.FULL_REST, care=True)
    doubled = healing.healing_timeline(
        15, 21, Activity.FULL_REST, care=True, care_rate=healing.CareRateReading.DOUBLE_FULL_REST
    )
    assert table_reading.daily[:7] == (15, 15, 14, 14, 14, 13, 12)
    assert doubled.daily[:7] == (15, 15, 15, 14, 14, 14, 13)


def test_an_unhurt_character_has_no_healing_rate():
    with pytest.raises(ValueError, match="nothing to heal"):
        healing.healing_rate(C.UNHURT, Activity.FULL_REST)


def test_timeline_changes_rate_as_damage_falls_below_the_serious_threshold():
    """21 HP, 10 damage, full rest: 1 per 2 days down to 6 (day 8), then 1 a day: healed on day 14."""
    timeline = healing.healing_timeline(10, 21, Activity.FULL_REST)
    assert timeline.daily == (10, 9, 9, 8, 8, 7, 7, 6, 5, 4, 3, 2, 1, 0)
    assert timeline.days == 14 and not timeline.never
    assert timeline.segments == (
        (1, 8, C.SERIOUSLY_WOUNDED, Fraction(1, 2)),
        (9, 14, C.WOUNDED, Fraction(1)),
    )


def test_a_dying_character_in_intensive_care_heals_a_point_every_three_days():
    """Outcomes § Intensive Care: dying with intensive care, 1 damage every 3 days."""
    timeline = healing.healing_timeline(22, 21, Activity.FULL_REST, care=True)
    assert timeline.daily[:3] == (22, 22, 21)
    assert timeline.segments[0] == (1, 3, C.DYING, Fraction(1, 3))


def test_an_immobile_character_heals_at_the_full_rest_rate_whatever_activity_is_chosen():
    """Critically wounded (16 of 21 HP) are immobile: 1 per 3 days with care until below 14."""
    light = healing.healing_timeline(16, 21, Activity.LIGHT, care=True)
    rest = healing.healing_timeline(16, 21, Activity.FULL_REST, care=True)
    assert light.segments[0] == rest.segments[0] == (1, 9, C.CRITICALLY_WOUNDED, Fraction(1, 3))
    assert light.daily[:9] == rest.daily[:9] == (16, 16, 15, 15, 15, 14, 14, 14, 13)
    assert light.segments[1][3] == Fraction(1, 2) and rest.segments[1][3] == Fraction(1)


def test_no_healing_means_never():
    timeline = healing.healing_timeline(3, 21, Activity.MODERATE)
    assert timeline.never and timeline.days is None and timeline.daily == ()


def test_healing_stops_being_possible_when_it_reaches_a_no_healing_row():
    """Seriously wounded with moderate activity and care: no healing, even though wounded would heal."""
    assert healing.healing_timeline(8, 21, Activity.MODERATE, care=True).never


def test_no_damage_is_healed_at_once():
    assert healing.healing_timeline(0, 21, Activity.MODERATE).days == 0


def test_a_strenuous_day_loses_the_progress_and_healing_restarts_the_next_day():
    """Outcomes § Healing and Recovery while Wounded (Lost Progress).

    21 HP, 8 damage, light activity: 1 per 3 days.
    """
    restart = healing.healing_timeline(8, 21, Activity.LIGHT, setback_days=[2])
    assert restart.daily[:5] == (8, 8, 8, 8, 7)
    day_only = healing.healing_timeline(
        8, 21, Activity.LIGHT, setback_days=[2], lost_progress=LostProgressReading.DAY_ONLY
    )
    assert day_only.daily[:4] == (8, 8, 8, 7)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"damage": -1}, "Damage must be between"),
        ({"damage": 1001}, "Damage must be between"),
        ({"damage": 5, "setback_days": [0]}, "Setback days"),
    ],
)
def test_bad_timeline_arguments_are_rejected(kwargs, message):
    damage = kwargs.pop("damage")
    with pytest.raises(ValueError, match=message):
        healing.healing_timeline(damage, 21, Activity.FULL_REST, **kwargs)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(3, 60),
    st.integers(0, 80),
    st.integers(0, 80),
    st.sampled_from(list(Activity)),
    st.booleans(),
)
def test_more_damage_never_heals_sooner(hp, a, b, activity, care):
    low, high = sorted((a, b))
    first = healing.healing_timeline(low, hp, activity, care=care)
    second = healing.healing_timeline(high, hp, activity, care=care)
    if second.days is not None:
        assert first.days is not None and first.days <= second.days


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 60), st.integers(0, 80), st.sampled_from(list(Activity)))
def test_care_never_slows_healing(hp, damage, activity):
    without = healing.healing_timeline(damage, hp, activity)
    with_care = healing.healing_timeline(damage, hp, activity, care=True)
    if without.days is not None:
        assert with_care.days is not None and with_care.days <= without.days


@pytest.mark.parametrize(("on_self", "difficulty"), [(False, 8), (True, 10)])
def test_first_aid_difficulty_is_8_or_10_on_oneself(on_self, difficulty):
    """Outcomes § First Aid."""
    assert healing.first_aid_difficulty(on_self=on_self) == difficulty


@pytest.mark.parametrize(("effect", "healed"), [(-2, 1), (0, 1), (1, 1), (2, 2), (5, 5)])
def test_first_aid_removes_damage_equal_to_the_effect_at_least_1(effect, healed):
    """Outcomes § First Aid: damage equal to the Effect of the Medic check, at minimum 1."""
    assert healing.first_aid_healing(effect) == healed


def test_first_aid_takes_30_rounds_without_success_effects():
    assert healing.first_aid_progress([0] * 29) == healing.FirstAidProgress(29, 1, False)
    assert healing.first_aid_progress([0] * 31) == healing.FirstAidProgress(30, 0, True)


def test_success_effects_shorten_first_aid_and_fail_effects_lose_the_shortening():
    """Outcomes § First Aid (Time Reduction): a Fail Effect loses progress gained by Success Effects."""
    assert healing.first_aid_progress([2] * 10) == healing.FirstAidProgress(10, 0, True)
    assert healing.first_aid_progress([4, -2]) == healing.FirstAidProgress(2, 26, False)
    assert healing.first_aid_progress([4, -9]) == healing.FirstAidProgress(2, 28, False)
    assert healing.first_aid_progress([-3]) == healing.FirstAidProgress(1, 29, False)
    assert healing.first_aid_progress([-3] * 40) == healing.FirstAidProgress(30, 0, True)


def test_the_rounds_back_reading_puts_rounds_back_up_to_the_full_30():
    back = healing.FirstAidReading.ROUNDS_BACK
    assert healing.first_aid_progress([-3], reading=back) == healing.FirstAidProgress(1, 30, False)
    assert healing.first_aid_progress([4, -2], reading=back) == healing.FirstAidProgress(2, 26, False)
    assert healing.first_aid_progress([4, -9], reading=back) == healing.FirstAidProgress(2, 30, False)


def test_first_aid_by_a_sure_medic_is_done_in_exactly_two_rounds():
    """Modifier +20 against 8: every Effect is 14 or more, so two rounds cover the 30."""
    duration = healing.first_aid_duration(20, horizon=3)
    assert duration.finished_by == (0, 1, 1)
    assert duration.expected_rounds == 2
    assert duration.difficulty == 8


def test_first_aid_duration_within_three_rounds_equals_brute_force_over_every_roll():
    """Modifier +10 on oneself (difficulty 10): enumerate all 36**3 rolls of three rounds."""
    duration = healing.first_aid_duration(10, on_self=True, horizon=3)
    assert duration.difficulty == 10
    faces = [a + b for a, b in product(range(1, 7), repeat=2)]
    for rounds in (1, 2, 3):
        done = sum(
            1
            for rolls in product(faces, repeat=rounds)
            if healing.first_aid_progress([r + 10 - 10 for r in rolls]).finished
        )
        assert duration.finished_by[rounds - 1] == Fraction(done, 36**rounds)


def test_first_aid_never_takes_more_than_30_rounds_by_default():
    duration = healing.first_aid_duration(-20, horizon=31)
    assert duration.finished_by[28] == 0 and duration.finished_by[29] == 1
    assert duration.expected_rounds == 30
    typical = healing.first_aid_duration(0)
    assert typical.finished_by[29] == 1
    mean = sum(
        n * (typical.finished_by[n - 1] - (typical.finished_by[n - 2] if n > 1 else 0)) for n in range(1, 31)
    )
    assert typical.expected_rounds == mean


def test_with_rounds_put_back_first_aid_can_drag_on_or_never_finish():
    back = healing.FirstAidReading.ROUNDS_BACK
    hopeless = healing.first_aid_duration(-20, horizon=40, reading=back)
    assert hopeless.expected_rounds is None and hopeless.finished_by[-1] == 0
    skilled = healing.first_aid_duration(5, horizon=300, reading=back)
    tail_mean = sum(
        n * (skilled.finished_by[n - 1] - (skilled.finished_by[n - 2] if n > 1 else 0)) for n in range(1, 301)
    )
    assert skilled.expected_rounds is not None
    assert tail_mean < skilled.expected_rounds < tail_mean + Fraction(1, 10**20)
    typical = healing.first_aid_duration(0, reading=back)
    assert typical.expected_rounds is not None and typical.expected_rounds > 100


@pytest.mark.parametrize(
    ("kwargs", "message"), [({"horizon": 0}, "between 1 and 300"), ({"horizon": 301}, "between 1 and 300")]
)
def test_first_aid_duration_is_bounded(kwargs, message):
    with pytest.raises(ValueError, match=message):
        healing.first_aid_duration(0, **kwargs)
    with pytest.raises(ValueError, match="modifier"):
        healing.first_aid_duration(101)


def test_first_aid_rounds_are_bounded():
    with pytest.raises(ValueError, match="Too many rounds"):
        healing.first_aid_progress([0] * 301)


def test_surgery_difficulty_is_8():
    assert healing.surgery_difficulty() == 8


def test_a_successful_surgery_removes_twice_the_success_effect_in_30_minutes():
    """Outcomes § Surgery."""
    assert healing.surgery_outcome(3, 1, 7) == healing.SurgeryOutcome(6, 30, 0, 0)
    assert healing.surgery_outcome(0, 1, 7) == healing.SurgeryOutcome(0, 30, 0, 0)


@pytest.mark.parametrize(
    ("effect", "medic", "endurance", "minutes", "harm", "remaining"),
    [
        (-1, 2, 7, 30, 0, 0),
        (-4, 1, 7, 90, 0, 3),
        (-5, 1, 7, 120, 8, 4),
        (-4, 1, 6, 90, 0, 3),
        (-5, 1, 6, 120, 8, 4),
    ],
)
def test_a_failed_surgery_multiplies_the_time_and_harms_above_half_end(
    effect, medic, endurance, minutes, harm, remaining
):
    """Outcomes § Surgery: Fail Effect less Medic skill multiplies the time; above half End, 2 x harm."""
    assert healing.surgery_outcome(effect, medic, endurance) == healing.SurgeryOutcome(
        0, minutes, harm, remaining
    )


def test_the_one_plus_reading_adds_the_remaining_fail_effect_to_one():
    result = healing.surgery_outcome(-4, 1, 7, time_reading=SurgeryTimeReading.ONE_PLUS)
    assert result.minutes == 120


def test_surgery_rejects_negative_skill_or_end():
    with pytest.raises(ValueError, match="negative"):
        healing.surgery_outcome(-2, -1, 7)


@pytest.mark.parametrize(
    ("level", "supervised", "capacity"), [(0, False, 8), (1, False, 16), (2, False, 32), (1, True, 32)]
)
def test_medical_care_capacity_doubles_per_medic_level_and_under_supervision(level, supervised, capacity):
    """Outcomes § Medical Care (Capacity)."""
    assert healing.care_capacity(level, supervised=supervised) == capacity


@pytest.mark.parametrize(("level", "supervises"), [(1, False), (2, True), (3, True)])
def test_medics_of_level_2_or_more_can_supervise(level, supervises):
    assert healing.can_supervise(level) is supervises


@pytest.mark.parametrize("level", [-1, 16])
def test_medic_levels_are_bounded(level):
    with pytest.raises(ValueError, match="Medic level"):
        healing.care_capacity(level)


def test_a_medic_0_can_monitor_32_light_care_patients_a_day():
    """Outcomes § Light Care (Monitoring Capacity)."""
    assert healing.light_care_monitoring_capacity() == 32


# Outcomes § Care Levels, 21 HP. By default (None) the care level follows the injury thresholds
# (7 is seriously wounded, so moderate care); the table's reading uses strict fractions of HP
# (> 1/3, > 2/3, > HP: exactly 7 stays light).
CARE_LEVELS = {
    None: [(0, None), (6, "LIGHT"), (7, "MODERATE"), (13, "MODERATE"), (14, "SERIOUS")],
    CareLevelReading.TABLE: [(0, None), (7, "LIGHT"), (8, "MODERATE"), (14, "MODERATE"), (15, "SERIOUS")],
}


@pytest.mark.parametrize(
    ("reading", "damage", "level"),
    [
        (reading, damage, level)
        for reading, rows in CARE_LEVELS.items()
        for damage, level in [*rows, (21, "SERIOUS"), (22, "INTENSIVE")]
    ],
)
def test_care_level_at_each_threshold_of_21_hp_by_default_and_by_the_table(reading, damage, level):
    chosen = {} if reading is None else {"reading": reading}
    assert healing.care_level(damage, 21, **chosen) is (None if level is None else CareLevel[level])


def test_the_table_reading_rejects_bad_damage():
    with pytest.raises(ValueError):
        healing.care_level(-1, 21, reading=CareLevelReading.TABLE)


def test_patient_loads_count_in_light_care_patients():
    """Outcomes § Care Levels: moderate = 2 light, serious = 4, intensive = 8."""
    assert [level.load for level in CareLevel] == [1, 2, 4, 8]
    assert healing.patient_load([CareLevel.MODERATE, CareLevel.SERIOUS, CareLevel.INTENSIVE]) == 14
    assert healing.can_care_for(0, [CareLevel.LIGHT] * 8)
    assert not healing.can_care_for(0, [CareLevel.LIGHT] * 9)
    assert healing.can_care_for(0, [CareLevel.INTENSIVE, CareLevel.INTENSIVE], supervised=True)


@pytest.mark.parametrize(
    ("kwargs", "needs"),
    [
        ({}, True),
        ({"supervisor_medic_level": 1}, True),
        ({"supervisor_medic_level": 2}, False),
        ({"ai_sickbay": True}, False),
    ],
)
def test_intensive_care_needs_a_roll_without_a_medic_2_or_a_sickbay(kwargs, needs):
    """Outcomes § Intensive Care (With/Without Supervision)."""
    assert healing.intensive_care_needs_roll(**kwargs) is needs


def test_unsupervised_intensive_care_roll_heals_2_or_forces_a_dying_roll():
    """Outcomes § Intensive Care: difficulty 8; success heals 2, failure means a dying roll."""
    chances = healing.unsupervised_intensive_care_chances(0, 7, 22)
    assert chances.heal == Fraction(15, 36)
    assert chances.healed_damage == 2
    assert chances.dying_roll == Fraction(21, 36)
    assert (
        chances.death
        == Fraction(21, 36) * (1 - injury.dying_roll_chance(7, 22))
        == Fraction(21, 36) * Fraction(11, 12)
    )


def test_characteristic_damage_recovers_one_point_per_three_days_one_at_a_time():
    """Outcomes § Healing and Mental Characteristics."""
    assert healing.characteristic_recovery_days({"Int": 2, "Edu": 1}) == 9
    assert healing.characteristic_recovery_days({}) == 0
    with pytest.raises(ValueError, match="negative"):
        healing.characteristic_recovery_days({"Int": -1})
    with pytest.raises(ValueError, match="at most"):
        healing.characteristic_recovery_days({"Int": 1001})


def test_care_level_follows_the_chosen_threshold_reading() -> None:
    """Outcomes § Care Levels: light care below the seriously wounded threshold ("Damage < 1/3 HP").

    Str 7 / Dex 8 / End 9 (HP 24) with 8 damage: a third of HP is seriously wounded
    (moderate care), but by the characteristics table (best physical 9) only wounded (light care).
    """
    assert healing.care_level(8, 24) is CareLevel.MODERATE
    assert healing.care_level(8, 24, thresholds="best_physical", best_physical=9) is CareLevel.LIGHT
    assert healing.care_level(18, 24, thresholds="best_physical", best_physical=9) is CareLevel.SERIOUS
