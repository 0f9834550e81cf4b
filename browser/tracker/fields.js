// The tracker's form fields.

import { h } from "../lib/dom.js";

export function numberField(label, attrs) {
  return h("label", { class: "mt-field" }, h("span", { text: label }), h("input", { type: "text", inputmode: "numeric", autocomplete: "off", ...attrs }));
}

export function modeSelect(value, modes) {
  const select = h("select", { "data-field": "mode", "aria-label": "Initiative" });
  for (const [key, text] of modes) select.append(h("option", { value: key, text, selected: key === value }));
  return select;
}

