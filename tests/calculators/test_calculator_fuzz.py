"""Fuzzing every calculator's inputs together (CPython, the code the browser runs): bounded, never a crash.

Where ``test_calculator_framework.py`` throws arbitrary text at the inputs, these draw whole input
sets from each input's own edges (its minimum and maximum, one past them, huge numbers, hostile text,
choices that are not offered) so the rules are driven to their largest valid sizes at once. Every
answer must come quickly (bounded work, no hang at the table), be a result or messages (never both,
never neither), and word its messages as short sentences, never a traceback or a Python repr.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculators.framework import registry, runtime

NAMES = registry.names()
BUDGET_S = 2.0
"""A compute at the table must answer well inside this (the browser adds Pyodide's ~2-4x). Counted in
this thread's CPU time: the work done, which a busy machine's other processes cannot inflate."""
HOSTILE = ["", "  ", "abc", "<b>x</b>", "-" + "9" * 30, "9" * 30, "1e309", "nan", "\u0663", "\x00", "½"]
NOT_A_SENTENCE = re.compile(r"Traceback|File \"|Error\b|Exception|<class |\bNone\b|\{'|\[\'")


def int_values(item: Any) -> st.SearchStrategy[str]:
    edges = [item.min, item.max, item.min - 1, item.max + 1]
    inside = st.integers(item.min, item.max).map(str)
    return st.one_of(st.sampled_from([str(v) for v in edges]), inside, st.sampled_from(HOSTILE))


def values_for(item: Any) -> st.SearchStrategy[str]:
    if item.kind in ("int", "optional_int"):
        return int_values(item)
    if item.kind == "choice":
        offered = [value for value, _ in item.choices]
        return st.sampled_from([*offered, "not-a-choice", ""])
    if item.kind == "bool":
        return st.sampled_from(["1", "0", "yes", "maybe", ""])
    default = str(item.default or "")
    return st.one_of(
        st.just(default),
        st.sampled_from(HOSTILE),
        st.text(alphabet="0123456789d+-x* ", max_size=item.max_length + 5),
    )


def check_answer(name: str, raw: dict[str, str]) -> None:
    start = time.thread_time()
    result = runtime.compute(name, raw)
    spent = time.thread_time() - start
    assert spent < BUDGET_S, f"{name} took {spent:.2f} CPU-s on {raw}"
    messages = [*result["errors"].values(), *([result["form_error"]] if result["form_error"] else [])]
    assert result["ok"] != bool(messages), (raw, result)
    for message in messages:
        assert 0 < len(message) <= 200, message
        assert not NOT_A_SENTENCE.search(message), message
    assert set(result["errors"]) <= set(raw) | {i.key for i in registry.get(name).inputs}


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mix_of_edge_and_hostile_inputs_answers_quickly_with_a_result_or_sentences(
    name: str, data: st.DataObject
) -> None:
    calc = registry.get(name)
    raw = {item.key: data.draw(values_for(item), label=item.key) for item in calc.inputs}
    check_answer(name, raw)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("edge", ["min", "max"])
def test_every_number_at_its_limit_at_once_still_answers_quickly(name: str, edge: str) -> None:
    calc = registry.get(name)
    raw = {item.key: str(getattr(item, edge)) for item in calc.inputs if item.kind in ("int", "optional_int")}
    check_answer(name, raw)
