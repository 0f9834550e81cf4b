"""The worked-example figures of ``sitebuild.reference.examples``, checked against the sources."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from _dice import brute_force_chance, pct

from sitebuild.reference import VALUES

MINUS = "\u2212"
"""The true minus sign the pages print."""


def render_value(name: str) -> str:
    return VALUES[name]()


@pytest.mark.parametrize(
    ("name", "expected", "source"),
    [
        ("mitigation-example-start", "7", "Core Mechanics § Mitigating Factors: 13 - 6"),
        ("mitigation-example-after-conditions", "4", "conditions 3"),
        ("mitigation-example-after-cover", "2", "cover 2"),
        ("mitigation-example-remaining", "0", "skill 2: an ordinary failure"),
        ("shield-example-cover", "2", "Outcomes § Example: Shield Taking Damage"),
        ("shield-example-character", "1", "Outcomes § Example: Shield Taking Damage"),
        ("costly-success-example", "7", "Core Mechanics § Costly Success: -2 x 2 + 3 read as degree 7"),
        ("fail-effect-example", "3", "Core Mechanics § Fail Effect: difficulty 8, roll 5"),
        ("chm-of-10", "1", "Core Mechanics § Characteristic Modifier: 10 // 3 - 2"),
        ("rifle-example-rolls", "3", "Outcomes § Example: Automatic Rifle Damage"),
        ("broadsword-example-per-roll", f"3d3{MINUS}5", "Outcomes § Example: Success Effect Damage Rolls"),
        ("rifle-armor-per-roll", f"3d6{MINUS}5", "Outcomes § Example: Success Effect Damage Rolls"),
        ("roa-example-kept", "2", "Outcomes § Weapons with Limited Rate of Attack"),
        ("flak-example-per-roll", f"3d3{MINUS}6", "Outcomes § Example: Armor in Combat"),
        ("injury-example-hp", "24", "Outcomes § Character HP Calculation: 7 + 8 + 9"),
        ("injury-example-serious", "8", "Outcomes § Seriously Wounded: 24 / 3"),
        ("injury-example-critical", "16", "Outcomes § Critically Wounded: 2 x 24 / 3"),
        ("wound-penalty-example", f"{MINUS}3", "Outcomes § Character HP Thresholds: 10 damage"),
        ("defend-skill-example", "4", "Actions § Defend Action: skill 2 doubled"),
        ("surgery-example", "4", "Outcomes § Surgery: twice the success effect"),
        ("first-aid-minimum", "1", "Outcomes § First Aid: at minimum 1"),
        ("first-aid-expected-rounds", "27.7", "Outcomes § First Aid: +0 against 8, rolling every round"),
        ("surgery-fail-minutes", "90", "Outcomes § Surgery: fail 4 - Medic 1 = 3, times 30 minutes"),
        ("surgery-fail-harm", "6", "Outcomes § Surgery: 3 > End 5 / 2, twice the remainder"),
        ("care-capacity-example", "32", "Outcomes § Medical Care: 8, doubled per level"),
        ("movement-example-dash", "3", "Actions § Movement Table: med/hvy crouched dash"),
        ("ambush-example", "13", "Actions § Initiative: ambushers 12 + Dex DM (+1)"),
        ("ambush-tactics-example", "15", "Actions § Initiative: plus a Tactics Effect of 2"),
        ("reckless-example-success-effect", "2", "Actions § Reckless Action: success at full Effect"),
        ("reckless-example-harm", "1", "Actions § Reckless Action: Effect 2 - 3 = -1"),
        ("reckless-example-big-harm", "0", "Actions § Reckless Action: Effect 4 - 3 = +1, no harm"),
        ("reckless-example-failure", "5", "Actions § Reckless Action: a failure of 2 is 3 worse"),
        ("time-example-plus-one", "2", "Core Mechanics § Time and Checks: success effect 1, 2 seconds"),
        ("time-example-zero", "3", "Core Mechanics § Time and Checks: success effect 0, 3 seconds"),
        ("time-example-minus-one", "4", "Core Mechanics § Time and Checks: fail effect -1, 4 seconds"),
        (
            "time-example-minus-three",
            "6",
            "Core Mechanics § Time and Checks: fail effect of three, 6 seconds",
        ),
        ("grapple-throw-example", "4", "Actions § Grappling: throw costs 1/6 of HP rounded up"),
        ("tactics-example-rolls", "4", "Actions § Tactics Skill: Effect 5 capped at 4 for difficulty 10"),
        ("tactics-example-attempts", "2", "Actions § Tactics Skill: skill 1 can try twice"),
        ("thrown-example-short", "3", "Actions § Thrown Weapons: Str 7, thrown 0.5"),
        ("thrown-example-short-lobbed", "10", "Actions § Thrown Weapons: lobbed"),
        ("thrown-example-long", "10", "Actions § Thrown Weapons: Str 7, thrown 1.5"),
        ("thrown-example-long-lobbed", "31", "Actions § Thrown Weapons: lobbed"),
    ],
)
def test_worked_example_values_are_computed_by_the_engine(name: str, expected: str, source: str) -> None:
    assert render_value(name) == expected, source


def test_odds_values_equal_brute_force() -> None:
    assert render_value("odds-8-plain") == pct(brute_force_chance(0, 8, 0)) == "41.67%"
    assert render_value("odds-8-advantage") == pct(brute_force_chance(0, 8, 1))
    assert render_value("odds-8-disadvantage") == pct(brute_force_chance(0, 8, -1))


def test_the_dying_example_equals_brute_force() -> None:
    """End 9 (DM +1), 25 damage (penalty -8): 2d6 + 1 - 8 >= 4 needs 11+ on the dice."""
    ways = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b + 1 - 8 >= 4)
    assert render_value("dying-example-chance") == pct(Fraction(ways, 36)) == "8.33%"


def test_the_flak_example_expected_total_has_two_decimals() -> None:
    """Outcomes § Example: Armor in Combat: three rolls of 3d3-6, each at least 0."""
    per_roll = [max(0, a + b + c - 6) for a, b, c in product(range(1, 4), repeat=3)]
    mean = Fraction(3 * sum(per_roll), len(per_roll))
    hundredths = int(mean * 100 + Fraction(1, 2))
    assert render_value("flak-example-expected") == f"{hundredths // 100}.{hundredths % 100:02d}"


@pytest.mark.parametrize("name", sorted(VALUES))
def test_every_value_is_one_short_figure(name: str) -> None:
    text = render_value(name)
    assert text and "\n" not in text and "-" not in text, "one figure, negatives with a true minus"
