"""Healing calculator: days until fully healed, day by day across the thresholds; first aid, surgery, care.

Rules: Outcomes § Healing and Recovery, § Natural Healing and Medical Care Table,
§ First Aid, § Surgery, § Medical Care, § Care Levels. Rulings: care levels at
exactly a third, care doubling the rate, lost progress, surgery failure time,
injury thresholds. All maths is in :mod:`rules_core.healing` and :mod:`rules_core.injury`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from calculators import framework as fw
from calculators import parts
from calculators.format import number, percent, plural, signed, term
from calculators.parts import (
    SUPERVISOR_MEDIC,
    best_physical_input,
    characteristic_inputs,
    enum_choices,
    hp_input,
    hp_text,
    optional_modifier_input,
    supervised_input,
    threshold_reading_input,
)
from calculators.parts.injury_parts import state_text
from calculators.parts.links import rule
from rules_core import healing, injury
from rules_core.tables import int_constant

__all__ = ["CALCULATOR", "MAX_TIMELINE_POINTS", "rate_text", "timeline_points"]

MAX_TIMELINE_POINTS = 60
"""A longer timeline is charted (and tabled) every few days, always ending on the last day."""


ACTIVITY_CHOICES = enum_choices(healing.Activity)
CARE_CHOICES = (("no", "No medical care"), ("yes", "Medical care"))
CARE_RATE_CHOICES = enum_choices(healing.CareRateReading)
LOST_CHOICES = enum_choices(healing.LostProgressReading)
LEVEL_CHOICES = enum_choices(healing.CareLevelReading)
SURGERY_TIME_CHOICES = enum_choices(
    healing.SurgeryTimeReading, minutes=int_constant("medical", "surgery_minutes")
)


def rate_text(rate: Fraction) -> str:
    """A healing rate per day as players say it: ``1 every 3 days``, ``2 a day``."""
    if rate == 0:
        return "no healing"
    if rate.numerator == 1 and rate.denominator > 1:
        return f"1 every {rate.denominator} days"
    if rate.denominator == 1:
        return f"{rate.numerator} a day"
    return f"{rate.numerator} every {rate.denominator} days"


def timeline_points(start: int, hp: int, daily: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    """Chart points (day, damage left as a share of HP), day 0 first; thinned when the timeline is long."""
    days = len(daily)
    step = max(1, -(-days // MAX_TIMELINE_POINTS))
    chosen = [d for d in range(step, days + 1, step)]
    if days and chosen[-1:] != [days]:
        chosen.append(days)
    return ((0, Fraction(start, hp)), *((d, Fraction(daily[d - 1], hp)) for d in chosen))


def _natural(
    values: Mapping[str, Any], taken: int, hp: int, best: int | None, reading: injury.ThresholdReading
) -> tuple[dict[str, str], list[fw.Step], fw.Chart | None]:
    condition = injury.injury_condition(taken, hp, reading=reading, best_physical=best)
    outputs = {"state": state_text(condition)}
    if taken == 0:
        outputs["days"] = "0"
        return outputs, [fw.Step("No damage: nothing to heal.", rule("healing.natural"))], None
    activity = healing.Activity(values["activity"])
    care = values["care"] == "yes"
    with fw.on_field("damage"):
        timeline = healing.healing_timeline(
            taken,
            hp,
            activity,
            care=care,
            lost_progress=healing.LostProgressReading(values["lost_progress"]),
            care_rate=healing.CareRateReading(values["care_rate"]),
            reading=reading,
            best_physical=best,
        )
    level = healing.care_level(
        taken,
        hp,
        reading=healing.CareLevelReading(values["care_levels"]),
        thresholds=reading,
        best_physical=best,
    )
    outputs["care_level"] = level.value if level is not None else "none"
    steps = [
        fw.Step(
            f"{taken} damage of {hp} HP: {state_text(condition)}; care level {outputs['care_level']}.",
            rule("levels"),
        ),
    ]
    for first, last, stage, rate in timeline.segments:
        span = f"Day {first}" if first == last else f"Days {first}\u2013{last}"
        left = timeline.daily[last - 1]
        steps.append(
            fw.Step(
                f"{span}: {state_text(stage)}, {rate_text(rate)}"
                f"{' with care' if care else ''}; {left} damage left after day {last}.",
                rule("healing.rates"),
            )
        )
    if timeline.days is None:
        outputs["days"] = "never"
        stuck = timeline.daily[-1] if timeline.daily else taken
        stage = injury.injury_condition(stuck, hp, reading=reading, best_physical=best)
        steps.append(
            fw.Step(
                f"At {state_text(stage)} this activity heals nothing: choose less activity or care.",
                rule("healing.rates"),
            )
        )
    else:
        outputs["days"] = str(timeline.days)
        steps.append(fw.Step(f"Fully healed after {plural(timeline.days, 'day')}.", rule("healing.natural")))
    chart = fw.Chart(
        key="timeline",
        caption="Damage left at the end of each day, as a share of HP",
        x_label="Day",
        y_label="Damage left (share of HP)",
        points=timeline_points(taken, hp, timeline.daily),
    )
    return outputs, steps, chart


def _intensive(values: Mapping[str, Any], endurance: int, outputs: dict[str, str]) -> list[fw.Step]:
    """Outcomes § Intensive Care > Without Supervision: difficulty 8; success heals 2, failure: dying roll."""
    modifier, taken = values["intensive_modifier"], values["damage"]
    with fw.on_field("intensive_modifier"):
        odds = healing.unsupervised_intensive_care_chances(modifier, endurance, taken)
    outputs["intensive_heal"] = percent(odds.heal)
    outputs["intensive_death"] = percent(odds.death)
    dying = injury.dying_roll_chance(endurance, taken)
    return [
        fw.Step(
            f"Unsupervised intensive care: 2d6{term(modifier)} against "
            f"{healing.intensive_care_difficulty()}: {outputs['intensive_heal']} to heal "
            f"{odds.healed_damage} damage.",
            rule("intensive"),
        ),
        fw.Step(
            f"Failure ({percent(odds.dying_roll)}) forces a dying roll: End {endurance} with {taken} damage "
            f"survives it {percent(dying)}; death {outputs['intensive_death']} in all.",
            rule("dying"),
        ),
    ]


def _characteristics(values: Mapping[str, Any], outputs: dict[str, str]) -> list[fw.Step]:
    """Outcomes § Healing and Mental Characteristics: 1 point per 3 days, one characteristic at a time."""
    points = values["characteristic_damage"]
    with fw.on_field("characteristic_damage"):
        days = healing.characteristic_recovery_days({"characteristics": points})
    outputs["characteristic_days"] = str(days)
    after = outputs.get("days", "")
    start = f" after day {after} (once fully healed)" if after.isdigit() else " once fully healed"
    if after.isdigit():
        outputs["characteristic_done"] = str(int(after) + days)
    return [
        fw.Step(
            f"{points} point(s) of characteristic damage, one characteristic at a time, "
            f"{healing.characteristic_recovery_rate_days()} days of therapy each: {days} days, "
            f"starting{start}.",
            rule("healing.mental"),
        )
    ]


PHYSICAL = ("strength", "dexterity", "endurance")
"""The characteristics HP are made of (Outcomes § Hit Points); each may be empty when the HP are given."""


def _characteristic_inputs() -> tuple[fw.OptionalIntInput, ...]:
    """Str, Dex and End, 7, 8 and 9 on a fresh form; a hand-off that knows only the HP leaves them empty,
    so no default decides what the answer reads (End for a failed surgery, intensive care)."""
    return tuple(
        fw.OptionalIntInput(
            item.key, item.label, item.min, item.max, default=item.default, placeholder="not known"
        )
        for item in characteristic_inputs((7, 8, 9), abbreviated=True)
    )


def _hit_points(values: Mapping[str, Any]) -> tuple[int, injury.ThresholdReading, int | None]:
    """:func:`parts.hit_points`, asking for what it would read and nobody gave."""
    if values["hp"] is None:
        for key in PHYSICAL:
            if values[key] is None:
                raise fw.FieldError("Give Str, Dex and End, or the HP.", key)
    table = values["reading"] == injury.ThresholdReading.BEST_PHYSICAL
    if table and values["best_physical"] is None and any(values[key] is None for key in PHYSICAL):
        raise fw.FieldError(
            "The table reading needs the best physical characteristic (or Str, Dex and End).",
            parts.BEST_PHYSICAL_KEY,
        )
    return parts.hit_points(values)


def _endurance(values: Mapping[str, Any], why: str) -> int:
    """The patient's End, which ``why`` needs; asked for when it was left empty (never a default)."""
    endurance: int | None = values["endurance"]
    if endurance is None:
        raise fw.FieldError(f"{why} depends on the patient's End: give it.", "endurance")
    return endurance


