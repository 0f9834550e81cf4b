import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { characterPrefix, keepsCharacter, scopedKey } from "../../browser/lib/character-store.js";
import { MemoryStorage } from "./_fakes.mjs";

// The first paint's read (head/early.js): does this device keep a character the box can offer?
const PREFIX = characterPrefix("/a/");

const character = (id) => ({
  schema: "mneme-character",
  version: 1,
  id,
  name: "Ada",
  characteristics: { strength: 7, dexterity: 8, endurance: 9 },
  skills: [{ name: "Gun Combat", level: 1, characteristic: "dexterity" }],
  armor: 4,
  weapons: [],
  damage: 0,
  notes: "",
});

// A Storage that records every write and removal: the read must make none.
class WatchedStorage extends MemoryStorage {
  constructor(entries) {
    super(entries);
    this.changes = 0;
  }
  setItem(k, v) {
    this.changes++;
    super.setItem(k, v);
  }
  removeItem(k) {
    this.changes++;
    super.removeItem(k);
  }
}

function read(entries) {
  const local = new WatchedStorage(entries);
  const before = JSON.stringify([...local.map]);
  const kept = keepsCharacter(local, PREFIX);
  assert.equal(local.changes, 0);
  assert.equal(JSON.stringify([...local.map]), before);
  return kept;
}

describe("keepsCharacter", () => {
  test("keys are scoped by the site's base path, as the table scopes them", () => {
    assert.equal(PREFIX, "mneme@/a/:character.v1:");
    assert.equal(scopedKey("/a/", "active.v1"), "mneme@/a/:active.v1");
  });

  test("a character document under its own id reads as kept", () => {
    assert.equal(read({ [`${PREFIX}ada-1`]: JSON.stringify({ character: character("ada-1"), order: 1 }) }), true);
  });

  test("one good document among unreadable ones is enough", () => {
    const entries = {
      [`${PREFIX}bad`]: "{not json",
      [`${PREFIX}ada-1`]: JSON.stringify({ character: character("ada-1") }),
    };
    assert.equal(read(entries), true);
  });

  test("nothing stored, or only other things, reads as none", () => {
    assert.equal(read({}), false);
    assert.equal(read({ "mneme@/a/:tracker.v1": "{}", "mneme@/a/:active.v1": "ada-1" }), false);
  });

  test("another copy of the site on the origin is not this one's", () => {
    assert.equal(read({ [`${characterPrefix("/b/")}ada-1`]: JSON.stringify({ character: character("ada-1") }) }), false);
  });

  test("a corrupt store reads as none, never throws", () => {
    const doc = (value) => ({ [`${PREFIX}ada-1`]: value });
    assert.equal(read(doc("{not json")), false);
    assert.equal(read(doc("")), false);
    assert.equal(read(doc("null")), false);
    assert.equal(read(doc("[1,2]")), false);
    assert.equal(read(doc(JSON.stringify({ character: "Ada" }))), false);
    assert.equal(read(doc(JSON.stringify({ character: character("bob-2") }))), false); // not its key's id
    assert.equal(read(doc(JSON.stringify({ character: { ...character("ada-1"), skills: "lots" } }))), false);
    assert.equal(read(doc(JSON.stringify(character("ada-1")))), false); // a bare character, not a document
  });

  test("a backup of a document is not a character shown", () => {
    assert.equal(read({ [`${PREFIX}ada-1:backup:2026-01-02T03:04:05.000Z`]: JSON.stringify({ character: character("ada-1") }) }), false);
  });

  test("storage that throws as it is read reads as none", () => {
    const failing = {
      get length() {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
    };
    assert.equal(keepsCharacter(failing, PREFIX), false);
    const broken = new MemoryStorage({ [`${PREFIX}ada-1`]: "{}" });
    broken.getItem = () => {
      throw new Error("gone");
    };
    assert.equal(keepsCharacter(broken, PREFIX), false);
    assert.equal(keepsCharacter(null, PREFIX), false);
  });
});
