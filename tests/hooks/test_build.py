"""The site builds strictly, with calculators prerendered and the engine bundled; markers are strict.

Reads the session's shared build of the real site (``site``) and builds small throwaway projects that use
``hooks/calculator_pages.py`` (with ``sitebuild/markers.py``) to pin the marker rules.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from html import unescape as html_unescape
from pathlib import Path

import pytest
from _site import ROOT, mkdocs_build

pytestmark = pytest.mark.xdist_group("build")
"""One test process for the whole module: its module fixtures (small site builds, the failing builds'
child process) are made once, not once in each process that pytest-xdist hands one of its tests to."""

HOOK = ROOT / "hooks" / "calculator_pages.py"


def build(config: Path, site: Path, *, strict: bool = True) -> subprocess.CompletedProcess[str]:
    """A throwaway project built with the site's hooks (``mkdocs build``, its own process)."""
    return mkdocs_build(site, "https://example.org/sub/path/", config=config, strict=strict)


BUILD_EACH = """
import json, logging, sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import MkDocsException

said = []
listener = logging.Handler(logging.WARNING)
listener.emit = lambda record: said.append(record.getMessage())
logging.getLogger("mkdocs").addHandler(listener)
results = {}
for name, (config, site, strict) in json.loads(sys.argv[1]).items():
    said.clear()
    try:
        build(load_config(config, site_dir=site, strict=strict))
        results[name] = [True, "\\n".join(said)]
    except MkDocsException as exc:  # what the command prints as its error, exiting non-zero
        results[name] = [False, "\\n".join([*said, str(exc)])]
print(json.dumps(results))
"""


