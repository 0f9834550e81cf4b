"""Build-time bundle of the browser engine: our wheel, the Pyodide runtime files, the front end.

Used by ``hooks/calculator_pages.py``. Everything is made from files in the
repository and ``node_modules/pyodide`` (installed by ``npm ci``); nothing is
fetched. The wheel is built deterministically (sorted entries, fixed dates). Every file of ours is
named by its content hash (wheel, worker, scripts, the one merged stylesheet), so a new deploy never
mixes old and new code; ``Bundle.build`` hashes them all: pages carry it as
``<meta name="mneme-build">`` and the worker reports it with its first answer.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import json
import os
import re
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path

from sitebuild import bytecode
from sitebuild.errors import BuildError

__all__ = [
    "PYODIDE_FILES",
    "PYODIDE_VERSION",
    "Bundle",
    "build_wheel",
    "bundle_script",
    "make_bundle",
]

PYODIDE_VERSION = "314.0.7"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
"""The only Pyodide runtime files the site needs (the lock file is inlined into the worker); the
standard library ships trimmed, as ``assets/pyodide/python_stdlib.HASH.zip`` (``trim_stdlib``), the
three others in a folder named by their contents' hash, ``assets/pyodide/HASH/`` (``runtime_folder``):
Pyodide finds them by fixed names, so the folder carries the hash, and no page or cache can ever pair
one build's worker with another Pyodide."""

LOADED = ("engine.js", "calculators.js", "character.js", "tracker.js")
"""Scripts the page loader (``loader.js``) adds to the pages that use them, by content-hashed name.
Any other ``.js`` in ``browser/`` (but ``worker.js``, the engine) is loaded by it on every
page, after these: adding a file needs no config edit. Each is an entry: the ES modules it imports
(``browser/lib/``, ``browser/character/``, ...) are bundled into it (``bundle_script``)."""
ESBUILD = ("node_modules", ".bin", "esbuild")
"""The bundler (pinned in ``package.json``, installed by ``npm ci``)."""
ESBUILD_TIMEOUT_S = 60
PLACEHOLDERS = {
    "loader.js": ("__MNEME_LOADER_CONFIG__", "/*MNEME_LOADER*/", "/*END_MNEME_LOADER*/"),
    "worker.js": ("__MNEME_WORKER_CONFIG__", "/*MNEME_CONFIG*/", "/*END_MNEME_CONFIG*/"),
}
"""Entry -> (the identifier its source reads its build settings from, the markers the bundle writes
them between): the bundler drops comments, so the settings go in after it, marked for the tests."""
PRINT_STYLE = "print.css"
"""Its ``@media print`` blocks go to a print-only file (``media="print"``, ``overrides/main.html``), so
they never block the screen; its screen rules join the merged stylesheet."""

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules_core", "calculators", "table")
"""What the browser runs, whole packages: the rules, the calculators, the table documents. The build's
own code (``sitebuild``) and the generator's glue (``hooks``) are never shipped."""
DIST = "mneme_rules"
_EPOCH = (1980, 1, 1, 0, 0, 0)


