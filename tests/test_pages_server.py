"""The Pages-like test server (``tests/_pages.py``) behaves as the offline tests and the bench assume:
validators and ``max-age`` as GitHub Pages sends them, 304 to a matching conditional request, gzip,
a deploy switching every next answer, faults on demand, requests held until released, a shared link
that paces."""

from __future__ import annotations

import gzip
import http.client
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from _pages import MAX_AGE, Link, PagesServer
from _site import SUB_PATH


@pytest.fixture
def served(tmp_path: Path) -> Iterator[PagesServer]:
    for name, folder in (("a", "v1"), ("b", "v2")):
        root = tmp_path / name
        (root / "docs").mkdir(parents=True)
        (root / "index.html").write_text(f"<h1>{folder}</h1>", encoding="utf-8")
        (root / "docs" / "index.html").write_text("docs " * 200, encoding="utf-8")
        (root / "big.zip").write_bytes(bytes(range(256)) * 400)
    server = PagesServer(tmp_path / "a", mounts={"/other/": tmp_path / "b"})
    yield server
    server.stop()


def ask(server: PagesServer, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def test_validators_max_age_and_not_modified(served: PagesServer) -> None:
    status, headers, body = ask(served, SUB_PATH)
    assert (status, body) == (200, b"<h1>v1</h1>")
    assert headers["cache-control"] == f"max-age={MAX_AGE}" and MAX_AGE == 600
    assert headers["etag"].startswith('"') and headers["last-modified"].endswith("GMT")
    again = ask(served, SUB_PATH, **{"If-None-Match": headers["etag"]})
    assert again[0] == 304 and again[2] == b""
    since = ask(served, SUB_PATH, **{"If-Modified-Since": headers["last-modified"]})
    assert since[0] == 304
    log = [(s.path, s.status, s.whole) for s in served.log]
    assert log == [("", 200, True), ("", 304, False), ("", 304, False)]
    assert served.full("") == 1 and served.sent("") == len(b"<h1>v1</h1>")


def test_gzip_folders_redirects_and_mounts(served: PagesServer) -> None:
    status, headers, body = ask(served, SUB_PATH + "docs/", **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == b"docs " * 200 and len(body) < 200
    assert ask(served, SUB_PATH + "big.zip", **{"Accept-Encoding": "gzip"})[1].get("content-encoding") is None
    status, headers, _ = ask(served, SUB_PATH + "docs")
    assert status == 301 and headers["location"] == SUB_PATH + "docs/"
    assert ask(served, "/other/")[2] == b"<h1>v2</h1>"
    assert ask(served, SUB_PATH + "missing")[0] == 404
    assert ask(served, "/elsewhere/")[0] == 404


def test_a_deploy_faults_and_the_network_gone(served: PagesServer, tmp_path: Path) -> None:
    _, headers, _ = ask(served, SUB_PATH)
    served.deploy(tmp_path / "b")
    status, _, body = ask(served, SUB_PATH, **{"If-None-Match": headers["etag"]})
    assert (status, body) == (200, b"<h1>v2</h1>")  # the old validator no longer matches
    served.fail(r"^docs/", 503)
    assert ask(served, SUB_PATH + "docs/")[0] == 503
    served.drop(r"\.zip$", after=1000, times=1)
    with pytest.raises(http.client.IncompleteRead):
        ask(served, SUB_PATH + "big.zip")
    assert len(ask(served, SUB_PATH + "big.zip")[2]) == 102_400  # cut once only
    assert [(s.bytes, s.whole) for s in served.log if s.path == "big.zip"] == [(1000, False), (102_400, True)]
    served.drop(r"\.zip$")
    with pytest.raises(http.client.IncompleteRead):
        ask(served, SUB_PATH + "big.zip")
    served.clear_faults()
    assert len(ask(served, SUB_PATH + "big.zip")[2]) == 102_400
    served.offline()
    with pytest.raises((ConnectionError, http.client.RemoteDisconnected)):
        ask(served, SUB_PATH)
    served.online()
    assert ask(served, SUB_PATH)[0] == 200


def test_the_shared_link_paces_every_response(served: PagesServer) -> None:
    served.set_link(Link(mbps=8, rtt_ms=50))  # 1 MB/s
    start = time.monotonic()
    assert len(ask(served, SUB_PATH + "big.zip")[2]) == 102_400
    took = time.monotonic() - start
    assert 0.05 + 0.1 <= took < 1.0  # one round trip, then 100 KiB at 1 MB/s


def test_held_requests_wait_and_are_answered_from_the_build_served_when_released(
    served: PagesServer, tmp_path: Path
) -> None:
    served.hold(r"(^|/)$", after=1)  # pages: the first one passes, the next waits
    assert ask(served, SUB_PATH)[2] == b"<h1>v1</h1>"
    answers: list[bytes] = []
    waiting = threading.Thread(target=lambda: answers.append(ask(served, SUB_PATH)[2]))
    waiting.start()
    end = time.monotonic() + 5
    while served.held == 0 and time.monotonic() < end:
        time.sleep(0.01)
    assert served.held == 1 and answers == []
    assert ask(served, SUB_PATH + "big.zip")[0] == 200  # not a page: never held
    served.deploy(tmp_path / "b")
    served.release()
    waiting.join(5)
    assert answers == [b"<h1>v2</h1>"] and served.held == 0  # the build served when released


def test_a_byte_range_of_the_file_as_it_is(served: PagesServer) -> None:
    """A download cut midway goes on with ``Range: bytes=N-`` (``If-Range``: the validator it had)."""
    whole = bytes(range(256)) * 400
    status, headers, body = ask(served, SUB_PATH + "big.zip")
    assert status == 200 and headers["accept-ranges"] == "bytes" and body == whole
    rest = ask(served, SUB_PATH + "big.zip", Range="bytes=1000-", **{"If-Range": headers["etag"]})
    assert rest[0] == 206 and rest[2] == whole[1000:]
    assert rest[1]["content-range"] == f"bytes 1000-{len(whole) - 1}/{len(whole)}"
    by_date = ask(served, SUB_PATH + "big.zip", Range="bytes=5-", **{"If-Range": headers["last-modified"]})
    assert by_date[0] == 206 and by_date[2] == whole[5:]
    changed = ask(served, SUB_PATH + "big.zip", Range="bytes=1000-", **{"If-Range": '"another"'})
    assert changed[0] == 200 and changed[2] == whole  # another version: the whole file
    assert [(s.status, s.bytes, s.whole) for s in served.log][1] == (206, len(whole) - 1000, True)


def test_a_stalled_answer_sends_nothing_more_until_the_client_leaves(served: PagesServer) -> None:
    served.drop(r"big\.zip$", after=1000, times=1, stall=True)
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=0.5)
    connection.request("GET", SUB_PATH + "big.zip")
    response = connection.getresponse()
    assert response.status == 200 and len(response.read(1000)) == 1000
    with pytest.raises(TimeoutError):
        response.read(1)  # nothing more comes
    connection.close()
    assert [(s.bytes, s.whole) for s in served.log] == [(1000, False)]
    assert ask(served, SUB_PATH + "big.zip")[2] == bytes(range(256)) * 400  # the next one whole
