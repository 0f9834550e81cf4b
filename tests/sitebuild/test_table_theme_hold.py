"""The theme's script is held on the table apps' pages as on calculator pages (loader.js starts it)."""

from __future__ import annotations

import pytest

from sitebuild import early_engine
from sitebuild.calculator_pages import with_theme_held_by_table

PAGE = "<html><head></head><body>{}</body></html>"
BUNDLE = "../../assets/javascripts/bundle.0a1b2c3d.min.js"
THEME = f'<script src="{BUNDLE}"></script>'
HELD = f'<script type="mneme/theme" data-mneme-theme="{BUNDLE}"></script>'
DEFERRED = f'<script src="{BUNDLE}" defer></script>'


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('<div class="mt-app" data-mneme-table="tracker" data-state="loading"></div>', HELD),
        ('<div class="mt-app" data-mneme-table="tracker" data-view="players"></div>', HELD),
        ('<div class="mt-app" data-mneme-table="character" data-state="loading"></div>', HELD),
        ('<form class="calc" data-calculator="effect"></form>', HELD),  # held by early_engine already
        ('<div id="mneme-table-config" hidden></div>', DEFERRED),  # the settings alone: no app here
        ("<p>Reading only, <code>data-mneme-table=&quot;tracker&quot;</code>.</p>", DEFERRED),
    ],
)
def test_a_table_app_s_page_holds_the_theme_as_a_calculator_page_does(body: str, expected: str) -> None:
    html = PAGE.format(body + THEME)
    done = early_engine.with_deferred_theme(with_theme_held_by_table(early_engine.with_held_theme(html)))
    assert done == html.replace(THEME, expected)
    again = early_engine.with_deferred_theme(with_theme_held_by_table(early_engine.with_held_theme(done)))
    assert again == done  # once
