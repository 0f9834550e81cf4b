"""Updates that never mix, and offline that says so, in headless Chromium.

- Build A, then build B (the same sources under another ``MNEME_BUILD_LABEL``) served on the same port:
  no page ever shows a form computed by another build than the page's own ``mneme-build``; a page the
  player opens comes whole from A's cache, and B reaches the player by one reload, by one press of
  ``[data-action="update"]``, or by a page fetched as instant navigation fetches it. A tab of A left
  open while another tab presses "Update now": once its engine is lost it cannot start A's again; it
  says to reload, keeping what was entered, never dead.
- A precache with a missing file caches the rest, says which file failed, and Retry completes it.
- Two copies of the site under two sub-paths of one origin keep their own caches.
- B deployed while a first visit is still saving A's copy (on the Pages-like server): "Available
  offline" is only ever said over B's complete copy, which takes over by itself and works offline.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from _site import SUB_PATH, SiteServer, build_site
from playwright.sync_api import Error as PlaywrightError

from sitebuild import offline

from .conftest import READY_TIMEOUT_MS, outputs, wait_ready, wait_theme
from .test_offline import OFFLINE_READY_JS, Visit, browse, cache_name, until, visiting
from .test_offline_copy import OURS_JS, computes_offline, hosted, marks, wait_held, wait_mark

pytestmark = pytest.mark.browser

OTHER = "/other/"

# Records, across reloads of the tab, every moment a form took an engine build other than its page's.
WATCH_MIXES = """
(() => {
  const record = (form) => {
    const meta = document.querySelector('meta[name="mneme-build"]');
    const page = meta ? meta.content : "";
    if (form.dataset.engineBuild && form.dataset.engineBuild !== page) {
      const seen = JSON.parse(sessionStorage.getItem("mixes") || "[]");
      seen.push({ page, engine: form.dataset.engineBuild, url: location.href });
      sessionStorage.setItem("mixes", JSON.stringify(seen));
    }
  };
  new MutationObserver((records) => records.forEach((r) => record(r.target))).observe(document, {
    subtree: true, attributes: true, attributeFilter: ["data-engine-build"],
  });
})();
"""


LEFT_BEHIND_JS = "window.mnemeCalculatorConfig = { pingMs: 250 };"
"""The tab left behind pings its worker often, so a worker gone quiet is found within ``silenceMs``
(set short only once the worker is to close: a loaded machine never reads a busy worker as lost)."""

COPY_MS = 120_000
"""How long the offline copy of the whole site may take (a loaded machine has taken more than 30 s)."""


@pytest.fixture(scope="module")
def build_b(site_url: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The next deploy: the same site built again under another label (a new wheel, a new build)."""
    dest = tmp_path_factory.mktemp("site-b")
    build_site(site_url, dest, label="next")
    return dest


def sw_build(folder: Path) -> str:
    """The build hash the folder's sw.js names its cache by."""
    found = re.search(r'"build":"([^"]+)"', (folder / "sw.js").read_text(encoding="utf-8"))
    assert found
    return found.group(1)


def build_of(folder: Path) -> str:
    found = re.search(r'<meta name="mneme-build" content="([0-9a-f]+)">', (folder / "index.html").read_text())
    assert found
    return found.group(1)


def deploy(folder: Path, build: Path) -> None:
    """Replace the served files with another build's, as a static host does on deploy."""
    for child in folder.iterdir():
        if child.is_dir():
            shutil.rmtree(child)
        else:
            child.unlink()
    shutil.copytree(build, folder, dirs_exist_ok=True)


@contextlib.contextmanager
def served(browser: Any, folder: Path, mounts: dict[str, Path] | None = None) -> Iterator[Visit]:
    server = SiteServer(folder, mounts)
    server.start()
    with visiting(
        Visit(server, folder, browse(browser, server.url, {"width": 360, "height": 760}, WATCH_MIXES))
    ) as visit:
        yield visit