def _sources(root: Path) -> list[tuple[str, bytes]]:
    out = []
    for package in PACKAGES:
        base = root / package
        for path in sorted(base.rglob("*")):
            rel = path.relative_to(root).as_posix()
            if not path.is_file() or "__pycache__" in rel:
                continue
            if path.suffix == ".py" or (path.suffix == ".json" and "/data/" in rel):
                out.append((rel, path.read_bytes()))
    return out


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(root: Path = ROOT, version: str = "0.1.0", label: str = "") -> bytes:
    """A pure-Python wheel of ``rules_core`` and ``calculators`` (code and data only), reproducibly.

    ``label`` (``MNEME_BUILD_LABEL``) is written into its metadata: the same sources under a new label
    make a new build (tests/browser/test_updates.py plays a deploy with it)."""
    files = _sources(root)
    info = f"{DIST}-{version}.dist-info"
    summary = f"Summary: build {label}\n" if label else ""
    metadata = f"Metadata-Version: 2.1\nName: {DIST}\nVersion: {version}\n{summary}"
    files.append((f"{info}/METADATA", metadata.encode()))
    files.append(
        (
            f"{info}/WHEEL",
            b"Wheel-Version: 1.0\nGenerator: mneme-hooks\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
    )
    record = "\n".join([_record_line(n, d) for n, d in files] + [f"{info}/RECORD,,"]) + "\n"
    files.append((f"{info}/RECORD", record.encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            entry = zipfile.ZipInfo(name, date_time=_EPOCH)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, data)
    return buffer.getvalue()


@dataclass(frozen=True)
class Bundle:
    """What the hook adds to the site, by site path: generated contents and copied files; ``scripts``
    and ``styles`` are what every page links (the loader and register.js; the merged stylesheet),
    ``print_style`` the print-only stylesheet, ``build`` the hash every page and the worker carry."""

    contents: dict[str, bytes | str]
    copies: dict[str, Path]
    wheel_name: str
    worker_name: str
    scripts: tuple[str, ...]
    styles: tuple[str, ...]
    build: str = ""
    print_style: str = ""

    @property
    def worker_uri(self) -> str:
        """The worker's site path (``assets/calculators/worker.HASH.js``)."""
        return next(uri for uri in self.contents if uri.endswith(f"/{self.worker_name}"))

    def script_uri(self, name: str) -> str:
        """The site path of a ``LOADED`` script: ``engine`` -> ``assets/calculators/engine.HASH.js``."""
        found = re.compile(rf"/{re.escape(name)}\.[0-9a-f]{{16}}\.js$")
        return next(uri for uri in self.contents if found.search(uri))


def _pyodide_dir(root: Path) -> Path:
    folder = root / "node_modules" / "pyodide"
    meta = folder / "package.json"
    if not meta.is_file():
        raise FileNotFoundError(
            "node_modules/pyodide is missing: run `npm ci` (scripts/test and scripts/serve do it)."
        )
    version = json.loads(meta.read_text(encoding="utf-8"))["version"]
    if version != PYODIDE_VERSION:
        raise FileNotFoundError(
            f"node_modules/pyodide is {version}, expected {PYODIDE_VERSION}: run `npm ci`."
        )
    return folder


KEEP_LIST = Path(__file__).with_name("stdlib_modules.txt")
ALWAYS_KEEP = ("encodings.ascii", "encodings.latin_1", "encodings.utf_8_sig", "encodings.cp437")
"""Codecs looked up by name at run time (a static scan cannot see them)."""
FROZEN = frozenset(
    {
        "_collections_abc",
        "_sitebuiltins",
        "abc",
        "codecs",
        "collections.abc",
        "genericpath",
        "importlib._bootstrap",
        "importlib._bootstrap_external",
        "importlib.machinery",
        "importlib.util",
        "io",
        "ntpath",
        "os",
        "posixpath",
        "site",
        "stat",
        "zipimport",
    }
)
"""Modules frozen into Pyodide's WebAssembly (``_imp._frozen_module_names()``): Python imports them
from there, never from the zip, so their files are left out of it (about 96 kB compressed); what they
import is still kept (tests/sitebuild/test_bytecode.py checks the list against the pinned Pyodide)."""


LATER = frozenset({"fractions", "html", "html.entities", "ipaddress", "numbers", "urllib", "urllib.parse"})
"""Standard-library modules only the engine's own code imports, never Pyodide's start (recorded in the
browser with the list of stdlib_modules.txt; tests/sitebuild/test_bytecode.py checks it against the
pinned Pyodide). They ship apart, as ``python_stdlib_later.HASH.zip`` (about 64 kB compressed),
asked for with our wheel as the WebAssembly's last bytes come (browser/worker.js): on a first visit
they no longer share the link with the WebAssembly, which Pyodide's start waits for."""


def split_stdlib(data: bytes, wanted: set[str], later: frozenset[str] = LATER) -> tuple[bytes, bytes]:
    """``python_stdlib.zip`` trimmed to ``wanted`` (``trim_stdlib``) as two archives: what Pyodide's
    start needs, and the modules of ``later`` that nothing of the first imports as it loads."""
    first = trim_stdlib(data, wanted - later, FROZEN)
    whole = trim_stdlib(data, wanted, FROZEN)
    kept = set(zipfile.ZipFile(io.BytesIO(first)).namelist())
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(whole)) as archive, zipfile.ZipFile(buffer, "w") as out:
        for info in archive.infolist():
            if info.filename not in kept:
                out.writestr(info, archive.read(info))
    return first, buffer.getvalue()


def _module_files(archive: zipfile.ZipFile) -> dict[str, str]:
    """Module name -> file in the archive (``a/b/__init__.py`` is ``a.b``)."""
    out = {}
    for name in archive.namelist():
        if name.endswith(".py"):
            module = name[:-3].replace("/", ".").removesuffix(".__init__")
            out[module] = name
    return out


_BLOCK = re.compile(r"(async\s+def|def|class|if|elif|else|try|except|finally|with|for|while|match|case)\b")
_ELSEWHERE = re.compile(
    r"""if\s+(sys\.platform\s*==\s*["']win32["']|os\.name\s*==\s*["']nt["'])\s*:"""
    r"|except\s+(ImportError|ModuleNotFoundError)\b"
)
"""Blocks that never run as Pyodide imports a module: Windows' own branch, and the fallback for a
module that fails to import (Pyodide has every built-in module the standard library tries first;
stdlib_modules.txt, recorded in the browser, would list a fallback that ran)."""
_IMPORT = re.compile(r"(?:from\s+(\.*)([\w.]*)\s+import\s+(.*)|import\s+(.*))")


def _top_level_imports(source: str, module: str, is_package: bool) -> set[str]:
    """Modules a file imports as it is imported: at module level or inside if/try/with/class blocks,
    not inside functions (their header may span lines) nor a ``__main__`` block, nor in a string (a
    docstring's example) (read line by line: fast, and it reads syntax newer than this Python's)."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    blocks: list[tuple[int, bool]] = []  # (indent, is a function) of the open blocks
    lines = iter(source.splitlines())
    quote = ""  # the triple quote of a string still open
    for raw in lines:
        if quote:
            if quote in raw:
                quote = "" if raw.count(quote) % 2 else quote
            continue
        opened = [q for q in ('"""', "'''") if raw.count(q) % 2]
        if opened:
            quote = min(opened, key=raw.index)  # a string that goes on below: nothing here is an import
            continue
        code = raw.split("#", 1)[0].rstrip()
        text = code.lstrip()
        if not text:
            continue
        indent = len(code) - len(text)
        while blocks and blocks[-1][0] >= indent:
            blocks.pop()
        block = _BLOCK.match(text)
        while block and not text.endswith(":") and text.count("(") > text.count(")"):
            text += " " + next(lines, ":").split("#", 1)[0].strip()  # a header over several lines
        if block and text.endswith(":"):
            # Function bodies and `if __name__ == "__main__":` run later, if ever: not at import.
            later = block.group(1).endswith("def") or "__main__" in text or bool(_ELSEWHERE.match(text))
            blocks.append((indent, later))
            continue
        found_import = _IMPORT.fullmatch(text)
        if not found_import or any(is_function for _, is_function in blocks):
            continue
        dots, base, names, plain = found_import.groups()
        if plain is not None:
            found |= {part.split(" as ")[0].strip() for part in plain.split(",")}
            continue
        if "(" in names:
            while ")" not in names:
                names += " " + next(lines, ")").split("#", 1)[0]
        if dots:
            parts = package.split(".")
            parts = parts[: len(parts) - len(dots) + 1]
            base = ".".join([*parts, base] if base else parts)
        found.add(base)
        found |= {f"{base}.{n.split(' as ')[0].strip()}" for n in names.strip("() ").split(",") if n.strip()}
    return found


def trim_stdlib(data: bytes, wanted: set[str], frozen: frozenset[str] = frozenset()) -> bytes:
    """``python_stdlib.zip`` with only ``wanted`` modules, what they import as they load, and their
    packages (less to download before Python runs), but the ``frozen`` ones (what they import is
    kept). Non-module files are kept."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = _module_files(archive)
        keep: set[str] = set()
        todo = [m for m in wanted if m in files]
        while todo:
            module = todo.pop()
            if module in keep:
                continue
            keep.add(module)
            parts = module.split(".")
            todo += [".".join(parts[:i]) for i in range(1, len(parts)) if ".".join(parts[:i]) in files]
            name = files[module]
            source = archive.read(name).decode("utf-8", "replace")
            todo += [
                m for m in _top_level_imports(source, module, name.endswith("__init__.py")) if m in files
            ]
        kept_files = {files[m] for m in keep - frozen}
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
            for info in archive.infolist():
                is_module = info.filename.endswith(".py")
                if (is_module and info.filename not in kept_files) or info.is_dir():
                    continue
                entry = zipfile.ZipInfo(info.filename, date_time=_EPOCH)
                entry.compress_type = zipfile.ZIP_DEFLATED
                entry.external_attr = info.external_attr
                out.writestr(entry, archive.read(info))
    return buffer.getvalue()


@functools.lru_cache(maxsize=2)
def _trimmed_stdlib(path: Path, stamp: float, wanted: frozenset[str]) -> tuple[bytes, bytes]:
    return split_stdlib(path.read_bytes(), set(wanted))


def stdlib_wanted() -> set[str]:
    """The modules listed in ``sitebuild/stdlib_modules.txt``, and the codecs looked up by name."""
    lines = KEEP_LIST.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")} | set(ALWAYS_KEEP)


def stylesheets(frontend: Path) -> list[str]:
    """Our screen stylesheets in merge order: ``calculators.css`` first, the others sorted, then the
    theme adjustments (``offline/a11y.css``); ``print.css`` is split apart (``split_print``)."""
    names = sorted(p.name for p in frontend.glob("*.css") if p.name != PRINT_STYLE)
    names.sort(key=lambda n: n != "calculators.css")
    return [*names, "offline/a11y.css"]


_MEDIA_PRINT = re.compile(r"@media\s+print\s*\{")


def split_print(css: str) -> tuple[str, str]:
    """(screen rules, print rules): the bodies of the ``@media print { ... }`` blocks come out, the rest
    stays (comments are skipped when matching braces)."""
    screen, printed, at = [], [], 0
    for found in _MEDIA_PRINT.finditer(css):
        if found.start() < at:
            continue
        depth, i = 1, found.end()
        while depth and i < len(css):
            if css.startswith("/*", i):
                i = css.find("*/", i + 2) + 2 if css.find("*/", i + 2) >= 0 else len(css)
                continue
            depth += {"{": 1, "}": -1}.get(css[i], 0)
            i += 1
        if depth:
            raise ValueError("browser/print.css: an @media print block is not closed")
        screen.append(css[at : found.start()])
        printed.append(css[found.end() : i - 1].strip() + "\n")
        at = i
    screen.append(css[at:])
    return "".join(screen), "".join(printed)


def _short_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def runtime_folder(pyodide: Path) -> str:
    """The Pyodide runtime's folder name: a hash of its three files' names and contents (the same
    Pyodide keeps its folder from one deploy to the next, so an offline copy carries it over)."""
    digest = hashlib.sha256()
    for name in PYODIDE_FILES:
        if name != "python_stdlib.zip":
            digest.update(name.encode() + b"\0" + (pyodide / name).read_bytes())
    return digest.hexdigest()[:16]


def _hashed(name: str, data: bytes | str) -> str:
    """``loader.js`` -> ``loader.<hash of its content>.js``: a new deploy never reuses an old name."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    stem, _, ext = name.rpartition(".")
    return f"{stem}.{_short_hash(raw)}.{ext}"


def _fill(bundled: str, entry: str, value: object) -> str:
    """The bundle of ``entry`` with its settings placeholder replaced by ``value`` between its markers."""
    token, start, end = PLACEHOLDERS[entry]
    if bundled.count(token) != 1:
        raise ValueError(f"browser/{entry} must read its settings from {token} exactly once")
    return bundled.replace(token, f"{start} {json.dumps(value, separators=(',', ':'))} {end}")


def bundle_script(entry: str, root: Path = ROOT, *, module: bool = False) -> str:
    """``browser/ENTRY`` and every module it imports, as one script, with esbuild.

    A classic script (an IIFE, strict as the sources were) unless ``module`` (an ES module: the
    engine's worker). Not minified; the same sources give the same text. Comments are left out but
    for esbuild's ``// path`` line before each module, relative to ``browser/``.

    Raises:
        FileNotFoundError: esbuild is not installed (``npm ci``).
        BuildError: esbuild refused the sources (its message) or took too long.
    """
    tool = root.joinpath(*ESBUILD)
    if not tool.is_file():
        raise FileNotFoundError("node_modules/.bin/esbuild is missing: run `npm ci`.")
    frontend = root / "browser"
    options = ["--format=esm"] if module else ["--format=iife", '--banner:js="use strict";']
    command = [str(tool), entry, "--bundle", "--charset=utf8", "--legal-comments=none", "--log-level=error"]
    try:
        done = subprocess.run(
            [*command, *options],
            cwd=frontend,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=ESBUILD_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        raise BuildError(f"esbuild took over {ESBUILD_TIMEOUT_S} s to bundle browser/{entry}") from error
    if done.returncode != 0:
        raise BuildError(f"esbuild could not bundle browser/{entry}:\n{done.stderr.strip()[-4000:]}")
    return done.stdout


def make_bundle(root: Path = ROOT, assets: str = "assets") -> Bundle:
    """Every engine file for the site: Pyodide runtime, hashed wheel and worker, front end."""
    pyodide = _pyodide_dir(root)
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    inline_lock = {"info": lock["info"], "packages": {}}
    label = "".join(c for c in os.environ.get("MNEME_BUILD_LABEL", "") if c.isalnum() or c in "-_.")
    source = pyodide / "python_stdlib.zip"
    # Both ship compiled (sitebuild/bytecode.py): a phone no longer compiles every module at each start.
    wheel, stdlib, later = bytecode.compile_archives(
        pyodide,
        PYODIDE_VERSION,
        [
            build_wheel(root, label=label),
            *_trimmed_stdlib(source, source.stat().st_mtime, frozenset(stdlib_wanted())),
        ],
        class_docs=[True],  # the wheel's classes keep a __doc__ (sitebuild/bytecode.py)
    )
    wheel_name = f"{DIST}.{_short_hash(wheel)}.whl"
    frontend = root / "browser"
    sources = sorted(p for p in frontend.rglob("*") if p.is_file())
    stdlib_name = _hashed("python_stdlib.zip", stdlib)
    later_name = _hashed("python_stdlib_later.zip", later)
    build_digest = hashlib.sha256(wheel + PYODIDE_VERSION.encode() + stdlib + later)
    for path in sources:
        build_digest.update(path.relative_to(frontend).as_posix().encode() + b"\0" + path.read_bytes())
    build = build_digest.hexdigest()[:16]
    folder = runtime_folder(pyodide)
    runtime = f"{assets}/pyodide/{folder}"
    config = {
        "pyodide": f"../pyodide/{folder}/",
        "wheels": [wheel_name],
        "lock": inline_lock,
        "build": build,
        "stdlib": f"../{stdlib_name}",
        # The standard library's modules only our code imports: fetched with the wheels (LATER).
        "later": f"../pyodide/{later_name}",
        "version": PYODIDE_VERSION,
        # What the engine downloads, in bytes as they arrive (uncompressed): its start shows progress
        # against it (browser/worker.js).
        "total": len(wheel)
        + len(stdlib)
        + len(later)
        + sum((pyodide / name).stat().st_size for name in PYODIDE_FILES if name != "python_stdlib.zip"),
        # The WebAssembly's own size: a download of it cut midway goes on from there only when the rest
        # is smaller than the whole file compressed (browser/worker.js).
        "wasm": (pyodide / "pyodide.asm.wasm").stat().st_size,
    }
    worker = _fill(bundle_script("worker.js", root, module=True), "worker.js", config)
    worker_name = f"worker.{_short_hash(worker.encode())}.js"
    calc = f"{assets}/calculators"
    contents: dict[str, bytes | str] = {
        f"{calc}/{wheel_name}": wheel,
        f"{calc}/{worker_name}": worker,
        f"{assets}/pyodide/{stdlib_name}": stdlib,
        f"{assets}/pyodide/{later_name}": later,
    }
    loaded: dict[str, str] = {}
    others = sorted(
        p.name for p in frontend.glob("*.js") if p.name not in (*LOADED, "worker.js", "loader.js")
    )
    for name in (*LOADED, *others):
        text = bundle_script(name, root)
        if name == "engine.js":
            if text.count("__MNEME_WORKER__") != 1:
                raise ValueError("browser/engine.js must name its worker __MNEME_WORKER__ exactly once")
            text = text.replace("__MNEME_WORKER__", worker_name)
        hashed = _hashed(name, text)
        contents[f"{calc}/{hashed}"] = text
        loaded[name.removesuffix(".js")] = hashed
    screen_print, printed = split_print((frontend / PRINT_STYLE).read_text(encoding="utf-8"))
    styles = {name: (frontend / name).read_text(encoding="utf-8") for name in stylesheets(frontend)}
    styles[PRINT_STYLE] = screen_print
    merged = "".join(f"/* {name} */\n{text.strip()}\n" for name, text in styles.items())
    style = f"{calc}/{_hashed('mneme.css', merged)}"
    contents[style] = merged
    print_style = f"{calc}/{_hashed(PRINT_STYLE, printed)}"
    contents[print_style] = printed
    loader = _fill(
        bundle_script("loader.js", root),
        "loader.js",
        {"build": build, "scripts": loaded, "everywhere": [n.removesuffix(".js") for n in others]},
    )
    loader_uri = f"{calc}/{_hashed('loader.js', loader)}"
    contents[loader_uri] = loader
    register = bundle_script("offline/register.js", root)
    register_uri = f"{assets}/offline/{_hashed('register.js', register)}"
    contents[register_uri] = register
    copies = {f"{runtime}/{name}": pyodide / name for name in PYODIDE_FILES if name != "python_stdlib.zip"}
    return Bundle(
        contents,
        copies,
        wheel_name,
        worker_name,
        (loader_uri, register_uri),
        (style,),
        build,
        print_style,
    )
