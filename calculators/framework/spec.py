"""Declaring a calculator: its inputs, outputs, result and the one place inputs are validated.

A calculator is a :class:`Calculator` value built in its own module
``calculators/<name>.py``. Its inputs parse raw strings (from a form, a query
string or a test) into Python values, each with a short message when the value
is wrong. :func:`evaluate` is the single entry point used at build time (CPython)
and in the browser (Pyodide): it validates every input, calls ``compute`` and
turns a ``ValueError`` from ``rules_core`` into a message beside a field or on
the form. Nothing here imports ``rules_core``; calculator modules do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

__all__ = [
    "FALSE_TEXTS",
    "SUMMARY",
    "TRUE_TEXTS",
    "BoolInput",
    "Calculator",
    "Chart",
    "ChoiceInput",
    "Evaluation",
    "FieldError",
    "Handoff",
    "Input",
    "IntInput",
    "OptionalIntInput",
    "Output",
    "Result",
    "RuleLink",
    "Step",
    "TextInput",
    "answer",
    "evaluate",
    "on_field",
]

SUMMARY = "summary"
"""The output key of a result's one-line answer in words (every calculator may give it; never declared)."""

MAX_DIGITS = 12
"""Longest number text accepted; longer input is rejected before any conversion."""

TRUE_TEXTS = frozenset({"1", "true", "on", "yes"})
"""What a checkbox's value may say for "on" (a link's ``?bleeding=yes``); the browser reads the same set."""
FALSE_TEXTS = frozenset({"", "0", "false", "off", "no"})


class FieldError(ValueError):
    """A compute-time error that belongs beside one input (``field``) or on the whole form (``None``)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@contextmanager
def on_field(key: str) -> Iterator[None]:
    """Attach any ``ValueError`` raised inside the block to the input ``key``.

    Example: ``with on_field("difficulty"): chance = success_chance(...)``.
    """
    try:
        yield
    except FieldError:
        raise
    except ValueError as exc:
        raise FieldError(str(exc), key) from exc


def _clean(raw: str | None) -> str:
    return "" if raw is None else str(raw).strip()


def _parse_int(text: str, label: str) -> int:
    sign = 1
    body = text.replace("\u2212", "-")  # a typographic minus sign counts as a minus
    if body[:1] in "+-" and body:
        sign = -1 if body[0] == "-" else 1
        body = body[1:].strip()
    if not body.isascii() or not body.isdigit():
        raise ValueError(f"{label}: enter a whole number, like 3 or -2.")
    if len(body) > MAX_DIGITS:
        raise ValueError(f"{label}: that number is far too large.")
    return sign * int(body)


def _parse_whole(item: IntInput | OptionalIntInput, raw: str | None) -> int | None:
    """The whole number in ``raw`` within ``item``'s bounds, ``None`` when empty; ``ValueError`` otherwise."""
    text = _clean(raw)
    if not text:
        return None
    value = _parse_int(text, item.label)
    if not item.min <= value <= item.max:
        suffix = f" {item.unit}" if item.unit else ""
        raise ValueError(f"{item.label} must be between {item.min} and {item.max}{suffix}.")
    return value


class _WholeNumberInput:
    """What the two whole-number inputs share: how a value is written in the form and the URL."""

    def to_text(self, value: Any) -> str:
        """How ``value`` is written in the form and the URL (empty for ``None``)."""
        return "" if value is None else str(value)


@dataclass(frozen=True)
class IntInput(_WholeNumberInput):
    """A whole number between ``min`` and ``max`` (inclusive); shown with a numeric keypad and steppers."""

    key: str
    label: str
    default: int
    min: int
    max: int
    unit: str = ""
    step: int = 1
    help: str = ""

    kind = "int"

    def parse(self, raw: str | None) -> int:
        """The value of ``raw``; ``ValueError`` with a message for the reader otherwise."""
        value = _parse_whole(self, raw)
        if value is None:
            raise ValueError(f"{self.label}: enter a whole number.")
        return value


@dataclass(frozen=True)
class OptionalIntInput(_WholeNumberInput):
    """A whole number that may be left empty (``None``), e.g. a roll not yet made."""

    key: str
    label: str
    min: int
    max: int
    default: int | None = None
    unit: str = ""
    step: int = 1
    help: str = ""
    placeholder: str = "optional"

    kind = "optional_int"

    def parse(self, raw: str | None) -> int | None:
        """The value of ``raw`` or ``None`` when empty; ``ValueError`` with a message otherwise."""
        return _parse_whole(self, raw)


