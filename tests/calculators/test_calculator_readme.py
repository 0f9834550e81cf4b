"""The example in calculators/README.md is a real module: the block is the file, and it evaluates."""

from __future__ import annotations

import re
from pathlib import Path

from calculators.examples import check_effect
from calculators.framework import registry
from calculators.framework.render import render_calculator
from calculators.framework.spec import evaluate

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "calculators" / "README.md"
EXAMPLE = re.compile(r"<!-- example: (?P<path>\S+) -->\n```python\n(?P<code>.*?)```\n", re.S)


def test_every_readme_example_block_is_the_file_it_names() -> None:
    blocks = list(EXAMPLE.finditer(README.read_text(encoding="utf-8")))
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