_NEEDS_SURGERY = injury.InjuryCondition.SERIOUSLY_WOUNDED.severity
"""Outcomes § Surgery: a character still seriously wounded (or worse) after first aid needs surgery."""


class _Plan:
    """The treatments typed in, applied in order to the damage: each step's removal and the state after."""

    def __init__(self, values: Mapping[str, Any], hp: int, best: int | None, reading: Any) -> None:
        self.values, self.hp, self.best, self.reading = values, hp, best, reading
        self.damage: int = values["damage"]
        self.steps: list[fw.Step] = []
        self.outputs: dict[str, str] = {}

    def state(self) -> injury.InjuryCondition:
        return injury.injury_condition(self.damage, self.hp, reading=self.reading, best_physical=self.best)

    def after(self) -> str:
        return f"{number(self.damage)} damage left, {state_text(self.state())}"

    def first_aid(self) -> None:
        effect = self.values["first_aid_effect"]
        if effect is None or not self.damage:
            return
        removed = min(self.damage, healing.first_aid_healing(effect))
        difficulty = healing.first_aid_difficulty(on_self=self.values["on_self"])
        self.damage -= removed
        self.outputs["first_aid"] = str(removed)
        self.outputs["after_first_aid"] = self.after()
        self.steps.append(
            fw.Step(
                f"First aid (difficulty {difficulty}) with Effect {signed(effect)} removes {removed} "
                f"(always at least 1): {self.after()}.",
                rule("first_aid"),
            )
        )

    def surgery(self) -> None:
        effect = self.values["surgery_effect"]
        if effect is None:
            return
        if self.state().severity < _NEEDS_SURGERY:
            self.steps.append(
                fw.Step(
                    f"No surgery: {state_text(self.state())}"
                    f"{' after first aid' if 'first_aid' in self.outputs else ''}, and only the seriously "
                    "wounded or worse need it.",
                    rule("healing.surgery"),
                )
            )
            return
        with fw.on_field("surgery_effect"):
            surgery = healing.surgery_outcome(
                effect,
                self.values["medic_skill"],
                _endurance(self.values, "A failed surgery's harm") if effect < 0 else 0,
                time_reading=healing.SurgeryTimeReading(self.values["surgery_time"]),
            )
        removed = min(self.damage, surgery.healed)
        self.damage = min(self.damage - removed + surgery.harm, healing.MAX_HEALING_DAMAGE)
        self.outputs["surgery_heals"] = str(removed)
        self.outputs["surgery_minutes"] = str(surgery.minutes)
        if surgery.harm:
            self.outputs["surgery_harm"] = str(surgery.harm)
        self.outputs["after_surgery"] = self.after()
        if effect >= 0:
            text = f"Surgery with Effect {signed(effect)} removes {removed} in {surgery.minutes} minutes"
        else:
            harm = f", and harms the patient by {surgery.harm}" if surgery.harm else ""
            text = (
                f"Surgery with Effect {signed(effect)}: Medic {self.values['medic_skill']} leaves a fail "
                f"effect of {surgery.remaining_fail_effect}; it takes {surgery.minutes} minutes{harm}"
            )
        self.steps.append(fw.Step(f"{text}: {self.after()}.", rule("healing.surgery")))


