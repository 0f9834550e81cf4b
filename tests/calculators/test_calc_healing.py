"""The healing calculator: days to heal day by day across the thresholds, first aid, surgery, capacity.

Rules: Outcomes § Natural Healing and Medical Care Table, § First Aid, § Surgery, § Medical Care,
§ Care Levels. Rulings: docs/rulings.md#care-doubles, #lost-progress, #immobile-healing,
#surgery-failure, #care-level-boundaries.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import _calc
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.format import percent
from calculators.healing import MAX_TIMELINE_POINTS, rate_text, timeline_points

NAME = "healing"
EMPTY = "\u2014"


compute = partial(_calc.compute, NAME)
outputs = partial(_calc.outputs, NAME)


def test_ten_damage_at_full_rest_heals_in_13_days() -> None:
    # Outcomes § Natural Healing table (docs/rules/healing.md example): HP 24, 10 damage is seriously
    # wounded: 1 every 2 days down to 7 (6 days), then 1 a day (7 days) = 13.
    out = outputs(strength=7, dexterity=8, endurance=9, damage=10, activity="full_rest", care="no")
    assert (out["days"], out["state"], out["care_level"]) == ("13", "seriously wounded", "moderate")


def test_sixteen_damage_at_full_rest_takes_30_days_through_three_rates() -> None:
    # Critically wounded 1 per 7 days (16 -> 15), seriously wounded 1 per 2 days (15 -> 7), then 1 a day.
    result = compute(damage=16, activity="full_rest")
    assert result["outputs"]["days"] == "30"
    details = result["details"]
    assert "Days 1\u20137: critically wounded, 1 every 7 days" in details
    assert "Days 8\u201323: seriously wounded, 1 every 2 days" in details
    assert "Days 24\u201330: wounded, 1 a day" in details
    assert 'data-chart="timeline"' in details


def test_a_seriously_wounded_character_at_moderate_activity_never_heals() -> None:
    # Outcomes § Natural Healing table: seriously wounded, moderate activity: no healing.
    assert outputs(damage=10, activity="moderate")["days"] == "never"


def test_care_at_full_rest_speeds_healing() -> None:
    assert int(outputs(damage=10, care="yes")["days"]) < int(outputs(damage=10)["days"])


def test_no_damage_heals_in_zero_days() -> None:
    out = outputs(damage=0)
    assert (out["days"], out["state"]) == ("0", "unhurt")


def test_first_aid_removes_its_effect_and_at_least_1() -> None:
    # Outcomes § First Aid; docs/rulings.md#first-aid-failure.
    assert outputs(first_aid_effect=3)["first_aid"] == "3"
    assert outputs(first_aid_effect=-2)["first_aid"] == "1"


def test_surgery_removes_twice_its_success_effect_and_a_failure_costs_time() -> None:
    # Outcomes § Surgery: success removes 2 x the success effect in 30 minutes; Medic skill reduces a failure.
    # (16 damage of HP 24 is critically wounded: surgery applies; no harm done shows no harm line)
    ok = outputs(surgery_effect=3)
    assert (ok["surgery_heals"], ok["surgery_minutes"], ok["surgery_harm"]) == ("6", "30", EMPTY)
    bad = outputs(surgery_effect=-5, medic_skill=1, endurance=9)
    assert (bad["surgery_heals"], bad["surgery_minutes"], bad["surgery_harm"]) == ("0", "120", EMPTY)
    one_plus = outputs(surgery_effect=-5, medic_skill=1, surgery_time="one_plus")
    assert one_plus["surgery_minutes"] == "150"


def test_a_medics_capacity_doubles_per_level_and_with_supervision() -> None:
    # Outcomes § Medical Care (Capacity): 8 at Medic 0, doubled per level; a Medic 2+ supervisor doubles it.
    assert outputs(medic=0)["capacity"] == "8"
    assert outputs(medic=2)["capacity"] == "32"
    assert outputs(medic=2, supervised=1)["capacity"] == "64"


def test_rate_text_reads_as_players_say_it() -> None:
    assert rate_text(Fraction(1, 3)) == "1 every 3 days"
    assert rate_text(Fraction(2)) == "2 a day"
    assert rate_text(Fraction(2, 7)) == "2 every 7 days"
    assert rate_text(Fraction(0)) == "no healing"


def test_a_long_timeline_is_thinned_but_keeps_its_first_and_last_day() -> None:
    daily = tuple(range(999, -1, -1))[:1000]
    points = timeline_points(1000, 2000, daily)
    assert len(points) <= MAX_TIMELINE_POINTS + 2
    assert points[0] == (0, Fraction(1, 2))
    assert points[-1] == (1000, Fraction(0))


@settings(max_examples=120, deadline=None)
@given(
    damage=st.integers(1, 60),
    activity=st.sampled_from(["moderate", "light", "full_rest"]),
    care=st.sampled_from(["no", "yes"]),
)
def test_days_is_a_whole_number_or_never_and_more_rest_is_never_slower(
    damage: int, activity: str, care: str
) -> None:
    out = outputs(damage=damage, activity=activity, care=care)
    rest = outputs(damage=damage, activity="full_rest", care=care)
    assert rest["days"] != "never"
    if out["days"] != "never":
        assert int(out["days"]) >= int(rest["days"]) >= 1


def test_care_level_agrees_with_the_state_under_the_characteristics_reading() -> None:
    """Outcomes § Care Levels: the care level follows the injury state the sheet shows."""
    out = outputs(strength=7, dexterity=8, endurance=9, damage=8, reading="best_physical")
    assert (out["state"], out["care_level"]) == ("wounded", "light")
    out = outputs(strength=7, dexterity=8, endurance=9, damage=8)
    assert (out["state"], out["care_level"]) == ("seriously wounded", "moderate")


def test_unsupervised_intensive_care_odds_brute_forced() -> None:
    """Outcomes § Intensive Care > Without Supervision: "roll Difficulty 8. Failure means the character has to
    make a Dying Roll. Success means healing 2 damage"; § Dying: End against 4, wound penalties apply.

    End 9 (DM +1), 25 damage (penalty -8), DM +1 on the care roll: every pair of dice counted.
    """
    pairs = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    heal = Fraction(sum(1 for a, b in pairs if a + b + 1 >= 8), 36)
    survive = Fraction(sum(1 for a, b in pairs if a + b + 1 - 8 >= 4), 36)
    out = outputs(strength=7, dexterity=8, endurance=9, damage=25, intensive_modifier=1)
    assert out["intensive_heal"] == percent(heal) == "58.33%"
    assert out["intensive_death"] == percent((1 - heal) * (1 - survive)) == "38.19%"
    assert outputs()["intensive_heal"] == EMPTY


def test_characteristic_damage_takes_3_days_a_point_after_full_healing() -> None:
    """Outcomes § Healing and Mental Characteristics: "1 stat damage per 3 days of Physical or Psychological
    Therapy", "1 stat at a time", "once the character has fully healed"."""
    out = outputs(strength=7, dexterity=8, endurance=9, damage=8, characteristic_damage=3)
    assert (out["days"], out["characteristic_days"], out["characteristic_done"]) == ("9", "9", "18")
    assert outputs(characteristic_damage=0)["characteristic_days"] == EMPTY


