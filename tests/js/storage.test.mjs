import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BLOCKED, createStorage, FULL, MAX_BACKUPS } from "../../browser/lib/storage.js";
import { MemoryStorage, steppingClock } from "./_fakes.mjs";

function over(store, options = {}) {
  return createStorage({ open: () => store, now: steppingClock(), ...options });
}

describe("reading and writing", () => {
  test("text written is read back and a missing key reads as null", () => {
    const s = over(new MemoryStorage());
    assert.equal(s.writeText("a", "one"), "");
    assert.equal(s.readText("a"), "one");
    assert.equal(s.readText("b"), null);
  });

  test("JSON that does not parse reads as undefined, nothing stored as null", () => {
    const s = over(new MemoryStorage({ bad: "{not json", empty: "" }));
    assert.equal(s.readJson("bad"), undefined);
    assert.equal(s.readJson("empty"), null);
    assert.equal(s.readJson("none"), null);
  });

  test("a key from before scoping is read when the new key holds nothing", () => {
    const store = new MemoryStorage({ "mneme.characters.v1": "old" });
    const s = over(store, { legacy: { "mneme@/a/:characters.v1": "mneme.characters.v1" } });
    assert.equal(s.readText("mneme@/a/:characters.v1"), "old");
    store.setItem("mneme@/a/:characters.v1", "new");
    assert.equal(s.readText("mneme@/a/:characters.v1"), "new");
  });

  test("a full store says so in words and keeps the old value", () => {
    const store = new MemoryStorage({ a: "kept" });
    store.full = true;
    assert.equal(over(store).writeJson("a", { b: 1 }), FULL);
    assert.equal(store.getItem("a"), "kept");
  });

  test("where storage is blocked the data lives in memory and the write says why", () => {
    const memory = new Map();
    const s = createStorage({ open: () => null, memory });
    assert.equal(s.blocked(), true);
    assert.equal(s.writeText("a", "x"), BLOCKED);
    assert.equal(s.readText("a"), "x");
    assert.deepEqual(s.keysWith(""), ["a"]);
    s.removeKey("a");
    assert.equal(memory.size, 0);
  });

  test("keysWith leaves backups out", () => {
    const s = over(new MemoryStorage({ "p:1": "a", "p:2": "b", "p:1:backup:2026": "c", q: "d" }));
    assert.deepEqual(s.keysWith("p:").sort(), ["p:1", "p:2"]);
  });
});

describe("dated backups of unreadable data", () => {
  test("a backup is kept under a dated key and listed newest first", () => {
    const s = over(new MemoryStorage());
    const first = s.keepBackup("k", "one");
    const second = s.keepBackup("k", "two");
    assert.equal(first, "k:backup:2026-01-02T03:04:05.000Z");
    assert.equal(second, "k:backup:2026-01-02T03:04:06.000Z");
    assert.deepEqual(
      s.backups("k").map((b) => [b.when, b.text]),
      [
        ["2026-01-02T03:04:06.000Z", "two"],
        ["2026-01-02T03:04:05.000Z", "one"],
      ],
    );
  });

  test("the same text twice in a row is kept once", () => {
    const s = over(new MemoryStorage());
    const key = s.keepBackup("k", "same");
    assert.equal(s.keepBackup("k", "same"), key);
    assert.equal(s.backups("k").length, 1);
  });

  test("two backups in the same instant never overwrite each other", () => {
    const store = new MemoryStorage();
    const s = createStorage({ open: () => store, now: () => new Date(0) });
    assert.equal(s.keepBackup("k", "a"), "k:backup:1970-01-01T00:00:00.000Z");
    assert.equal(s.keepBackup("k", "b"), "k:backup:1970-01-01T00:00:00.000Z-2");
  });

  test("only the newest MAX_BACKUPS are kept", () => {
    const s = over(new MemoryStorage());
    for (let i = 0; i < MAX_BACKUPS + 2; i++) s.keepBackup("k", `text ${i}`);
    const kept = s.backups("k").map((b) => b.text);
    assert.equal(kept.length, MAX_BACKUPS);
    assert.equal(kept[0], `text ${MAX_BACKUPS + 1}`);
    assert.equal(kept.at(-1), "text 2");
  });

  test("nothing is kept where storage refuses it, nor empty text", () => {
    const store = new MemoryStorage();
    store.full = true;
    assert.equal(over(store).keepBackup("k", "x"), "");
    assert.equal(over(new MemoryStorage()).keepBackup("k", ""), "");
    assert.equal(createStorage({ open: () => null }).keepBackup("k", "x"), "");
  });

  test("a dropped backup is gone", () => {
    const s = over(new MemoryStorage());
    s.dropBackup(s.keepBackup("k", "x"));
    assert.deepEqual(s.backups("k"), []);
  });
});