BUILDS_JS = """(name) => {
  const form = document.querySelector(`form[data-calculator="${name}"]`);
  const meta = document.querySelector('meta[name="mneme-build"]');
  const live = form && form.dataset.state === "ready" && !form.hasAttribute("data-stale");
  return live && meta && form.dataset.engineBuild ? [meta.content, form.dataset.engineBuild] : null;
}"""
"""The page's mneme-build and its calculator form's data-engine-build, once the form is live; else null."""


def builds(page: Any, name: str) -> tuple[str, str]:
    """(the page's mneme-build, the calculator form's data-engine-build) once the form is live, read in
    whichever document the tab shows by then: no element handle, which a reload just begun (after
    "Update now") would leave pointing into a document that is gone."""
    for attempt in range(3):
        try:
            found = page.wait_for_function(BUILDS_JS, arg=name, timeout=READY_TIMEOUT_MS).json_value()
            return (found[0], found[1])
        except PlaywrightError as exc:
            if attempt == 2 or "context" not in str(exc).lower():
                raise
    raise AssertionError("unreachable")


def mixes(page: Any) -> list[dict[str, str]]:
    found: list[dict[str, str]] = json.loads(page.evaluate("sessionStorage.getItem('mixes') || '[]'"))
    return found


def test_a_new_deploy_never_mixes_builds_and_reaches_the_player(
    browser: Any, site_copy: Path, build_b: Path, python_outputs: Any
) -> None:
    """Build A computes in three tabs; B is deployed. A link followed, a page fetched, a reload and a
    press of "Update now" each bring B whole, never mixed. The third tab is left behind by that press:
    B's worker takes over every tab and A's copy is deleted; the tab's engine is then lost (its worker
    closes without a word, as a phone may end a tab's worker) once the browser's HTTP cache has let A's
    files go, so A's engine cannot start again. The tab says so and its button reloads into B, with the
    value typed."""
    a, b = build_of(site_copy), build_of(build_b)
    assert a != b
    with served(browser, site_copy) as visit:
        visit.allow(r"404|Failed to load|engine|worker")
        page = visit.new_page()
        page.goto("calculators/effect/")
        assert page.evaluate(OFFLINE_READY_JS) is not None  # build A's worker controls the page
        assert builds(page, "effect") == (a, a)
        left = visit.new_page()
        left.add_init_script(LEFT_BEHIND_JS)
        left.goto("calculators/effect/")
        form = left.locator('form[data-calculator="effect"]')
        wait_ready(form)
        form.locator('[name="modifier"]').fill("3")
        wait_ready(form)
        assert builds(left, "effect") == (a, a)
        other = visit.new_page()
        other.goto("calculators/damage/")
        assert builds(other, "damage") == (a, a)
        status = page.evaluate("window.mnemeOffline.status()")
        assert status["state"] == "ready" and status["failed"] == []
        assert page.locator("[data-mneme-offline]").inner_text() == "Available offline"

        deploy(site_copy, build_b)
        # 1. A link followed on the open tab: a page the player opens comes whole from A's cache, with
        #    A's engine (at once, whatever the network). This server's port is not the one the
        #    build's sitemap names, so the theme lets the click through as a full page load.
        wait_theme(page)
        page.evaluate(
            """() => {
              const link = Object.assign(document.createElement("a"), {href: "../attack/", id: "go"});
              link.textContent = "One attack";
              document.querySelector("article").append(link);
            }"""
        )
        with page.expect_event("load", timeout=60_000):
            page.click("#go")
        assert urlsplit(page.url).path.endswith("/calculators/attack/")
        assert builds(page, "attack") == (a, a)
        # A page fetched as instant navigation fetches it asks the network first: B's, and the loader
        # then reloads such a page whole (browser/loader.js).
        fetched = page.evaluate("async () => (await fetch('../thrown/')).text()")
        assert f'<meta name="mneme-build" content="{b}">' in fetched
        # 2. One reload of the other tab gets B whole.
        other.reload()
        assert builds(other, "damage") == (b, b)
        # 3. B's worker waits beside A's; the page offers it, and one press switches.
        page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
        button = page.locator('[data-action="update"]')
        button.wait_for(state="visible", timeout=60_000)
        # The reload's own load event: expect_navigation would also take a same-document one (the
        # calculator writes its values into the address with history.replaceState).
        with page.expect_event("load", timeout=60_000):
            button.click()
        assert builds(page, "attack") == (b, b)
        until(
            page,
            f"async () => JSON.stringify(await caches.keys()).includes({json.dumps(cache_name(site_copy))})",
            60_000,
        )
        until(
            page,
            "async () => (await caches.keys()).filter((n) => n.startsWith('mneme-offline-')).length === 1",
        )  # A's copy is gone
        # 4. The tab left behind on A loses its engine: it cannot start A's again, says to reload, and
        #    its button reloads into B with the value typed.
        visit.context.new_cdp_session(left).send("Network.clearBrowserCache")
        left.evaluate("window.mnemeCalculatorConfig.silenceMs = 3000")  # read at each verdict
        # The engine's worker: from its file, or from a blob (the early start runs its text in the page).
        worker = next(w for w in reversed(left.workers) if "/worker." in w.url or w.url.startswith("blob:"))
        worker.evaluate("setTimeout(() => self.close(), 300)")
        left.wait_for_function("f => f.dataset.state === 'error'", arg=form.element_handle(), timeout=30_000)
        status = form.locator("[data-status]").inner_text()
        assert "the site has been updated since this page was opened: reload the page" in status, status
        assert "what you have entered is kept" in status
        reload = form.locator("[data-retry]")
        assert reload.inner_text() == "Reload" and reload.is_visible()
        assert form.evaluate("f => f.dataset.engineBuild") == a  # it never ran another build's engine
        with left.expect_event("load", timeout=60_000):
            reload.click()
        form = left.locator('form[data-calculator="effect"]')
        assert builds(left, "effect") == (b, b)
        assert form.locator('[name="modifier"]').input_value() == "3"
        assert outputs(form) == python_outputs("effect", modifier=3)
        # 5. Offline now: B's pages, B's engine, from B's cache.
        visit.go_offline()
        page.goto("calculators/thrown/")
        assert builds(page, "thrown") == (b, b)
        assert mixes(page) == [] and mixes(other) == [] and mixes(left) == []


