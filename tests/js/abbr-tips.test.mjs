// An abbreviation's meaning, written after it on a tap (lib/abbr-tips.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { TIP_CLASS, tipText } from "../../browser/lib/abbr-tips.js";

test("the words after the abbreviation, in brackets, trimmed", () => {
  assert.equal(tipText("Dice modifier"), " (Dice modifier)");
  assert.equal(tipText("  Rate of attack "), " (Rate of attack)");
  assert.equal(TIP_CLASS, "mneme-abbr-tip");
});
