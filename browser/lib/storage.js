// Text and JSON under named keys, in a `Storage`-like object (localStorage in the page, a stand-in in
// the tests), with dated backups of data the page cannot read. Where the browser blocks storage,
// `open()` answers null and the data lives in `memory` (this page only, until it closes).
// Pure: nothing here touches the page; the world comes in as arguments.

export const MAX_BACKUPS = 5;
export const BLOCKED = "this browser blocks storage for this site, so it is kept on this page only until you close it";
export const FULL = "this browser's storage is full";
export const REFUSED = "this browser refused to store it";

// The value of a stored `text`: null when nothing is stored, undefined when it is not JSON (callers
// keep it aside).
export function parseJson(text) {
  if (text === null || text === "") return null;
  try {
    return JSON.parse(text);
  } catch (_) {
    return undefined;
  }
}

// A store over `open()` (the Storage, or null when blocked). `legacy` maps a key to the name it had
// before keys were scoped (read when the new key holds nothing); `now()` dates the backups.
export function createStorage({ open, memory = new Map(), legacy = {}, now = () => new Date() }) {
  const blocked = () => open() === null;

  function readText(name) {
    const s = open();
    if (!s) return memory.has(name) ? memory.get(name) : null;
    const text = s.getItem(name);
    if (text !== null || !legacy[name]) return text;
    return s.getItem(legacy[name]);
  }

  // The value, null when nothing is stored, undefined when the text is not JSON (callers keep it aside).
  const readJson = (name) => parseJson(readText(name));

  // Write; "" when storage accepted it, else the reason in a few words (the page says it).
  function writeText(name, text) {
    const s = open();
    if (!s) {
      memory.set(name, text);
      return BLOCKED;
    }
    try {
      s.setItem(name, text);
      return "";
    } catch (error) {
      return error && (error.name === "QuotaExceededError" || error.code === 22) ? FULL : REFUSED;
    }
  }

  const writeJson = (name, value) => writeText(name, JSON.stringify(value));

  function removeKey(name) {
    const s = open();
    if (s) s.removeItem(name);
    else memory.delete(name);
  }

  // Every stored key starting with `prefix`, backups left out.
  function keysWith(prefix) {
    const s = open();
    const names = s ? Array.from({ length: s.length }, (_, i) => s.key(i)) : [...memory.keys()];
    return names.filter((k) => k?.startsWith(prefix) && !k.includes(":backup:"));
  }

  // The backups kept for `name`, newest first: {key, when, text}.
  function backups(name) {
    const s = open();
    if (!s) return [];
    const prefix = `${name}:backup:`;
    const found = [];
    for (let i = 0; i < s.length; i++) {
      const k = s.key(i);
      if (k?.startsWith(prefix)) found.push({ key: k, when: k.slice(prefix.length), text: s.getItem(k) || "" });
    }
    return found.sort((a, b) => (a.when < b.when ? 1 : -1));
  }

  // Unreadable data is kept under a dated key of its own, never overwritten by the next failure;
  // the oldest go beyond MAX_BACKUPS. Answers the backup's key, or "" when it could not be kept.
  function keepBackup(name, text) {
    const s = open();
    if (!s || !text) return "";
    const newest = backups(name)[0];
    if (newest && newest.text === text) return newest.key; // already kept
    const stamp = now().toISOString();
    let backupKey = `${name}:backup:${stamp}`;
    for (let n = 2; s.getItem(backupKey) !== null; n++) backupKey = `${name}:backup:${stamp}-${n}`;
    if (writeText(backupKey, text)) return "";
    for (const old of backups(name).slice(MAX_BACKUPS)) s.removeItem(old.key);
    return backupKey;
  }

  function dropBackup(backupKey) {
    const s = open();
    if (s) s.removeItem(backupKey);
  }

  return { blocked, readText, readJson, writeText, writeJson, removeKey, keysWith, backups, keepBackup, dropBackup };
}

// The page's localStorage, or null where the browser blocks it (reading it throws there).
export function localStorageOrNull(probeKey) {
  try {
    const s = window.localStorage;
    s.getItem(probeKey);
    return s;
  } catch (_) {
    return null;
  }
}
