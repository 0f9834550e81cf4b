import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { activeCharacter, createCharacterStore, MOVED, putCharacter, shownDoc } from "../../browser/lib/character-store.js";
import { createStorage } from "../../browser/lib/storage.js";
import { MemoryStorage, steppingClock } from "./_fakes.mjs";

const KEYS = { storeKey: "s:characters.v1", docPrefix: "s:character.v1:", activeKey: "s:active.v1", storeSchema: "mneme-characters" };

function setUp(entries = {}) {
  const local = new MemoryStorage(entries);
  const storage = createStorage({ open: () => local, now: steppingClock() });
  let tick = 100;
  const characters = createCharacterStore({ storage, ...KEYS, now: () => tick++ });
  return { local, storage, characters };
}

const ada = { id: "ch-a", name: "Ada", armor: 0 };
const bob = { id: "ch-b", name: "Bob", armor: 1 };

describe("one document per character", () => {
  test("an empty device has no characters", () => {
    assert.deepEqual(setUp().characters.loadStore(), { characters: [], drafts: {}, orders: {}, active: "" });
  });

  test("a change writes only the documents that changed", () => {
    const { local, characters } = setUp();
    assert.equal(characters.updateStore((s) => { putCharacter(s, ada); putCharacter(s, bob); }), "");
    const before = local.getItem("s:character.v1:ch-a");
    assert.equal(characters.updateStore((s) => { s.characters[1].armor = 4; }), "");
    assert.equal(local.getItem("s:character.v1:ch-a"), before);
    assert.equal(JSON.parse(local.getItem("s:character.v1:ch-b")).character.armor, 4);
    assert.equal(local.getItem("s:active.v1"), "ch-b");
  });

  test("characters keep the order they were added in", () => {
    const { characters } = setUp();
    characters.updateStore((s) => putCharacter(s, bob));
    characters.updateStore((s) => putCharacter(s, ada));
    assert.deepEqual(characters.loadStore().characters.map((c) => c.id), ["ch-b", "ch-a"]);
  });

  test("a change answering false writes nothing", () => {
    const { local, characters } = setUp();
    assert.equal(characters.updateStore(() => false), "");
    assert.equal(local.length, 0);
  });

  test("another tab's write to another character is not undone by this tab's", () => {
    const { local, characters } = setUp();
    characters.updateStore((s) => { putCharacter(s, ada); putCharacter(s, bob); });
    // Another tab renames Bob after this tab read the store; this tab then edits Ada.
    local.setItem("s:character.v1:ch-b", JSON.stringify({ character: { ...bob, name: "Robert" }, order: 101 }));
    characters.updateStore((s) => { s.characters[0].armor = 2; });
    assert.deepEqual(characters.loadStore().characters.map((c) => [c.name, c.armor]), [["Ada", 2], ["Robert", 1]]);
  });

  test("a removed character's document goes", () => {
    const { local, characters } = setUp();
    characters.updateStore((s) => putCharacter(s, ada));
    characters.updateStore((s) => { s.characters = []; });
    assert.equal(local.getItem("s:character.v1:ch-a"), null);
  });

  test("drafts are kept beside their character", () => {
    const { characters } = setUp();
    characters.updateStore((s) => { putCharacter(s, ada); s.drafts[ada.id] = { ...ada, name: "Ad" }; });
    const store = characters.loadStore();
    assert.equal(shownDoc(store, "ch-a").name, "Ad");
    assert.equal(activeCharacter(store).name, "Ada");
  });

  test("an unreadable document is kept aside and left out", () => {
    const { local, storage, characters } = setUp({ "s:character.v1:ch-x": "{broken" });
    assert.deepEqual(characters.loadStore().characters, []);
    assert.equal(local.getItem("s:character.v1:ch-x"), null);
    assert.deepEqual(storage.backups("s:characters.v1").map((b) => b.text), ["{broken"]);
  });
});

describe("the single store of earlier versions", () => {
  test("is split into documents once, then marked as moved", () => {
    const old = { schema: "mneme-characters", version: 1, characters: [ada, bob], active: "ch-b", drafts: { "ch-a": { ...ada, name: "A" } } };
    const { local, characters } = setUp({ "s:characters.v1": JSON.stringify(old) });
    const store = characters.loadStore();
    assert.deepEqual(store.characters.map((c) => c.id), ["ch-a", "ch-b"]);
    assert.equal(store.active, "ch-b");
    assert.equal(store.drafts["ch-a"].name, "A");
    assert.deepEqual(JSON.parse(local.getItem("s:characters.v1")), MOVED);
  });

  test("one it cannot read is kept aside, not lost", () => {
    const { storage, characters } = setUp({ "s:characters.v1": "[1, 2" });
    assert.deepEqual(characters.loadStore().characters, []);
    assert.deepEqual(storage.backups("s:characters.v1").map((b) => b.text), ["[1, 2"]);
  });
});
