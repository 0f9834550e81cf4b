"""Code, comments and notes outside ``docs/`` cite no ticket numbers: they give the reason instead."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = {".py", ".js", ".mjs", ".css", ".html", ".yml", ".toml", ".md"}
SKIPPED = {"docs", "site", ".venv", "node_modules", ".git"}  # top-level folders not searched
WORD = "iss" + "ue"  # built in two parts so this file does not match its own pattern
TICKET = re.compile(rf"\({WORD}s? \d+|\b{WORD} \d+\b", re.IGNORECASE)


def _files() -> list[Path]:
    """The repository's files: tracked, and new ones git does not ignore."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.split("\0")
    return sorted(
        path
        for path in (ROOT / name for name in listed if name)
        if path.suffix in KINDS
        and path.is_file()
        and path.relative_to(ROOT).parts[0] not in SKIPPED
        and "node_modules" not in path.parts
    )


def test_no_file_outside_docs_cites_a_ticket_number() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _files()
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if TICKET.search(line)
    ]
    assert not found, (
        "ticket numbers mean nothing in the code: say the reason instead of citing the ticket\n"
        + "\n".join(found)
    )
