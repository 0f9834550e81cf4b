"""A test server that caches like GitHub Pages, for the offline copy's tests and the phone bench.

``PagesServer`` serves a folder under ``SUB_PATH`` on 127.0.0.1 as GitHub Pages does: a strong ``ETag``
and ``Last-Modified`` on every file, ``Cache-Control: max-age=600``, ``304 Not Modified`` to a
conditional request that still matches, gzip for text and WebAssembly when the browser accepts it, and
a byte range of the file as it is (``Range: bytes=N-``, with ``If-Range``; ``206``), as Pages does.
A test can, while the browser runs:

- ``deploy(folder)``: switch to another build at once (the next request sees it, as after a deploy);
- read ``log``: every request with its status and the body bytes sent (``sent(path)``, ``full(path)``:
  how many times a file was sent whole with 200);
- ``drop(pattern, after=0, times=None, stall=False)``: cut the connection of matching requests after so
  many body bytes (the next ``times`` of them, or every one); ``stall``: send nothing more instead, the
  connection left open (a link gone quiet) until the browser closes it or the server stops,
  ``fail(pattern, status)``: answer them with an error status; ``clear_faults()``;
- ``link``: one shared pipe (``Link(mbps, rtt_ms)``) every response goes through, whoever asks (a page,
  a worker, the service worker): a phone's one radio, paced here, not in the browser;
- ``offline()`` / ``online()``: refuse every connection (the network gone, for the service worker too);
- ``hold(pattern, after=0)``: let ``after`` matching requests through, then keep every further one
  waiting (not yet answered, its build not yet chosen) until ``release()``: a race replayed by switches,
  not by a slow link (``held`` counts those waiting).
"""

from __future__ import annotations

import email.utils
import gzip
import hashlib
import http.server
import re
import select
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import unquote, urlsplit

from _site import SUB_PATH

__all__ = ["Link", "PagesServer", "Sent"]

