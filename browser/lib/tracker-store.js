// The fight kept on this device: the tracker document under one key, and an undo stack of
// {tracker, what} under another. Pure: works on a store from lib/storage.js. It remembers the stored
// text this tab's view was made from, so a write by another tab is seen as news. An undo entry
// that cannot be read is kept aside (under the undo key's backups), never left to block the others.
// Tabs take turns on the fight under one lock, but localStorage reaches another tab late (Chromium
// keeps a copy of it in each tab's process and sends writes on without waiting): the tab holding the
// lock after another may still read the fight as it was before the other's last action, and saving
// over it would lose that action. So each turn also hands its text on (`handOn`, kept by the caller
// where every tab reads it at once: IndexedDB) and the next takes the newer of the two (`freshest`).

import { textStamp } from "../tracker/local-view.js";
import { isObject } from "./documents.js";
import { parseJson } from "./storage.js";

export const MAX_UNDO = 30;
export const HANDED_STAMPS = 20; // the stamps of the texts before the one handed on, newest last

// Whether the record the last turn handed on (`handed`: {anchor, text, stamps, undo}) is as new as
// this tab's stored fight `text` or newer: `text` is the handed text or one it was made after. A text
// it does not know was written by something else (a tab of an older version) and is newer. `anchor`
// names this device's stored data: a record from before storage was cleared is never used.
function handedCovers(text, handed, anchor) {
  if (text === null || !anchor || !isObject(handed) || handed.anchor !== anchor) return false;
  if (typeof handed.text !== "string" || !Array.isArray(handed.stamps)) return false;
  return handed.stamps.includes(textStamp(text));
}

// Which text of the fight is the latest: `text` (this tab's localStorage) or the handed one.
export function freshest(text, handed, anchor) {
  return handedCovers(text, handed, anchor) ? handed.text : text;
}

// Which text of the undo stack goes with the latest fight: the handed one wherever the handed fight
// is this tab's or newer (the stack is written after the fight, so this tab's copy of it can lag
// even once the fight has arrived), else `undoText` (this tab's).
export function freshestUndo(text, undoText, handed, anchor) {
  return handedCovers(text, handed, anchor) && typeof handed.undo === "string" ? handed.undo : undoText;
}

// The record to hand on after writing `written` over `base` (the text the turn started from), with
// the undo stack's text as the turn left it (`undo`, null when there is none).
export function handOn(handed, base, written, anchor, undo = null, max = HANDED_STAMPS) {
  const usable = isObject(handed) && handed.anchor === anchor && Array.isArray(handed.stamps);
  const stamps = usable ? handed.stamps.filter((s) => typeof s === "string") : [];
  if (base !== null && stamps[stamps.length - 1] !== textStamp(base)) stamps.push(textStamp(base));
  if (stamps[stamps.length - 1] !== textStamp(written)) stamps.push(textStamp(written));
  return { anchor, text: written, stamps: stamps.slice(-max), undo: typeof undo === "string" ? undo : null };
}

// Whether an undo entry holds something shaped like a tracker (the rules engine checks the rest).
const usableEntry = (entry) => {
  if (!isObject(entry)) return false;
  const { tracker } = undoEntry(entry);
  return isObject(tracker) && Array.isArray(tracker.combatants) && (entry.what === undefined || typeof entry.what === "string");
};

