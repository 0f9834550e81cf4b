"""``sitebuild.urls.relative_url`` links a page to a file as MkDocs' own ``get_relative_url`` would."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mkdocs.utils import get_relative_url

from sitebuild.urls import relative_url

CASES = [
    ("assets/calculators/worker.abc.js", "calculators/effect/", "../../assets/calculators/worker.abc.js"),
    ("assets/calculators/worker.abc.js", "", "assets/calculators/worker.abc.js"),
    ("assets/x.js", "404.html", "assets/x.js"),
    ("rules/damage/", "rules/injury/", "../damage/"),
    ("rules/", "rules/", "./"),
]


@pytest.mark.parametrize(("url", "page", "expected"), CASES)
def test_a_file_is_linked_relative_to_the_page(url: str, page: str, expected: str) -> None:
    assert relative_url(url, page) == expected


SEGMENT = st.sampled_from(["a", "b", "rules", "x.js", "index.html", ".."])
PATH = st.lists(SEGMENT, max_size=4).map("/".join)


@given(url=PATH, page=PATH, folder=st.booleans())
def test_it_agrees_with_mkdocs(url: str, page: str, folder: bool) -> None:
    url = url + "/" if folder and url else url
    assert relative_url(url, page) == get_relative_url(url, page)