def _compute(values: Mapping[str, Any]) -> fw.Result:
    """First aid and surgery as typed in (surgery only where the rule calls for it), then the days left
    by natural healing from what they leave; intensive care, characteristics and care capacity when asked."""
    with fw.on_field("hp" if values["hp"] is not None else "strength"):
        hp, reading, best = _hit_points(values)
    with fw.on_field("damage"):
        plan = _Plan(values, hp, best, reading)
        start = plan.state()
    plan.first_aid()
    plan.surgery()
    with fw.on_field("damage"):
        outputs, steps, chart = _natural(values, plan.damage, hp, best, reading)
    outputs = {**plan.outputs, **outputs, "state": state_text(start)}
    steps[:0] = [fw.Step(f"{hp_text(values, hp)}.", rule("thresholds")), *plan.steps]
    if values["intensive_modifier"] is not None:
        steps.extend(_intensive(values, _endurance(values, "Intensive care"), outputs))
    if values["characteristic_damage"]:
        steps.extend(_characteristics(values, outputs))
    if values["medic"] is not None:
        capacity = healing.care_capacity(values["medic"], supervised=values["supervised"])
        outputs["capacity"] = str(capacity)
        supervised = f" (doubled by a Medic {SUPERVISOR_MEDIC}+ supervisor)" if values["supervised"] else ""
        steps.append(
            fw.Step(
                f"Medic {values['medic']} cares for {capacity} light care patients{supervised}.",
                rule("capacity"),
            )
        )
    return fw.Result(outputs=outputs, working=tuple(steps), charts=(chart,) if chart else ())


