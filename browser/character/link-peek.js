// Reading the data a link carries before the rules engine has started: the text is measured first
// (length, and nesting depth in one pass, without parsing), then parsed as data, never run. Python
// checks a character again, field by field, when it is kept (table/character.py: import_character).
// Pure: text in, data or a sentence out.

import { CHARACTER_LINK } from "../lib/link-codec.js";

// Whether `text` (JSON) nests no deeper than `limit` arrays and objects (strings skipped).
export function nestingWithin(text, limit) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      depth++;
      if (depth > limit) return false;
    } else if (c === "]" || c === "}") depth--;
  }
  return true;
}

// base64url (no padding) of UTF-8 text, and back; null when it is not base64url of UTF-8.
export function toBase64url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (_) {
    return null;
  }
}

// The JSON value a link's payload (base64url) carries: {value} or {error: sentence}. `what` names
// the kind of data for the sentence ("a character", "a fight").
export function readPayload(payload, { maxChars, maxDepth, what }) {
  if (payload.length > maxChars) return { error: `The link is too long to be ${what} (${payload.length} characters; at most ${maxChars}).` };
  const text = fromBase64url(payload);
  if (text === null) return { error: `The link is damaged: it does not carry ${what}.` };
  if (!nestingWithin(text, maxDepth)) return { error: `This is not ${what}: it nests deeper than ${maxDepth} levels.` };
  try {
    return { value: JSON.parse(text) };
  } catch (_) {
    return { error: `The link is damaged: it does not carry ${what}.` };
  }
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// A first look at the character a "character=..." fragment carries, for the page to show at once:
// {character: {name, characteristics}} or {error}. Only a glance: Python's check decides whether it is kept.
export function peekCharacter(fragment, limits) {
  const payload = fragment.startsWith(CHARACTER_LINK) ? fragment.slice(CHARACTER_LINK.length) : "";
  const read = readPayload(payload, { maxChars: limits.import_chars, maxDepth: limits.call_depth, what: "a character" });
  if (read.error) return read;
  const doc = read.value;
  if (!isObject(doc) || typeof doc.name !== "string" || !isObject(doc.characteristics)) {
    return { error: "The link does not carry a character." };
  }
  const characteristics = {};
  for (const [key, value] of Object.entries(doc.characteristics)) {
    if (Number.isInteger(value)) characteristics[key] = value;
  }
  return { character: { name: doc.name.slice(0, limits.name), characteristics } };
}
