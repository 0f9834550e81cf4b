"""calculators.framework.chart_svg: a result's chart drawn as accessible SVG, from its exact figures.

The 2d6 check (Core Mechanics § Checks; § Advantage and Disadvantage for 3d6 keep two) gives exact
bar heights to compare with; hypothesis checks the scale and the labels for any distribution.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators import format as fmt
from calculators.framework import chart_svg as cs
from calculators.framework import runtime
from calculators.framework.spec import Chart
from rules_core import checks

TWO_D6 = checks.check_distribution(0, 0)
TWO_D6_HEIGHTS = ["20", "40", "60", "80", "100", "120", "100", "80", "60", "40", "20"]
"""k/36 on a 0-20% scale of 144 px: k * 20 px."""


def two_d6(highlight: tuple[int | str, ...] = ()) -> Chart:
    caption = "Chance of each dice total (2d6)"
    return Chart("dice", caption, "Dice total", "Chance", tuple(TWO_D6.items()), highlight)


def parse(html: str) -> ET.Element:
    """The figure as XML: the renderer writes well-formed markup (quoted attributes, closed elements)."""
    return ET.fromstring(html)


def heights(figure: ET.Element) -> list[str]:
    return [r.attrib["height"] for r in figure.iter("rect")]


# ---------------------------------------------------------------- the 2d6 check, exactly


def test_the_2d6_bars_are_exactly_proportional_on_a_scale_to_20_percent() -> None:
    """2d6: 1/36 to 6/36 (Core Mechanics § Checks). The scale is 0-20% in 5% steps, so a bar of
    k/36 is k * (1/36) / (1/5) * 144 = k * 20 px high: 20, 40, ... 120, ... 20."""
    assert cs.scale(list(TWO_D6.values())) == (Fraction(1, 5), Fraction(1, 20))
    figure = parse(cs.render_chart(two_d6()))
    assert heights(figure) == TWO_D6_HEIGHTS
    bottom = cs.PLOT_TOP + cs.PLOT_HEIGHT
    assert [r.attrib["y"] for r in figure.iter("rect")][5] == str(bottom - 120)
    ticks = [t.text for t in figure.find("svg").find("g[@class='calc-chart-grid']").iter("text")]  # type: ignore[union-attr]
    assert ticks == ["0%", "5%", "10%", "15%", "20%"]
    assert [t.text for t in figure.iter("title")][1:] == [f"{x}: {fmt.percent(p)}" for x, p in TWO_D6.items()]


def test_an_exact_height_is_written_to_two_decimals() -> None:
    """3d6 keep the two highest (advantage; § Advantage and Disadvantage): 2 is 1/216, 7 is 27/216 = 1/8,
    10 is 34/216 (counted over the 216 rolls). The highest, 9, is 1/6: a 0-20% scale, so 7 is
    1/8 * 5 * 144 = 90 px, 2 is 1/216 * 5 * 144 = 10/3 = 3.33 px, 10 is 34/216 * 720 = 113.33 px."""
    dist = checks.check_distribution(1, 0)
    assert (dist[2], dist[7], dist[10]) == (Fraction(1, 216), Fraction(27, 216), Fraction(34, 216))
    top, _ = cs.scale(list(dist.values()))
    assert top == Fraction(1, 5)
    assert cs.bar_height(dist[2], top) == Fraction(10, 3)
    figure = parse(cs.render_chart(Chart("dice", "c", "x", "y", tuple(dist.items()))))
    found = dict(zip([str(x) for x in dist], heights(figure), strict=True))
    assert (found["2"], found["7"], found["10"]) == ("3.33", "90", "113.33")


# ---------------------------------------------------------------- structure and accessibility


def test_the_figure_is_a_captioned_image_with_a_description_and_a_table() -> None:
    figure = parse(cs.render_chart(two_d6(highlight=(9,))))
    assert figure.tag == "figure" and figure.attrib == {"class": "calc-chart", "data-chart": "dice"}
    assert [c.tag for c in figure] == ["figcaption", "svg", "details"]
    svg = figure.find("svg")
    assert svg is not None
    assert svg.attrib["role"] == "img" and svg.attrib["width"] == "100%"
    assert svg.attrib["height"] == str(cs.HEIGHT) and "viewBox" not in svg.attrib
    assert [c.tag for c in svg][:2] == ["title", "desc"]
    assert svg.find("title").text == "Chance by Dice total"  # type: ignore[union-attr]
    desc = svg.find("desc").text or ""  # type: ignore[union-attr]
    assert "11 values, Dice total 2 to 12" in desc
    assert "Highest: 16.67% at 7." in desc and "Marked: 9, 11.11%." in desc
    details = figure.find("details")
    assert details is not None and "open" not in details.attrib
    assert details.find("summary").text == cs.TABLE_SUMMARY  # type: ignore[union-attr]
    rows = details.findall(".//tbody/tr")
    assert len(rows) == len(TWO_D6) == len(list(svg.iter("rect")))
    assert [r.attrib.get("class") for r in rows].count("calc-highlight") == 1
    assert rows[7].find("th").text == "9" and rows[7].find("td").text == "11.11%"  # type: ignore[union-attr]


def test_the_marked_bar_its_label_and_its_value_stand_out() -> None:
    figure = parse(cs.render_chart(two_d6(highlight=(9,))))
    rects = list(figure.iter("rect"))
    assert [r.attrib.get("class") for r in rects].count("calc-chart-marked") == 1
    assert rects[7].attrib["class"] == "calc-chart-marked"
    labels = figure.find("svg/g[@class='calc-chart-labels']")
    assert labels is not None
    value = labels.find("text[@class='calc-chart-value']")
    assert value is not None and value.text == "11.11%"
    assert float(value.attrib["y"]) == float(rects[7].attrib["y"]) - cs.VALUE_GAP
    assert [t.text for t in labels.findall("text[@class='calc-chart-marked']")] == ["9"]


def test_a_marked_label_that_would_pass_the_right_edge_ends_there() -> None:
    texts = [f"{10 * i}\u2013{10 * i + 9}" for i in range(40)]
    figure = parse(
        cs.render_chart(Chart("r", "c", "x", "y", tuple((t, Fraction(1, 40)) for t in texts), (texts[-1],)))
    )
    label = figure.find("svg/g[@class='calc-chart-labels']/text[@class='calc-chart-marked']")
    assert label is not None and label.text == texts[-1]
    assert (label.attrib["x"], label.attrib["text-anchor"]) == ("100%", "end")


@pytest.mark.parametrize(("marked", "anchor"), [(2, "start"), (7, None), (12, "end")])
def test_a_value_label_near_an_edge_is_anchored_inward(marked: int, anchor: str | None) -> None:
    figure = parse(cs.render_chart(two_d6(highlight=(marked,))))
    value = figure.find(".//text[@class='calc-chart-value']")
    assert value is not None and value.attrib.get("text-anchor") == anchor


def test_text_is_escaped_everywhere() -> None:
    nasty = "<script>alert(\"x\")</script> & 'q'"
    chart = Chart(nasty, nasty, nasty, nasty, ((nasty, Fraction(1, 2)), (3, Fraction(1, 2))), (nasty,))
    html = cs.render_chart(chart)
    assert "<script>" not in html and "&lt;script&gt;" in html
    figure = parse(html)
    assert figure.attrib["data-chart"] == nasty
    assert figure.find("figcaption").text == nasty  # type: ignore[union-attr]
    assert figure.find("svg/title").text == f"{nasty} by {nasty}"  # type: ignore[union-attr]
    assert figure.find(".//tbody/tr/th").text == nasty  # type: ignore[union-attr]
    assert figure.find(".//rect[@class='calc-chart-marked']") is not None


# ---------------------------------------------------------------- degenerate charts


def test_a_chart_without_points_says_so_and_draws_nothing() -> None:
    figure = parse(cs.render_chart(Chart("none", "Nothing", "x", "y", ())))
    assert [c.tag for c in figure] == ["figcaption", "p"]
    assert figure.find("p").text == cs.EMPTY_TEXT  # type: ignore[union-attr]
    assert cs.chart_svg(Chart("none", "Nothing", "x", "y", ())) == ""
    assert cs.describe(Chart("none", "Nothing", "x", "y", ())) == cs.EMPTY_TEXT


def test_one_certain_value_fills_the_plot() -> None:
    figure = parse(cs.render_chart(Chart("one", "c", "Roll", "Chance", ((7, Fraction(1)),))))
    assert heights(figure) == [str(cs.PLOT_HEIGHT)]
    rect = next(figure.iter("rect"))
    assert rect.attrib["width"] == "75%" and rect.attrib["x"] == "12.5%"
    assert "Bar chart of 1 value, Roll 7." in (figure.find("svg/desc").text or "")  # type: ignore[union-attr]


def test_all_zero_values_draw_flat_bars_on_a_scale_to_100_percent() -> None:
    figure = parse(cs.render_chart(Chart("z", "c", "x", "y", ((1, Fraction(0)), (2, Fraction(0))))))
    assert heights(figure) == ["0", "0"]
    assert cs.scale([Fraction(0)]) == cs.scale([]) == (Fraction(1), Fraction(1, 4))


def test_a_negative_value_is_refused() -> None:
    with pytest.raises(ValueError, match="below 0"):
        cs.render_chart(Chart("n", "c", "x", "y", ((1, Fraction(-1, 2)),)))


def test_a_chance_above_80_percent_gets_quarters_to_100_percent() -> None:
    assert cs.scale([Fraction(5, 6), Fraction(1, 2)]) == (Fraction(1), Fraction(1, 4))


def test_a_share_above_one_gets_a_scale_above_100_percent() -> None:
    """Healing charts damage left as a share of HP, which can pass 1."""
    top, step = cs.scale([Fraction(3, 2), Fraction(1, 3)])
    assert (top, step) == (Fraction(3, 2), Fraction(1, 2))
    assert fmt.axis_percent(top) == "150%"


# ---------------------------------------------------------------- invariants


values_st = st.lists(st.fractions(min_value=0, max_value=20, max_denominator=10**6), min_size=1, max_size=80)


@given(values_st)
def test_the_scale_is_the_smallest_round_one_that_holds_every_value(values: list[Fraction]) -> None:
    top, step = cs.scale(values)
    highest = max(values) or Fraction(1)
    assert step in cs.SCALE_STEPS and top % step == 0
    assert highest <= top < highest + step
    assert top / step <= cs.MAX_INTERVALS
    smaller = [s for s in cs.SCALE_STEPS if s < step]
    assert not smaller or highest > smaller[-1] * cs.MAX_INTERVALS


@given(values_st)
def test_every_bar_is_its_exact_share_of_the_plot_rounded_to_hundredths(values: list[Fraction]) -> None:
    chart = Chart("k", "c", "x", "y", tuple(enumerate(values)))
    top, _ = cs.scale(values)
    figure = parse(cs.render_chart(chart))
    drawn = heights(figure)
    assert drawn == [fmt.decimal(v / top * cs.PLOT_HEIGHT) for v in values]
    assert all(0 <= Fraction(h) <= cs.PLOT_HEIGHT for h in drawn)
    bottom = cs.PLOT_TOP + cs.PLOT_HEIGHT
    for rect in figure.iter("rect"):
        assert abs(Fraction(rect.attrib["y"]) + Fraction(rect.attrib["height"]) - bottom) <= Fraction(1, 100)


@given(
    st.lists(st.text(alphabet="0123456789\u2013", min_size=1, max_size=9), min_size=1, max_size=80),
    st.data(),
)
def test_x_labels_never_crowd_on_a_phone(texts: list[str], data: st.DataObject) -> None:
    marked = data.draw(st.lists(st.integers(0, len(texts) - 1), max_size=1))
    shown = cs.labelled(texts, marked)
    assert set(marked) <= set(shown) and shown == sorted(set(shown))
    assert shown
    widest = max(len(t) for t in texts) * cs.LABEL_CHAR_PX + cs.LABEL_GAP_PX
    slot = Fraction(cs.NARROW_PLOT_PX, len(texts))
    for a, b in itertools.pairwise(shown):
        assert (b - a) * slot >= widest
    for i in set(shown) - set(marked):  # a centred label ends inside the plot
        assert (i + Fraction(1, 2)) * slot + Fraction(
            len(texts[i]) * cs.LABEL_CHAR_PX, 2
        ) <= cs.NARROW_PLOT_PX


def test_every_2d6_label_is_written_and_sixty_ranges_are_thinned() -> None:
    assert cs.labelled([str(x) for x in TWO_D6]) == list(range(11))
    ranges = [f"{5 * i}\u2013{5 * i + 4}" for i in range(60)]
    shown = cs.labelled(ranges, [31])
    assert 31 in shown and len(shown) <= 6


def test_axis_percent_writes_round_figures() -> None:
    assert [fmt.axis_percent(p) for p in (0, Fraction(1, 5), Fraction(1, 40), Fraction(1, 10_000), 1)] == [
        "0%",
        "20%",
        "2.5%",
        "0.01%",
        "100%",
    ]


# ---------------------------------------------------------------- in a calculator's result


def test_a_calculator_result_carries_its_chart_as_svg_and_no_chart_script_data() -> None:
    details = runtime.compute("dice", {"dice": "2d6"})["details"]
    figure = re.search(r'<figure class="calc-chart" data-chart="totals">.*?</figure>', details)
    assert figure, details
    assert '<svg class="calc-chart-svg" role="img"' in figure.group(0)
    assert "data-series" not in details and "data-chart-canvas" not in details
    assert heights(parse(figure.group(0))) == TWO_D6_HEIGHTS


# ---------------------------------------------------------------- the kept drawing


def test_an_equal_chart_is_given_its_kept_drawing_and_a_changed_one_is_drawn_anew() -> None:
    """The engine keeps the last drawing of each chart key: an equal chart (a new object, equal by value)
    gets it back, the very same text, which is what drawing it anew gives; a changed chart of that key
    (the reader's roll marked elsewhere) is drawn anew."""
    first = cs.render_chart(two_d6((7,)))
    again = cs.render_chart(two_d6((7,)))
    assert again is first and again == cs._draw(two_d6((7,)))
    other = cs.render_chart(two_d6((9,)))
    assert other != first and other == cs._draw(two_d6((9,)))
    assert 'class="calc-chart-marked"' in other and ">9: 11.11%<" in other
    assert cs.render_chart(two_d6((7,))) == first  # back to the first: drawn again, the same


@given(
    st.lists(
        st.lists(st.fractions(min_value=0, max_value=1), min_size=1, max_size=12), min_size=1, max_size=4
    )
)
def test_the_kept_drawing_is_always_the_drawing_of_the_chart_given(series: list[list[Fraction]]) -> None:
    """Any sequence of charts under one key, each asked for twice: every answer is that chart's own
    drawing (nothing of an earlier chart leaks into a later one)."""
    for values in series * 2:
        chart = Chart("kept", "A caption", "Total", "Chance", tuple(enumerate(values)), (0,))
        assert cs.render_chart(chart) == cs._draw(chart)


def test_a_result_that_leaves_its_chart_as_it_was_carries_the_same_chart() -> None:
    """The Effect calculator's chart follows the dice (advantage, disadvantage) and the roll, not the
    modifier (Core Mechanics § Checks): changing the modifier gives the very same chart part, the
    roll a new one; each equal to a drawing made from nothing."""
    from calculators.framework import registry
    from calculators.framework.render import details_parts
    from calculators.framework.spec import evaluate

    calc = registry.get("effect")
    first = details_parts(evaluate(calc, {"modifier": "1", "roll": "9"}))
    second = details_parts(evaluate(calc, {"modifier": "4", "roll": "9"}))
    rolled = details_parts(evaluate(calc, {"modifier": "4", "roll": "6"}))
    charts = [[p for p in parts if p.startswith("<figure")] for parts in (first, second, rolled)]
    assert len(charts[0]) == 1 and charts[0] == charts[1] and charts[1] != charts[2]
    assert first[0] != second[0]  # the working follows the modifier
    cs._LAST.clear()
    assert details_parts(evaluate(calc, {"modifier": "4", "roll": "6"})) == rolled
