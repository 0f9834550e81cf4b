"""The one HTML renderer for calculators: the form and the result panel, escaped.

Used at build time (the hook prerenders every calculator with its defaults) and
in the browser worker (live results), so the page looks the same either way.
Links to rules are docs paths (``rules/checks.md#effect``) made relative to the
page through ``root`` (the relative URL of the site root, e.g. ``../../``).
"""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import urlencode

from calculators.format import EMPTY
from calculators.framework.chart_svg import render_chart
from calculators.framework.spec import (
    MAX_DIGITS,
    SUMMARY,
    BoolInput,
    Calculator,
    ChoiceInput,
    Evaluation,
    Handoff,
    Input,
    IntInput,
    OptionalIntInput,
    RuleLink,
    TextInput,
)

__all__ = [
    "EMPTY_OUTPUT",
    "details_parts",
    "doc_url",
    "js_length",
    "payload",
    "render_calculator",
    "render_details",
    "render_next",
    "render_result",
    "render_summary",
    "rulings_label",
    "summary_text",
]

EMPTY_OUTPUT = EMPTY
"""Text of an output that does not apply (e.g. ``effect`` without a roll) or cannot be computed."""

FIX_MESSAGE = "Correct the marked field to see a result."

URL_TEXT_LIMIT = 200
"""Longest value a link may set in a field that has no shorter limit of its own (``calculators.js``)."""


def doc_url(target: str, root: str = "") -> str:
    """The site URL of a docs path (directory URLs), relative to the page via ``root``.

    ``rules/checks.md#effect`` becomes ``ROOT/rules/checks/#effect``; ``index.md`` the site root.
    """
    path, _, anchor = target.partition("#")
    if not path.endswith(".md"):
        raise ValueError(f"rule link target must be a .md docs path: {target!r}")
    stem = path[:-3]
    is_index = stem == "index" or stem.endswith("/index")
    url = stem[: -len("index")] if is_index else stem + "/"
    out = f"{root}{url}"
    if not out:
        out = "./"
    return f"{out}#{anchor}" if anchor else out


def _a(link: RuleLink, root: str) -> str:
    return f'<a href="{escape(doc_url(link.target, root))}">{escape(link.text)}</a>'


def _attrs(**attrs: Any) -> str:
    parts = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        name = name.rstrip("_").replace("_", "-")
        parts.append(f" {name}" if value is True else f' {name}="{escape(str(value))}"')
    return "".join(parts)


def _control(item: Input, fid: str, text: str, described: str, invalid: bool) -> str:
    common = {"id": fid, "name": item.key, "aria_describedby": described, "aria_invalid": invalid and "true"}
    if isinstance(item, (IntInput, OptionalIntInput)):
        field = (
            f"<input{_attrs(type='text', inputmode='numeric', autocomplete='off', value=text, **common)}"
            f"{_attrs(data_min=item.min, data_max=item.max, data_step=item.step)}"
            f"{_attrs(data_max_length=MAX_DIGITS + 1)}"
            f"{_attrs(placeholder=getattr(item, 'placeholder', None) or None)}>"
        )
        label = escape(item.label)
        step = (
            '<button type="button" class="calc-step" data-step="{0}" aria-label="{1} {2}" hidden>{3}</button>'
        )
        minus = step.format(-1, "Decrease", label, "\u2212")
        plus = step.format(1, "Increase", label, "+")
        sign = (
            f'<button type="button" class="calc-sign" data-sign aria-label="Change the sign of {label}" '
            "hidden>\u00b1</button>"
            if item.min < 0
            else ""
        )
        unit = f'<span class="calc-unit">{escape(item.unit)}</span>' if item.unit else ""
        return f'<div class="calc-control">{minus}{field}{plus}{sign}{unit}</div>'
    if isinstance(item, ChoiceInput):
        options = "".join(
            f"<option{_attrs(value=value, selected=value == text)}>{escape(label)}</option>"
            for value, label in item.choices
        )
        default = _attrs(data_default=item.default) if item.ruling else ""
        return f'<div class="calc-control"><select{_attrs(**common)}{default}>{options}</select></div>'
    if isinstance(item, BoolInput):
        checked = text.strip().lower() in {"1", "true", "on", "yes"}
        return f"<input{_attrs(type='checkbox', value='1', checked=checked, **common)}>"
    if isinstance(item, TextInput):
        return (
            '<div class="calc-control">'
            "<input"
            f"{_attrs(type='text', autocomplete='off', autocapitalize='off', spellcheck='false', **common)}"
            f"{_attrs(value=text, maxlength=item.max_length, placeholder=item.placeholder or None)}></div>"
        )
    raise TypeError(f"unknown input kind {item!r}")


