"""The offline copy on a server that caches like GitHub Pages (``tests/_pages.py``), in headless Chromium.

- A first visit sends each engine file whole once (the engine's download and the offline copy share
  it, even from a host that does not compress, in a private tab), and the copy is complete afterwards:
  with the network gone, a reload computes live.
- The copy's own downloads of the engine cut midway: it never says "Available offline" over what it could
  not save, and the next page opened completes it by itself.
- A docs-only deploy re-downloads none of the unchanged files: the new copy takes them from the old one.
- A deploy landing during an update's copy: that copy is never offered, the newest build is.
- In a browser profile kept on disk (a phone's browser), a returning visit's engine starts from the
  WebAssembly code V8 compiled on the first visit (its code cache), not from the bytes.
  (A deploy landing during a first visit's copy: ``test_updates.py``, which has the next build.)

Each test serves its own copy of the session-built site; the server counts what it sent per file,
paces every response through one shared link (the service worker's own requests too) and can go
offline for everyone (Playwright's offline switch leaves the service worker online).
"""

from __future__ import annotations

import base64
import contextlib
import json
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _pages import Link, PagesServer
from _site import CHROMIUM, CHROMIUM_ARGS, TEST_ARGS

from sitebuild import offline

from ._table import PHONE
from .conftest import outputs, wait_ready
from .test_offline import Visit, browse, cache_name, rewrite_service_worker, until, visiting

pytestmark = pytest.mark.browser

MARK = "[data-mneme-offline]"
OURS_JS = "(await caches.keys()).filter((n) => n.startsWith('mneme-offline-')).join()"
"""The offline copies of this origin, joined (awaited inside an async function)."""
HANDOFF_JS = "(await caches.keys()).filter((n) => n.startsWith('mneme-engine-handoff')).join()"
ENGINE = re.compile(r"^assets/(pyodide/|calculators/(mneme_rules\.|worker\.))")

# Every text the offline mark shows, with the cache of the version that said it, across reloads.
WATCH_MARK = """
(() => {
  const seen = () => JSON.parse(sessionStorage.getItem("marks") || "[]");
  const record = () => {
    const el = document.querySelector("[data-mneme-offline]");
    const status = window.mnemeOffline && window.mnemeOffline.status();
    if (!el || !status) return;
    const all = seen();
    const last = all[all.length - 1];
    const entry = { text: el.textContent.trim(), cache: status.cache || "" };
    if (!last || last.text !== entry.text || last.cache !== entry.cache) {
      all.push(entry);
      sessionStorage.setItem("marks", JSON.stringify(all));
    }
  };
  new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
})();
"""


@dataclass
class Host(Visit):
    """A private copy of the site on a Pages-like server, a browser context, what the pages reported."""

    server: PagesServer  # type: ignore[assignment]


@contextlib.contextmanager
def hosted(
    browser: Any, folder: Path, link: Link | None = None, init: str = "", compress: bool = True
) -> Iterator[Host]:
    server = PagesServer(folder, link=link, compress=compress)
    with visiting(Host(server, folder, browse(browser, server.url, PHONE, init, WATCH_MARK))) as host:
        yield host


def wait_mark(page: Any, pattern: str, timeout_ms: int = 120_000) -> str:
    mark = page.locator(MARK).filter(has_text=re.compile(pattern))
    mark.wait_for(timeout=timeout_ms)
    text: str = mark.inner_text()
    return text


def marks(page: Any) -> list[dict[str, str]]:
    found: list[dict[str, str]] = page.evaluate("JSON.parse(sessionStorage.getItem('marks') || '[]')")
    return found


def offline_caches(page: Any) -> list[str]:
    names: list[str] = page.evaluate(
        "async () => (await caches.keys()).filter((n) => n.startsWith('mneme-offline-'))"
    )
    return names


