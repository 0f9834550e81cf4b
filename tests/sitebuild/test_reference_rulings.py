"""The rulings page as built: engine option names folded into closed blocks."""

from __future__ import annotations

import re
from pathlib import Path

from sitebuild.reference.rulings import FOLD_END, FOLD_START, fold_engine_options

RULINGS = Path(__file__).resolve().parents[2] / "docs" / "rulings.md"
ENGINE_NAME = re.compile(r"`[a-z_]+\.[a-z_]+")
"""An engine name as the entries write it: ``module.function`` in code style."""


def test_every_option_line_becomes_one_closed_block_and_nothing_else_changes() -> None:
    source = RULINGS.read_text(encoding="utf-8")
    built = fold_engine_options(source)
    options = source.count("\n- **Option:** ")
    assert options > 10
    assert built.count(f"\n{FOLD_START}\n") == built.count(FOLD_END) == options
    assert " open" not in FOLD_START  # closed by default
    assert "- **Option:**" not in built
    # Every other line is kept as it was, in order; only the Option bullets moved into the blocks.
    without = re.sub(r"^- \*\*Option:\*\* .*\n(?:  \S.*\n)*", "", source, flags=re.M)

    assert [line for line in read_lines(built) if line] == [line for line in without.splitlines() if line]


def read_lines(built: str) -> list[str]:
    """The lines of ``built`` outside the folded blocks (the text a player reads without opening one)."""
    read: list[str] = []
    inside = False
    for line in built.splitlines():
        if line == FOLD_START.splitlines()[0]:
            inside = True
        elif line == FOLD_END.strip():
            inside = False
        elif not inside:
            read.append(line)
    return read


def test_no_engine_name_is_left_in_the_text_a_player_reads() -> None:
    built = fold_engine_options(RULINGS.read_text(encoding="utf-8"))
    read = read_lines(built)
    assert [line for line in read if ENGINE_NAME.search(line)] == []
    assert any(ENGINE_NAME.search(line) for line in set(built.splitlines()) - set(read))


def test_a_continued_option_keeps_all_its_lines_inside_the_block() -> None:
    text = (
        "- **Why:** because.\n"
        "- **Option:** `m.f(x=…)`: `a` or `b` (a long\n"
        "  second line). Switch: [calc](calculators/x.md?x=b)\n"
        "\n### Next {#next}\n"
    )
    assert fold_engine_options(text) == (
        "- **Why:** because.\n"
        f"\n{FOLD_START}\n"
        "`m.f(x=…)`: `a` or `b` (a long\n"
        "second line). Switch: [calc](calculators/x.md?x=b)\n"
        f"\n{FOLD_END}"
        "\n### Next {#next}\n"
    )