MAX_AGE = 600
"""GitHub Pages' Cache-Control max-age, in seconds."""
CHUNK = 16 * 1024
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".xml": "application/xml",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".wasm": "application/wasm",
    ".whl": "application/octet-stream",
    ".zip": "application/zip",
    ".txt": "text/plain; charset=utf-8",
    ".woff2": "font/woff2",
}
GZIPPED = {".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".xml", ".svg", ".wasm", ".txt"}


class Link:
    """One shared pipe: ``mbps`` megabits per second for every byte of every response, in order of
    asking, and ``rtt_ms`` before each response's first byte (a request's round trip)."""

    def __init__(self, mbps: float, rtt_ms: float) -> None:
        self.rate = mbps * 1e6 / 8
        self.rtt = rtt_ms / 1000
        self.free_at = 0.0
        self.lock = threading.Lock()

    def send(self, size: int) -> None:
        """Wait until ``size`` bytes have passed the pipe (after whatever is queued before them)."""
        with self.lock:
            start = max(time.monotonic(), self.free_at)
            self.free_at = start + size / self.rate
            done = self.free_at
        time.sleep(max(0.0, done - time.monotonic()))


@dataclass(frozen=True)
class Sent:
    """One request: the path under the sub-path, the status, body bytes sent, whether whole, when it
    was asked (``time.monotonic()``; the log is in that order), the ``Range`` it asked for (or ""), when
    its last byte was sent (``time.monotonic()``)."""

    path: str
    status: int
    bytes: int
    whole: bool
    at: float
    range: str = ""
    done: float = 0.0


@dataclass
class _State:
    folder: Path
    log: list[Sent] = field(default_factory=list)
    drops: list[list[Any]] = field(default_factory=list)
    """[pattern, bytes sent before the cut, cuts left (None: every time), stall instead of a cut]"""
    stopping: threading.Event = field(default_factory=threading.Event)
    fails: list[tuple[re.Pattern[str], int]] = field(default_factory=list)
    link: Link | None = None
    refuse: bool = False
    gzip: bool = True
    mounts: dict[str, Path] = field(default_factory=dict)
    zipped: dict[tuple[str, float], bytes] = field(default_factory=dict)
    hold: list[Any] | None = None
    """[pattern, requests still let through] while requests are held, else None."""
    held: int = 0
    released: threading.Event = field(default_factory=threading.Event)
    busy: int = 0
    """Requests being answered (``log`` waits a moment for them to be recorded)."""
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state: ClassVar[_State]

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _record(self, path: str, status: int, size: int, whole: bool) -> None:
        with self.state.lock:
            asked = self.headers.get("Range") or ""
            self.state.log.append(Sent(path, status, size, whole, self.started, asked, time.monotonic()))

    def _plain(self, status: int, path: str) -> None:
        body = f"{status}\n".encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self._record(path, status, len(body), False)

    def _file(self, rel: str, folder: Path) -> Path | None:
        target = (folder / rel).resolve()
        if not target.is_relative_to(folder.resolve()):
            return None
        if target.is_dir() and (rel == "" or rel.endswith("/")):
            target = target / "index.html"
        return target if target.exists() else None

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        self.started = time.monotonic()
        with self.state.lock:
            self.state.busy += 1
        try:
            self._answer()
        finally:
            with self.state.lock:
                self.state.busy -= 1

    def _answer(self) -> None:
        state = self.state
        raw = urlsplit(self.path).path
        if state.refuse:
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        link = state.link
        if link:
            time.sleep(link.rtt)
        self._wait_if_held(raw)
        folder, sub = state.folder, SUB_PATH
        for mount, other in state.mounts.items():  # other sites of the same origin
            if raw.startswith(mount):
                folder, sub = other, mount
        if not raw.startswith(sub):
            self._plain(404, raw)
            return
        rel = unquote(raw[len(sub) :])
        logged = rel if sub == SUB_PATH else sub + rel
        for pattern, status in state.fails:
            if pattern.search(rel):
                self._plain(status, logged)
                return
        target = self._file(rel, folder)
        if target is None:
            missing = self._file("404.html", folder)
            body = missing.read_bytes() if missing else b"404\n"
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command == "GET":
                self._send(body, link)
            self._record(logged, 404, len(body), False)
            return
        if target.is_dir():  # a folder asked without its slash: where GitHub Pages sends it
            self.send_response(301)
            self.send_header("Location", f"{sub}{rel}/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            self._record(logged, 301, 0, False)
            return
        data = target.read_bytes()
        stat = target.stat()
        etag = f'"{hashlib.sha1(data).hexdigest()[:20]}"'
        modified = email.utils.formatdate(stat.st_mtime, usegmt=True)
        match = self.headers.get("If-None-Match")
        since = self.headers.get("If-Modified-Since")
        fresh = (match is not None and etag in [t.strip() for t in match.split(",")]) or (
            match is None and since is not None and since == modified
        )
        ranged = None if fresh else self._range(len(data), etag, modified)
        self.send_response(304 if fresh else 206 if ranged else 200)
        self.send_header("ETag", etag)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Last-Modified", modified)
        self.send_header("Cache-Control", f"max-age={MAX_AGE}")
        self.send_header("Vary", "Accept-Encoding")
        if fresh:
            self.send_header("Content-Length", "0")
            self.end_headers()
            self._record(logged, 304, 0, False)
            return
        body = data
        suffix = target.suffix
        if ranged:  # the rest of the file as it is, never compressed
            body = data[ranged:]
            self.send_header("Content-Range", f"bytes {ranged}-{len(data) - 1}/{len(data)}")
        elif state.gzip and suffix in GZIPPED and "gzip" in self.headers.get("Accept-Encoding", ""):
            key = (str(target), stat.st_mtime)
            with state.lock:
                zipped = state.zipped.get(key)
            if zipped is None:
                zipped = gzip.compress(data, compresslevel=6, mtime=0)
                with state.lock:
                    state.zipped[key] = zipped
            body = zipped
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Type", TYPES.get(suffix, "application/octet-stream"))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "GET":
            self._record(logged, 200, 0, False)
            return
        cut = None
        stall = False
        with state.lock:
            for rule in state.drops:
                if rule[0].search(rel) and rule[2] != 0:
                    cut, stall = rule[1], rule[3]
                    rule[2] = None if rule[2] is None else rule[2] - 1
                    break
        status = 206 if ranged else 200
        if cut is not None:
            self._send(body[:cut], link)
            self._record(logged, status, min(cut, len(body)), False)
            if stall:
                self.wfile.flush()
                self._wait_until_closed()
            self.close_connection = True
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        sent = self._send(body, link)
        self._record(logged, status, sent, sent == len(body))

    def _range(self, size: int, etag: str, modified: str) -> int | None:
        """Where a ``Range: bytes=N-`` request starts, when it is one this file can answer (``If-Range``
        naming this file's validator, or none); else None (the whole file, 200)."""
        asked = re.fullmatch(r"bytes=(\d+)-", self.headers.get("Range") or "")
        if_range = self.headers.get("If-Range")
        if not asked or (if_range is not None and if_range not in (etag, modified)):
            return None
        start = int(asked.group(1))
        return start if 0 < start < size else None

    def _wait_until_closed(self, limit_s: float = 120) -> None:
        """Keep the connection open, sending nothing, until the other end closes it (or the server stops)."""
        end = time.monotonic() + limit_s
        while time.monotonic() < end and not self.state.stopping.is_set():
            readable, _, _ = select.select([self.connection], [], [], 0.2)
            if readable:
                try:
                    if not self.connection.recv(1024):
                        return
                except OSError:
                    return

    def _wait_if_held(self, raw: str) -> None:
        state = self.state
        with state.lock:
            rule = state.hold
            if rule is None or not rule[0].search(raw.removeprefix(SUB_PATH)):
                return
            if rule[1] > 0:
                rule[1] -= 1
                return
            state.held += 1
            released = state.released
        released.wait(60)
        with state.lock:
            state.held -= 1

    def _send(self, body: bytes, link: Link | None) -> int:
        sent = 0
        try:
            for start in range(0, len(body), CHUNK):
                part = body[start : start + CHUNK]
                if link:
                    link.send(len(part))
                self.wfile.write(part)
                sent += len(part)
        except (ConnectionError, OSError):
            self.close_connection = True
        return sent


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a browser that drops a connection mid-file is no error here


class PagesServer:
    """The folder under SUB_PATH on a free 127.0.0.1 port (or ``port``), cached like GitHub Pages;
    ``mounts`` (sub-path -> folder) serves other folders beside it (logged by their full path)."""

    def __init__(
        self,
        folder: Path,
        *,
        link: Link | None = None,
        port: int = 0,
        compress: bool = True,
        mounts: dict[str, Path] | None = None,
    ) -> None:
        self.state = _State(Path(folder), link=link, gzip=compress, mounts=dict(mounts or {}))
        handler = type("Handler", (_Handler,), {"state": self.state})
        self.httpd = _Server(("127.0.0.1", port), handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{SUB_PATH}"

    @property
    def log(self) -> list[Sent]:
        """Every request so far (once those being answered are recorded, for up to a second)."""
        end = time.monotonic() + 1
        while self.state.busy and time.monotonic() < end:
            time.sleep(0.01)
        with self.state.lock:
            return sorted(self.state.log, key=lambda sent: sent.at)

    @property
    def folder(self) -> Path:
        return self.state.folder

    def reset_log(self) -> None:
        with self.state.lock:
            self.state.log.clear()

    def deploy(self, folder: Path) -> None:
        """Serve another build from the next request on (a static host's deploy: all at once)."""
        self.state.folder = Path(folder)

    def set_link(self, link: Link | None) -> None:
        self.state.link = link

    def drop(self, pattern: str, after: int = 0, times: int | None = None, stall: bool = False) -> None:
        """Cut matching responses after ``after`` body bytes: the next ``times`` of them, or all;
        ``stall``: leave the connection open with nothing more sent instead."""
        self.state.drops.append([re.compile(pattern), after, times, stall])

    def fail(self, pattern: str, status: int = 503) -> None:
        self.state.fails.append((re.compile(pattern), status))

    def clear_faults(self) -> None:
        self.state.drops.clear()
        self.state.fails.clear()

    def hold(self, pattern: str, after: int = 0) -> None:
        """Let ``after`` requests matching ``pattern`` through, then keep the rest waiting until
        ``release()`` (the build they are answered from is chosen once released)."""
        with self.state.lock:
            self.state.released = threading.Event()
            self.state.hold = [re.compile(pattern), after]

    @property
    def held(self) -> int:
        """Requests waiting under ``hold`` now."""
        with self.state.lock:
            return self.state.held

    def release(self) -> None:
        """Answer every held request (from the build served now) and hold no more."""
        with self.state.lock:
            self.state.hold = None
            self.state.released.set()

    def offline(self) -> None:
        self.state.refuse = True

    def online(self) -> None:
        self.state.refuse = False

    def full(self, path: str) -> int:
        """How many times ``path`` (under the sub-path) was sent whole with 200."""
        return sum(1 for s in self.log if s.path == path and s.status == 200 and s.whole)

    def sent(self, path: str) -> int:
        """Body bytes sent for ``path``, every request."""
        return sum(s.bytes for s in self.log if s.path == path)

    def stop(self) -> None:
        self.state.stopping.set()
        self.release()
        self.httpd.shutdown()
        self.httpd.server_close()