def test_a_precache_with_a_missing_file_keeps_the_rest_says_what_failed_and_retries(
    browser: Any, site_copy: Path
) -> None:
    missing = site_copy / "assets" / "offline" / "icon-512.png"
    kept = missing.read_bytes()
    missing.unlink()
    with served(browser, site_copy) as visit:
        page = visit.new_page()
        page.goto("rules/checks/")
        assert page.evaluate(OFFLINE_READY_JS) is not None  # the worker installs all the same
        mark = page.locator("[data-mneme-offline]")
        page.wait_for_function(
            "() => document.querySelector('[data-mneme-offline]')?.dataset.state === 'partial'",
            timeout=COPY_MS,
        )
        assert "1 of" in mark.inner_text() and "assets/offline/icon-512.png" in mark.inner_text()
        files = json.loads(re.search(r'"files":(\[.*?\])', (site_copy / "sw.js").read_text()).group(1))  # type: ignore[union-attr]
        cached = page.evaluate(
            "async (name) => (await (await caches.open(name)).keys()).map((r) => r.url)",
            cache_name(site_copy),
        )
        wanted = [f for f in files if f != "assets/offline/icon-512.png"] + ["__offline-status__"]
        assert len(wanted) == len(files)
        assert sorted(cached) == sorted(urljoin(visit.url, f) for f in wanted)
        # The file is back: Retry fetches only it, and the mark says the site is available offline.
        missing.write_bytes(kept)
        page.click('[data-action="offline-retry"]')
        page.wait_for_function(
            "() => document.querySelector('[data-mneme-offline]')?.dataset.state === 'ready'",
            timeout=COPY_MS,
        )
        assert mark.inner_text() == "Available offline"
        assert page.evaluate(
            "async (name) => !!(await (await caches.open(name)).match('../../assets/offline/icon-512.png'))",
            cache_name(site_copy),
        )
        # Offline, a reload still tells the player where they stand.
        visit.go_offline()
        page.reload()
        page.wait_for_function(
            "() => document.querySelector('[data-mneme-offline]')?.dataset.state === 'ready'",
            timeout=COPY_MS,
        )