def _field(calc: Calculator, item: Input, prefix: str, text: str, error: str, hidden: bool = False) -> str:
    fid = f"{prefix}-{item.key}"
    help_id, error_id = f"{fid}-help", f"{fid}-error"
    described = f"{help_id} {error_id}" if item.help else error_id
    control = _control(item, fid, text, described, bool(error))
    label = f'<label for="{fid}">{escape(item.label)}</label>'
    help_ = f'<p class="calc-help" id="{help_id}">{escape(item.help)}</p>' if item.help else ""
    err = (
        f'<p class="calc-error" id="{error_id}" role="alert" '
        f'data-error-for="{escape(item.key)}">{escape(error)}</p>'
    )
    kind = item.kind.replace("_", "-")
    if isinstance(item, BoolInput):
        head = f'<div class="calc-check">{control}{label}</div>'
    else:
        head = f"{label}{control}"
    when = calc.shown_when.get(item.key)
    only = _attrs(
        data_only=" ".join(f"{key}={value}" for key, value in when) if when else None, hidden=hidden
    )
    return (
        f'<div class="calc-field calc-field--{kind}" data-field="{escape(item.key)}"{only}>'
        f"{head}{help_}{err}</div>"
    )


def render_details(ev: Evaluation, root: str = "") -> str:
    """Working steps, charts and rule links of an evaluation (HTML, escaped)."""
    return "".join(details_parts(ev, root))


def details_parts(ev: Evaluation, root: str = "") -> list[str]:
    """:func:`render_details` in its parts, each one element: the working, each chart, the rule links.

    The page compares each part with the one it shows and patches only those that differ (an edit
    that leaves a chart as it was leaves its SVG alone); :func:`payload` sends their sizes.
    """
    if ev.result is None:
        if ev.errors:
            return [f'<p class="calc-fix">{escape(FIX_MESSAGE)}</p>']
        return []
    parts = []
    res = ev.result
    if res.working:
        items = "".join(
            f"<li>{escape(step.text)}{' ' + _a(step.rule, root) if step.rule else ''}</li>"
            for step in res.working
        )
        parts.append(f'<div class="calc-working"><h2 class="calc-heading">Working</h2><ol>{items}</ol></div>')
    parts.extend(render_chart(chart) for chart in res.charts)
    links = res.rules or ev.calculator.rules
    if links:
        parts.append('<p class="calc-rules">Rules: ' + ", ".join(_a(link, root) for link in links) + "</p>")
    return parts


def js_length(text: str) -> int:
    """The length of ``text`` as JavaScript counts it (UTF-16 code units: a character beyond the
    Basic Multilingual Plane counts twice), so the page can cut the details where their parts meet."""
    return len(text) if text.isascii() else len(text) + sum(c > "\uffff" for c in text)


def render_next(ev: Evaluation, root: str = "") -> str:
    """The hand-off links, shown directly under the answer (before the outputs, working and charts)."""
    if ev.result is None or not ev.result.next:
        return ""
    return '<p class="calc-next">Next: ' + ", ".join(_handoff(n, root) for n in ev.result.next) + "</p>"


def _handoff(link: Handoff, root: str) -> str:
    query = f"?{urlencode(link.params)}" if link.params else ""
    name = link.calculator.rsplit("/", 1)[-1].removesuffix(".md")
    href = escape(doc_url(link.calculator, root) + query)
    return f'<a data-handoff="{escape(name)}" href="{href}">{escape(link.text)}</a>'


def summary_text(ev: Evaluation) -> str:
    """The one-line answer in words the calculator gives (:data:`SUMMARY`); none without a result."""
    found = ev.result.outputs if ev.result is not None else {}
    return found.get(SUMMARY) or EMPTY_OUTPUT


def _output_texts(ev: Evaluation) -> dict[str, str]:
    found = ev.result.outputs if ev.result is not None else {}
    texts = {o.key: found.get(o.key, EMPTY_OUTPUT) or EMPTY_OUTPUT for o in ev.calculator.outputs}
    texts[SUMMARY] = summary_text(ev)
    return texts


def render_summary(ev: Evaluation) -> str:
    """The answer in words, first; a polite live region, hidden when there is no answer."""
    text = summary_text(ev)
    hidden = _attrs(hidden=text == EMPTY_OUTPUT)
    return (
        '<div class="calc-answer">'
        '<p class="calc-stale" data-stale-mark data-search-exclude>Out of date: updating\u2026</p>'
        f'<p class="calc-summary" data-summary data-output="{SUMMARY}" aria-live="polite"{hidden}>'
        f"{escape(text)}</p></div>"
    )


def render_next_slot(ev: Evaluation, root: str = "") -> str:
    """Where the hand-off links go, right under the answer (``calculators.js`` refills it)."""
    return f'<div class="calc-next-slot" data-next>{render_next(ev, root)}</div>'


