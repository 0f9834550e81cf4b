"""The browser code's own checks: its unit tests (``node --test tests/js/``, the pure modules of
``browser/lib/``) pass; Biome's linter (``biome.json``) finds nothing in ``browser/`` and
``tests/js/``; and the few constants it shares with Python come from Python."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)


def test_the_browser_modules_pass_their_unit_tests() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is missing: scripts/setup installs it")
    done = _run(node, "--test", "tests/js/")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout and "# pass 0" not in done.stdout


def test_biome_finds_no_lint_problem_in_the_browser_code() -> None:
    biome = ROOT / "node_modules" / ".bin" / "biome"
    if not biome.is_file():
        pytest.fail("node_modules/.bin/biome is missing: run scripts/setup (npm ci)")
    done = _run(str(biome), "lint", "--error-on-warnings", "--colors=off")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-6000:]


PYTHON_CONSTANTS = re.compile(r"\b(?:const|let|var)\s+(TRUE|EMPTY|URL_TEXT_LIMIT)\b")
YES_WORDS = re.compile(r"""\[\s*(['"])1\1\s*,\s*(['"])(?:true|on)\2""")


@pytest.mark.parametrize("path", sorted((ROOT / "browser").rglob("*.js")), ids=lambda p: p.name)
def test_the_browser_code_does_not_declare_pythons_constants_again(path: Path) -> None:
    """What a checkbox reads as yes, the empty output's text and the link limit come from Python
    (``sitebuild/table_ui.py``, ``page_config()["calculators"]``), never written a second time."""
    text = path.read_text(encoding="utf-8")
    assert not PYTHON_CONSTANTS.search(text), PYTHON_CONSTANTS.search(text)
    assert not YES_WORDS.search(text)
    assert "URL_TEXT_LIMIT = " not in text and "= 200;" not in text
    # A character's id rule (table/character.py): served by the page's settings.
    assert '"__lookupGetter__"' not in text and "[A-Za-z0-9_-]{1,40}" not in text


def test_the_page_settings_carry_pythons_constants() -> None:
    from calculators.framework import render, spec
    from sitebuild.table_ui import page_config

    given = page_config()["calculators"]
    assert given == {
        "true": sorted(spec.TRUE_TEXTS),
        "empty": render.EMPTY_OUTPUT,
        "url_text_limit": render.URL_TEXT_LIMIT,
    }
    assert "pageSettings().calculators" in (ROOT / "browser" / "calculators.js").read_text(encoding="utf-8")


def test_the_browser_refuses_the_ids_python_refuses_by_the_served_rule() -> None:
    """A character's id rule is written once, in Python (``table/character.py``): the page's settings
    serve it (``page_config()["ids"]``), the page hands it to the character store, and the store's
    verdict on each id is Python's."""
    from sitebuild.table_ui import page_config
    from table.character import RESERVED_IDS, DocumentError, check_id

    def python_accepts(value: str) -> bool:
        try:
            check_id(value, "id")
        except DocumentError:
            return False
        return True

    node = shutil.which("node")
    assert node is not None, "Node.js is missing: scripts/setup installs it"
    samples = [*sorted(RESERVED_IDS), "ch-a", "A_9-z", "", "a" * 40, "a" * 41, "a b", "\u00e9t\u00e9", "x/y"]
    samples.append("ch-a\n")  # Python's "$" alone would let a final line break through
    script = (
        'import { idCheck } from "./browser/lib/character-store.js";'
        "const [ids, samples] = JSON.parse(process.argv[1]);"
        "console.log(JSON.stringify(samples.map(idCheck(ids))));"
    )
    done = _run(node, "--input-type=module", "-e", script, json.dumps([page_config()["ids"], samples]))
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == [python_accepts(value) for value in samples]
    page_table = (ROOT / "browser" / "character" / "table.js").read_text(encoding="utf-8")
    assert "ids: pageSettings().ids" in page_table


def test_each_entry_bundles_into_the_same_bytes_every_time_as_a_strict_classic_script() -> None:
    from sitebuild.bundle import bundle_script

    first = bundle_script("character.js")
    assert first == bundle_script("character.js")
    assert first.startswith('"use strict";\n(() => {\n') and first.rstrip().endswith("})();")
    assert not re.search(r"^\s*(import|export)\b", first, re.MULTILINE)  # a classic script
    assert "// lib/storage.js" in first  # its modules are inside, named relative to browser/


def test_the_worker_bundles_as_a_module_with_its_settings_placeholder() -> None:
    from sitebuild.bundle import bundle_script

    worker = bundle_script("worker.js", module=True)
    assert worker.count("__MNEME_WORKER_CONFIG__") == 1 and "import.meta.url" in worker


def test_a_source_esbuild_refuses_fails_the_build_with_its_message(tmp_path: Path) -> None:
    from sitebuild.bundle import bundle_script
    from sitebuild.errors import BuildError

    (tmp_path / "browser").mkdir()
    (tmp_path / "browser" / "broken.js").write_text('import { nothing } from "./missing.js";\n')
    (tmp_path / "node_modules").symlink_to(ROOT / "node_modules")
    with pytest.raises(BuildError, match=r"browser/broken\.js[\s\S]*missing\.js"):
        bundle_script("broken.js", tmp_path)


@pytest.mark.parametrize("path", sorted((ROOT / "browser").rglob("*.js")), ids=lambda p: p.name)
def test_no_browser_module_repeats_a_schema_a_limit_or_a_number_format(path: Path) -> None:
    """What ``tests/table/test_table_config.py`` and ``tests/calculators/test_format.py`` ask of the
    entry scripts, asked of every module the entries import: schemas, versions, length limits and
    ruling texts come from Python's settings, and numbers become text in Python only."""
    source = path.read_text(encoding="utf-8")
    for literal in ('"mneme-character"', '"mneme-characters"', '"mneme-tracker"', "version: 1"):
        assert literal not in source, literal
    assert not re.search(r"maxlength:\s*\d", source)
    assert "A failed Tactics check" not in source and "Thresholds: thirds of HP" not in source
    assert "toFixed" not in source
    assert not re.search(r"""replace\(\s*["']-["']""", source)  # hyphen to minus: Python's job
    assert not re.search(r"`\+\$\{", source)  # "+" glued to a number
