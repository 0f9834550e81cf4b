// The page's table: what the character page, "use my character" and the tracker share on one page.
// Storage under keys named by the site's own scope, the characters in it, the rules engine's table
// module, and the settings Python gives the table scripts (sitebuild/table_ui.py). Made once per
// page by character.js and offered as window.mnemeTable, so the tracker works on the same store (and,
// where the browser blocks storage, on the same copy kept in memory).

import { activeCharacter, characterPrefix, createCharacterStore, putCharacter, saveValue, scopedKey, shownDoc } from "../lib/character-store.js";
import { mergeCharacter, same } from "../lib/documents.js";
import { download, h } from "../lib/dom.js";
import { pageSettings } from "../lib/page-settings.js";
import { createStorage, localStorageOrNull } from "../lib/storage.js";
import { createKeeper } from "./keep.js";

const MODULE = "table.api";

// Ask the engine's table module (table/api.py) for `name`; resolves to its value, or rejects with
// its refusal ({refused: true, path}: a sentence for the page, and the field it is about).
export function call(name, args) {
  const engine = window.mnemeEngine;
  if (!engine || typeof engine.call !== "function") {
    return Promise.reject(new Error("the rules engine is not available on this page"));
  }
  return engine.call(MODULE, name, args || {}).then(plainResult, (error) => {
    // Python's own words (a traceback) are never the player's: a fault of the site, said so.
    if (/Traceback|sys\.excepthook|File "/.test(String(error?.message))) {
      console.error(`table.api ${name}: ${error.message}`);
      throw new Error("the rules engine failed on this (a fault of the site, not of what you typed); reload the page");
    }
    throw error;
  });
}

function plainResult(payload) {
  if (!payload?.ok) {
    const error = new Error(payload?.error || "the rules engine refused this");
    error.path = payload?.path || "";
    error.refused = true;
    error.prompt = payload?.prompt === true; // not a mistake: what to give next
    throw error;
  }
  return payload.value;
}

export function newId(prefix) {
  const random = Math.random().toString(36).slice(2, 10);
  return `${prefix}-${Date.now().toString(36)}-${random}`.slice(0, 40);
}

// `scriptSrc`: where the script is served from (assets/calculators/), two levels below the site's root.
export function createTable(scriptSrc) {
  // Keys are named by the site's own scope (its base path), so two copies of the site on one origin
  // (user.github.io/a/ and /b/) never read each other's data: "mneme@/a/:characters.v1". Keys from
  // before scoping ("mneme.characters.v1") are read once.
  const scope = new URL("../../", scriptSrc).pathname;
  const key = (name) => scopedKey(scope, name);
  const STORE_KEY = key("characters.v1");
  const DOC_PREFIX = characterPrefix(scope);
  const legacy = {
    [STORE_KEY]: "mneme.characters.v1",
    [key("tracker.v1")]: "mneme.tracker.v1",
    [key("tracker.undo.v1")]: "mneme.tracker.undo.v1",
  };
  const storage = createStorage({ open: () => localStorageOrNull(STORE_KEY), legacy });
  let characters = null; // made on first use: it needs the page's settings
  function characterStore() {
    if (!characters) {
      characters = createCharacterStore({
        storage,
        storeKey: STORE_KEY,
        docPrefix: DOC_PREFIX,
        activeKey: key("active.v1"),
        storeSchema: pageSettings().schemas.store.name,
        ids: pageSettings().ids,
      });
    }
    return characters;
  }

  // A page hears the other tabs' writes ("storage" events fire in every other tab of this origin).
  function onChange(name, listener) {
    window.addEventListener("storage", (event) => {
      if (event.key === name || event.key === null || (name.endsWith(":") && event.key.startsWith(name))) {
        listener(event);
      }
    });
  }

  // Everything kept on this device, as one backup file: the characters and the fight.
  function everything() {
    const store = characterStore().loadStore();
    const characters = store.characters.map((c) => store.drafts?.[c.id] || c);
    const { name, version } = pageSettings().schemas.backup;
    return JSON.stringify({ schema: name, version, at: new Date().toISOString(), characters, tracker: storage.readJson(key("tracker.v1")) }, null, 2);
  }
  let keeper = null;
  const keep = () => {
    keeper = keeper || createKeeper(table, everything);
    return keeper;
  };

  const table = {
    ...storage,
    h,
    call,
    config: () => pageSettings(),
    key,
    download,
    onChange,
    same,
    newId,
    loadStore: () => characterStore().loadStore(),
    // A write that succeeds is a save: the first asks the browser to keep the data (keep.js).
    updateStore: (change) => {
      const problem = characterStore().updateStore(change);
      if (!problem) keep().saved();
      return problem;
    },
    reconcile: (store, id, mine, base) => characterStore().reconcile(store, id, mine, base),
    saveValue,
    keeper: keep,
    STORE_KEY,
    DOC_PREFIX,
    blankCharacter: () => ({ ...structuredClone(pageSettings().empty.character), id: newId("ch") }),
    activeCharacter,
    shownDoc,
    putCharacter,
    mergeCharacter,
  };
  return table;
}
