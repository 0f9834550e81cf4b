"""Every calculator's refused inputs and raw-text fuzzing, in one table each (CPython).

A bad value is flagged beside its own field with no result shown; any raw text (numbers far out of
range, words, dice, choices) gives either a result whose headline outputs are filled in or field
messages, never an exception. The damage calculator's refusals, some of which land on another field,
stay in ``test_calc_damage.py``.
"""

from __future__ import annotations

import _calc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.framework import registry, runtime
from calculators.framework.render import EMPTY_OUTPUT

BAD_INPUTS = [
    ("attack", "modifier", "", "enter a whole number"),
    ("attack", "difficulty", "1", "between 2 and 50"),
    ("attack", "roll", "13", "between 2 and 12"),
    ("attack", "roll", "1", "between 2 and 12"),
    ("attack", "damage", "lots", "not a dice expression"),
    ("attack", "adversary_damage", "2d", "not a dice expression"),
    ("attack", "cover", "-1", "between 0 and 50"),
    ("attack", "defend", "dodge", "choose one of"),
    ("attack", "hp", "0", "between 1 and"),
    ("attack", "own_damage", "x", "whole number"),
    ("comparison", "margin", "21", "between -20 and 20"),
    ("comparison", "margin", "", "enter a whole number"),
    ("comparison", "margin", "two", "whole number"),
    ("comparison", "mneme_initiative_roll", "13", "between 2 and 12"),
    ("comparison", "mneme_dexterity", "-1", "between 0 and 99"),
    ("comparison", "mneme_weapon", "lots", "not a dice expression"),
    ("comparison", "mneme_weapon", "11d6", "damage dice"),
    ("comparison", "mneme_weapon", "D 3d3", "Scale prefixes"),
    ("comparison", "mneme_weapon", "", "cannot be empty"),
    ("comparison", "mneme_rate_of_attack", "0", "between 1 and 21"),
    ("comparison", "mneme_load", "enormous", "choose one of"),
    ("comparison", "mistrunner_reaction_die", "11", "between 1 and 10"),
    ("comparison", "mistrunner_actions", "4", "between 1 and 3"),
    ("comparison", "mistrunner_melee", "maybe", "1 (yes) or 0 (no)"),
    ("comparison", "met_celerity_rounds", "4", "between 0 and 3"),
    ("comparison", "met_step_cm", "0", "between 1 and 1000 cm"),
    ("comparison", "met_physical", "9" * 40, "far too large"),
    ("effect", "modifier", "", "enter a whole number"),
    ("effect", "modifier", "two", "enter a whole number"),
    ("effect", "difficulty", "1", "between 2 and 50"),
    ("effect", "modifier", "51", "between -50 and 50"),
    ("effect", "difficulty", "1" * 50, "far too large"),
    ("effect", "advantage", "21", "between 0 and 20"),
    ("effect", "disadvantage", "-1", "between 0 and 20"),
    ("effect", "roll", "1", "between 2 and 12"),
    ("effect", "roll", "13", "between 2 and 12"),
    ("effect", "roll", "7.5", "whole number"),
    ("healing", "strength", "", "Give Str, Dex and End, or the HP"),
    ("healing", "damage", "1001", "between 0 and 1000"),
    ("healing", "damage", "-1", "between 0 and 1000"),
    ("healing", "activity", "sprint", "choose one of"),
    ("healing", "care", "maybe", "choose one of"),
    ("healing", "first_aid_effect", "x", "whole number"),
    ("healing", "medic", "16", "between 0 and 15"),
    ("healing", "medic_skill", "-1", "between 0 and 15"),
    ("healing", "supervised", "perhaps", "use 1 (yes) or 0 (no)"),
    ("healing", "lost_progress", "", "choose one of"),
    ("mitigation", "fail_effect", "", "enter a whole number"),
    ("mitigation", "fail_effect", "three", "enter a whole number"),
    ("mitigation", "fail_effect", "101", "between -100 and 100"),
    ("mitigation", "fail_effect", "9" * 20, "far too large"),
    ("mitigation", "cover", "-1", "between 0 and 50"),
    ("mitigation", "skill", "51", "between 0 and 50"),
    ("mitigation", "conditions", "2.5", "whole number"),
    ("mitigation", "defend", "shield", "choose one of"),
    ("mitigation", "order", "random", "choose one of"),
    ("mitigation", "cover_cap", "", "choose one of"),
    ("thresholds", "strength", "", "enter a whole number"),
    ("thresholds", "strength", "-1", "between 0 and 99"),
    ("thresholds", "dexterity", "seven", "whole number"),
    ("thresholds", "endurance", "100", "between 0 and 99"),
    ("thresholds", "damage", "-3", "between 0 and"),
    ("thresholds", "largest_roll", "-1", "between 0 and"),
    ("thresholds", "location", "tail", "choose one of"),
    ("thresholds", "reading", "thirds", "choose one of"),
]
"""(calculator, field, bad value, words its message must contain)."""