def test_two_sites_under_two_sub_paths_of_one_origin_keep_their_own_caches(
    browser: Any, site_copy: Path, tmp_path: Path
) -> None:
    second = tmp_path / "other"
    shutil.copytree(site_copy, second)
    with served(browser, site_copy, {OTHER: second}) as visit:
        origin = visit.url.removesuffix(SUB_PATH)
        ours = visit.new_page()
        ours.goto("glossary/")
        assert ours.evaluate(OFFLINE_READY_JS)["scope"] == visit.url
        theirs = visit.new_page()
        theirs.goto(f"{origin}{OTHER}glossary/")
        assert theirs.evaluate(OFFLINE_READY_JS)["scope"] == f"{origin}{OTHER}"
        mine, old_theirs = cache_name(site_copy), offline.cache_name(sw_build(second), OTHER)
        until(ours, f"async () => (await caches.keys()).includes({json.dumps(old_theirs)})")
        assert sorted(ours.evaluate("caches.keys()")) == sorted([mine, old_theirs])
        # A new deploy of the other site: its new worker replaces only the other site's cache.
        sw = second / "sw.js"
        sw.write_text(
            re.sub(r'"build":"[^"]+"', '"build":"0123456789abcdef"', sw.read_text()), encoding="utf-8"
        )
        theirs.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
        button = theirs.locator('[data-action="update"]')
        button.wait_for(state="visible", timeout=60_000)
        with theirs.expect_event("load", timeout=60_000):
            button.click()
        new_theirs = offline.cache_name("0123456789abcdef", OTHER)
        until(theirs, f"async () => !(await caches.keys()).includes({json.dumps(old_theirs)})", 60_000)
        assert sorted(theirs.evaluate("caches.keys()")) == sorted([mine, new_theirs])
        # Our site still reads offline from its own, untouched cache.
        ours.goto("rules/damage/")
        assert (
            ours.evaluate(f"async () => (await (await caches.open({json.dumps(mine)})).keys()).length") > 50
        )


def test_a_deploy_during_the_first_copy_leaves_one_complete_build_that_works_offline(
    browser: Any, site_copy: Path, build_b: Path, tmp_path: Path, python_outputs: Any
) -> None:
    deployed = tmp_path / "b"
    shutil.copytree(build_b, deployed)
    # The copy asks for the pages first: half of them pass, the rest wait at the server until B is
    # deployed (the race replayed by the server's switches, not by a slow link). Half the pages is more
    # than the copy's step between two counts it shows (a twentieth of its files).
    files = offline.precache_files(site_copy)
    pages = sum(1 for rel in files if rel == "" or rel.endswith("/") or rel.endswith("index.html"))
    assert pages // 2 - 1 >= len(files) / 20, (pages, len(files))
    with hosted(browser, site_copy) as host:
        host.server.hold(r"(^|/)$", after=pages // 2)
        page = host.new_page()
        page.goto("calculators/effect/")
        wait_ready(page.locator('form[data-calculator="effect"]'))
        wait_mark(page, r"Saving for offline use\W+[1-9]")  # the copy is under way
        wait_held(host.server)
        host.server.deploy(deployed)
        host.server.release()
        wait_mark(page, "Available offline")
        new = cache_name(deployed)
        until(page, f"async () => {OURS_JS} === {new!r}")  # the old copy is gone once the new one runs
        seen = marks(page)
        said = [m for m in seen if m["text"] == "Available offline"]
        assert said and all(m["cache"] == new for m in said), seen
        # The copy is the new build's, whole: offline, its pages run its own engine.
        page.close()
        computed = computes_offline(host, python_outputs)
        form = computed.locator('form[data-calculator="effect"]')
        page_build = computed.evaluate("document.querySelector('meta[name=\"mneme-build\"]').content")
        assert form.evaluate("f => f.dataset.engineBuild") == page_build
        assert page_build in (deployed / "index.html").read_text(encoding="utf-8")