def render_result(ev: Evaluation, root: str = "") -> str:
    """The result panel: outputs (a polite live region; one that does not apply is hidden), the details."""
    texts = _output_texts(ev)
    rows = "".join(
        f'<div class="calc-output"{_attrs(hidden=texts[o.key] == EMPTY_OUTPUT)}><dt>{escape(o.label)}</dt>'
        f'<dd data-output="{escape(o.key)}">{escape(texts[o.key])}</dd></div>'
        for o in ev.calculator.outputs
    )
    return (
        '<div class="calc-result" data-result>'
        f'<dl class="calc-outputs" aria-live="polite">{rows}</dl>'
        f'<div class="calc-details" data-details>{render_details(ev, root)}</div></div>'
    )


def rulings_label(changed: int) -> str:
    """The Rulings section's title: how many readings differ from the site's default."""
    return f"Rulings ({changed} not default)" if changed else "Rulings (all default)"


def _fields(ev: Evaluation, prefix: str, root: str) -> str:
    """Every field, the "(ruling)" choices folded into a closed Rulings section at the end."""
    calc = ev.calculator

    def one(item: Input) -> str:
        when = calc.shown_when.get(item.key)
        hidden = when is not None and all(ev.raw.get(key, "") != value for key, value in when)
        return _field(calc, item, prefix, ev.raw.get(item.key, ""), ev.errors.get(item.key, ""), hidden)

    rulings = [i for i in calc.inputs if isinstance(i, ChoiceInput) and i.ruling]
    more = [i for i in calc.inputs if i.key in calc.folded and i not in rulings]
    plain = "".join(one(i) for i in calc.inputs if i not in rulings and i not in more)
    if more:
        given = any(ev.raw.get(i.key, "") != i.to_text(i.default) or i.key in ev.errors for i in more)
        plain += (
            f'<details class="calc-more" data-more{_attrs(open=given)}><summary>'
            f"{escape(calc.folded_label or 'More')}</summary>"
            f"{''.join(one(i) for i in more)}</details>"
        )
    if not rulings:
        return plain
    changed = sum(ev.raw.get(i.key, i.default) != i.default for i in rulings)
    return (
        f'{plain}<details class="calc-rulings" data-rulings><summary data-rulings-label>'
        f"{escape(rulings_label(changed))}</summary>"
        f'<p class="calc-help">How this site reads the source where it is unclear; '
        f'see the <a href="{escape(doc_url("rulings.md", root))}">rulings</a>.</p>'
        f"{''.join(one(i) for i in rulings)}</details>"
    )


def render_calculator(ev: Evaluation, root: str = "", prefix: str = "") -> str:
    """The whole calculator (form, status, result) for an evaluation, as prerendered at build time.

    ``prefix`` makes element ids unique when a page holds the same calculator twice.
    """
    calc = ev.calculator
    prefix = prefix or f"calc-{calc.name}"
    fields = _fields(ev, prefix, root)
    note = f'<p class="calc-note">{escape(calc.note)}</p>' if calc.note else ""
    return (
        f'<form class="calc-form"{_attrs(data_calculator=calc.name, data_state="loading", data_root=root)}'
        f' method="get" novalidate aria-label="{escape(calc.title)}">'
        f"{note}"
        f'<div class="calc-fields">{fields}</div>'
        '<div class="calc-bar">'
        '<button type="submit" class="md-button md-button--primary calc-submit">Calculate</button>'
        '<p class="calc-status" data-status role="status" data-search-exclude>'
        "Result below computed for the default values; the live calculator starts with JavaScript.</p>"
        '<button type="button" class="md-button calc-retry" data-retry hidden>Retry</button></div>'
        f'<p class="calc-form-error" role="alert" data-form-error>{escape(ev.form_error)}</p>'
        f'<div class="calc-side"><div class="calc-now">{render_summary(ev)}{render_next_slot(ev, root)}</div>'
        f"{render_result(ev, root)}</div></form>"
    )


def payload(ev: Evaluation, root: str = "") -> dict[str, Any]:
    """The JSON-ready answer the browser worker sends back for one computation.

    ``details`` is the HTML of :func:`render_details`; ``details_sizes`` the length of each of its
    :func:`details_parts` (in UTF-16 code units, as the page's strings count), so the page patches
    only the parts that changed.
    """
    parts = details_parts(ev, root)
    return {
        "ok": ev.ok,
        "values": dict(ev.raw),
        "errors": dict(ev.errors),
        "form_error": ev.form_error,
        "outputs": _output_texts(ev),
        "summary": summary_text(ev),
        "details": "".join(parts),
        "details_sizes": [js_length(part) for part in parts],
        "next": render_next(ev, root),
    }
