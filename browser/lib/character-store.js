// The characters kept on this device, one document per key (writes are per document): each
// character lives under `docPrefix` + its id as {character, draft, order}; the picked one under
// `activeKey`. Two tabs writing two characters never touch the same key. The single store of
// earlier versions (`storeKey`) is split into documents once, then marked as moved.
// Pure: works on a store from lib/storage.js; `now()` orders new characters.

import { isObject, same } from "./documents.js";

export const MOVED = { moved: "character.v1" };

// `storage`: createStorage(...); `storeSchema`: the old single store's schema name (Python's).
export function createCharacterStore({ storage, storeKey, docPrefix, activeKey, storeSchema, now = Date.now }) {
  const { readText, readJson, writeText, writeJson, keepBackup, keysWith, removeKey } = storage;

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

  // The characters as they are in storage now: {characters, drafts, active, orders}. A document
  // that cannot be read is kept aside (under storeKey's backups) and left out.
  function loadStore() {
    splitOldStore();
    const entries = [];
    for (const name of keysWith(docPrefix)) {
      const raw = readJson(name);
      if (isObject(raw) && isObject(raw.character) && docPrefix + raw.character.id === name) entries.push(raw);
      else if (keepBackup(storeKey, readText(name))) removeKey(name);
    }
    entries.sort((x, y) => (Number(x.order) || 0) - (Number(y.order) || 0));
    return {
      characters: entries.map((e) => e.character),
      drafts: Object.fromEntries(entries.filter((e) => isObject(e.draft)).map((e) => [e.character.id, e.draft])),
      orders: Object.fromEntries(entries.map((e) => [e.character.id, e.order])),
      active: readText(activeKey) || "",
    };
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
      problem = problem || writeJson(docPrefix + c.id, { ...doc, order: before.orders[c.id] ?? now() });
    }
    for (const c of before.characters) {
      if (!after.characters.some((x) => x.id === c.id)) removeKey(docPrefix + c.id);
    }
    if (after.active !== before.active) problem = problem || writeText(activeKey, after.active);
    return problem;
  }

  return { loadStore, updateStore };
}

export function activeCharacter(store) {
  return store.characters.find((c) => c && c.id === store.active) || store.characters[0] || null;
}

// What a character looks like on the device now: the typed draft when one waits for a check.
export function shownDoc(store, id) {
  const draft = store.drafts?.[id];
  return isObject(draft) ? draft : store.characters.find((c) => c.id === id) || null;
}

// `character` in the store (replacing the one with its id), and picked.
export function putCharacter(store, character) {
  const index = store.characters.findIndex((c) => c && c.id === character.id);
  if (index >= 0) store.characters[index] = character;
  else store.characters.push(character);
  store.active = character.id;
}
