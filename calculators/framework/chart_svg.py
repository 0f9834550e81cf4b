"""A calculator's chart as SVG: bars, axes and labels drawn from the exact figures a result holds.

The one drawing of a :class:`~calculators.framework.spec.Chart`, used by the build (prerendered into
the page, so the chart is there before the engine starts) and by the engine's worker (each live
result), through :func:`calculators.framework.render.render_details`. No rule is computed here: the
chart draws the points the calculator gave, each bar's height exactly proportional to its value
(rounded to hundredths of a pixel only when written).

No ``viewBox``: the SVG is as wide as its column (``width="100%"``, bars placed in percent of it) and
:data:`HEIGHT` CSS pixels high, so its text keeps the page's size on a 360 px phone and on a wide screen
alike; the scale's labels sit left of the plot, in the padding ``browser/charts.css`` gives the SVG.
Colours come from the theme there (Material's custom properties); ``currentColor`` is the fallback.

A drawing depends on the chart alone, so the last one of each chart key is kept (:func:`render_chart`):
an edit that leaves a chart as it was (most edits: a distribution follows only some inputs) costs the
engine no drawing, and the page, which compares each part of a result with the one it shows, leaves
that chart alone.

Readable without sight: the SVG is one image (``role="img"``) named by its ``<title>`` and described by
its ``<desc>`` (how many values, the range, the highest, the marked one); every figure is in the table
that follows, in a ``<details>`` a sighted reader opens.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from fractions import Fraction
from html import escape

from calculators.format import axis_percent, decimal, number, percent, plural
from calculators.framework.spec import Chart

__all__ = [
    "HEIGHT",
    "PLOT_HEIGHT",
    "SCALE_STEPS",
    "TABLE_SUMMARY",
    "bar_height",
    "chart_svg",
    "chart_table",
    "describe",
    "labelled",
    "render_chart",
    "scale",
    "x_text",
]

HEIGHT = 204
"""Height of the SVG in CSS pixels: the plot, the value labels' row, the x axis' labels and title."""
PLOT_TOP = 20
"""Top of the plot (px): room above the tallest bar for a marked bar's value."""
PLOT_HEIGHT = 144
"""Height of the plot (px): a bar of the scale's top value is this tall."""
X_LABEL_BASELINE = 180
"""Baseline of the x axis' value labels (px)."""
X_TITLE_BASELINE = 199
"""Baseline of the x axis' title (px)."""
TICK_GAP = 6
"""Gap between a scale label and the plot (px)."""
TICK_DROP = 4
"""A scale label's baseline below its gridline (px): the label's middle on the line."""
VALUE_GAP = 4
"""Gap between a marked bar and its value label (px)."""
WIDTH_PERCENT = 100
"""The plot's width, in percent of itself: bars are placed in percent of the column."""
BAR_SHARE = Fraction(3, 4)
"""Share of its slot a bar fills (the rest is the gap between bars)."""
HALF = Fraction(1, 2)
"""The middle of a bar's slot (its label's place), and the share of the gap on each side of a bar."""
EDGE_SHARE = Fraction(1, 5)
"""Within this share of the width from an edge, a marked bar's value label is anchored inward."""
NARROW_PLOT_PX = 260
"""The plot's width on a 360 px phone (px): the x labels are thinned so that they fit it."""
LABEL_CHAR_PX = 7
"""Width of one character of an x label (px, the labels' font size of ``charts.css``), a bound."""
LABEL_GAP_PX = 6
"""Least gap between two x labels (px)."""
MAX_INTERVALS = 4
"""Most intervals of the scale (5 gridlines with the baseline)."""
SCALE_STEPS = tuple(Fraction(m * 10**d, 10_000) for d in range(8) for m in (1, 2, Fraction(5, 2), 5))
"""The scale's possible steps, increasing: 1, 2, 2.5 and 5 times a power of ten, from 0.01% (the finest
:func:`~calculators.format.axis_percent` writes) to 5,000%."""
MOST_NAMED = 3
"""Most x values the description names where the highest value is (a flat chart has many)."""
TABLE_SUMMARY = "Table of the figures"
"""The text that opens a chart's table."""
MARKED = ' class="calc-chart-marked"'
"""The class of a marked bar and its x label (e.g. the reader's roll)."""
EMPTY_TEXT = "No values to draw."
"""What a chart without points shows instead of bars."""


def x_text(x: int | str) -> str:
    """A chart's x value as players read it: numbers through :mod:`calculators.format`, ranges as given."""
    return x if isinstance(x, str) else number(x)