def _summary(values: Mapping[str, Any], out: Mapping[str, str]) -> str:
    """One plan: what each treatment removes and leaves, then the days to heal fully and the care level."""
    if not values["damage"]:
        return "No damage: nothing to heal."
    state = out["state"].capitalize()
    said = [f"{state} with {number(values['damage'])} damage"]
    if "first_aid" in out:
        said.append(f"first aid removes {out['first_aid']} ({out['after_first_aid']})")
    if "after_surgery" in out:
        said.append(f"surgery removes {out['surgery_heals']} ({out['after_surgery']})")
    days = out["days"]
    tail = "never heals at this activity" if days == "never" else f"{plural(int(days), 'day')} to heal fully"
    if days == "0" and ("first_aid" in out or "after_surgery" in out):
        tail = "fully healed"
    said.append(tail + (f", care level {out['care_level']}" if "care_level" in out else ""))
    return "; ".join(said) + "."


CALCULATOR = fw.Calculator(
    title="Healing calculator",
    summary="Days until fully healed, day by day across the injury thresholds; first aid, surgery and care.",
    inputs=(
        *_characteristic_inputs(),
        hp_input(),
        fw.IntInput("damage", "Damage taken", 16, 0, healing.MAX_HEALING_DAMAGE),
        fw.ChoiceInput("activity", "Activity", ACTIVITY_CHOICES, "full_rest"),
        fw.ChoiceInput("care", "Medical care", CARE_CHOICES, "no"),
        optional_modifier_input(
            "first_aid_effect",
            "First aid: Effect of the Medic check",
            help="Optional: the Effect of the first aid roll.",
        ),
        fw.BoolInput("on_self", "First aid on oneself"),
        optional_modifier_input(
            "surgery_effect",
            "Surgery: Effect of the Medic check",
            help="Optional: applied only if still seriously wounded or worse after first aid.",
        ),
        fw.IntInput("medic_skill", "Surgeon's Medic skill", 1, 0, healing.MAX_MEDIC_LEVEL),
        fw.OptionalIntInput(
            "medic",
            "Care capacity: Medic level",
            0,
            healing.MAX_MEDIC_LEVEL,
            help="Optional: how many patients a medic of this level can care for.",
        ),
        supervised_input(),
        optional_modifier_input(
            "intensive_modifier",
            "Unsupervised intensive care: the roll's DM",
            help=f"Optional: no Medic {SUPERVISOR_MEDIC}+ or AI sickbay supervising; "
            f"the odds of the difficulty {healing.intensive_care_difficulty()} roll.",
        ),
        fw.IntInput(
            "characteristic_damage",
            "Characteristic damage",
            0,
            0,
            healing.MAX_HEALING_DAMAGE,
            help="Points lost from Intellect, Education and the like, all together.",
        ),
        threshold_reading_input(),
        best_physical_input(),
        fw.ChoiceInput("care_rate", "Rate with care (ruling)", CARE_RATE_CHOICES, "table"),
        fw.ChoiceInput("lost_progress", "Lost progress (ruling)", LOST_CHOICES, "restart"),
        fw.ChoiceInput("care_levels", "Care levels (ruling)", LEVEL_CHOICES, "injury_thresholds"),
        fw.ChoiceInput("surgery_time", "Failed surgery time (ruling)", SURGERY_TIME_CHOICES, "multiply"),
    ),
    outputs=(
        fw.Output("days", "Days until fully healed"),
        fw.Output("state", "State now"),
        fw.Output("after_first_aid", "After first aid"),
        fw.Output("after_surgery", "After surgery"),
        fw.Output("care_level", "Care level"),
        fw.Output("first_aid", "First aid removes"),
        fw.Output("surgery_heals", "Surgery removes"),
        fw.Output("surgery_minutes", "Surgery takes (minutes)"),
        fw.Output("surgery_harm", "Surgery harm"),
        fw.Output("capacity", "Light care patients per medic"),
        fw.Output("intensive_heal", "Intensive care: chance to heal"),
        fw.Output("intensive_death", "Intensive care: chance of death"),
        fw.Output("characteristic_days", "Days of therapy for characteristics"),
        fw.Output("characteristic_done", "Characteristics recovered after day"),
    ),
    compute=_compute,
    answer=_summary,
    uses=(
        "rules_core.injury.hit_points",
        "rules_core.injury.injury_condition",
        "rules_core.healing.healing_timeline",
        "rules_core.healing.care_level",
        "rules_core.healing.first_aid_healing",
        "rules_core.healing.first_aid_difficulty",
        "rules_core.healing.surgery_outcome",
        "rules_core.healing.care_capacity",
        "rules_core.healing.unsupervised_intensive_care_chances",
        "rules_core.healing.characteristic_recovery_days",
    ),
    rules=(
        rule("healing.natural"),
        rule("healing.rates"),
        rule("first_aid"),
        rule("healing.surgery"),
        rule("healing.care"),
        rule("healing.level_ruling"),
        rule("healing.rate_ruling"),
        rule("healing.lost_ruling"),
        rule("healing.surgery_ruling"),
    ),
)