def test_first_aid_then_surgery_only_while_still_seriously_wounded_one_plan() -> None:
    # Outcomes § First Aid, § Surgery: 10 damage of HP 24 (7+8+9) is seriously wounded (from 8). First aid
    # Effect 2 removes 2: 8 left, still seriously wounded, so surgery applies; Effect 1 removes 2 x 1 = 2:
    # 6 left, wounded, which heals 1 a day at full rest: 6 days.
    out = outputs(damage=10, first_aid_effect=2, surgery_effect=1)
    assert (out["first_aid"], out["after_first_aid"]) == ("2", "8 damage left, seriously wounded")
    assert (out["surgery_heals"], out["after_surgery"], out["days"]) == ("2", "6 damage left, wounded", "6")
    assert out["surgery_harm"] == EMPTY
    assert out["summary"] == (
        "Seriously wounded with 10 damage; first aid removes 2 (8 damage left, seriously wounded); "
        "surgery removes 2 (6 damage left, wounded); 6 days to heal fully, care level light."
    )


def test_no_surgery_for_a_character_first_aid_left_only_wounded() -> None:
    # Outcomes § Surgery: only a character still seriously wounded after first aid needs it. 9 damage,
    # first aid Effect 2: 7 left, wounded (below 8): the surgery typed in does not apply.
    result = compute(damage=9, first_aid_effect=2, surgery_effect=1)
    out = result["outputs"]
    assert (out["surgery_heals"], out["after_surgery"], out["days"]) == (EMPTY, EMPTY, "7")
    assert "No surgery: wounded after first aid" in result["details"]


def test_failed_surgery_harm_shows_and_adds_to_the_damage() -> None:
    # Outcomes § Surgery: fail effect 5 less Medic 0 leaves 5, more than half End 9 (4.5): harm 2 x 5 = 10.
    out = outputs(damage=10, surgery_effect=-5, medic_skill=0)
    assert (out["surgery_harm"], out["after_surgery"]) == ("10", "20 damage left, critically wounded")


def test_given_hp_wins_over_the_characteristics() -> None:
    # Outcomes § Hit Points: HP handed on are used as given (thirds of 30: serious from 10).
    out = outputs(hp=30, damage=9)
    assert out["state"] == "wounded"