def engine_files(folder: Path) -> list[str]:
    files = offline.precache_files(folder)
    found = [rel for rel in files if ENGINE.match(rel)]
    assert len(found) >= 6, found  # Pyodide's three, the standard library, the wheel, the worker
    return found


def computes_offline(host: Host, python_outputs: Any) -> Any:
    """With the server refusing everyone, a new tab opens the Effect calculator and computes live."""
    host.server.offline()
    page = host.new_page()
    page.goto("calculators/effect/?modifier=2&difficulty=10&roll=9")
    form = page.locator('form[data-calculator="effect"]')
    wait_ready(form)
    assert outputs(form) == python_outputs("effect", modifier=2, difficulty=10, roll=9)
    return page


def test_a_first_visit_sends_each_engine_file_once_and_leaves_a_complete_copy(
    browser: Any, site_copy: Path, python_outputs: Any
) -> None:
    # The copy starts while the engine is still starting (0.3 s after its bytes stop arriving here, not
    # at its first live result), on a phone's screen. A host that sends files as
    # they are (no gzip), to a private tab (every Playwright context): the browser's HTTP cache, in
    # memory, keeps no entry as large as the 9.6 MB WebAssembly; the engine hands it to the copy.
    init = "window.mnemeOfflineConfig = { calculatorWaitMs: 300 };"
    with hosted(browser, site_copy, Link(40, 40), init, compress=False) as host:
        host.server.drop(r"^rulings/$", after=5000, times=2)  # a page cut mid-way: retried, not lost
        page = host.new_page()
        page.goto("calculators/effect/")
        wait_mark(page, "Available offline")
        assert offline_caches(page) == [cache_name(site_copy)]
        for rel in engine_files(site_copy):
            sends = [(s.status, s.bytes) for s in host.server.log if s.path == rel and s.bytes]
            assert host.server.full(rel) == 1 and len(sends) == 1, (rel, sends)
        # Nothing was sent whole twice, engine or not (pages, theme, search index).
        log = [s.path for s in host.server.log if s.status == 200 and s.whole]
        assert sorted({p for p in log if log.count(p) > 1}) == []
        assert [m["text"] for m in marks(page)][-1] == "Available offline"
        assert not page.evaluate(f"async () => {HANDOFF_JS}")  # handed over, then gone
        cut = [(s.bytes, s.whole) for s in host.server.log if s.path == "rulings/" and s.status == 200]
        assert cut[:2] == [(5000, False), (5000, False)] and cut[2][1], cut
        computes_offline(host, python_outputs)
        page.close()


def test_cut_engine_files_are_never_called_offline_and_a_docs_only_deploy_downloads_only_what_changed(
    browser: Any, site_copy: Path, tmp_path: Path, python_outputs: Any
) -> None:
    with hosted(browser, site_copy) as host:
        # The copy's own downloads of the engine (no engine runs on a reading page: these are the service
        # worker's requests, which Playwright's offline switch would not cut) dropped midway: the
        # WebAssembly every time it is tried (three), the standard library once (tried again, saved).
        wasm = next(rel for rel in engine_files(site_copy) if rel.endswith(".wasm"))
        host.server.drop(r"\.wasm$", after=200_000, times=3)
        host.server.drop(r"python_stdlib", after=100_000, times=1)
        page = host.new_page()
        page.goto("glossary/")
        said = wait_mark(page, "Not fully available offline")
        assert said.startswith("Not fully available offline: 1 of") and wasm in said, said
        assert "Available offline" not in [m["text"] for m in marks(page)]
        copy, address = cache_name(site_copy), host.url + wasm
        held = f"async () => !!(await (await caches.open({copy!r})).match({address!r}))"
        assert page.evaluate(held) is False  # nothing cut short is kept
        cuts = [(s.status, s.whole) for s in host.server.log if s.path == wasm]
        assert cuts == [(200, False)] * 3, cuts
        # The next page opened tries again by itself: complete, then said so in every tab.
        again = host.new_page()
        again.goto("rules/checks/")
        wait_mark(again, "Available offline")
        wait_mark(page, "Available offline")
        assert page.evaluate(held) is True and host.server.full(wasm) == 1
        again.close()
        old = cache_name(site_copy)
        # The next deploy changes one page's words only.
        docs = tmp_path / "b"
        shutil.copytree(site_copy, docs)
        glossary = docs / "glossary" / "index.html"
        text = glossary.read_text(encoding="utf-8")
        glossary.write_text(text.replace("</h1>", " (revised)</h1>", 1), encoding="utf-8")
        new = rewrite_service_worker(docs)
        assert new != old
        host.server.deploy(docs)
        host.server.reset_log()
        page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
        page.locator('[data-action="update"]').wait_for(timeout=120_000)  # the new copy is complete
        assert sorted(offline_caches(page)) == sorted([old, new])
        sent = {s.path for s in host.server.log if s.status == 200 and s.bytes}
        assert sent <= {"sw.js", "glossary/"}, sorted(sent)
        for rel in engine_files(docs):
            assert not [s for s in host.server.log if s.path == rel], rel  # not even asked
        page.click('[data-action="update"]')
        page.wait_for_function("() => document.querySelector('h1')?.textContent.includes('(revised)')")
        wait_mark(page, "Available offline")
        assert offline_caches(page) == [new]
        computes_offline(host, python_outputs)
        page.close()


