"""The one scanner for page markers (``<!-- KIND: NAME -->``), shared by the build hooks.

A marker is an HTML comment naming a kind and, for most kinds, a name:
``<!-- calculator: effect -->``, ``<!-- table: movement -->``, ``<!-- value: chm-of-10 -->``,
``<!-- calculators-index -->``. Each hook declares the kinds it handles (:class:`Kind`) and
calls :func:`expand`, which

- leaves fenced code (```` ``` ```` or ``~~~``, at any indentation) alone, so pages can show
  the syntax;
- replaces a *block* marker, which must stand alone on its line, by the rendered lines,
  each indented like the marker (so a table can sit in a content tab);
- replaces an *inline* marker wherever it is in a line;
- fails the build (``BuildError`` naming the page and line) on an unknown name or on a
  comment that looks like a marker of a handled kind but is not one (``<!-- calculator x -->``,
  ``Text <!-- table: t -->``, ``<!-- Calculators: x -->``).

Other HTML comments are left as they are. :func:`find` lists a page's well-formed markers
without changing anything (e.g. to learn which page shows which calculator).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass

from sitebuild.errors import BuildError

__all__ = ["Kind", "Marker", "expand", "find", "outside_fences"]

MARKER = re.compile(r"<!--\s*(?P<kind>[A-Za-z][\w-]*)\s*(?::\s*(?P<name>[\w.-]+)\s*)?-->")
FENCE_OPEN = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")
FENCE_CLOSE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*$")


@dataclass(frozen=True)
class Kind:
    """How one kind of marker is written and what replaces it.

    ``render(name)`` returns the markdown for the marker (``name`` is ``""`` for a kind
    without names). ``known`` lists the valid names: any other fails the build before
    ``render`` is called. A ``block`` marker must stand alone on its line, indented by at
    most ``max_indent`` characters when that is given.
    """

    render: Callable[[str], str]
    known: Collection[str] = ()
    named: bool = True
    block: bool = True
    max_indent: int | None = None


@dataclass(frozen=True)
class Marker:
    """A well-formed marker found on ``line`` (1-based), outside fenced code."""

    kind: str
    name: str
    line: int
    indent: str
    alone: bool


def outside_fences(markdown: str) -> Iterator[tuple[int, str, bool]]:
    """Each line as ``(number, text, fenced)``; fence lines themselves count as fenced."""
    fence = ""
    for number, line in enumerate(markdown.split("\n"), start=1):
        if fence:
            closer = FENCE_CLOSE.match(line)
            if closer and closer["fence"][0] == fence[0] and len(closer["fence"]) >= len(fence):
                fence = ""
            yield number, line, True
            continue
        opener = FENCE_OPEN.match(line)
        if opener:
            fence = opener["fence"]
            yield number, line, True
            continue
        yield number, line, False


def _markers(number: int, line: str, kinds: Collection[str]) -> list[Marker]:
    found = []
    for match in MARKER.finditer(line):
        if match["kind"] in kinds:
            alone = not line[: match.start()].strip() and not line[match.end() :].strip()
            indent = line[: len(line) - len(line.lstrip())] if alone else ""
            found.append(Marker(match["kind"], match["name"] or "", number, indent, alone))
    return found


def find(markdown: str, kinds: Collection[str]) -> list[Marker]:
    """Every well-formed marker of ``kinds`` outside fenced code, in page order."""
    return [
        marker
        for number, line, fenced in outside_fences(markdown)
        if not fenced
        for marker in _markers(number, line, kinds)
    ]


def _lookalike(kinds: Collection[str]) -> re.Pattern[str]:
    """A comment opening with a handled kind's word, in any case, singular or plural."""
    words = sorted({k.lower().removesuffix("s") for k in kinds}, key=len, reverse=True)
    return re.compile(r"<!--\s*(?:" + "|".join(map(re.escape, words)) + r")s?\b", re.IGNORECASE)


def _usage(kind: str, spec: Kind) -> str:
    written = f"<!-- {kind}: NAME -->" if spec.named else f"<!-- {kind} -->"
    return f"write it alone on its line as {written}" if spec.block else f"write it as {written}"


def _check(marker: Marker, spec: Kind, text: str, where: str) -> None:
    at = f"{where}:{marker.line}"
    kind = marker.kind
    if spec.named != bool(marker.name) or (
        spec.block
        and (
            not marker.alone
            or (spec.max_indent is not None and len(marker.indent.expandtabs(4)) > spec.max_indent)
        )
    ):
        raise BuildError(f"{at}: malformed {kind} marker {text.strip()!r}; {_usage(kind, spec)}")
    if spec.named and marker.name not in spec.known:
        known = ", ".join(sorted(spec.known))
        raise BuildError(f"{at}: unknown {kind} {marker.name!r} (known: {known})")


def _render(match: re.Match[str], kinds: Mapping[str, Kind]) -> str:
    kind = match["kind"]
    return kinds[kind].render(match["name"] or "") if kind in kinds else match[0]


def expand(markdown: str, kinds: Mapping[str, Kind], where: str = "page") -> str:
    """``markdown`` with every marker of ``kinds`` outside fenced code replaced (see the module)."""
    lookalike = _lookalike(kinds)
    out: list[str] = []
    for number, line, fenced in outside_fences(markdown):
        if fenced:
            out.append(line)
            continue
        found = _markers(number, line, kinds)
        for marker in found:
            _check(marker, kinds[marker.kind], line, where)
        rest = MARKER.sub(lambda m: "" if m["kind"] in kinds else m[0], line)
        stray = lookalike.search(rest)
        if stray:
            word = stray[0].removeprefix("<!--").strip().lower().removesuffix("s")
            kind = next(k for k in kinds if k.lower().removesuffix("s") == word)
            raise BuildError(
                f"{where}:{number}: malformed {kind} marker {line.strip()!r}; {_usage(kind, kinds[kind])}"
            )
        if len(found) == 1 and found[0].alone and kinds[found[0].kind].block:
            marker = found[0]
            rendered = kinds[marker.kind].render(marker.name)
            out.extend(marker.indent + row if row else row for row in rendered.split("\n"))
            continue
        out.append(MARKER.sub(lambda m: _render(m, kinds), line))
    return "\n".join(out)
