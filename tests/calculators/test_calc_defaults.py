"""A calculator's bare form reproduces a worked example of its source.

The table ``defaults.json`` gives, for each calculator whose defaults are such an example, the source
(``source``), the output texts (``outputs``) and the outputs left empty (``empty``): every output is
named, so a new output or a changed text fails here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import _calc
import pytest

from calculators.framework.render import EMPTY_OUTPUT

TABLE: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).with_name("defaults.json")).read_text(encoding="utf-8")
)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_the_defaults_reproduce_the_sources_example(name: str) -> None:
    row = TABLE[name]
    assert row["source"], f"{name}: no source for its defaults"
    assert _calc.outputs(name) == {**dict.fromkeys(row.get("empty", ()), EMPTY_OUTPUT), **row["outputs"]}
