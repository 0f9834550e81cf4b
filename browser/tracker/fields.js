// The tracker's form fields.

import { h } from "../lib/dom.js";
import { parseNumber } from "../lib/form-state.js";

export function numberField(label, attrs) {
  return h("label", { class: "mt-field" }, h("span", { text: label }), h("input", { type: "text", inputmode: "numeric", autocomplete: "off", ...attrs }));
}

export function modeSelect(value, modes) {
  const select = h("select", { "data-field": "mode", "aria-label": "Initiative" });
  for (const [key, text] of modes) select.append(h("option", { value: key, text, selected: key === value }));
  return select;
}


// The characteristic that leads a prepared roll, and its score when the tracker does not hold it
// (Str, Dex and End are the combatant's own).
export function leadFields(C, lead, score) {
  const select = h("select", { "data-field": "lead", "aria-label": "Leads with (prepared)" });
  for (const [key, short] of C.characteristics) select.append(h("option", { value: key, text: short, selected: key === lead }));
  const scoreField = numberField("Its score", { "data-field": "lead_score", value: score ?? "", placeholder: "Int, Edu\u2026" });
  return h("div", { class: "mt-triple" }, h("label", { class: "mt-field" }, h("span", { text: "Leads with" }), select), scoreField);
}

// What the fields of `root` hold, by their data-field key: `texts` as typed, `numbers` as whole numbers
// (null when empty or not a number), `counts` as whole numbers with 0 for empty.
export function readFields(root, { texts = [], numbers = [], counts = [] }) {
  const get = (key) => root.querySelector(`[data-field="${key}"]`).value;
  return Object.fromEntries([
    ...texts.map((key) => [key, get(key)]),
    ...numbers.map((key) => [key, parseNumber(get(key))]),
    ...counts.map((key) => [key, parseNumber(get(key)) ?? 0]),
  ]);
}
