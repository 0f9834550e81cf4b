"""What the service workers and the tabs' documents did during a test, shown when it fails.

A test that races an update or a new deploy waits for navigations that a service worker answers; when
one times out, Playwright only says it waited. ``Timeline.watch(context, page, tab)`` records, for that
tab, each state of the origin's service worker versions (DevTools' ServiceWorker domain: installing,
waiting, activating, starting, stopped, with their clients) and each document asked for, answered or
dropped. Every timeline of the running test is in ``TIMELINES``; ``tests/browser/conftest.py`` adds them
to a failed test's report and empties the list after each test.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

TIMELINES: list[Timeline] = []
"""The timelines made during the running test."""


@dataclass
class Timeline:
    """Timed events of one browser context's tabs."""

    lines: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)
    tabs: int = 0
    status: dict[str, str] = field(default_factory=dict)
    """Each service worker version's last status (``installed``, ``activated``, ``redundant``...)."""
    running: dict[str, str] = field(default_factory=dict)
    """Each version's last running status (``starting``, ``running``, ``stopping``, ``stopped``)."""

    def __post_init__(self) -> None:
        TIMELINES.append(self)

    def note(self, event: str) -> None:
        self.lines.append(f"{time.perf_counter() - self.started:8.2f} s  {event}")

    def watch(self, context: Any, page: Any) -> None:
        """Follow ``page`` (a new tab of ``context``) from now on."""
        self.tabs += 1
        tab = f"tab {self.tabs}"
        self.note(f"{tab} opened")

        def versions(event: dict[str, Any]) -> None:
            for v in event["versions"]:
                self.status[v["versionId"]] = v["status"]
                self.running[v["versionId"]] = v["runningStatus"]
                clients = len(v.get("controlledClients", []))
                state = f"{v['status']}, {v['runningStatus']}, {clients} clients"
                self.note(f"{tab} sees worker {v['versionId']}: {state}")

        def document(kind: str) -> Any:
            def seen(request: Any) -> None:
                if request.resource_type == "document":
                    self.note(f"{tab} {kind} {urlsplit(request.url).path}")

            return seen

        cdp = context.new_cdp_session(page)
        cdp.on("ServiceWorker.workerVersionUpdated", versions)
        cdp.on("ServiceWorker.workerErrorReported", lambda e: self.note(f"{tab} worker error {e}"))
        cdp.send("ServiceWorker.enable")
        page.on("request", document("asks for"))
        page.on("requestfinished", document("has"))
        page.on("requestfailed", document("failed to get"))
        page.on("load", lambda _: self.note(f"{tab} load"))
        page.on("close", lambda _: self.note(f"{tab} closed"))


def wait_until(page: Any, holds: Callable[[], bool], what: str, timeout_s: float = 90) -> None:
    """Wait until ``holds()`` (a question about a timeline) is true, at most ``timeout_s``; ``page``
    lets Playwright deliver DevTools' events meanwhile. Fails saying ``what`` was waited for."""
    end = time.perf_counter() + timeout_s
    while not holds():
        if time.perf_counter() > end:
            raise AssertionError(f"{what}: not in {timeout_s} s")
        page.wait_for_timeout(50)


def wait_for_takeover(page: Any, timeline: Timeline, timeout_s: float = 90) -> None:
    """Wait, with ``page`` open on no page of the site (``about:blank``), until the newest service
    worker version the timeline has seen is activated: the browser swapped versions by itself."""

    def taken_over() -> bool:
        newest = max(timeline.status, key=int, default=None)
        return newest is not None and timeline.status[newest] == "activated"

    wait_until(page, taken_over, "a new version taking over (the timeline is in the report)", timeout_s)


def report() -> str:
    """Every timeline of the running test, one per browser context."""
    return "\n\n".join("\n".join(t.lines) for t in TIMELINES if t.lines)
