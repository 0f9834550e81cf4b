"""The key of a prerendered result (``sitebuild.calculator_pages``: ``data-built``) is the key of the
answer the worker computes for the same values, and of nothing else (``browser/worker.js`` compares them)."""

from __future__ import annotations

import hashlib
import re

import pytest

from calculators.framework import registry, runtime
from calculators.framework.spec import evaluate
from sitebuild.calculator_pages import DETAILS_SLOT, built_key, prerendered, with_built_key
from sitebuild.errors import BuildError

ROOT = "../../"


@pytest.mark.parametrize("name", sorted(registry.CALCULATORS))
def test_the_built_key_is_the_key_of_the_answer_for_the_defaults(name: str) -> None:
    form = prerendered(evaluate(registry.get(name)), ROOT, f"calc-{name}")
    key = re.search(r'<div class="calc-details" data-details data-built="([0-9a-f]{64})">', form)
    assert key, "the details slot carries its key"
    payload = runtime.compute(name, {}, ROOT)
    assert key.group(1) == built_key(payload["details"], payload["next"])
    # The same as worker.js computes: SHA-256 of the UTF-8 text, a NUL between the two, in hex.
    text = payload["details"] + "\0" + payload["next"]
    assert key.group(1) == hashlib.sha256(text.encode("utf-8")).hexdigest()
    # And what the slot holds is those details.
    assert payload["details"] in form


def test_another_answer_has_another_key() -> None:
    built = runtime.compute("effect", {}, ROOT)
    other = runtime.compute("effect", {"modifier": "2"}, ROOT)
    assert built_key(built["details"], built["next"]) != built_key(other["details"], other["next"])
    assert built_key("a", "") != built_key("", "a")


def test_a_form_without_one_details_slot_fails_the_build() -> None:
    with pytest.raises(BuildError):
        with_built_key("<form></form>", "", "")
    with pytest.raises(BuildError):
        with_built_key(DETAILS_SLOT * 2, "", "")
