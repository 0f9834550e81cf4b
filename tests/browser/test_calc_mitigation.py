"""The mitigation calculator in headless Chromium: one page load, a restored URL, 20 random inputs
computed through Pyodide equal to CPython, and bad inputs flagged beside their field."""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from ._forms import check_bad_inputs, set_values, wait_outputs
from .conftest import outputs

pytestmark = pytest.mark.browser

NAME = "mitigation"
EMPTY = "\u2014"
BAD = [("fail_effect", "three"), ("cover", "-1"), ("skill", "51"), ("fail_effect", "")]


def random_values(rng: random.Random) -> dict[str, str]:
    return {
        "fail_effect": str(rng.choice([rng.randint(0, 12), -rng.randint(1, 12)])),
        "conditions": str(rng.randint(0, 4)),
        "concealment": str(rng.randint(0, 3)),
        "cover": str(rng.randint(0, 6)),
        "skill": str(rng.randint(0, 4)),
        "defend": rng.choice(["none", "cover", "concealment", "skill"]),
        "order": rng.choice(["priority", "skill_before_cover"]),
        "cover_cap": rng.choice(["doubling_only", "always"]),
    }


def test_the_page_restores_a_url_computes_like_cpython_and_flags_bad_inputs(
    open_calculator: Any, python_outputs: Any
) -> None:

    params = {"fail_effect": "7", "conditions": "3", "cover": "2", "skill": "2", "defend": "none"}
    form = open_calculator(NAME, **params)
    page = form.page
    for key, value in params.items():
        assert page.input_value(f'[name="{key}"]') == value
    assert (
        outputs(form)
        == python_outputs(NAME, **params)
        == {
            "remaining": "0",
            "ordinary_failure": "yes",
            "cover_absorbs": "2",
        }
    )
    assert page.locator('[name="cover"]').get_attribute("inputmode") == "numeric"

    rng = random.Random(NAME)
    values = params
    for _ in range(20):
        values = random_values(rng)
        set_values(form, values)
        wait_outputs(form, python_outputs(NAME, **values))
        assert outputs(form) == python_outputs(NAME, **values)
    query = parse_qs(urlsplit(page.url).query)
    assert {k: v[0] for k, v in query.items()} == values

    check_bad_inputs(form, NAME, BAD, values, python_outputs)