def wait_held(server: PagesServer, timeout_s: float = 60) -> None:
    """Until a request is held by the server (``PagesServer.hold``)."""
    end = time.monotonic() + timeout_s
    while server.held == 0:
        assert time.monotonic() < end, "no request was held"
        time.sleep(0.05)


def docs_deploy(source: Path, dest: Path, word: str) -> str:
    """A docs-only deploy: every page of ``source`` changed (the glossary's title says ``word``),
    its sw.js made again; returns its cache's name."""
    shutil.copytree(source, dest)
    for page in dest.rglob("index.html"):
        text = page.read_text(encoding="utf-8")
        page.write_text(text.replace("</h1>", f" ({word})</h1>", 1), encoding="utf-8")
    return rewrite_service_worker(dest)


def test_a_deploy_during_an_updates_copy_is_never_offered_and_the_newest_is(
    browser: Any, site_copy: Path, tmp_path: Path, python_outputs: Any
) -> None:
    with hosted(browser, site_copy) as host:
        page = host.new_page()
        page.goto("glossary/")
        wait_mark(page, "Available offline")
        old = cache_name(site_copy)
        second, third = tmp_path / "b", tmp_path / "c"
        docs_deploy(site_copy, second, "B")
        newest = docs_deploy(site_copy, third, "C")
        # B's copy gets its first two pages from B; its next ones wait at the server until C is
        # deployed (the race replayed by the server's switches, not by a slow link).
        host.server.hold(r"(^|/)$", after=2)
        host.server.deploy(second)
        page.evaluate("(async () => (await navigator.serviceWorker.getRegistration()).update())()")
        until(page, "async () => !!(await navigator.serviceWorker.getRegistration()).installing")
        wait_held(host.server)
        host.server.deploy(third)  # lands while B's copy is being saved
        host.server.release()
        page.locator('[data-action="update"]').wait_for(timeout=120_000)
        waiting = "async () => (await navigator.serviceWorker.getRegistration()).waiting !== null"
        until(page, waiting)
        assert page.inner_text(MARK) == "Available offline"  # this page's own copy, still whole
        assert newest in offline_caches(page) and old in offline_caches(page)
        page.click('[data-action="update"]')
        page.wait_for_function("() => document.querySelector('h1')?.textContent.includes('(C)')")
        until(page, f"async () => {OURS_JS} === {newest!r}")  # the old copies are gone
        offline = computes_offline(host, python_outputs)
        offline.goto("glossary/")
        assert "(C)" in offline.locator("h1").first.inner_text()
        page.close()