def scale(values: Sequence[Fraction]) -> tuple[Fraction, Fraction]:
    """``(top, step)`` of the value axis: the smallest round step (1, 2, 2.5 or 5 times a power of ten, as
    a share) whose multiple reaches the highest value within :data:`MAX_INTERVALS` intervals. All values 0
    (or none) are drawn on a scale to 100%.

    Raises:
        ValueError: a value is below 0 (a chart draws chances and shares, never negative).
    """
    if any(v < 0 for v in values):
        raise ValueError("a chart's values are never below 0")
    highest = max(values, default=Fraction(0)) or Fraction(1)
    step = next((s for s in SCALE_STEPS if highest <= s * MAX_INTERVALS), SCALE_STEPS[-1])
    return step * math.ceil(highest / step), step


def bar_height(value: Fraction, top: Fraction) -> Fraction:
    """A bar's exact height (px): ``value`` in proportion to the scale's ``top``."""
    return value / top * PLOT_HEIGHT


def labelled(texts: Sequence[str], marked: Sequence[int] = ()) -> list[int]:
    """Indices of the bars whose x label is written: every k-th, so that the longest label fits between
    neighbours on a phone's plot (:data:`NARROW_PLOT_PX`), none passing its right edge; a marked bar
    always, its neighbours closer than k not."""
    count = len(texts)
    if not count:
        return []
    widest = max(len(t) for t in texts) * LABEL_CHAR_PX + LABEL_GAP_PX
    every = max(1, math.ceil(Fraction(widest * count, NARROW_PLOT_PX)))
    shown = set(range(0, count, every))
    for m in marked:
        shown = {i for i in shown if abs(i - m) >= every}
    # Nothing to the right of the plot holds a label (the scale's room is on the left): one that would
    # pass the right edge is left out.
    right = {i for i in shown if _passes_right_edge(texts[i], i, count)}
    return sorted((shown - right) | set(marked))


def _passes_right_edge(text: str, index: int, count: int) -> bool:
    """Whether the x label ``text`` of bar ``index`` (of ``count``), centred, passes the plot's right edge on
    a phone (:data:`NARROW_PLOT_PX`)."""
    return (count - index - HALF) * NARROW_PLOT_PX < len(text) * LABEL_CHAR_PX * HALF * count


def _px(value: Fraction | int) -> str:
    return decimal(value)


def _pc(value: Fraction) -> str:
    return f"{decimal(value)}%"


def describe(chart: Chart) -> str:
    """The chart in words: its values' count and range, the highest value and where, the marked one."""
    return _describe(chart, _shares(chart))


def _shares(chart: Chart) -> list[str]:
    """Each point's value as a percentage (:func:`~calculators.format.percent`), written once per drawing."""
    return [percent(p) for _, p in chart.points]


def _describe(chart: Chart, shares: Sequence[str]) -> str:
    if not chart.points:
        return EMPTY_TEXT
    xs = [x_text(x) for x, _ in chart.points]
    highest = max(p for _, p in chart.points)
    at = [xs[i] for i, (_, p) in enumerate(chart.points) if p == highest]
    where = ", ".join(at[:MOST_NAMED]) + (" and more" if len(at) > MOST_NAMED else "")
    text = (
        f"Bar chart of {plural(len(xs), 'value')}, {chart.x_label} "
        f"{xs[0]}{' to ' + xs[-1] if len(xs) > 1 else ''}. Highest: {percent(highest)} at {where}."
    )
    for i, (x, _) in enumerate(chart.points):
        if x in chart.highlight:
            text += f" Marked: {xs[i]}, {shares[i]}."
    return text + f" Every figure is in the table below ({TABLE_SUMMARY.lower()})."


def _value_label(chart_index: int, count: int, y: Fraction, text: str) -> str:
    """A marked bar's value above it: centred, or anchored inward near an edge (:data:`EDGE_SHARE`)."""
    slot = Fraction(WIDTH_PERCENT, count)
    centre = slot * (chart_index + HALF)
    anchor = ""
    if centre < WIDTH_PERCENT * EDGE_SHARE:
        anchor, centre = ' text-anchor="start"', slot * chart_index
    elif centre > WIDTH_PERCENT * (1 - EDGE_SHARE):
        anchor, centre = ' text-anchor="end"', slot * (chart_index + 1)
    return f'<text class="calc-chart-value" x="{_pc(centre)}" y="{_px(y)}"{anchor}>{escape(text)}</text>'


@functools.cache
def _slots(count: int) -> tuple[tuple[str, ...], str, tuple[str, ...]]:
    """Where ``count`` bars go across the plot, as written: each bar's left edge, the bars' width and
    each slot's middle (an x label's place), in percent (the same for every chart of ``count`` values)."""
    slot = Fraction(WIDTH_PERCENT, count)
    lefts = tuple(_pc(slot * (i + (1 - BAR_SHARE) * HALF)) for i in range(count))
    middles = tuple(_pc(slot * (i + HALF)) for i in range(count))
    return lefts, _pc(slot * BAR_SHARE), middles


