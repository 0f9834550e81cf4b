import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { flippedSign, lengthLimit, parseNumber, readValues, rulingsTitle, setValue, steppedValue } from "../../browser/lib/form-state.js";

const TRUE = ["1", "on", "true", "yes"];

describe("a form's values", () => {
  test("are read as text, a checkbox as 1 or 0", () => {
    const controls = [
      { name: "modifier", type: "text", value: "2" },
      { name: "chart", type: "checkbox", checked: true },
      { name: "aim", type: "checkbox", checked: false },
    ];
    assert.deepEqual(readValues(controls), { modifier: "2", chart: "1", aim: "0" });
  });

  test("set a checkbox from any of Python's words for yes", () => {
    for (const [text, checked] of [["1", true], [" YES ", true], ["on", true], ["0", false], ["no", false], ["", false]]) {
      const box = { type: "checkbox", checked: !checked };
      setValue(box, text, TRUE);
      assert.equal(box.checked, checked, text);
    }
    const field = { type: "text", value: "" };
    setValue(field, " 3 ", TRUE);
    assert.equal(field.value, " 3 ");
  });

  test("accept as many characters as the field says, else the fallback", () => {
    assert.equal(lengthLimit({ maxLength: 40, dataset: {} }, 200), 40);
    assert.equal(lengthLimit({ maxLength: -1, dataset: { maxLength: "12" } }, 200), 12);
    assert.equal(lengthLimit({ maxLength: -1, dataset: {} }, 200), 200);
  });
});

describe("typed numbers", () => {
  test("whole numbers with either minus sign; empty is null; anything else stays text", () => {
    assert.equal(parseNumber(" 12 "), 12);
    assert.equal(parseNumber("\u22123"), -3);
    assert.equal(parseNumber("+4"), 4);
    assert.equal(parseNumber(""), null);
    assert.equal(parseNumber("999999"), 999999);
    assert.equal(parseNumber("1000000"), "1000000");
    assert.equal(parseNumber("2d6"), "2d6");
  });

  test("a step moves the number within its range", () => {
    assert.equal(steppedValue("5", 1, 0, 10), 6);
    assert.equal(steppedValue("10", 1, 0, 10), 10);
    assert.equal(steppedValue("\u22122", -1, -3, 3), -3);
    assert.equal(steppedValue("0", -1, 0, 10), 0);
  });

  test("a step from no number gives the least value when above 0 (not one past it), else steps from 0", () => {
    assert.equal(steppedValue("", 1, 2, 12), 2);
    assert.equal(steppedValue("", 1, 1, 500), 1);
    assert.equal(steppedValue("", -1, -6, 6), -1);
    assert.equal(steppedValue("abc", 1, -6, 6), 1);
    assert.equal(steppedValue("", -1, Number.NaN, Number.NaN), Number.NaN);
  });
});

test("the sign control turns a number's sign within its bounds, an empty field gets a minus", () => {
  assert.equal(flippedSign("3", -6, 6), "-3");
  assert.equal(flippedSign("\u22122", -6, 6), "2");
  assert.equal(flippedSign("", -6, 6), "-");
  assert.equal(flippedSign("-", -6, 6), "");
  assert.equal(flippedSign("9", -6, 6), "-6");
  assert.equal(flippedSign("abc", -6, 6), "abc");
});

test("the rulings fold's title counts the readings that differ from the default", () => {
  assert.equal(rulingsTitle(0), "Rulings (all default)");
  assert.equal(rulingsTitle(2), "Rulings (2 not default)");
});
