"""The built site carries what offline use, installation and the CSP need (``hooks/offline.py``).

Builds the real site once (strict) and checks the generated service worker, manifest, icons and
Content-Security-Policy meta against the built files themselves.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
from pathlib import Path

from _site import SUB_PATH

from sitebuild import csp, icons, offline

SETTINGS = re.compile(r"/\*MNEME_OFFLINE\*/ (.*?) /\*END_MNEME_OFFLINE\*/")


def settings(site: Path) -> dict[str, object]:
    found = SETTINGS.search((site / "sw.js").read_text(encoding="utf-8"))
    assert found, "sw.js lost its settings markers"
    loaded: dict[str, object] = json.loads(found.group(1))
    return loaded


def expected_precache(site: Path) -> list[str]:
    """Written independently of the hook: every built file but sw.js, maps, gzip twins, foreign lunr."""
    out = []
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if not path.is_file() or rel == "sw.js" or rel.endswith((".map", ".gz")):
            continue
        if rel.startswith("assets/javascripts/lunr/"):
            name = rel.rsplit("/", 1)[1]
            if name not in {"lunr.stemmer.support.min.js", "lunr.multi.min.js"}:
                continue  # language packs: the site's search is English only
        out.append(rel)
    return out


def as_url(rel: str) -> str:
    return "./" if rel == "index.html" else rel.removesuffix("index.html")


def test_the_service_worker_precaches_exactly_the_built_files(site: Path) -> None:
    files = settings(site)["files"]
    assert files == [as_url(rel) for rel in expected_precache(site)]


def test_the_precache_includes_every_page_pyodide_the_wheel_and_the_worker(site: Path) -> None:
    files = set(settings(site)["files"])  # type: ignore[arg-type]
    pages = {as_url(p.relative_to(site).as_posix()) for p in site.rglob("*.html")}
    assert pages <= files
    (runtime,) = {f.rsplit("/", 1)[0] for f in files if f.endswith("/pyodide.asm.wasm")}
    assert re.fullmatch(r"assets/pyodide/[0-9a-f]{16}", runtime)  # a folder named by Pyodide's hash
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"):
        assert f"{runtime}/{name}" in files
    assert any(re.fullmatch(r"assets/pyodide/python_stdlib\.[0-9a-f]{16}\.zip", f) for f in files)
    calculators = [f for f in files if f.startswith("assets/calculators/")]
    assert any(re.fullmatch(r"assets/calculators/mneme_rules\.[0-9a-f]{16}\.whl", f) for f in calculators)
    assert any(re.fullmatch(r"assets/calculators/worker\.[0-9a-f]{16}\.js", f) for f in calculators)
    assert {"manifest.webmanifest", "sitemap.xml", "search/search_index.json"} <= files


def test_every_file_carries_its_sum_and_only_content_named_files_skip_revalidation(site: Path) -> None:
    """The service worker checks every cached file's bytes against the build (one build per cache,
    proven); files named by their content (or in Pyodide's hashed folder) may come from the HTTP
    cache; the engine's files are precached last."""
    found = settings(site)
    files: list[str] = found["files"]  # type: ignore[assignment]
    sums: list[str] = found["sums"]  # type: ignore[assignment]
    assert len(sums) == len(files)
    for url, short in zip(files, sums, strict=True):
        rel = url + "index.html" if url.endswith("/") else url
        rel = "index.html" if url == "./" else rel
        assert short == hashlib.sha256((site / rel).read_bytes()).hexdigest()[:16], url
    fixed = {files[i] for i in found["fixed"]}  # type: ignore[attr-defined]
    engine = {files[i] for i in found["engine"]}  # type: ignore[attr-defined]
    for url in files:
        named = re.search(r"\.[0-9a-f]{8,}\.[^/]+$", url) or re.match(r"assets/pyodide/[0-9a-f]{16}/", url)
        assert (url in fixed) == bool(named), url
    assert engine <= fixed
    assert {f.rsplit("/", 1)[1] for f in engine} >= {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"}
    assert any(f.endswith(".whl") for f in engine) and any("python_stdlib." in f for f in engine)
    assert not any(url.endswith("/") or url.endswith(".html") for url in fixed)  # pages revalidate


def test_pyodide_keeps_its_folder_across_builds_of_other_changes(tmp_path: Path) -> None:
    """The runtime folder's name depends on Pyodide's three files only: a docs or code deploy keeps
    it (an offline copy carries it over), another Pyodide changes it."""
    from sitebuild import bundle

    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"):
        (tmp_path / name).write_bytes(name.encode())
    before = bundle.runtime_folder(tmp_path)
    assert re.fullmatch(r"[0-9a-f]{16}", before)
    (tmp_path / "python_stdlib.zip").write_bytes(b"other")
    assert bundle.runtime_folder(tmp_path) == before
    (tmp_path / "pyodide.asm.wasm").write_bytes(b"another pyodide")
    assert bundle.runtime_folder(tmp_path) != before


def test_every_precached_url_is_a_built_file(site: Path) -> None:
    for url in settings(site)["files"]:  # type: ignore[union-attr]
        target = site / url
        assert (target / "index.html").is_file() if url.endswith("/") else target.is_file(), url


def test_the_cache_is_named_by_a_hash_of_the_built_files(site: Path) -> None:
    digest = hashlib.sha256()
    for rel in expected_precache(site):
        digest.update(rel.encode() + b"\0")
        digest.update(hashlib.sha256((site / rel).read_bytes()).digest())
    assert settings(site)["build"] == digest.hexdigest()[:16]
    assert settings(site)["dev"] is False
    # Cache names end with the site's scope: a site at /a/ never matches one at /a/b/.
    assert offline.cache_name("abc", "/sub/path/") == "mneme-offline-abc@/sub/path/"


def test_a_changed_file_changes_the_build_hash(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("one")
    (tmp_path / "index.html").write_text("<p>page</p>")
    files = offline.precache_files(tmp_path)
    before = offline.build_hash(tmp_path, files)
    (tmp_path / "a.js").write_text("two")
    assert offline.build_hash(tmp_path, files) != before
    assert files == ["a.js", "index.html"]


def test_the_service_worker_deletes_old_caches_and_is_scoped_to_its_own_folder(site: Path) -> None:
    text = (site / "sw.js").read_text(encoding="utf-8")
    assert "name.startsWith(SETTINGS.prefix) && name.endsWith(SUFFIX)" in text
    assert "if (ours(name) && name !== CACHE) await caches.delete(name)" in text
    assert "const SUFFIX = `@${SCOPE.pathname}`" in text
    assert 'new URL("./", self.location.href)' in text  # relative: any sub-path
    assert "https://" not in text and "http://" not in text


def test_registration_uses_a_url_relative_to_the_script(site: Path) -> None:
    (register,) = (site / "assets" / "offline").glob("register.*.js")
    assert re.fullmatch(r"register\.[0-9a-f]{16}\.js", register.name)  # content-hashed
    text = register.read_text(encoding="utf-8")
    assert 'new URL("../../", script ? script.src : location.href)' in text
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        depth = len(page.relative_to(site).parts) - 1
        # 404.html is served at any depth, so mkdocs gives it root-relative URLs under the sub-path.
        prefix = SUB_PATH if page.name == "404.html" else "../" * depth
        assert f'src="{prefix}assets/offline/{register.name}"' in html, page


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_makes_the_site_installable_with_local_icons(site: Path) -> None:
    manifest = json.loads((site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert manifest["display"] == "standalone"
    sizes = {}
    for icon in manifest["icons"]:
        assert not icon["src"].startswith(("/", "http")), icon
        data = (site / icon["src"]).read_bytes()
        if icon["type"] == "image/png":
            width, height = png_size(data)
            assert icon["sizes"] == f"{width}x{height}"
            sizes[(width, icon["purpose"])] = icon["src"]
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= set(sizes)
    index = (site / "index.html").read_text(encoding="utf-8")
    assert '<link rel="manifest" href="manifest.webmanifest">' in index
    assert '<meta name="theme-color" content="#673ab7">' in index


def test_the_icons_are_opaque_inside_and_transparent_at_the_corners() -> None:
    import zlib

    data = icons.draw_icon(192, False)
    chunks, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        chunks.append((data[at + 4 : at + 8], data[at + 8 : at + 8 + length]))
        at += 12 + length
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    stride = 1 + 192 * 4
    pixel = lambda x, y: raw[y * stride + 1 + 4 * x : y * stride + 5 + 4 * x]  # noqa: E731
    assert pixel(0, 0)[3] == 0  # a rounded corner
    assert pixel(96, 96) == bytes((0x67, 0x3A, 0xB7, 255))  # the centre pip
    assert pixel(20, 96) == bytes((0x67, 0x3A, 0xB7, 255))  # the tile
    assert pixel(70, 96) == bytes((255, 255, 255, 255))  # the die face


def test_every_page_starts_its_head_with_the_content_security_policy(site: Path) -> None:
    policies = set()
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        found = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html)
        assert found, page
        assert found.start() < html.find("<script"), f"{page}: a script comes before the policy"
        assert found.start() < html.find("<link"), f"{page}: a stylesheet comes before the policy"
        policies.add(found.group(1))
    assert len(policies) == 1, "every page must carry the same policy (instant navigation keeps the first)"
    (policy,) = policies
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"].startswith("'self' 'wasm-unsafe-eval'")
    assert directives["worker-src"] == "'self' blob:"  # the engine's worker, from its text in the page
    assert "unsafe-inline" not in policy and "unsafe-eval'" not in policy.replace("wasm-unsafe-eval'", "")
    assert "http" not in policy


def test_the_policy_allows_every_inline_script_and_style_by_hash(site: Path) -> None:
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)  # type: ignore[union-attr]
        scripts, styles, attributes = csp.inline_hashes(html)
        script_src = next(d for d in policy.split(";") if d.strip().startswith("script-src"))
        style_src = next(d for d in policy.split(";") if d.strip().startswith("style-src"))
        assert all(h in script_src for h in scripts), page
        assert all(h in style_src for h in styles | attributes), page


def test_inline_hashes_skip_external_and_json_scripts() -> None:
    html = (
        '<script src="a.js"></script><script type="application/json">{"a":1}</script>'
        '<script type="mneme/worker" id="mneme-worker">self.onmessage = null;</script>'
        '<script>go()</script><script type="module">run()</script><p style="text-align: right;">x</p>'
    )
    scripts, styles, attributes = csp.inline_hashes(html)

    def digest(text: bytes) -> str:
        return "'sha256-" + __import__("base64").b64encode(hashlib.sha256(text).digest()).decode() + "'"

    assert scripts == {digest(b"go()"), digest(b"run()")}  # data blocks (JSON, the worker's text) are not run
    assert styles == set()
    assert len(attributes) == 1
