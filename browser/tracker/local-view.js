// The fight shown from this device before the rules engine answers. The engine's last view of the
// stored tracker (order, whose turn, each combatant's numbers) is kept beside it, stamped with the
// stored text it was made from; a reload shows it at once, marked pending until the engine has
// derived it again. A tracker with no matching view shows its round and combatants, numbers pending.
// Pure: documents in, views out.

// A short stamp of a stored text (FNV-1a, 32 bits, and the length): equal texts, equal stamps.
export function textStamp(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${text.length.toString(36)}.${hash.toString(36)}`;
}

// What is kept of an engine's view of the stored text `text`.
export function viewToKeep(text, view) {
  return { stamp: textStamp(text), order: view.order, current: view.current, rows: view.rows };
}

// A row whose numbers the engine has not given yet.
export const PENDING_ROW = Object.freeze({
  pending: true,
  initiative: null,
  initiative_shown: "\u2026",
  initiative_text: "initiative: working it out",
  state: "",
  hp: "\u2026",
  wound_penalty_signed: "\u2026",
  reminders: [],
});

// The view to show for the stored `tracker` (its text `text`) from the kept view `kept`, before
// the engine answers: the kept one when it was made from this very text, else the combatants in
// the order stored and nobody's turn known. Always marked pending.
export function provisionalView(tracker, text, kept) {
  const ids = tracker.combatants.map((c) => c.id);
  const fits =
    kept &&
    typeof kept === "object" &&
    kept.stamp === textStamp(text || "") &&
    Array.isArray(kept.order) &&
    kept.rows &&
    typeof kept.rows === "object" &&
    kept.order.length === ids.length &&
    ids.every((id) => kept.order.includes(id) && kept.rows[id] && typeof kept.rows[id] === "object");
  if (fits) return { tracker, order: kept.order, current: kept.current ?? null, round: tracker.round, rows: kept.rows, pending: true };
  const rows = Object.fromEntries(ids.map((id) => [id, PENDING_ROW]));
  return { tracker, order: ids, current: null, round: tracker.round, rows, pending: true };
}

// Whether `value` looks enough like a tracker document to be drawn (the engine checks it fully).
export function drawable(value) {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    Number.isInteger(value.round) &&
    Array.isArray(value.combatants) &&
    value.combatants.every((c) => c && typeof c === "object" && typeof c.id === "string" && typeof c.name === "string")
  );
}