def build_each(projects: dict[str, tuple[Path, Path, bool]]) -> dict[str, tuple[bool, str]]:
    """Throwaway projects (name -> config, site folder, strict) built with the site's hooks one after
    another in one process of their own, each as ``mkdocs build`` runs it (``load_config``, then
    ``build``): whether each built, and what MkDocs logged or raised for it. A process a build first
    starts Python and imports MkDocs, the theme and the calculators (about a CPU-second each time), and a
    build meant to fail stops at its first fault. Never in the test's own process: the hook imports the
    calculators afresh (as ``mkdocs serve`` needs) and would leave two copies of them behind."""
    jobs = {name: [str(config), str(site), strict] for name, (config, site, strict) in projects.items()}
    done = subprocess.run(
        [sys.executable, "-c", BUILD_EACH, json.dumps(jobs)],
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return {name: (ok, said) for name, (ok, said) in json.loads(done.stdout.splitlines()[-1]).items()}


def test_the_site_builds_with_strict_checks(site: Path) -> None:
    # The shared build is ``mkdocs build --strict``; it raises with mkdocs' output if that fails.
    assert (site / "index.html").is_file() and (site / "sitemap.xml").is_file()


def test_only_the_needed_pyodide_runtime_files_are_bundled(site: Path) -> None:
    folder = site / "assets" / "pyodide"
    bundled = sorted(
        re.sub(r"\.[0-9a-f]{16}\.", ".", re.sub(r"^[0-9a-f]{16}/", "", p.relative_to(folder).as_posix()))
        for p in folder.rglob("*")
        if p.is_file()
    )
    # The standard library ships trimmed and content-hashed (python_stdlib.HASH.zip, and the part only our
    # code imports, python_stdlib_later.HASH.zip); the runtime sits in a folder named by its hash
    # (assets/pyodide/HASH/pyodide.asm.wasm...).
    stdlib = ["python_stdlib.zip", "python_stdlib_later.zip"]
    assert bundled == sorted(["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", *stdlib])
    assert len([p for p in folder.iterdir() if p.is_dir()]) == 1


def test_the_wheel_is_named_by_content_hash_and_holds_rules_core_and_calculators(
    site: Path,
) -> None:
    (wheel,) = (site / "assets" / "calculators").glob("mneme_rules.*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    # Compiled at build time for the browser's Python (sitebuild/bytecode.py): .pyc files, no sources.
    assert "rules_core/checks.pyc" in names and "calculators/framework/runtime.pyc" in names
    assert not [n for n in names if n.endswith(".py")]
    assert "rules_core/data/check_constants.json" in names
    assert not [n for n in names if "frontend/" in n or n.endswith(".md")]
    import hashlib

    assert hashlib.sha256(wheel.read_bytes()).hexdigest()[:16] in wheel.name


def test_the_worker_names_the_wheel_and_inlines_a_lock_with_no_packages(
    site: Path,
) -> None:
    assets = site / "assets" / "calculators"
    (worker,) = assets.glob("worker.*.js")
    (wheel,) = assets.glob("mneme_rules.*.whl")
    text = worker.read_text()
    config = json.loads(re.search(r"/\*MNEME_CONFIG\*/ (.*?) /\*END_MNEME_CONFIG\*/", text).group(1))
    assert config["wheels"] == [wheel.name]
    assert config["lock"]["packages"] == {} and config["lock"]["info"]["abi_version"]
    (engine,) = assets.glob("engine.*.js")
    assert worker.name in engine.read_text()


def test_the_effect_page_shows_the_default_result_without_javascript(site: Path) -> None:
    html = (site / "calculators" / "effect" / "index.html").read_text()
    assert '<form class="calc-form" data-calculator="effect" data-state="loading" data-root="../../"' in html
    assert '<dd data-output="chance">41.67%</dd>' in html
    assert 'inputmode="numeric"' in html


def test_the_table_pages_and_calculator_pages_carry_the_table_config_from_python(
    site: Path,
) -> None:
    from sitebuild.table_ui import page_config

    def embedded_config(page: str) -> object:
        """The config as the browser reads it: the element's ``data-config``, then ``JSON.parse``."""
        found = re.findall(r"""<div id="mneme-table-config" hidden data-config='([^']*)'></div>""", page)
        assert len(found) <= 1
        return json.loads(html_unescape(found[0])) if found else None

    for page in ("table/character", "table/tracker", "calculators/attack"):
        html = (site / page / "index.html").read_text(encoding="utf-8")
        assert embedded_config(html) == page_config(), page
    assert embedded_config((site / "rules" / "checks" / "index.html").read_text(encoding="utf-8")) is None
    (wheel,) = (site / "assets" / "calculators").glob("mneme_rules.*.whl")
    assert "sitebuild/table_ui.py" not in zipfile.ZipFile(wheel).namelist()  # build-time only


def test_the_calculators_index_lists_every_registered_calculator_from_the_registry(
    site: Path,
) -> None:
    from calculators.framework import registry

    html = (site / "calculators" / "index.html").read_text()
    body = html[html.index("<table>") : html.index("</table>")]
    links = re.findall(r'<td><a href="([^"]+)">.*?</a></td>', body)
    assert len(links) == len(registry.names())
    for name in registry.names():
        summary = registry.get(name).summary
        assert re.sub(r"<abbr[^>]*>([^<]*)</abbr>", r"\1", body).count(summary) == 1, name
    for link in links:
        assert (site / "calculators" / link / "index.html").is_file(), link


def test_no_page_asks_another_host_for_fonts_or_scripts(site: Path) -> None:
    for page in site.rglob("*.html"):
        text = page.read_text()
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, page
        external = re.findall(r"""<(?:script|img|iframe)\b[^>]*\ssrc="(?:https?:)?//[^"]*""", text)
        external += [
            tag
            for tag in re.findall(r"<link\b[^>]*>", text)
            if re.search(r'href="(?:https?:)?//', tag) and not re.search(r'rel="(canonical|alternate)"', tag)
        ]
        assert not external, f"{page}: {external}"


# ---------------------------------------------------------------- throwaway projects


def project(tmp_path: Path, pages: dict[str, str]) -> Path:
    """A small MkDocs project of ``pages`` (a plain home page unless given) with our hooks: its config."""
    docs = tmp_path / "docs"
    for name, text in {"index.md": "# Home\n", **pages}.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(text)
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        "site_name: t\nsite_url: https://example.org/sub/\n"
        "theme:\n  name: material\n  font: false\n"
        "markdown_extensions:\n  - toc\n  - attr_list\n"
        "validation:\n  links:\n    not_found: warn\n    anchors: warn\n"
        f"hooks:\n  - {HOOK}\n"
    )
    return config


def built(tmp_path: Path, pages: dict[str, str], *, strict: bool = True) -> Path:
    """The site :func:`project` of ``pages`` builds to; fails the test when the build fails."""
    done = build(project(tmp_path, pages), tmp_path / "site", strict=strict)
    assert done.returncode == 0, done.stderr
    return tmp_path / "site"


SMALL_SITE = {
    # A calculator marker between the rule pages its calculator links to.
    "rules/checks.md": "# C\n\n## A {#dice-roll}\n\n## B {#effect}\n\n## C {#advantage}\n",
    "rules/mitigation.md": "# M\n\n## A {#costly-success}\n",
    "rules/actions.md": "# A\n\n## A {#reckless-action}\n",
    "rulings.md": "# R\n\n## A {#costly-success-sign}\n\n## B {#reckless-twice}\n",
    "calc.md": "# Calc\n\n<!-- calculator: effect -->\n\nAfter.\n",
    # A marker shown as code.
    "index.md": "# Home\n\n```markdown\n<!-- calculator: nonesuch -->\n```\n",
    # A deep link with a query string.
    "rules/a.md": "[Work it out](../calculators/effect.md?modifier=2&difficulty=10)\n",
    "calculators/effect.md": "# E\n",
}


@pytest.fixture(scope="module")
def small_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One strict build of ``SMALL_SITE``, read by the tests of what a build that succeeds makes (each
    build starts MkDocs and imports the theme, the hooks and the calculators anew: about a CPU-second)."""
    return built(tmp_path_factory.mktemp("small"), SMALL_SITE)


def test_a_marker_is_replaced_by_the_prerendered_calculator(small_site: Path) -> None:
    html = (small_site / "calc" / "index.html").read_text()
    assert 'data-calculator="effect"' in html and 'data-root="../"' in html
    assert 'href="../rules/checks/#effect"' in html
    assert "<p>After.</p>" in html


MALFORMED_MARKERS = (
    "<!-- calculator effect -->",
    "<!-- calculator: effect",
    "Text <!-- calculator: effect -->",
    "<!--calculators: x-->",
)


BROKEN = [
    pytest.param(
        {"index.md": "# Home\n\n<!-- calculator: nonesuch -->\n"},
        False,
        "unknown calculator 'nonesuch'",
        id="unknown-calculator-name",
    ),
    *(
        pytest.param({"index.md": f"# Home\n\n{line}\n"}, False, "malformed calculator marker", id=line)
        for line in MALFORMED_MARKERS
    ),
    pytest.param(
        {"rules/checks.md": "# C\n", "c.md": "<!-- calculator: effect -->\n"},
        True,
        "Calculator rule link 'rules/checks.md#effect'",
        id="missing-rule-anchor-in-a-strict-build",
    ),
    pytest.param(
        {"index.md": "# Home\n\n<!-- calculators-index -->\n"},
        False,
        "calculators shown on no page",
        id="calculators-index-with-a-calculator-on-no-page",
    ),
]


@pytest.fixture(scope="module")
def broken_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[bool, str]]:
    """Each project of ``BROKEN`` built (``build_each``: one process for all): id -> (built, said)."""
    projects = {}
    for index, case in enumerate(BROKEN):
        pages, strict, _ = case.values
        folder = tmp_path_factory.mktemp(f"broken{index}")
        projects[str(case.id)] = (project(folder, pages), folder / "site", strict)  # type: ignore[arg-type]
    return build_each(projects)


@pytest.mark.parametrize(("pages", "strict", "message"), BROKEN)
def test_a_broken_calculator_page_fails_the_build_naming_the_fault(
    request: pytest.FixtureRequest,
    broken_builds: dict[str, tuple[bool, str]],
    pages: dict[str, str],
    strict: bool,
    message: str,
) -> None:
    ok, said = broken_builds[request.node.callspec.id]
    assert not ok
    assert message in said


def test_a_marker_inside_a_code_fence_is_shown_as_code(small_site: Path) -> None:
    assert "&lt;!-- calculator: nonesuch --&gt;" in (small_site / "index.html").read_text()


def test_a_deep_link_keeps_its_query_string(small_site: Path) -> None:
    html = (small_site / "rules" / "a" / "index.html").read_text()
    assert 'href="../../calculators/effect/?modifier=2&amp;difficulty=10"' in html