WASM_CODE_CACHE = Path("Default", "Code Cache", "wasm")
"""Where a Chromium profile keeps V8's compiled WebAssembly (the code cache), beside its HTTP cache."""


def code_cache_bytes(profile: Path) -> int:
    folder = profile / WASM_CODE_CACHE
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) if folder.is_dir() else 0


def traced(context: Any, page: Any, action: Any) -> list[dict[str, Any]]:
    """The trace events (V8's WebAssembly ones included) of every process while ``action()`` runs."""
    cdp = context.new_cdp_session(page)
    categories = ["disabled-by-default-devtools.timeline", "v8.wasm"]
    cdp.send(
        "Tracing.start", {"transferMode": "ReturnAsStream", "traceConfig": {"includedCategories": categories}}
    )
    done: dict[str, Any] = {}
    try:
        action()
    finally:
        cdp.on("Tracing.tracingComplete", lambda event: done.update(event))
        cdp.send("Tracing.end")
        end = time.monotonic() + 30
        while not done and time.monotonic() < end:
            page.wait_for_timeout(50)
    chunks = []
    while True:
        read = cdp.send("IO.read", {"handle": done["stream"]})
        chunks.append(base64.b64decode(read["data"]) if read.get("base64Encoded") else read["data"].encode())
        if read.get("eof"):
            break
    data = json.loads(b"".join(chunks))
    events: list[dict[str, Any]] = data["traceEvents"] if isinstance(data, dict) else data
    return events


def test_a_returning_visit_starts_the_engine_from_the_code_its_first_visit_compiled(
    browser: Any, site_copy: Path, tmp_path: Path, python_outputs: Any
) -> None:
    """A phone's browser keeps what V8 compiled of the engine's WebAssembly beside its HTTP cache entry,
    and hands it only to a response that comes from that entry: one the service worker makes from its
    Cache Storage copy gets none, and the 9.6 MB were compiled again at each visit. The worker passes
    the HTTP cache's response through unchanged (browser/offline/sw.js, ``httpCached``). Chromium
    keeps no code cache in a private window (every other test's context): this one runs in a profile
    on disk, with the browser's own WebAssembly tiering (V8 keeps only optimised code)."""
    server = PagesServer(site_copy)
    profile = tmp_path / "profile"
    context = browser.browser_type.launch_persistent_context(
        profile,
        executable_path=CHROMIUM,
        headless=True,
        args=[*CHROMIUM_ARGS, *(arg for arg in TEST_ARGS if not arg.startswith("--js-flags"))],
        base_url=server.url,
        viewport=PHONE,
    )
    try:
        context.add_init_script("window.mnemeLoaderConfig = { warm: false };")
        first = context.pages[0] if context.pages else context.new_page()
        first.goto("calculators/effect/")
        wait_mark(first, "Available offline")
        end = time.monotonic() + 60  # V8 keeps the code once no new function has been optimised for 2 s
        while code_cache_bytes(profile) < 100_000 and time.monotonic() < end:
            first.wait_for_timeout(200)
        assert code_cache_bytes(profile) >= 100_000, "the first visit left no compiled WebAssembly"
        first.close()
        again = context.new_page()
        form = again.locator('form[data-calculator="effect"]')

        def visit() -> None:
            again.goto("calculators/effect/?modifier=2&difficulty=10&roll=9")
            wait_ready(form)

        events = traced(context, again, visit)
        assert outputs(form) == python_outputs("effect", modifier=2, difficulty=10, roll=9)
        assert again.evaluate("navigator.serviceWorker.controller !== null")
        hits = [e["args"]["url"] for e in events if e.get("name") == "v8.wasm.moduleCacheHit"]
        assert [url.rsplit("/", 1)[-1] for url in hits] == ["pyodide.asm.wasm"], hits
    finally:
        context.close()
        server.stop()
