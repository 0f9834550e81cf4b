"""The mitigation calculator: what conditions, concealment, cover and skill leave of a fail effect.

Rules: Core Mechanics § Mitigating Factors, § Fail Effect and Damage to Protection; Outcomes § Cover
Takes Damage; Actions § Defend Action. Rulings: docs/rulings.md#mitigation-order, #defend-cap.
"""

from __future__ import annotations

from functools import partial

import _calc
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.framework import runtime

NAME = "mitigation"


outputs = partial(_calc.outputs, NAME)


def test_degree_7_against_conditions_3_cover_2_and_skill_2_is_an_ordinary_failure() -> None:
    # Core Mechanics § Mitigating Factors example: 7 falls to 4, 2 and 0.
    assert outputs(fail_effect=7, conditions=3, cover=2, skill=2) == {
        "remaining": "0",
        "ordinary_failure": "yes",
        "cover_absorbs": "2",
        "summary": "An ordinary failure: no damage to you; the cover takes 2.",
    }
    details = runtime.compute(NAME, {"fail_effect": "7", "conditions": "3", "cover": "2", "skill": "2"})[
        "details"
    ]
    assert "Conditions 3 removes 3: 4 left." in details
    assert "Cover 2 removes 2: 2 left." in details
    assert "Skill 2 removes 2: 0 left." in details


def test_a_negative_fail_effect_means_the_same_size() -> None:
    # docs/rulings.md#fail-effect-sign: -3 and 3 are the same fail effect.
    assert outputs(fail_effect=-3, cover=2) == outputs(fail_effect=3, cover=2)


def test_cover_of_3_or_more_takes_all_three_attacks() -> None:
    # Outcomes § Cover Takes Damage: cinder blocks with cover 3 or more take all three attacks.
    assert outputs(fail_effect=3, cover=3) == {
        "remaining": "0",
        "ordinary_failure": "yes",
        "cover_absorbs": "3",
        "summary": "An ordinary failure: no damage to you; the cover takes 3.",
    }
    assert outputs(fail_effect=3, cover=5)["cover_absorbs"] == "3"


def test_skill_before_cover_changes_only_what_the_cover_takes() -> None:
    # docs/rulings.md#mitigation-order: fail effect 3, cover 2, skill 2: the cover takes 2 in priority
    # order, 1 with skill first.
    priority = outputs(fail_effect=3, cover=2, skill=2)
    skill_first = outputs(fail_effect=3, cover=2, skill=2, order="skill_before_cover")
    assert priority["cover_absorbs"] == "2" and skill_first["cover_absorbs"] == "1"
    assert priority["remaining"] == skill_first["remaining"] == "0"


def test_defending_with_cover_doubles_it_but_not_past_4() -> None:
    # Actions § Defend Action: doubled cover or concealment stops at 4.
    assert outputs(fail_effect=6, cover=3, defend="cover")["cover_absorbs"] == "4"
    assert outputs(fail_effect=6, cover=3, defend="cover")["remaining"] == "2"
    assert outputs(fail_effect=6, cover=2, defend="cover")["remaining"] == "2"


def test_defending_with_skill_doubles_the_skill() -> None:
    # Actions § Defend Action > Skill Doubling: skill 2 counts as 4.
    assert outputs(fail_effect=5, cover=0, skill=2, defend="skill")["remaining"] == "1"


def test_cover_above_4_counts_as_4_unless_the_doubling_only_reading_is_chosen() -> None:
    """Actions § Defend Action > Success: "the maximum modifier of Cover and Concealment is 4"."""
    assert outputs(fail_effect=6, cover=5)["cover_absorbs"] == "4"
    assert outputs(fail_effect=6, cover=5)["remaining"] == "2"
    assert outputs(fail_effect=6, cover=5, cover_cap="always")["cover_absorbs"] == "4"
    assert outputs(fail_effect=6, cover=5, cover_cap="doubling_only")["cover_absorbs"] == "5"


@settings(max_examples=200, deadline=None)
@given(
    degree=st.integers(0, 100),
    conditions=st.integers(0, 50),
    concealment=st.integers(0, 50),
    cover=st.integers(0, 50),
    skill=st.integers(0, 50),
)
def test_without_defend_each_factor_removes_up_to_its_value_in_order(
    degree: int, conditions: int, concealment: int, cover: int, skill: int
) -> None:
    out = outputs(
        fail_effect=degree, conditions=conditions, concealment=concealment, cover=cover, skill=skill
    )
    # Actions § Defend Action > Success: "the maximum modifier of Cover and Concealment is 4".
    concealment, cover = min(concealment, 4), min(cover, 4)
    after_conditions = max(0, degree - conditions - concealment)
    absorbed = min(cover, after_conditions)
    remaining = max(0, after_conditions - cover - skill)
    assert out.pop("summary").startswith("An ordinary failure" if remaining == 0 else "You take")
    assert out == {
        "remaining": str(remaining),
        "ordinary_failure": "yes" if remaining == 0 else "no",
        "cover_absorbs": str(absorbed),
    }


def test_the_working_links_each_factor_to_its_rule() -> None:
    details = runtime.compute(NAME, {"fail_effect": "7", "conditions": "3", "skill": "2"}, "../../")[
        "details"
    ]
    assert 'href="../../rules/mitigation/#conditions"' in details
    assert 'href="../../rules/mitigation/#skill-defence"' in details
    assert 'href="../../rules/mitigation/#cover-takes-damage"' in details
    assert 'href="../../rulings/#mitigation-order"' in details
