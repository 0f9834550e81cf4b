// A calculator form's values as text, and the small rules for typing numbers (pure: controls in,
// values out; a control is anything with name, type, value, checked).

// The values of `controls` by name, as text: a checkbox is "1" or "0".
export function readValues(controls) {
  const values = {};
  for (const el of controls) values[el.name] = el.type === "checkbox" ? (el.checked ? "1" : "0") : el.value;
  return values;
}

// Put `text` into a control; a checkbox is checked for any of `truthy` (Python's words for yes).
export function setValue(el, text, truthy) {
  if (el.type === "checkbox") el.checked = truthy.includes(text.trim().toLowerCase());
  else el.value = text;
}

// The most characters a field accepts: its own maxlength (text), data-max-length (numbers: the
// digits Python reads), else `fallback` (the link limit).
export function lengthLimit(el, fallback) {
  if (el.maxLength > 0) return el.maxLength;
  if (el.dataset?.maxLength) return Number(el.dataset.maxLength);
  return fallback;
}

// A typed whole number (a minus sign as "-" or "\u2212"), null when empty, or the text as typed
// when it is not one (left for Python to say what is wrong).
export function parseNumber(text) {
  const clean = String(text).trim().replace("\u2212", "-");
  if (clean === "") return null;
  if (!/^[+-]?\d{1,6}$/.test(clean)) return clean;
  return Number(clean);
}

// The value a step button (+/-) gives: the typed whole number moved by `step`, kept within
// [min, max]. An empty field first takes its least value when that is above 0 (a roll's 2, an HP's
// 1: the first tap gives the field a start, it does not skip it), else it steps from 0.
export function steppedValue(text, step, min, max) {
  if (!/^\s*[+\-\u2212]?\d+\s*$/.test(text)) {
    if (Number.isFinite(min) && min > 0) return Math.min(max, min);
    return Math.min(max, Math.max(min, step));
  }
  const current = Number(text.replace("\u2212", "-"));
  return Math.min(max, Math.max(min, current + step));
}

// A sign control's value: the typed whole number with its sign turned (a phone's number pad has no
// minus key), kept within [min, max]; an empty field gets a lone minus to type the digits after.
export function flippedSign(text, min, max) {
  const clean = String(text).trim().replace("\u2212", "-");
  if (clean === "" || clean === "-") return clean === "-" ? "" : "-";
  if (!/^[+-]?\d+$/.test(clean)) return text;
  const flipped = -Number(clean);
  return String(Math.min(max, Math.max(min, flipped)));
}

// The rulings fold's title: how many readings differ from the site's default.
export function rulingsTitle(changed) {
  return changed ? `Rulings (${changed} not default)` : "Rulings (all default)";
}