def chart_svg(chart: Chart) -> str:
    """The chart's SVG (escaped; empty for a chart without points)."""
    return _svg(chart, _shares(chart))


def _svg(chart: Chart, shares: Sequence[str]) -> str:
    if not chart.points:
        return ""
    values = [p for _, p in chart.points]
    texts = [x_text(x) for x, _ in chart.points]
    marked = [i for i, (x, _) in enumerate(chart.points) if x in chart.highlight]
    top, step = scale(values)
    count = len(values)
    lefts, width, middles = _slots(count)
    bottom = PLOT_TOP + PLOT_HEIGHT
    grid = []
    for k in range(int(top / step) + 1):
        y = bottom - bar_height(step * k, top)
        grid.append(
            f'<line x1="0" x2="100%" y1="{_px(y)}" y2="{_px(y)}"/>'
            f'<text x="-{TICK_GAP}" y="{_px(y + TICK_DROP)}">{escape(axis_percent(step * k))}</text>'
        )
    bars, labels = [], []
    for i, p in enumerate(values):
        height = bar_height(p, top)
        bars.append(
            f'<rect{MARKED if i in marked else ""} x="{lefts[i]}" '
            f'y="{_px(bottom - height)}" width="{width}" height="{_px(height)}">'
            f"<title>{escape(texts[i])}: {escape(shares[i])}</title></rect>"
        )
        if i in marked:
            labels.append(_value_label(i, count, bottom - height - VALUE_GAP, shares[i]))
    for i in labelled(texts, marked):
        # Only a marked label can pass the right edge (labelled): it ends there instead.
        at = 'x="100%" text-anchor="end"' if _passes_right_edge(texts[i], i, count) else f'x="{middles[i]}"'
        labels.append(
            f'<text{MARKED if i in marked else ""} {at} y="{X_LABEL_BASELINE}">{escape(texts[i])}</text>'
        )
    labels.append(
        f'<text class="calc-chart-title" x="50%" y="{X_TITLE_BASELINE}">{escape(chart.x_label)}</text>'
    )
    return (
        f'<svg class="calc-chart-svg" role="img" width="100%" height="{HEIGHT}" overflow="visible" '
        'focusable="false">'
        f"<title>{escape(chart.y_label)} by {escape(chart.x_label)}</title>"
        f"<desc>{escape(_describe(chart, shares))}</desc>"
        f'<g class="calc-chart-grid" stroke="currentColor" fill="currentColor" text-anchor="end">'
        f'{"".join(grid)}</g><g class="calc-chart-bars" fill="currentColor">{"".join(bars)}</g>'
        f'<line class="calc-chart-axis" x1="0" x2="100%" y1="{bottom}" y2="{bottom}" stroke="currentColor"/>'
        f'<g class="calc-chart-labels" fill="currentColor" text-anchor="middle">{"".join(labels)}</g></svg>'
    )


def chart_table(chart: Chart) -> str:
    """Every point of the chart as a table row (x, value), the marked rows emphasised."""
    return _table(chart, _shares(chart))


def _table(chart: Chart, shares: Sequence[str]) -> str:
    marked = ' class="calc-highlight"'
    rows = "".join(
        f"<tr{marked if x in chart.highlight else ''}>"
        f'<th scope="row">{escape(x_text(x))}</th><td>{escape(shares[i])}</td></tr>'
        for i, (x, _) in enumerate(chart.points)
    )
    return (
        '<div class="calc-chart-table"><table>'
        f'<thead><tr><th scope="col">{escape(chart.x_label)}</th>'
        f'<th scope="col">{escape(chart.y_label)}</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


_LAST: dict[str, tuple[Chart, str]] = {}
"""The last drawing of each chart key, with its chart (:func:`render_chart`)."""


def render_chart(chart: Chart) -> str:
    """The whole chart: ``<figure class="calc-chart" data-chart="KEY">`` with its caption, the SVG and
    the table in a closed ``<details>`` (or, without points, a line saying so).

    A drawing depends on the chart alone: the last one of each key is kept and given again for an
    equal chart (equal by value), without drawing it anew.
    """
    last = _LAST.get(chart.key)
    if last is not None and last[0] == chart:
        return last[1]
    html = _draw(chart)
    _LAST[chart.key] = (chart, html)
    return html


def _draw(chart: Chart) -> str:
    head = (
        f'<figure class="calc-chart" data-chart="{escape(chart.key)}">'
        f"<figcaption>{escape(chart.caption)}</figcaption>"
    )
    if not chart.points:
        return f'{head}<p class="calc-chart-empty">{escape(EMPTY_TEXT)}</p></figure>'
    shares = _shares(chart)
    return (
        f"{head}{_svg(chart, shares)}"
        f'<details class="calc-chart-data"><summary>{escape(TABLE_SUMMARY)}</summary>'
        f"{_table(chart, shares)}</details></figure>"
    )
