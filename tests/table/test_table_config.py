"""The table scripts take their empty documents, schemas, limits and labels from Python.

``sitebuild/table_ui.py`` says them once; ``hooks/calculator_pages.py`` embeds them in the pages
that need them (``#mneme-table-config``); ``character.js`` and ``tracker.js`` repeat none of them.
The built pages are checked in ``tests/hooks/test_build.py``'s real build.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from rules_core import injury
from sitebuild import table_ui as ui
from table import character, tracker

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "browser"


def test_the_page_config_is_plain_json() -> None:
    config = ui.page_config()
    assert json.loads(json.dumps(config)) == config


def test_the_empty_documents_are_valid_documents() -> None:
    config = ui.page_config()
    empty = config["empty"]
    assert character.check_character(empty["character"]) == empty["character"]
    assert tracker.check_tracker(empty["tracker"]) == empty["tracker"] == tracker.empty_tracker()
    store = empty["store"]
    assert store == {"schema": "mneme-characters", "version": 1, "characters": [], "active": ""}
    for kind, doc in (("character", empty["character"]), ("tracker", empty["tracker"])):
        assert config["schemas"][kind] == {"name": doc["schema"], "version": doc["version"]}


def test_the_labels_and_choices_are_those_the_checks_accept() -> None:
    config = ui.page_config()
    assert [key for key, _ in config["characteristics"]] == list(character.CHARACTERISTICS)
    assert [key for key, _ in config["modes"]] == list(tracker.MODES)
    assert [key for key, _ in config["rulings"]["reading"]["options"]] == [
        r.value for r in injury.ThresholdReading
    ]
    assert list(config["states"]) == [c.value for c in injury.InjuryCondition]
    assert config["limits"]["name"] == character.MAX_NAME == tracker.MAX_NAME
    # A combatant made from the add form's defaults, on either side, in every mode, is a valid one.
    for side, _ in config["sides"]:
        for mode, _ in config["modes"]:
            fields = {**config["new_combatant"], "side": side, "mode": mode}
            doc = {**tracker.empty_tracker(), "combatants": [{"id": "a", "name": "A", **fields}]}
            assert tracker.check_tracker(doc)["combatants"][0]["side"] == side


@pytest.mark.parametrize("name", ["character.js", "tracker.js"])
def test_the_table_scripts_repeat_no_schema_or_version(name: str) -> None:
    source = (FRONTEND / name).read_text(encoding="utf-8")
    for literal in ('"mneme-character"', '"mneme-characters"', '"mneme-tracker"', "version: 1"):
        assert literal not in source, f"{name} repeats {literal}"
    assert not re.search(r"maxlength:\s*\d", source), f"{name} has a length limit of its own"
    assert "A failed Tactics check" not in source and "Thresholds: thirds of HP" not in source


def test_only_the_hook_and_tests_import_the_ui_module() -> None:
    users = []
    for path in [*ROOT.glob("calculators/**/*.py"), *ROOT.glob("rules_core/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            if "sitebuild.table_ui" in names:
                users.append(path.relative_to(ROOT).as_posix())
    assert users == []


def test_the_call_limits_the_worker_checks_are_pythons() -> None:
    limits = ui.page_config()["limits"]
    assert limits["call_chars"] == character.MAX_CALL_CHARS and limits["call_depth"] == character.MAX_NESTING
    engine = (FRONTEND / "engine.js").read_text(encoding="utf-8")
    assert "given.call_chars" in engine and "given.call_depth" in engine  # read from the page, not repeated


def test_the_my_character_box_is_built_for_calculators_a_character_fills_in() -> None:
    """The box is in the built page as a new player sees it; character.js fills it in place
    with the same words (config "mine")."""
    box = ui.mine_box("attack", "../../")
    assert box.startswith('<div class="mt-mine" data-mine-for="attack">')
    assert '<a href="../../table/character/">Save a character on this device</a>' in box
    assert box.endswith(" to fill this calculator in from it.</div>")
    assert ui.page_config()["mine"] == ui.MINE
    assert ui.mine_box("dice", "") == ""  # nothing on a character fills the dice roller in
    assert 'href="&quot;&lt;x&gt;&quot;table/character/"' in ui.mine_box("attack", '"<x>"')  # escaped
