"""Build-time bundle of the browser engine: our wheel, the Pyodide runtime files, the front end.

Used by ``hooks/calculator_pages.py``. Everything is made from files in the
repository and ``node_modules/pyodide`` (installed by ``npm ci``); nothing is
fetched. The wheel is built deterministically (sorted entries, fixed dates) and
named by its content hash, so a new deploy never mixes old and new code.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "PYODIDE_FILES",
    "PYODIDE_VERSION",
    "Bundle",
    "build_wheel",
    "make_bundle",
]

PYODIDE_VERSION = "314.0.7"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
"""The only Pyodide runtime files the site needs (the lock file is inlined into the worker)."""

SCRIPT_ORDER = ("engine.js", "calculators.js", "charts.js", "character.js", "tracker.js")
"""Front-end scripts load in this order (e.g. tracker.js needs character.js); others follow, sorted."""
VENDOR = {"chart.umd.min.js": ("chart.js", "dist/chart.umd.min.js")}
"""Third-party browser files copied from node_modules: site name -> (npm package, file in it)."""

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules_core", "calculators")
BUILD_ONLY = ("calculators/reference/", "calculators/examples/", "calculators/table/ui.py")
"""Build-time code the browser never runs: left out of the wheel (``table/ui.py`` is embedded in pages)."""
DIST = "mneme_rules"
_EPOCH = (1980, 1, 1, 0, 0, 0)


def _sources(root: Path) -> list[tuple[str, bytes]]:
    out = []
    for package in PACKAGES:
        base = root / package
        for path in sorted(base.rglob("*")):
            rel = path.relative_to(root).as_posix()
            if not path.is_file() or "__pycache__" in rel or rel.startswith(BUILD_ONLY):
                continue
            if path.suffix == ".py" or (path.suffix == ".json" and "/data/" in rel):
                out.append((rel, path.read_bytes()))
    return out


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(root: Path = ROOT, version: str = "0.1.0") -> bytes:
    """A pure-Python wheel of ``rules_core`` and ``calculators`` (code and data only), reproducibly."""
    files = _sources(root)
    info = f"{DIST}-{version}.dist-info"
    files.append((f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {DIST}\nVersion: {version}\n".encode()))
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
    """What the hook adds to the site, by site path: generated contents and copied files."""

    contents: dict[str, bytes | str]
    copies: dict[str, Path]
    wheel_name: str
    worker_name: str
    scripts: tuple[str, ...]
    styles: tuple[str, ...]


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


def _short_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def make_bundle(root: Path = ROOT, assets: str = "assets") -> Bundle:
    """Every engine file for the site: Pyodide runtime, hashed wheel and worker, front end."""
    pyodide = _pyodide_dir(root)
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    inline_lock = {"info": lock["info"], "packages": {}}
    wheel = build_wheel(root)
    wheel_name = f"{DIST}.{_short_hash(wheel)}.whl"
    frontend = root / "calculators" / "frontend"
    config = {"pyodide": "../pyodide/", "wheels": [wheel_name], "lock": inline_lock}
    worker_src = (frontend / "worker.js").read_text(encoding="utf-8")
    start, end = "/*MNEME_CONFIG*/", "/*END_MNEME_CONFIG*/"
    head, _, rest = worker_src.partition(start)
    _, _, tail = rest.partition(end)
    if not tail:
        raise ValueError("calculators/frontend/worker.js lost its CONFIG markers")
    worker = f"{head}{start} {json.dumps(config, separators=(',', ':'))} {end}{tail}"
    worker_name = f"worker.{_short_hash(worker.encode())}.js"
    main = (frontend / "engine.js").read_text(encoding="utf-8")
    if "__MNEME_WORKER__" not in main:
        raise ValueError("calculators/frontend/engine.js lost its __MNEME_WORKER__ placeholder")
    calc = f"{assets}/calculators"
    contents: dict[str, bytes | str] = {
        f"{calc}/{wheel_name}": wheel,
        f"{calc}/{worker_name}": worker,
        f"{calc}/engine.js": main.replace("__MNEME_WORKER__", worker_name),
    }
    copies = {f"{assets}/pyodide/{name}": pyodide / name for name in PYODIDE_FILES}
    for path in sorted(frontend.iterdir()):
        if path.is_file() and path.suffix in (".js", ".css") and path.name not in ("worker.js", "engine.js"):
            copies[f"{calc}/{path.name}"] = path
    for path in sorted((frontend / "offline").iterdir()):
        if path.is_file() and path.suffix in (".js", ".css") and path.name != "sw.js":
            copies[f"{assets}/offline/{path.name}"] = path
    depends = json.loads((root / "package.json").read_text(encoding="utf-8")).get("dependencies", {})
    for name, (package, inner) in VENDOR.items():
        if package in depends:
            source = root / "node_modules" / package / inner
            if not source.is_file():
                raise FileNotFoundError(f"node_modules/{package}/{inner} is missing: run `npm ci`.")
            copies[f"{calc}/{name}"] = source
    js = [p.name for p in frontend.glob("*.js") if p.name != "worker.js"]
    rank = {name: i for i, name in enumerate(SCRIPT_ORDER)}
    scripts = tuple(f"{calc}/{n}" for n in sorted(js, key=lambda n: (rank.get(n, len(rank)), n)))
    css = sorted(p.name for p in frontend.glob("*.css"))
    css.sort(key=lambda n: (n != "calculators.css", n == "print.css"))
    styles = tuple(f"{calc}/{n}" for n in css)
    return Bundle(contents, copies, wheel_name, worker_name, scripts, styles)
