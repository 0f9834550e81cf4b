"""The calculator declaration framework: inputs parse and reject, evaluate validates in one place.

Generic checks run over every registered calculator, so a new calculator is covered on registration.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators.format import percent
from calculators.framework import registry, runtime
from calculators.framework.render import EMPTY_OUTPUT, doc_url, payload, render_calculator
from calculators.framework.spec import (
    BoolInput,
    Calculator,
    ChoiceInput,
    FieldError,
    IntInput,
    OptionalIntInput,
    Output,
    Result,
    TextInput,
    evaluate,
    on_field,
)

NAMES = registry.names()
GARBAGE = ["", "abc", "1.5", "--3", "1e9", "9" * 40, "<script>alert(1)</script>", "\u0662", " ", "NaN"]


# ---------------------------------------------------------------- inputs


@pytest.mark.parametrize(
    ("raw", "value"),
    [("0", 0), ("7", 7), ("-3", -3), ("+4", 4), (" 5 ", 5), ("\u22122", -2), ("10", 10), ("-10", -10)],
)
def test_an_int_input_reads_whole_numbers_with_signs_and_spaces(raw: str, value: int) -> None:
    assert IntInput("n", "N", 0, -10, 10).parse(raw) == value


@pytest.mark.parametrize("raw", ["", "abc", "1.5", "--3", "1e3", "\u0662", "11", "-11", "9" * 13, None])
def test_an_int_input_rejects_text_fractions_and_out_of_range_values_with_a_message(raw: str | None) -> None:
    with pytest.raises(ValueError, match=r"^N"):
        IntInput("n", "N", 0, -10, 10).parse(raw)


def test_an_int_input_names_its_range_and_unit_when_out_of_range() -> None:
    with pytest.raises(ValueError, match="between 0 and 5 m"):
        IntInput("d", "Distance", 0, 0, 5, unit="m").parse("6")


def test_an_optional_int_input_reads_empty_as_none_but_still_checks_numbers() -> None:
    item = OptionalIntInput("roll", "Roll", 2, 12)
    assert item.parse("") is None
    assert item.parse("  ") is None
    assert item.parse("12") == 12
    with pytest.raises(ValueError, match="between 2 and 12"):
        item.parse("13")


def test_a_choice_input_accepts_only_its_values_and_lists_the_labels_otherwise() -> None:
    item = ChoiceInput("defend", "Defend", (("none", "None"), ("cover", "Cover")), "none")
    assert item.parse("cover") == "cover"
    with pytest.raises(ValueError, match="None, Cover"):
        item.parse("Cover!")


def test_a_choice_input_with_a_default_outside_its_choices_is_a_declaration_error() -> None:
    with pytest.raises(ValueError, match="default"):
        ChoiceInput("x", "X", (("a", "A"),), "b")


@pytest.mark.parametrize(
    ("raw", "value"), [("1", True), ("yes", True), ("on", True), ("0", False), ("", False)]
)
def test_a_bool_input_reads_one_yes_and_on_as_true(raw: str, value: bool) -> None:
    assert BoolInput("b", "B").parse(raw) is value


def test_a_bool_input_rejects_other_words() -> None:
    with pytest.raises(ValueError, match="1 \\(yes\\) or 0 \\(no\\)"):
        BoolInput("b", "B").parse("maybe")


def test_a_text_input_enforces_its_length_and_reports_its_parser_message_beside_the_field() -> None:
    def dice(text: str) -> str:
        if "d" not in text:
            raise ValueError("write dice like 3d6-2.")
        return text

    item = TextInput("damage", "Damage", "3d6", max_length=8, parser=dice)
    assert item.parse("3d6-2") == "3d6-2"
    with pytest.raises(ValueError, match="at most 8 characters"):
        item.parse("3d6+3d6+3d6")
    with pytest.raises(ValueError, match=r"^Damage: write dice like 3d6-2\.$"):
        item.parse("12")
    with pytest.raises(ValueError, match="cannot be empty"):
        item.parse("")
    assert TextInput("note", "Note", required=False).parse("") is None


# ---------------------------------------------------------------- evaluate


def _toy(compute, answer=None, handoffs=None):  # type: ignore[no-untyped-def]
    return Calculator(
        name="toy",
        title="Toy",
        summary="A test calculator.",
        inputs=(IntInput("a", "A", 1, 0, 9), IntInput("b", "B", 2, 0, 9)),
        outputs=(Output("sum", "Sum"), Output("note", "Note")),
        compute=compute,
        answer=answer,
        handoffs=handoffs,
    )


def test_evaluate_fills_missing_inputs_with_defaults_and_computes() -> None:
    ev = evaluate(_toy(lambda v: Result({"sum": str(v["a"] + v["b"])})), {"a": "4"})
    assert ev.ok
    assert ev.raw == {"a": "4", "b": "2"}
    assert ev.result is not None and ev.result.outputs == {"sum": "6"}


def test_evaluate_collects_every_field_error_and_does_not_compute() -> None:
    called = []
    ev = evaluate(_toy(lambda v: called.append(v) or Result({})), {"a": "x", "b": "99"})
    assert not ev.ok and not called
    assert set(ev.errors) == {"a", "b"}


def test_a_value_error_from_the_rules_shows_on_the_form() -> None:
    def boom(v):  # type: ignore[no-untyped-def]
        raise ValueError("These cannot be combined.")

    ev = evaluate(_toy(boom))
    assert ev.form_error == "These cannot be combined." and not ev.errors


def test_a_value_error_inside_on_field_shows_beside_that_field() -> None:
    def boom(v):  # type: ignore[no-untyped-def]
        with on_field("b"):
            raise ValueError("B is too big for A.")

    ev = evaluate(_toy(boom))
    assert ev.errors == {"b": "B is too big for A."} and not ev.form_error


def test_a_field_error_naming_an_unknown_field_falls_back_to_the_form() -> None:
    def boom(v):  # type: ignore[no-untyped-def]
        raise FieldError("Odd.", "zzz")

    assert evaluate(_toy(boom)).form_error == "Odd."


def test_outputs_left_out_of_a_result_render_as_a_dash() -> None:
    ev = evaluate(_toy(lambda v: Result({"sum": "3"})))
    assert payload(ev)["outputs"] == {"sum": "3", "note": EMPTY_OUTPUT, "summary": EMPTY_OUTPUT}


def test_a_result_with_an_undeclared_output_is_a_programming_error() -> None:
    with pytest.raises(KeyError, match="undeclared"):
        evaluate(_toy(lambda v: Result({"total": "3"})))


def test_duplicate_input_keys_are_rejected_at_declaration() -> None:
    with pytest.raises(ValueError, match="duplicate input"):
        Calculator(
            title="X",
            summary="",
            inputs=(IntInput("a", "A", 0, 0, 1), IntInput("a", "A", 0, 0, 1)),
            outputs=(),
            compute=lambda v: Result({}),
        )


# ---------------------------------------------------------------- rendering


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (Fraction(5, 12), "41.67%"),
        (Fraction(1), "100%"),
        (Fraction(0), "0%"),
        (Fraction(1, 216), "0.46%"),
        (Fraction(1, 8), "12.50%"),
        (Fraction(1, 40000), "0.00%"),
        (Fraction(1, 20000), "0.01%"),
    ],
)
def test_percent_shows_two_decimals_rounding_half_up(p: Fraction, text: str) -> None:
    assert percent(p) == text


@pytest.mark.parametrize(
    ("target", "root", "url"),
    [
        ("rules/checks.md#effect", "../../", "../../rules/checks/#effect"),
        ("rules/index.md", "../", "../rules/"),
        ("index.md#top", "", "./#top"),
        ("glossary.md", "", "glossary/"),
    ],
)
def test_doc_url_maps_docs_paths_to_directory_urls_relative_to_the_page(
    target: str, root: str, url: str
) -> None:
    assert doc_url(target, root) == url


def test_rendered_html_escapes_what_the_reader_typed() -> None:
    ev = evaluate(_toy(lambda v: Result({})), {"a": '"><script>x</script>'})
    html = render_calculator(ev)
    assert "<script>x" not in html
    assert "&quot;&gt;&lt;script&gt;" in html
    assert 'aria-invalid="true"' in html


# ---------------------------------------------------------------- every registered calculator


@pytest.mark.parametrize("name", NAMES)
def test_every_registered_calculator_computes_its_defaults(name: str) -> None:
    result = runtime.compute(name)
    assert result["ok"], result
    assert not result["errors"] and not result["form_error"]


@pytest.mark.parametrize("name", NAMES)
def test_every_registered_calculator_prerenders_the_public_dom_contract(name: str) -> None:
    calc = registry.get(name)
    html = runtime.prerender(name, "../../")
    assert f'data-calculator="{name}"' in html and 'data-state="loading"' in html
    assert 'aria-live="polite"' in html
    for item in calc.inputs:
        assert f'name="{item.key}"' in html
        assert f'data-error-for="{item.key}"' in html
    for out in calc.outputs:
        assert f'data-output="{out.key}"' in html
    assert 'inputmode="numeric"' in html or not any(i.kind.endswith("int") for i in calc.inputs)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("garbage", GARBAGE)
def test_every_input_of_every_calculator_answers_garbage_with_a_message_not_a_crash(
    name: str, garbage: str
) -> None:
    calc = registry.get(name)
    for item in calc.inputs:
        result = runtime.compute(name, {item.key: garbage})
        assert result["ok"] or result["errors"].get(item.key) or result["form_error"], (item.key, garbage)


@pytest.mark.parametrize("name", NAMES)
@given(data=st.data())
def test_any_text_in_any_input_gives_a_result_or_a_message(name: str, data: st.DataObject) -> None:
    calc = registry.get(name)
    raw = {item.key: data.draw(st.text(max_size=30), label=item.key) for item in calc.inputs}
    result = runtime.compute(name, raw)
    assert result["ok"] != bool(result["errors"] or result["form_error"])


def test_an_unknown_calculator_name_is_a_key_error_listing_the_known_ones() -> None:
    with pytest.raises(KeyError, match="effect"):
        registry.get("no-such-calculator")


def test_compute_json_accepts_non_string_values_and_bad_json_shapes() -> None:
    import json

    out = json.loads(runtime.compute_json("effect", json.dumps({"modifier": 2, "roll": None})))
    assert out["ok"] and out["values"]["modifier"] == "2"
    assert json.loads(runtime.compute_json("effect", "[1, 2]"))["ok"]


# ---------------------------------------------------------------- the answer first


@pytest.mark.parametrize("name", NAMES)
def test_every_calculator_answers_its_defaults_in_one_line_of_words(name: str) -> None:
    found = runtime.compute(name)
    assert found["summary"] and found["summary"] != EMPTY_OUTPUT
    assert "\n" not in found["summary"] and found["summary"].endswith(".")
    html = runtime.prerender(name)
    assert 'class="calc-summary" data-summary' in html and found["summary"].replace("'", "&#x27;") in html


def test_the_summary_is_an_output_when_the_calculator_words_it_and_hidden_without_a_result() -> None:
    from calculators.framework.spec import SUMMARY

    toy = _toy(lambda v: Result({"sum": str(v["a"] + v["b"])}), answer=lambda v, out: f"Sum {out['sum']}.")
    assert payload(evaluate(toy))["outputs"][SUMMARY] == "Sum 3."
    bad = evaluate(toy, {"a": "x"})
    assert payload(bad)["outputs"][SUMMARY] == payload(bad)["summary"] == EMPTY_OUTPUT
    assert 'data-output="summary" aria-live="polite" hidden>' in render_calculator(bad)
    # The framework makes up no stand-in answer: a result without its own summary shows none.
    plain = evaluate(_toy(lambda v: Result({"sum": "3"})))
    assert payload(plain)["summary"] == payload(plain)["outputs"][SUMMARY] == EMPTY_OUTPUT


def test_an_output_that_does_not_apply_is_hidden_not_shown_as_a_dash() -> None:
    html = render_calculator(evaluate(_toy(lambda v: Result({"sum": "3"}))))
    assert '<div class="calc-output"><dt>Sum</dt>' in html
    assert '<div class="calc-output" hidden><dt>Note</dt>' in html


def test_ruling_choices_fold_into_a_closed_section_that_counts_those_not_default() -> None:
    calc = registry.get("attack")
    assert '<details class="calc-rulings" data-rulings><summary data-rulings-label>Rulings (all default)' in (
        render_calculator(evaluate(calc))
    )
    changed = render_calculator(evaluate(calc, {"cover_cap": "doubling_only", "order": "skill_before_cover"}))
    assert "Rulings (2 not default)</summary>" in changed
    fold = changed[changed.index('<details class="calc-rulings"') :]
    assert 'name="cover_cap"' in fold and 'name="modifier"' not in fold


def test_hand_offs_are_links_with_the_results_numbers() -> None:
    from calculators.framework.spec import Handoff

    link = Handoff("go", "calculators/damage.md", (("effect", "-3"),))
    toy = _toy(lambda v: Result({"sum": "3"}, next=(link,)))
    answer = payload(evaluate(toy), "../../")
    want = '<a data-handoff="damage" href="../../calculators/damage/?effect=-3">go</a>'
    assert answer["next"] == f'<p class="calc-next">Next: {want}</p>'
    assert "data-handoff" not in answer["details"]  # the links sit under the answer, before any chart
    page = render_calculator(evaluate(toy), "../../")
    assert page.index("data-summary") < page.index("data-next") < page.index("data-details")


def test_a_calculator_is_named_after_the_module_that_defines_its_compute() -> None:
    from calculators.examples import check_effect

    assert check_effect.CALCULATOR.name == "check_effect"
    assert [registry.get(name).name for name in NAMES] == list(NAMES)
    assert _toy(lambda v: Result({})).name == "toy"  # a name given stands


def test_hand_offs_read_the_computed_outputs_with_or_without_an_answer_in_words() -> None:
    from calculators.framework.spec import SUMMARY, Handoff

    def onward(values, out):  # type: ignore[no-untyped-def]
        return (Handoff(f"carry {out['sum']}", "calculators/effect.md", (("modifier", out["sum"]),)),)

    plain = _toy(lambda v: Result({"sum": "3"}), handoffs=onward).run({"a": 1, "b": 2})
    assert plain.next == onward({}, {"sum": "3"}) and SUMMARY not in plain.outputs
    worded = _toy(lambda v: Result({"sum": "3"}), answer=lambda v, out: "Three.", handoffs=onward).run({})
    assert worded.next == plain.next and worded.outputs == {"sum": "3", SUMMARY: "Three."}