@dataclass(frozen=True)
class ChoiceInput:
    """One of a fixed list of ``(value, label)`` choices, shown as a select."""

    key: str
    label: str
    choices: tuple[tuple[str, str], ...]
    default: str
    help: str = ""

    kind = "choice"

    @property
    def ruling(self) -> bool:
        """A reading of the source (label ends "(ruling)"): the form folds it into its Rulings section."""
        return self.label.endswith("(ruling)")

    def __post_init__(self) -> None:
        if self.default not in {v for v, _ in self.choices}:
            raise ValueError(f"{self.key}: default {self.default!r} is not one of the choices")

    def parse(self, raw: str | None) -> str:
        """The chosen value; ``ValueError`` naming the choices otherwise."""
        text = _clean(raw)
        for value, _ in self.choices:
            if text == value:
                return value
        labels = ", ".join(label for _, label in self.choices)
        raise ValueError(f"{self.label}: choose one of {labels}.")

    def to_text(self, value: Any) -> str:
        """How ``value`` is written in the form and the URL."""
        return str(value)


@dataclass(frozen=True)
class BoolInput:
    """A yes/no option, shown as a checkbox; ``1``/``0`` in the URL."""

    key: str
    label: str
    default: bool = False
    help: str = ""

    kind = "bool"

    def parse(self, raw: str | None) -> bool:
        """``True`` or ``False``; ``ValueError`` for anything else."""
        text = _clean(raw).lower()
        if text in TRUE_TEXTS:
            return True
        if text in FALSE_TEXTS:
            return False
        raise ValueError(f"{self.label}: use 1 (yes) or 0 (no).")

    def to_text(self, value: Any) -> str:
        """How ``value`` is written in the URL."""
        return "1" if value else "0"


@dataclass(frozen=True)
class TextInput:
    """Short free text, e.g. a dice expression ``3d6-2``; longer than ``max_length`` is rejected.

    ``parser`` (optional) turns the text into a value and raises ``ValueError``
    with a message, e.g. a ``rules_core`` dice-expression parser.
    """

    key: str
    label: str
    default: str = ""
    max_length: int = 40
    help: str = ""
    placeholder: str = ""
    required: bool = True
    parser: Callable[[str], Any] | None = None

    kind = "text"

    def parse(self, raw: str | None) -> Any:
        """The parsed value (or the stripped text); ``ValueError`` with a message otherwise."""
        text = _clean(raw)
        if len(text) > self.max_length:
            raise ValueError(f"{self.label}: at most {self.max_length} characters.")
        if not text:
            if self.required:
                raise ValueError(f"{self.label}: this cannot be empty.")
            return None
        if self.parser is None:
            return text
        try:
            return self.parser(text)
        except ValueError as exc:
            raise ValueError(f"{self.label}: {exc}") from exc

    def to_text(self, value: Any) -> str:
        """How ``value`` is written in the form and the URL (the text as typed)."""
        return "" if value is None else str(value)


Input = IntInput | OptionalIntInput | ChoiceInput | BoolInput | TextInput


@dataclass(frozen=True)
class Output:
    """One result value; rendered as an element with ``data-output="KEY"`` whose text is the value."""

    key: str
    label: str
    help: str = ""


@dataclass(frozen=True)
class RuleLink:
    """A link to a rule: ``target`` is a docs path with an anchor, e.g. ``rules/checks.md#effect``."""

    text: str
    target: str


@dataclass(frozen=True)
class Step:
    """One itemised line of working, optionally citing the rule it applies."""

    text: str
    rule: RuleLink | None = None


@dataclass(frozen=True)
class Chart:
    """A distribution to draw: points ``(x, probability)``, each at least 0.

    Drawn as an SVG bar chart with its table by :mod:`calculators.framework.chart_svg`, in the
    ``<figure data-chart="KEY">``; ``highlight`` marks the x value(s) to emphasise (e.g. the reader's roll).
    """

    key: str
    caption: str
    x_label: str
    y_label: str
    points: tuple[tuple[int | str, Fraction], ...]
    highlight: tuple[int | str, ...] = ()


@dataclass(frozen=True)
class Handoff:
    """A link that carries this result's numbers into another calculator: ``calculator`` is its docs page
    (``calculators/damage.md``), ``params`` the inputs to set there (``(("effect", "-3"),)``)."""

    text: str
    calculator: str
    params: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Result:
    """What a calculator computed: output texts by key, working steps, charts, rule links and hand-offs.

    ``outputs`` may hold :data:`SUMMARY`, the one-line answer in words shown first.
    """

    outputs: Mapping[str, str]
    working: tuple[Step, ...] = ()
    charts: tuple[Chart, ...] = ()
    rules: tuple[RuleLink, ...] = ()
    next: tuple[Handoff, ...] = ()


def answer(result: Result, summary: str, *handoffs: Handoff) -> Result:
    """``result`` with its one-line answer in words (:data:`SUMMARY`) and hand-offs carrying its numbers."""
    return replace(result, outputs={**result.outputs, SUMMARY: summary}, next=result.next + handoffs)


