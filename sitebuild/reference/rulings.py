"""The rulings page as a player reads it: engine option names folded away.

Each entry of ``docs/rulings.md`` ends with an ``- **Option:**`` line naming the ``rules_core``
argument that selects the other reading and the calculator switch that offers it. A player reading
the entry wants the problem, the reading and why; the engine names are for maintainers. At build
time the Option line leaves the entry's list and becomes a collapsed block under it, closed by
default, so the names stay on the page (and in the source, where the docs tests check every entry
has one) without standing in the text a player reads. The block is left out of the search index
(``data-search-exclude``, read by the theme's search plugin): a search answers with rules, not with
engine names.
"""

from __future__ import annotations

import re

__all__ = ["FOLD_END", "FOLD_START", "FOLD_TITLE", "fold_engine_options"]

FOLD_TITLE = "Calculator switch and engine option"
"""The summary line of the collapsed block."""
FOLD_START = f'<details class="info" data-search-exclude markdown="1">\n<summary>{FOLD_TITLE}</summary>\n'
"""The block's first lines: closed (no ``open``), styled as the theme's info admonition, not searched."""
FOLD_END = "</details>\n"

_OPTION = re.compile(r"^- \*\*Option:\*\* (?P<first>.*)\n(?P<more>(?:  \S.*\n)*)", re.M)


def fold_engine_options(markdown: str) -> str:
    """``markdown`` with every ``- **Option:** …`` bullet (and its continuation lines) as a closed block."""

    def fold(match: re.Match[str]) -> str:
        lines = [match.group("first"), *(line[2:] for line in match.group("more").splitlines())]
        body = "".join(f"{line}\n" for line in lines)
        return f"\n{FOLD_START}\n{body}\n{FOLD_END}"

    return _OPTION.sub(fold, markdown)
