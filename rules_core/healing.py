"""Healing: natural healing rates and timelines, first aid, surgery, medical care.

Rules: Outcomes § Healing and Recovery, § Natural Healing and Medical Care Table,
§ Injury Conditions, § First Aid, § Surgery, § Medical Care, § Care Levels,
§ Intensive Care, § Healing and Mental Characteristics. Readings chosen where
the source is unclear are options here and written up in ``notes/rulings-outcomes.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from math import lcm

from rules_core import checks
from rules_core._choices import choice
from rules_core.injury import (
    InjuryCondition,
    ThresholdReading,
    dying_roll_chance,
    injury_condition,
    injury_thresholds,
)
from rules_core.tables import constant, int_constant, table

MAX_HEALING_DAMAGE = 1000
"""Damage beyond this is rejected by the healing timeline (bounded work)."""
MAX_MEDIC_LEVEL = 15
_MAX_SETBACK_DAYS = 10_000


def _m(key: str) -> int:
    return int_constant("medical", key)


class Activity(StrEnum):
    """Activity level while healing. Outcomes § Natural Healing and Medical Care Table."""

    MODERATE = "moderate"
    LIGHT = "light"
    FULL_REST = "full_rest"


class CareLevel(StrEnum):
    """Care levels, lightest first. Outcomes § Care Levels."""

    LIGHT = "light"
    MODERATE = "moderate"
    SERIOUS = "serious"
    INTENSIVE = "intensive"

    @property
    def load(self) -> int:
        """Light care patients this level counts as (1, 2, 4, 8)."""
        value: int = table("care_levels").find(level=self.value)["load"]
        return value


class CareLevelReading(StrEnum):
    """How damage maps to a care level (ruling ``care-level-boundaries``).

    ``INJURY_THRESHOLDS`` (default): the care level follows the injury
    condition (wounded: light, seriously: moderate, critically: serious, dying:
    intensive). ``TABLE``: the care table's own strict comparisons with exact
    fractions of HP (damage exactly 1/3 or 2/3 of HP stays at the lower level).
    """

    INJURY_THRESHOLDS = "injury_thresholds"
    TABLE = "table"


class CareRateReading(StrEnum):
    """Healing at full rest with medical care (ruling ``care-doubles``).

    ``TABLE`` (default): the healing table's figures (critically wounded and
    dying: 1 per 3 days). ``DOUBLE_FULL_REST``: the Medical Care text, double the
    full rest rate (critically wounded and dying: 2 per 7 days; the other rows
    agree with the table).
    """

    TABLE = "table"
    DOUBLE_FULL_REST = "double_full_rest"


class LostProgressReading(StrEnum):
    """What a day of more strenuous activity costs (ruling ``lost-progress``).

    ``RESTART`` (default): the healing progress starts over the next day (partial
    progress toward the next point is lost). ``DAY_ONLY``: only that day's
    progress is lost.
    """

    RESTART = "restart"
    DAY_ONLY = "day_only"


class FirstAidReading(StrEnum):
    """What a Fail Effect does to first aid in progress (ruling ``first-aid-time``).

    ``SHORTENING_ONLY`` (default): it loses rounds of the shortening gained by
    earlier Success Effects, never the rounds already worked, so first aid
    never takes more than 30 rounds. ``ROUNDS_BACK``: it puts that many rounds
    back on the task (up to the full 30), so first aid can drag on.
    """

    SHORTENING_ONLY = "shortening_only"
    ROUNDS_BACK = "rounds_back"


class SurgeryTimeReading(StrEnum):
    """How a remaining Fail Effect multiplies surgery time (ruling ``surgery-failure``).

    ``MULTIPLY`` (default): 30 minutes x the remaining Fail Effect (at least x1).
    ``ONE_PLUS``: 30 minutes x (1 + the remaining Fail Effect).
    """

    MULTIPLY = "multiply"
    ONE_PLUS = "one_plus"


@dataclass(frozen=True)
class HealingRate:
    """A healing rate: ``damage`` healed every ``days`` (``per_day`` 0 when none).

    ``status`` is ``heals``, ``no_healing`` or ``immobile`` (the character cannot
    do that activity; the timeline then uses full rest).
    """

    condition: InjuryCondition
    activity: Activity
    care: bool
    care_level: CareLevel | None
    status: str
    damage: int
    days: int

    @property
    def per_day(self) -> Fraction:
        """Damage healed per day (0 when no healing)."""
        return Fraction(self.damage, self.days) if self.days else Fraction(0)


@dataclass(frozen=True)
class HealingTimeline:
    """Day-by-day damage while healing; ``days`` is ``None`` when healing never completes.

    ``daily[i]`` is the damage at the end of day ``i + 1``; ``segments`` lists
    (first day, last day, condition, rate per day) as the rate changes.
    """

    start_damage: int
    hit_points: int
    days: int | None
    daily: tuple[int, ...]
    segments: tuple[tuple[int, int, InjuryCondition, Fraction], ...]

    @property
    def never(self) -> bool:
        """True when the damage never heals fully under these conditions."""
        return self.days is None


@dataclass(frozen=True)
class FirstAidProgress:
    """Rounds of first aid so far, rounds still needed, and whether it is done."""

    rounds: int
    remaining: int
    finished: bool


@dataclass(frozen=True)
class FirstAidDuration:
    """Exact odds of how long first aid takes for a given Medic roll.

    ``finished_by[n - 1]`` is the chance that first aid is done within ``n``
    rounds; ``expected_rounds`` is the exact mean (``None`` when it can never
    finish, every roll failing).
    """

    difficulty: int
    modifier: int
    finished_by: tuple[Fraction, ...]
    expected_rounds: Fraction | None


@dataclass(frozen=True)
class SurgeryOutcome:
    """Damage removed, time taken and harm done by one surgery."""

    healed: int
    minutes: int
    harm: int
    remaining_fail_effect: int


@dataclass(frozen=True)
class IntensiveCareChances:
    """Exact chances of one unsupervised intensive care roll."""

    heal: Fraction
    healed_damage: int
    dying_roll: Fraction
    death: Fraction


def healing_rate(
    condition: InjuryCondition | str,
    activity: Activity | str,
    /,
    *,
    care: bool = False,
    care_rate: CareRateReading | str = CareRateReading.TABLE,
) -> HealingRate:
    """The natural healing rate for a condition, activity and care (of the condition's level).

    Outcomes § Natural Healing and Medical Care Table; with
    ``care_rate=DOUBLE_FULL_REST``, full rest with care is twice full rest
    alone (Outcomes § Medical Care, Healing Rate).

    Raises:
        ValueError: for an unhurt character (nothing to heal).
    """
    condition = choice(InjuryCondition, condition, "The injury condition")
    activity = choice(Activity, activity, "The activity")
    care_rate = choice(CareRateReading, care_rate, "The care rate reading")
    if condition is InjuryCondition.UNHURT:
        raise ValueError("An unhurt character has nothing to heal.")
    row = table("healing_rates").find(condition=condition.value, activity=activity.value, care=care)
    level = row["care_level"]
    damage, days = row["damage"] or 0, row["days"] or 0
    if care and activity is Activity.FULL_REST and care_rate is CareRateReading.DOUBLE_FULL_REST:
        alone = table("healing_rates").find(condition=condition.value, activity=activity.value, care=False)
        damage, days = alone["damage"] * _m("medical_care_rate_factor"), alone["days"]
    return HealingRate(
        condition=condition,
        activity=activity,
        care=care,
        care_level=CareLevel(level) if level else None,
        status=row["status"],
        damage=damage,
        days=days,
    )


def _effective_rate(
    condition: InjuryCondition, activity: Activity, care: bool, care_rate: CareRateReading
) -> HealingRate:
    rate = healing_rate(condition, activity, care=care, care_rate=care_rate)
    if rate.status == "immobile":
        return healing_rate(condition, Activity.FULL_REST, care=care, care_rate=care_rate)
    return rate


def healing_timeline(
    damage: int,
    hp: int,
    activity: Activity | str,
    /,
    *,
    care: bool = False,
    setback_days: Iterable[int] = (),
    lost_progress: LostProgressReading | str = LostProgressReading.RESTART,
    care_rate: CareRateReading | str = CareRateReading.TABLE,
    reading: ThresholdReading | str = ThresholdReading.FRACTIONS_OF_HP,
    best_physical: int | None = None,
) -> HealingTimeline:
    """Heal ``damage`` day by day; the rate changes as the damage falls below each threshold.

    Each day the rate of the current condition accrues; whole points heal.
    On a ``setback_days`` day (more strenuous activity) the day's progress is
    lost (Outcomes § Healing and Recovery while Wounded, Lost Progress). A
    character too hurt for the chosen activity (immobile) heals at the full
    rest rate. When a rate is zero the result says ``never``.

    Raises:
        ValueError: for damage outside 0..MAX_HEALING_DAMAGE or a bad setback day.
    """
    if not 0 <= damage <= MAX_HEALING_DAMAGE:
        raise ValueError(f"Damage must be between 0 and {MAX_HEALING_DAMAGE}.")
    activity = choice(Activity, activity, "The activity")
    lost_progress = choice(LostProgressReading, lost_progress, "The lost progress reading")
    care_rate = choice(CareRateReading, care_rate, "The care rate reading")
    setbacks = frozenset(setback_days)
    if len(setbacks) > _MAX_SETBACK_DAYS or any(d < 1 for d in setbacks):
        raise ValueError("Setback days are day numbers from 1.")
    limits = injury_thresholds(hp, reading=reading, best_physical=best_physical)
    # Progress is counted in whole units of 1/unit of a point, so each day is integer work.
    unit = lcm(*(d for d in table("healing_rates").column("days") if d))
    start, day, progress = damage, 0, 0
    daily: list[int] = []
    segments: list[tuple[int, int, InjuryCondition, Fraction]] = []
    condition, per_day, gain, floor_damage = InjuryCondition.UNHURT, Fraction(0), 0, damage + 1
    while damage > 0:
        if damage < floor_damage:
            condition = limits.condition(damage)
            floor_damage = limits.least_damage(condition)
            per_day = _effective_rate(condition, activity, care, care_rate).per_day
            gain = int(per_day * unit)
            if not gain:
                return HealingTimeline(start, hp, None, tuple(daily), tuple(segments))
        day += 1
        if segments and segments[-1][2] is condition:
            segments[-1] = (segments[-1][0], day, condition, per_day)
        else:
            segments.append((day, day, condition, per_day))
        if day in setbacks:
            if lost_progress is LostProgressReading.RESTART:
                progress = 0
        else:
            progress += gain
            healed = min(damage, progress // unit)
            progress -= healed * unit
            damage -= healed
        daily.append(damage)
    return HealingTimeline(start, hp, day, tuple(daily), tuple(segments))


def first_aid_difficulty(*, on_self: bool = False) -> int:
    """First aid difficulty: 8 on another character, 10 on oneself. Outcomes § First Aid."""
    return _m("first_aid_self_difficulty" if on_self else "first_aid_difficulty")


def first_aid_healing(effect: int, /) -> int:
    """Damage first aid removes: the Effect of the Medic check, at least 1. Outcomes § First Aid."""
    return max(_m("first_aid_minimum_healing"), effect)


def _first_aid_step(
    state: tuple[int, int], effect: int, full: int, reading: FirstAidReading
) -> tuple[int, int]:
    """One round of first aid: (rounds still needed, shortening gained) after a roll's Effect."""
    remaining, gained = state
    if reading is FirstAidReading.SHORTENING_ONLY:
        new_gained = max(0, gained + effect)
        return remaining - 1 - (new_gained - gained), new_gained
    if effect >= 0:
        return remaining - 1 - effect, 0
    return min(full, remaining - 1 - effect), 0


def first_aid_progress(
    effects: Sequence[int], /, *, reading: FirstAidReading | str = FirstAidReading.SHORTENING_ONLY
) -> FirstAidProgress:
    """First aid done round by round: 30 rounds, each round's roll moving the finish.

    Every round worked counts one round and a Success Effect takes that many
    more rounds off. A Fail Effect loses that much of the shortening gained so
    far (default), or with ``ROUNDS_BACK`` puts that many rounds back (never
    beyond the full 30). Outcomes § First Aid (Time Reduction); Actions § Extended Actions.
    """
    reading = choice(FirstAidReading, reading, "The first aid reading")
    full = _m("first_aid_rounds")
    if len(effects) > MAX_FIRST_AID_HORIZON:
        raise ValueError("Too many rounds of first aid to follow.")
    state, rounds = (full, 0), 0
    for effect in effects:
        if state[0] <= 0:
            break
        rounds += 1
        state = _first_aid_step(state, effect, full, reading)
    remaining = max(0, state[0])
    return FirstAidProgress(rounds, remaining, remaining == 0)


MAX_FIRST_AID_HORIZON = 300
"""Rounds of first aid followed at most (30 minutes)."""


def first_aid_duration(
    modifier: int,
    /,
    *,
    on_self: bool = False,
    advantage: int = 0,
    disadvantage: int = 0,
    horizon: int = 60,
    reading: FirstAidReading | str = FirstAidReading.SHORTENING_ONLY,
) -> FirstAidDuration:
    """Exact odds of the rounds first aid takes when the Medic rolls every round.

    Each round's roll (2d6 + ``modifier`` against 8, or 10 on oneself) moves
    the finish as in :func:`first_aid_progress`. Outcomes § First Aid.

    Raises:
        ValueError: for a horizon outside 1..MAX_FIRST_AID_HORIZON or a huge modifier.
    """
    reading = choice(FirstAidReading, reading, "The first aid reading")
    if not 1 <= horizon <= MAX_FIRST_AID_HORIZON:
        raise ValueError(f"Follow between 1 and {MAX_FIRST_AID_HORIZON} rounds.")
    if abs(modifier) > 100:
        raise ValueError("The modifier must be between -100 and +100.")
    difficulty, full = first_aid_difficulty(on_self=on_self), _m("first_aid_rounds")
    dice_odds = checks.check_distribution(advantage, disadvantage)
    whole = lcm(*(p.denominator for p in dice_odds.values()))
    effects: dict[int, int] = {}
    for total, chance in dice_odds.items():
        effect = checks.effect(total + modifier, difficulty)
        effects[effect] = effects.get(effect, 0) + int(chance * whole)
    # Integer weights over whole**round of each (rounds still needed, shortening gained).
    states: dict[tuple[int, int], int] = {(full, 0): 1}
    done, finished_by, expected_sum, scale = 0, [], 0, 1
    # With SHORTENING_ONLY every round counts, so all is done within the full rounds.
    limit = max(horizon, full) if reading is FirstAidReading.SHORTENING_ONLY else horizon
    for round_number in range(1, limit + 1):
        scale *= whole
        done *= whole
        expected_sum *= whole
        nxt: dict[tuple[int, int], int] = {}
        for state, weight in states.items():
            for effect, count in effects.items():
                after = _first_aid_step(state, effect, full, reading)
                if after[0] <= 0:
                    done += weight * count
                    expected_sum += round_number * weight * count
                else:
                    nxt[after] = nxt.get(after, 0) + weight * count
        states = nxt
        if round_number <= horizon:
            finished_by.append(Fraction(done, scale))
    expected: Fraction | None
    if not states:
        expected = Fraction(expected_sum, scale)
    else:
        expected = _expected_rounds_back(effects, whole, full, reading)
    return FirstAidDuration(difficulty, modifier, tuple(finished_by), expected)


def _expected_rounds_back(
    effects: Mapping[int, int], whole: int, full: int, reading: FirstAidReading
) -> Fraction | None:
    """Mean rounds to finish from ``full`` rounds when rounds can be put back.

    Solves E[r] = 1 + sum P(r -> r') E[r'] exactly (fraction-free elimination).
    """
    if reading is FirstAidReading.SHORTENING_ONLY or not any(effect >= 0 for effect in effects):
        return None
    size = full
    # Row r-1, scaled by ``whole``: whole*E[r] - sum count(r -> r') E[r'] = whole.
    matrix = [[0] * size + [whole] for _ in range(size)]
    for remaining in range(1, full + 1):
        row = matrix[remaining - 1]
        row[remaining - 1] += whole
        for effect, count in effects.items():
            after = _first_aid_step((remaining, 0), effect, full, reading)[0]
            if after > 0:
                row[after - 1] -= count
    previous = 1
    for k in range(size):
        pivot = next(r for r in range(k, size) if matrix[r][k])
        matrix[k], matrix[pivot] = matrix[pivot], matrix[k]
        for i in range(k + 1, size):
            for j in range(k + 1, size + 1):
                matrix[i][j] = (matrix[i][j] * matrix[k][k] - matrix[i][k] * matrix[k][j]) // previous
            matrix[i][k] = 0
        previous = matrix[k][k]
    solution = [Fraction(0)] * size
    for i in reversed(range(size)):
        rest = sum((matrix[i][j] * solution[j] for j in range(i + 1, size)), Fraction(0))
        solution[i] = (matrix[i][size] - rest) / matrix[i][i]
    return solution[full - 1]


def surgery_difficulty() -> int:
    """Surgery difficulty (8; tools and assistance modify the roll). Outcomes § Surgery."""
    return _m("surgery_difficulty")


def surgery_outcome(
    effect: int,
    medic_skill: int,
    endurance: int,
    /,
    *,
    time_reading: SurgeryTimeReading | str = SurgeryTimeReading.MULTIPLY,
) -> SurgeryOutcome:
    """One surgery: a success removes 2 x the Success Effect in 30 minutes.

    A Fail Effect is reduced by the Medic skill; what remains multiplies the
    time, and if it exceeds half the patient's End it harms the patient by
    twice the remaining Fail Effect. Outcomes § Surgery.
    """
    time_reading = choice(SurgeryTimeReading, time_reading, "The surgery time reading")
    if medic_skill < 0 or endurance < 0:
        raise ValueError("Medic skill and End cannot be negative.")
    minutes = _m("surgery_minutes")
    if effect >= 0:
        return SurgeryOutcome(effect * _m("surgery_healing_per_effect"), minutes, 0, 0)
    remaining = max(0, -effect - medic_skill)
    factor = max(1, remaining) if time_reading is SurgeryTimeReading.MULTIPLY else 1 + remaining
    limit: Fraction = constant("medical", "surgery_harm_end_fraction") * endurance
    harm = remaining * _m("surgery_harm_per_effect") if remaining > limit else 0
    return SurgeryOutcome(0, minutes * factor, harm, remaining)


def _check_level(medic_level: int) -> None:
    if not 0 <= medic_level <= MAX_MEDIC_LEVEL:
        raise ValueError(f"Medic level must be between 0 and {MAX_MEDIC_LEVEL}.")


def can_supervise(medic_level: int, /) -> bool:
    """Medics of level 2 or more can supervise other medics and intensive care. Outcomes § Medical Care."""
    _check_level(medic_level)
    return medic_level >= _m("supervisor_minimum_medic")


def care_capacity(medic_level: int, /, *, supervised: bool = False) -> int:
    """Light care patients a medic can care for: 8 at Medic 0, doubled per level.

    A supervisor of Medic 2+ doubles the capacity of the medics they
    supervise. Outcomes § Medical Care (Capacity).
    """
    _check_level(medic_level)
    # int ** int is typed Any (a negative power is a float); medic_level was checked to be 0 or more.
    capacity: int = _m("care_capacity_medic_0") * _m("care_capacity_factor_per_level") ** medic_level
    return capacity * (_m("supervision_factor") if supervised else 1)


def light_care_monitoring_capacity() -> int:
    """Light care patients a Medic 0 can monitor in a day (32). Outcomes § Light Care."""
    return _m("light_care_monitoring_medic_0")


def care_level(
    damage: int,
    hp: int,
    /,
    *,
    reading: CareLevelReading | str = CareLevelReading.INJURY_THRESHOLDS,
    thresholds: ThresholdReading | str = ThresholdReading.FRACTIONS_OF_HP,
    best_physical: int | None = None,
) -> CareLevel | None:
    """The care level a patient needs (``None`` when unhurt). Outcomes § Care Levels.

    With the injury-threshold reading the care follows the patient's injury
    condition under the same threshold reading (``thresholds``, and
    ``best_physical`` for the characteristics table) as the rest of the sheet.
    """
    reading = choice(CareLevelReading, reading, "The care level reading")
    rows = table("care_levels").rows
    if reading is CareLevelReading.INJURY_THRESHOLDS:
        condition = injury_condition(damage, hp, reading=thresholds, best_physical=best_physical)
        for row in rows:
            if row["injury_condition"] == condition.value:
                return CareLevel(row["level"])
        return None
    if damage < 0 or hp < 1:
        raise ValueError("Damage cannot be negative and HP must be at least 1.")
    if damage == 0:
        return None
    found = CareLevel.LIGHT
    for row in rows:
        if row["table_comparison"] == "above" and damage > hp * row["table_fraction"]:
            found = CareLevel(row["level"])
    return found


def patient_load(levels: Iterable[CareLevel | str], /) -> int:
    """Patients counted in light care patients: moderate 2, serious 4, intensive 8. Outcomes § Care Levels."""
    return sum(choice(CareLevel, level, "The care level").load for level in levels)


def can_care_for(medic_level: int, levels: Iterable[CareLevel | str], /, *, supervised: bool = False) -> bool:
    """Whether one medic's capacity covers these patients' load. Outcomes § Medical Care."""
    return patient_load(levels) <= care_capacity(medic_level, supervised=supervised)


def intensive_care_needs_roll(*, supervisor_medic_level: int | None = None, ai_sickbay: bool = False) -> bool:
    """Intensive care needs a roll unless a Medic 2+ or an AI sickbay supervises.

    The supervising medic is taken to have tools, help and resources. Outcomes § Intensive Care.
    """
    if ai_sickbay:
        return False
    return supervisor_medic_level is None or not can_supervise(supervisor_medic_level)


def intensive_care_difficulty() -> int:
    """Difficulty of the unsupervised intensive care roll (8). Outcomes § Intensive Care."""
    return _m("intensive_care_difficulty")


def characteristic_recovery_rate_days() -> int:
    """Days of therapy per point of characteristic damage (3).

    Outcomes § Healing and Mental Characteristics > Rate.
    """
    return _m("characteristic_recovery_days")


def unsupervised_intensive_care_chances(
    modifier: int, endurance: int, damage: int, /
) -> IntensiveCareChances:
    """Exact chances of the unsupervised intensive care roll (difficulty 8).

    Success heals 2 damage; failure forces a dying roll (End against 4, wound
    penalties apply), and failing that is death. ``modifier`` is the roll's
    total modifier. Outcomes § Intensive Care, § Dying.
    """
    heal = checks.success_chance(modifier, _m("intensive_care_difficulty"))
    return IntensiveCareChances(
        heal=heal,
        healed_damage=_m("intensive_care_healing"),
        dying_roll=1 - heal,
        death=(1 - heal) * (1 - dying_roll_chance(endurance, damage)),
    )


def characteristic_recovery_days(damage_by_characteristic: Mapping[str, int], /) -> int:
    """Days of therapy to recover characteristic damage: 3 a point, one characteristic at a time.

    Recovery starts once the character has fully healed. Outcomes § Healing and Mental Characteristics.
    """
    if any(points < 0 for points in damage_by_characteristic.values()):
        raise ValueError("Characteristic damage cannot be negative.")
    total = sum(damage_by_characteristic.values())
    if total > MAX_HEALING_DAMAGE:
        raise ValueError(f"Characteristic damage is at most {MAX_HEALING_DAMAGE} in total.")
    return total * _m("characteristic_recovery_days")
