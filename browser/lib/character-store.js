// The characters kept on this device, one document per key (writes are per document): each
// character lives under `docPrefix` + its id as {character, draft, order}; the picked one under
// `activeKey`. Two tabs writing two characters never touch the same key. The single store of
// earlier versions (`storeKey`) is split into documents once, then marked as moved.
// Each write names its version (`rev`) and the version it was made from (`base`), so a write by
// another tab made without seeing this tab's latest is merged with it, not taken over it (reconcile).
// Pure: works on a store from lib/storage.js; `now()` orders new characters; `newRev()` names versions.

import { isObject, mergeCharacter, same } from "./documents.js";
import { parseJson } from "./storage.js";

export const MOVED = { moved: "character.v1" };

// Keys are named by the site's own scope (its base path, `scope`), so two copies of the site on one
// origin (user.github.io/a/ and /b/) never read each other's data: "mneme@/a/:characters.v1".
export const scopedKey = (scope, name) => `mneme@${scope}:${name}`;
export const characterPrefix = (scope) => scopedKey(scope, "character.v1:");

// On <html> from the first paint when this device keeps a character (head/early.js, then
// character.js): calculators.css shows the "use my character" box's words for it (sitebuild/table_ui.py).
export const STORED_MARK = "data-mneme-characters";

// Whether `local` (a Storage) holds a character document under `docPrefix` that loadStore would show:
// a tiny read for the first paint, before the page's settings and character.js are there. Reads only,
// never writes, never throws: blocked or unreadable storage, a document that is not JSON or not shaped
// like a character, read as none. (The id rule and the single store of earlier versions need the
// page's settings: character.js, once loaded, says the last word.)
export function keepsCharacter(local, docPrefix) {
  try {
    for (let i = 0; i < local.length; i++) {
      const name = local.key(i);
      if (!name?.startsWith(docPrefix) || name.includes(":backup:")) continue;
      const raw = parseJson(local.getItem(name));
      if (isObject(raw) && characterShaped(raw.character, name.slice(docPrefix.length))) return true;
    }
  } catch (_) {
    /* storage blocked or failing: no character shown yet */
  }
  return false;
}

// Which ids a character may have: `ids` is Python's rule as the page's settings serve it
// (sitebuild/table_ui.py, page_config()["ids"]: table/character.py ID_PATTERN and RESERVED_IDS, the
// names a browser's objects already carry), so no stored record can shadow them.
export function idCheck({ pattern, reserved }) {
  const shape = new RegExp(pattern);
  const names = new Set(reserved);
  return (id) => typeof id === "string" && shape.test(id) && !names.has(id);
}

const text = (v) => typeof v === "string";
const numberish = (v) => v === null || v === undefined || typeof v === "number" || typeof v === "string";
const listOf = (v, fields) => Array.isArray(v) && v.every((x) => isObject(x) && fields.every((f) => numberish(x[f])));

// Whether `doc` has the shape of a character (as stored, or a draft as typed: a number field may
// hold the text typed in it), with the id `id`: the editor and the calculators can show it. The
// rules engine checks the rest before any number is worked out.
export function characterShaped(doc, id) {
  return (
    isObject(doc) &&
    doc.id === id &&
    text(doc.name) &&
    isObject(doc.characteristics) &&
    Object.values(doc.characteristics).every(numberish) &&
    listOf(doc.skills, ["name", "level", "characteristic"]) &&
    listOf(doc.weapons, ["name", "damage", "rate_of_attack", "skill", "characteristic"]) &&
    numberish(doc.armor) &&
    numberish(doc.damage) &&
    (doc.notes === undefined || text(doc.notes))
  );
}

const randomRev = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
const SEEN_LIMIT = 120;