@dataclass(frozen=True, kw_only=True)
class Calculator:
    """A calculator declaration: the single source for its form, validation and result.

    ``compute`` receives the parsed values by key and returns a :class:`Result`;
    a ``ValueError`` it raises is shown on the form, or beside a field when it is a
    :class:`FieldError` (see :func:`on_field`). ``answer(values, outputs)`` words the result in one
    line (the :data:`SUMMARY` output) and ``handoffs(values, outputs)`` gives the :class:`Handoff` links
    under it. ``uses`` names the ``rules_core`` functions it calls (documentation and tests).
    """

    title: str
    summary: str
    inputs: tuple[Input, ...]
    outputs: tuple[Output, ...]
    compute: Callable[[Mapping[str, Any]], Result]
    answer: Callable[[Mapping[str, Any], Mapping[str, str]], str] | None = None
    handoffs: Callable[[Mapping[str, Any], Mapping[str, str]], tuple[Handoff, ...]] | None = None
    name: str = ""
    """The name in markers, URLs and ``data-calculator``; by default the name of the module that defines
    ``compute`` (``calculators/<name>.py``, the name the registry finds it under)."""
    uses: tuple[str, ...] = ()
    rules: tuple[RuleLink, ...] = ()
    note: str = ""
    folded: frozenset[str] = frozenset()
    """Keys of the inputs past the short question, folded under ``folded_label`` (open when one is set)."""
    folded_label: str = ""
    shown_when: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    """Input key -> ((choice key, value), ...): the field shows only while one of those choices has its
    value (the short question of one side of a fight, or an option that needs the field); its value
    still counts."""
    unused: Callable[[Mapping[str, Any]], frozenset[str]] | None = None
    """Given the values that parsed, the keys whose value the result does not read (the roll when the
    Effect is given): a mistake there is still marked, but no longer blanks the answer."""

    def __post_init__(self) -> None:
        if not self.name:
            object.__setattr__(self, "name", self.compute.__module__.rpartition(".")[2])
        keys = [i.key for i in self.inputs]
        if len(set(keys)) != len(keys):
            raise ValueError(f"{self.name}: duplicate input keys")
        out = [o.key for o in self.outputs]
        if len(set(out)) != len(out):
            raise ValueError(f"{self.name}: duplicate output keys")

    def input(self, key: str) -> Input:
        """The input declared under ``key``."""
        for item in self.inputs:
            if item.key == key:
                return item
        raise KeyError(f"{self.name}: no input {key!r}")

    def defaults(self) -> dict[str, str]:
        """Every input's default, written as form text."""
        return {i.key: i.to_text(i.default) for i in self.inputs}

    def run(self, values: Mapping[str, Any]) -> Result:
        """``compute``, then the answer in words and the hand-offs (:func:`answer`)."""
        result = self.compute(values)
        outputs = result.outputs
        if self.handoffs is not None:
            result = replace(result, next=result.next + self.handoffs(values, outputs))
        if self.answer is not None:
            result = answer(result, self.answer(values, outputs))
        return result


@dataclass(frozen=True)
class Evaluation:
    """The outcome of :func:`evaluate`: the raw texts, per-field errors, a form error, or a result."""

    calculator: Calculator
    raw: Mapping[str, str]
    values: Mapping[str, Any] = field(default_factory=dict)
    errors: Mapping[str, str] = field(default_factory=dict)
    form_error: str = ""
    result: Result | None = None

    @property
    def ok(self) -> bool:
        """True when a result was computed."""
        return self.result is not None


def evaluate(calc: Calculator, raw: Mapping[str, str | None] | None = None) -> Evaluation:
    """Validate ``raw`` (missing keys take their default) and compute; never raises ``ValueError``.

    This is the one place inputs are validated, in CPython and in Pyodide alike.
    """
    given = dict(raw or {})
    texts: dict[str, str] = {}
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for item in calc.inputs:
        text = given.get(item.key)
        text = item.to_text(item.default) if text is None else str(text)
        texts[item.key] = text
        try:
            values[item.key] = item.parse(text)
        except ValueError as exc:
            errors[item.key] = str(exc)
    if errors and not _only_unused(calc, values, errors):
        return Evaluation(calc, texts, values, errors)
    for key in errors:  # a field the answer does not read: computed as if left at its default
        values[key] = _default_value(calc.input(key))
    try:
        result = calc.run(values)
    except FieldError as exc:
        if exc.field in texts:
            return Evaluation(calc, texts, values, {**errors, exc.field: str(exc)})
        return Evaluation(calc, texts, values, form_error=str(exc))
    except ValueError as exc:
        return Evaluation(calc, texts, values, form_error=str(exc))
    unknown = set(result.outputs) - {o.key for o in calc.outputs} - {SUMMARY}
    if unknown:
        raise KeyError(f"{calc.name}: compute returned undeclared outputs {sorted(unknown)}")
    return Evaluation(calc, texts, values, errors, result=result)


def _only_unused(calc: Calculator, values: Mapping[str, Any], errors: Mapping[str, str]) -> bool:
    """True when every field in error is one the answer does not read (``Calculator.unused``)."""
    if calc.unused is None:
        return False
    parsed = {k: v for k, v in values.items() if k not in errors}
    for key in errors:
        parsed[key] = _default_value(calc.input(key))
    return set(errors) <= calc.unused(parsed)


def _default_value(item: Input) -> Any:
    """``item``'s default, parsed (what an unread field counts as)."""
    return item.parse(item.to_text(item.default))