export function createTrackerStore({ storage, key, undoKey, maxUndo = MAX_UNDO }) {
  let basedOn = null; // the stored tracker text this tab's view was made from

  // The view now stands for `text` (what storage holds, or held when it was drawn).
  const see = (text) => {
    basedOn = text;
  };
  const seeStored = () => see(storage.readText(key));

  // Whether `text` (read from storage) is a tracker this tab has not drawn.
  const isNews = (text) => text !== null && text !== basedOn;

  // The undo stack, oldest first: this tab's, or the one handed on with the fight (see
  // `freshestUndo`). Entries that cannot be read are kept aside and taken out of it; a stack that is
  // not a list at all is kept aside whole. Left as it is when it cannot be kept.
  function undoStack(handed = null, anchor = "") {
    const text = freshestUndo(storage.readText(key), storage.readText(undoKey), handed, anchor);
    if (text === null || text === "") return [];
    const stack = parseJson(text);
    if (!Array.isArray(stack)) {
      if (storage.keepBackup(undoKey, text)) storage.removeKey(undoKey);
      return [];
    }
    const usable = stack.filter(usableEntry);
    if (usable.length < stack.length && storage.keepBackup(undoKey, JSON.stringify(stack.filter((e) => !usableEntry(e))))) {
      storage.writeJson(undoKey, usable);
    }
    return usable;
  }

  // An undo entry the rules engine refused: kept aside, and the stack left as `rest` (without it),
  // so the next Undo reaches the one before. "" or why storage refused.
  function setAsideUndo(entry, rest) {
    if (!storage.keepBackup(undoKey, JSON.stringify(entry))) return "it could not be kept aside";
    return storage.writeJson(undoKey, rest);
  }

  // The tracker as stored now (another tab may have changed it since this one drew `shown`), or as
  // the last turn handed it on when that is newer (see `freshest`): {text, tracker}; what this tab
  // shows when storage holds nothing newer or nothing readable.
  function latest(shown, handed = null, anchor = "") {
    const text = freshest(storage.readText(key), handed, anchor);
    if (text === null || text === basedOn) return { text, tracker: shown };
    const tracker = parseJson(text);
    return tracker && typeof tracker === "object" ? { text, tracker } : { text: basedOn, tracker: shown };
  }

  // Write the tracker and push `before` on the undo stack, both read afresh (the stack as handed on
  // when that is newer: see `undoStack`); "" or why not.
  function save(tracker, before, what, handed = null, anchor = "") {
    const stack = before ? undoStack(handed, anchor) : []; // read before the fight it goes with is written over
    const problem = storage.writeJson(key, tracker);
    if (problem) return problem;
    seeStored();
    if (before) {
      stack.push({ tracker: before, what });
      if (storage.writeJson(undoKey, stack.slice(-maxUndo))) {
        return "the change is saved but cannot be undone after a reload";
      }
    }
    return "";
  }

  // Put back `tracker` with the undo stack left as `stack`; "" or why not.
  function restore(tracker, stack) {
    const problem = storage.writeJson(key, tracker) || storage.writeJson(undoKey, stack);
    seeStored();
    return problem;
  }

  return { see, seeStored, isNews, undoStack, setAsideUndo, latest, save, restore };
}

// An undo entry as {tracker, what}; entries from older versions hold the tracker alone.
export function undoEntry(entry) {
  const current = isObject(entry.tracker) && entry.what !== undefined;
  return current ? { tracker: entry.tracker, what: entry.what } : { tracker: entry, what: "the last change" };
}

// A few words for an action that leaves no line in the log (for Undo to name).
export function describeAction(action, tracker) {
  const who = tracker.combatants.find((c) => c.id === action.id)?.name || "";
  if (action.type === "next") return "next turn";
  if (action.type === "update") return `${who}'s details changed`;
  if (action.type === "ruling") return "a ruling changed";
  if (action.type === "new_fight") return "new fight";
  return action.type;
}

// What the log says an action did ("" when it added no line), without its round and full stop;
// else the action in a few words.
export function actionWords(said, action, before) {
  return said.replace(/^R\d+: /, "").replace(/\.$/, "") || describeAction(action, before);
}

// Combatants added from My character whose damage differs from the character's saved damage:
// {id, name, damage, saved}.
export function unsavedDamage(combatants, characters) {
  return combatants
    .filter((c) => c.character_id)
    .map((c) => ({
      id: c.character_id,
      name: c.name,
      damage: c.damage,
      saved: characters.find((x) => x.id === c.character_id),
    }))
    .filter((u) => u.saved && u.saved.damage !== u.damage);
}