@pytest.mark.parametrize(("name", "field", "value", "message"), BAD_INPUTS)
def test_bad_inputs_are_flagged_beside_their_field(name: str, field: str, value: str, message: str) -> None:
    _calc.assert_flagged(name, field, value, message)


SMALL_DICE = st.builds(
    lambda c, s, m, p: f"{p}{c}d{s}{m:+d}" if m else f"{p}{c}d{s}",
    st.integers(1, 4),
    st.integers(2, 12),
    st.integers(-5, 5),
    st.sampled_from(["", "", "D ", "H "]),
)
FUZZ: dict[str, tuple[tuple[str, ...], list[st.SearchStrategy[str]]]] = {
    "attack": (
        ("summary",),  # the chance, or (an Effect given) the outcome: the answer in words either way
        [
            st.integers(-3, 14).map(str),
            st.sampled_from(["3d6", "2d6-1", "D 1d6", "none", "cover", "skill", "best_physical", ""]),
        ],
    ),
    "healing": (
        ("days",),
        [
            st.integers(-5, 1200).map(str),
            st.sampled_from(["no", "yes", "light", "moderate", "full_rest", "table", "day_only", "1", "0"]),
        ],
    ),
    "mitigation": (
        ("remaining", "ordinary_failure", "cover_absorbs"),
        [
            st.sampled_from(
                ["none", "cover", "skill", "concealment", "priority", "always", "-0", "+3", "\u22122"]
            ),
        ],
    ),
    "thresholds": (
        ("state",),
        [
            st.integers(-3, 60).map(str),
            st.sampled_from(["none", "head", "limbs", "vitals", "exact", "best_physical", ""]),
        ],
    ),
    "damage": (
        ("expected",),
        [
            st.integers(-12, 12).map(str),
            SMALL_DICE,
            st.sampled_from(["none", "D", "K", "each_roll", "whole_attack", "best_physical", "\u22123"]),
        ],
    ),
}
"""Per calculator: the outputs a good result must fill in, and raw texts to try beyond any text or number."""


@pytest.mark.parametrize("name", sorted(FUZZ))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_raw_text_gives_a_result_or_field_messages_never_an_exception(
    name: str, data: st.DataObject
) -> None:
    headline, extra = FUZZ[name]
    texts = st.one_of(st.text(max_size=14), st.integers(-(10**14), 10**14).map(str), *extra)
    raw = data.draw(st.dictionaries(st.sampled_from([i.key for i in registry.get(name).inputs]), texts))
    result = runtime.compute(name, raw)
    if result["ok"]:
        assert all(result["outputs"][k] != EMPTY_OUTPUT for k in headline)
    else:
        messages = list(result["errors"].values()) + ([result["form_error"]] if result["form_error"] else [])
        assert messages and all(isinstance(m, str) and m.strip() for m in messages)
