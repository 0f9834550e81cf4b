// Where one tab's turn on the fight hands its text to the next (lib/tracker-store.js: freshest,
// handOn): IndexedDB, which every tab reads from the same place, so a read made after the lock
// passed sees the write made before it (localStorage may not, see there). Best effort: where
// IndexedDB is missing, blocked or slow, `read` answers null and the fight is read from localStorage.

const DB = "mneme-tracker-handoff";
const STORE = "handed";
const WAIT_MS = 3000; // IndexedDB answers in milliseconds; never hold the lock long on it

export function createHandoff(name, idb = globalThis.indexedDB) {
  let opening = null;

  function open() {
    if (!idb) return Promise.resolve(null);
    opening =
      opening ||
      new Promise((resolve) => {
        try {
          const request = idb.open(DB, 1);
          request.onupgradeneeded = () => request.result.createObjectStore(STORE);
          request.onsuccess = () => {
            const db = request.result;
            db.onversionchange = () => {
              db.close();
              opening = null;
            };
            resolve(db);
          };
          request.onerror = () => resolve(null);
          request.onblocked = () => resolve(null);
        } catch (_) {
          resolve(null);
        }
      }).then((db) => {
        if (!db) opening = null;
        return db;
      });
    return opening;
  }

  async function run(mode, work) {
    const db = await open();
    if (!db) return null;
    const done = new Promise((resolve) => {
      try {
        const tx = db.transaction(STORE, mode);
        const request = work(tx.objectStore(STORE));
        tx.oncomplete = () => resolve(request.result ?? null);
        tx.onerror = () => resolve(null);
        tx.onabort = () => resolve(null);
      } catch (_) {
        resolve(null);
      }
    });
    return Promise.race([done, new Promise((resolve) => setTimeout(() => resolve(null), WAIT_MS))]);
  }

  return {
    // The record the last turn handed on, or null.
    read: () => run("readonly", (store) => store.get(name)),
    // Hand `record` on (resolves once written, or null when it could not be).
    write: (record) => run("readwrite", (store) => store.put(record, name)),
  };
}