// `storage`: createStorage(...); `storeSchema`: the old single store's schema name (Python's).
// `ids`: the page's settings' id rule (see idCheck).
export function createCharacterStore({ storage, storeKey, docPrefix, activeKey, storeSchema, ids, now = Date.now, newRev = randomRev }) {
  const usableId = idCheck(ids);
  const { readText, readJson, writeText, writeJson, keepBackup, keysWith, removeKey } = storage;
  // id + version -> the character as shown in it (drafts included), as read or written here; a
  // document from before versions were named is version "".
  const seen = new Map();
  const latest = new Map(); // id -> the version this tab last wrote or took in
  const version = (id, rev) => `${id}\n${rev || ""}`;
  function remember(id, rev, doc) {
    if (!doc) return;
    seen.delete(version(id, rev));
    seen.set(version(id, rev), doc);
    if (seen.size > SEEN_LIMIT) seen.delete(seen.keys().next().value);
  }

  // The old single store: its characters become documents; what cannot be read is kept aside.
  function splitOldStore() {
    const text = readText(storeKey);
    if (text === null) return;
    const raw = readJson(storeKey);
    if (isObject(raw) && raw.moved) return;
    const usable = isObject(raw) && raw.schema === storeSchema && Array.isArray(raw.characters);
    const characters = usable ? raw.characters.filter((c) => isObject(c) && typeof c.id === "string") : [];
    if ((!usable || characters.length !== raw.characters.length) && !keepBackup(storeKey, text)) return;
    let problem = "";
    characters.forEach((c, order) => {
      const draft = isObject(raw.drafts) && isObject(raw.drafts[c.id]) ? raw.drafts[c.id] : undefined;
      if (readText(docPrefix + c.id) === null) {
        problem = problem || writeJson(docPrefix + c.id, { character: c, draft, order });
      }
    });
    if (usable && raw.active && readText(activeKey) === null) problem = problem || writeText(activeKey, raw.active);
    if (!problem) writeJson(storeKey, MOVED);
  }

  // The characters as they are in storage now: {characters, drafts, active, orders, revs, bases}.
  // A document that cannot be read (not JSON, not shaped like a character, a reserved id) is kept
  // aside (under storeKey's backups) and left out; a draft that cannot be read is kept aside with
  // its document, which stays without it.
  function loadStore() {
    splitOldStore();
    const entries = [];
    for (const name of keysWith(docPrefix)) {
      const raw = readJson(name);
      const id = isObject(raw) && isObject(raw.character) ? raw.character.id : undefined;
      if (!usableId(id) || docPrefix + id !== name || !characterShaped(raw.character, id)) {
        if (keepBackup(storeKey, readText(name))) removeKey(name);
        continue;
      }
      if (raw.draft !== undefined && raw.draft !== null && !characterShaped(raw.draft, id)) {
        if (!keepBackup(storeKey, readText(name))) continue;
        delete raw.draft;
        writeJson(name, raw);
      }
      remember(id, raw.rev, isObject(raw.draft) ? raw.draft : raw.character);
      entries.push(raw);
    }
    entries.sort((x, y) => (Number(x.order) || 0) - (Number(y.order) || 0));
    const byId = (pick) => Object.fromEntries(entries.map((e) => [e.character.id, pick(e)]));
    return {
      characters: entries.map((e) => e.character),
      drafts: Object.fromEntries(entries.filter((e) => isObject(e.draft)).map((e) => [e.character.id, e.draft])),
      orders: byId((e) => e.order),
      revs: byId((e) => (typeof e.rev === "string" ? e.rev : "")),
      bases: byId((e) => (typeof e.base === "string" ? e.base : "")),
      active: readText(activeKey) || "",
    };
  }

  // The character `id` as this tab shows it (`mine`, made from `base`), merged with what `store`
  // (read afresh) holds: when this tab wrote or took in the stored version, `mine` as it is;
  // otherwise another tab wrote it, and the merge starts from the version that tab started
  // from (so what it did not see here is kept, and what it removed after seeing it goes).
  // The stored version counts as taken in from then on.
  function reconcile(store, id, mine, base) {
    const theirs = shownDoc(store, id);
    const rev = store.revs?.[id] || "";
    if (!theirs || rev === latest.get(id)) return mine;
    const from = seen.get(version(id, store.bases?.[id])) || seen.get(version(id, latest.get(id))) || base;
    latest.set(id, rev);
    return mergeCharacter(from, mine, theirs);
  }

  // Read the characters afresh, change them with `change(store)` (false: no change), then write
  // only the documents that changed. "" or why storage refused.
  function updateStore(change) {
    const before = loadStore();
    const after = structuredClone(before);
    if (change(after) === false) return "";
    let problem = "";
    const was = (id) => ({ character: before.characters.find((c) => c.id === id), draft: before.drafts[id] });
    for (const c of after.characters) {
      const doc = { character: c, draft: isObject(after.drafts[c.id]) ? after.drafts[c.id] : undefined };
      if (same(doc, was(c.id))) continue;
      const rev = newRev();
      const failed = writeJson(docPrefix + c.id, { ...doc, order: before.orders[c.id] ?? now(), rev, base: before.revs[c.id] || "" });
      if (!failed) {
        remember(c.id, rev, doc.draft || doc.character);
        latest.set(c.id, rev);
      }
      problem = problem || failed;
    }
    for (const c of before.characters) {
      if (!after.characters.some((x) => x.id === c.id)) removeKey(docPrefix + c.id);
    }
    if (after.active !== before.active) problem = problem || writeText(activeKey, after.active);
    return problem;
  }

  return { loadStore, updateStore, reconcile };
}

export function activeCharacter(store) {
  return store.characters.find((c) => c && c.id === store.active) || store.characters[0] || null;
}

// What a character looks like on the device now: the typed draft when one waits for a check.
export function shownDoc(store, id) {
  const draft = store.drafts?.[id];
  return isObject(draft) ? draft : store.characters.find((c) => c.id === id) || null;
}

// Set `field` to `value` on character `id` and on its waiting draft, if any: a saved value (damage
// taken written back by a calculator or the tracker) must not be undone later by a draft that still
// holds the old one. Answers the value it had before, or undefined when there is no such character.
export function saveValue(store, id, field, value) {
  const character = store.characters.find((c) => c.id === id);
  if (!character) return undefined;
  const was = shownDoc(store, id)[field];
  character[field] = value;
  if (isObject(store.drafts?.[id])) store.drafts[id][field] = value;
  return was;
}

// `character` in the store (replacing the one with its id), and picked.
export function putCharacter(store, character) {
  const index = store.characters.findIndex((c) => c && c.id === character.id);
  if (index >= 0) store.characters[index] = character;
  else store.characters.push(character);
  store.active = character.id;
}
