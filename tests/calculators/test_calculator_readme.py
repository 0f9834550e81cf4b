"""calculators/README.md runs: its example is a real module that evaluates, and every other Python block
in it runs as written. It stays a five-minute read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from calculators.examples import check_effect
from calculators.framework import registry
from calculators.framework.render import render_calculator
from calculators.framework.spec import evaluate
from sitebuild.markers import MARKER

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "calculators" / "README.md"
TEXT = README.read_text(encoding="utf-8")
EXAMPLE = re.compile(r"<!-- example: (?P<path>\S+) -->\n```python\n(?P<code>.*?)```\n", re.S)
BLOCK = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>\w+)\n(?P<code>.*?)^(?P=indent)```$", re.S | re.M)
MAX_LINES = 160
"""About five minutes of reading (the example's code is read faster than prose)."""


def _blocks(lang: str) -> list[str]:
    """Every fenced ``lang`` block outside the embedded example, its indentation removed."""
    example = {m.start("code") for m in EXAMPLE.finditer(TEXT)}
    return [
        "\n".join(line.removeprefix(b["indent"]) for line in b["code"].splitlines())
        for b in BLOCK.finditer(TEXT)
        if b["lang"] == lang and b.start("code") not in example
    ]


def test_every_readme_example_block_is_the_file_it_names() -> None:
    blocks = list(EXAMPLE.finditer(TEXT))
    assert [b["path"] for b in blocks] == ["calculators/examples/check_effect.py"]
    for block in blocks:
        assert block["code"] == (ROOT / block["path"]).read_text(encoding="utf-8")


def test_the_example_evaluates_through_the_framework() -> None:
    calc = check_effect.CALCULATOR
    assert calc.name not in registry.names()
    assert evaluate(calc).ok
    result = evaluate(calc, {"modifier": "2", "difficulty": "8", "roll": "7"}).result
    assert result is not None
    assert result.outputs == {
        "chance": "72.22%",
        "effect": "+1",
        "summary": "Effect +1; this check succeeds 72.22% of the time.",
    }
    assert [s.text for s in result.working][-1] == "Effect: roll 7 +2 \u2212 difficulty 8 = +1."
    assert [c.key for c in result.charts] == ["check"]
    errors = evaluate(calc, {"difficulty": "99"}).errors
    assert errors == {"difficulty": "Difficulty must be between 2 and 50."}
    assert 'data-calculator="check_effect"' in render_calculator(evaluate(calc))


@pytest.mark.parametrize("code", _blocks("python"))
def test_every_python_block_of_the_readme_runs(code: str) -> None:
    exec(compile(code, str(README), "exec"), {})


def test_the_readme_page_block_places_the_example_calculator() -> None:
    (page,) = _blocks("markdown")
    markers = [(m["kind"], m["name"]) for m in MARKER.finditer(page)]
    assert markers == [("calculator", check_effect.CALCULATOR.name)]


def test_the_readme_is_a_five_minute_read() -> None:
    assert len(TEXT.splitlines()) <= MAX_LINES
