import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { activeCharacter, characterShaped, createCharacterStore, idCheck, MOVED, putCharacter, saveValue, shownDoc } from "../../browser/lib/character-store.js";
import { createStorage } from "../../browser/lib/storage.js";
import { MemoryStorage, steppingClock } from "./_fakes.mjs";

// The id rule as a page's settings serve it (their shape; tests/test_js.py runs Python's own values).
const IDS = { pattern: "^[A-Za-z0-9_-]{1,40}$", reserved: ["__proto__", "constructor"] };
const KEYS = { storeKey: "s:characters.v1", docPrefix: "s:character.v1:", activeKey: "s:active.v1", storeSchema: "mneme-characters", ids: IDS };

function setUp(entries = {}) {
  const local = new MemoryStorage(entries);
  const storage = createStorage({ open: () => local, now: steppingClock() });
  let tick = 100;
  let rev = 0;
  const characters = createCharacterStore({ storage, ...KEYS, now: () => tick++, newRev: () => `r${++rev}` });
  return { local, storage, characters };
}

const character = (id, name, armor) => ({
  schema: "mneme-character",
  version: 1,
  id,
  name,
  characteristics: { strength: 7, dexterity: 7, endurance: 7, intellect: null },
  skills: [],
  armor,
  weapons: [],
  damage: 0,
  notes: "",
});
const ada = character("ch-a", "Ada", 0);
const bob = character("ch-b", "Bob", 1);

describe("one document per character", () => {
  test("an empty device has no characters", () => {
    assert.deepEqual(setUp().characters.loadStore(), { characters: [], drafts: {}, orders: {}, revs: {}, bases: {}, active: "" });
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

describe("bad stored data is kept aside, never used", () => {
  test("a reserved name is never an id: its document is kept aside and left out", () => {
    const usableId = idCheck(IDS);
    for (const id of IDS.reserved) assert.equal(usableId(id), false);
    assert.equal(usableId("ch-a"), true);
    assert.equal(usableId("a".repeat(41)), false);
    const doc = JSON.stringify({ character: { ...ada, id: "__proto__" }, order: 1 });
    const { local, storage, characters } = setUp({ "s:character.v1:__proto__": doc });
    assert.deepEqual(characters.loadStore().characters, []);
    assert.equal(local.getItem("s:character.v1:__proto__"), null);
    assert.deepEqual(storage.backups("s:characters.v1").map((b) => b.text), [doc]);
  });

  test("a character with fields of the wrong type is kept aside", () => {
    const doc = JSON.stringify({ character: { ...ada, skills: { 0: "x" } }, order: 1 });
    const { storage, characters } = setUp({ "s:character.v1:ch-a": doc });
    assert.deepEqual(characters.loadStore().characters, []);
    assert.equal(storage.backups("s:characters.v1").length, 1);
  });

  test("a junk draft is kept aside with its document, which stays without it", () => {
    for (const draft of [{}, [], "x", 3, { ...ada, id: "ch-b" }, { ...ada, name: { a: 1 } }, { ...ada, characteristics: [] }]) {
      const doc = JSON.stringify({ character: ada, draft, order: 1 });
      const { local, storage, characters } = setUp({ "s:character.v1:ch-a": doc });
      const store = characters.loadStore();
      assert.deepEqual(store.characters, [ada]);
      assert.deepEqual(store.drafts, {});
      assert.equal(JSON.parse(local.getItem("s:character.v1:ch-a")).draft, undefined);
      assert.deepEqual(storage.backups("s:characters.v1").map((b) => b.text), [doc]);
    }
  });

  test("a draft as typed (a number field holding the text typed) is a usable draft", () => {
    assert.equal(characterShaped({ ...ada, armor: "3x", skills: [{ name: "", level: null, characteristic: "dexterity" }] }, "ch-a"), true);
    assert.equal(characterShaped({ ...ada, armor: {} }, "ch-a"), false);
  });
});

describe("a saved value reaches every copy", () => {
  test("saving damage taken sets it on the character and on its waiting draft", () => {
    const { characters } = setUp();
    characters.updateStore((s) => {
      putCharacter(s, { ...ada, damage: 3 });
      s.drafts[ada.id] = { ...ada, damage: 3, armor: "x" }; // a field left invalid
    });
    characters.updateStore((s) => assert.equal(saveValue(s, ada.id, "damage", 9), 3));
    const store = characters.loadStore();
    assert.equal(store.characters[0].damage, 9);
    assert.equal(shownDoc(store, ada.id).damage, 9);
    assert.equal(shownDoc(store, ada.id).armor, "x");
  });

  test("no such character: nothing is set", () => {
    const { characters } = setUp();
    characters.updateStore((s) => assert.equal(saveValue(s, "ch-z", "damage", 9), undefined));
    assert.deepEqual(characters.loadStore().characters, []);
  });
});

describe("two tabs writing one character", () => {
  const melee = { name: "Melee", level: 1, characteristic: "strength" };
  const recon = { name: "Recon", level: 2, characteristic: "intellect" };

  // Two tabs on one device, each with its own copy of localStorage (as a browser's tabs in two
  // processes have), copied over by `deliver(from, to)` as the browser passes writes on.
  function twoTabs() {
    const caches = { a: new MemoryStorage(), b: new MemoryStorage() };
    const tab = (prefix) => {
      let rev = 0;
      const storage = createStorage({ open: () => caches[prefix] });
      return createCharacterStore({ storage, ...KEYS, newRev: () => `${prefix}${++rev}` });
    };
    const deliver = (from, to) => {
      for (const [k, v] of caches[from].map) caches[to].setItem(k, v);
    };
    return { caches, deliver, a: tab("a"), b: tab("b") };
  }

  // A tab's edit as the editor makes it: its shown version merged with storage's, stored as a draft.
  function edit(tab, base, mine) {
    let merged = null;
    tab.updateStore((s) => {
      merged = tab.reconcile(s, base.id, mine, base);
      s.drafts[base.id] = merged;
    });
    return merged;
  }

  for (const [how, first] of [
    ["written by this version", (tab) => tab.updateStore((s) => putCharacter(s, ada))],
    ["from before versions were named", (_, caches) => caches.a.setItem("s:character.v1:ch-a", JSON.stringify({ character: ada, order: 1 }))],
  ]) test(`each adding a skill at once to a character ${how}: the tab that hears of the other's write keeps both, and the other takes it`, () => {
    const { a, b, caches, deliver } = twoTabs();
    first(a, caches);
    deliver("a", "b");
    const shownB = shownDoc(b.loadStore(), ada.id);
    const shownA = shownDoc(a.loadStore(), ada.id);
    const mineB = edit(b, shownB, { ...shownB, skills: [recon] });
    const mineA = edit(a, shownA, { ...shownA, skills: [melee] });
    deliver("a", "b"); // A's write landed last: B's copy now holds A's, made without seeing B's
    const merged = edit(b, mineB, mineB);
    assert.deepEqual(merged.skills.map((x) => x.name).sort(), ["Melee", "Recon"]);
    deliver("b", "a");
    const after = edit(a, mineA, mineA);
    assert.deepEqual(after.skills.map((x) => x.name).sort(), ["Melee", "Recon"]);
    assert.deepEqual(after, merged);
  });

  test("a removal made after seeing this tab's write is taken, not undone", () => {
    const { a, b, deliver } = twoTabs();
    a.updateStore((s) => { putCharacter(s, { ...ada, skills: [melee, recon] }); });
    deliver("a", "b");
    const seenByB = shownDoc(b.loadStore(), ada.id);
    edit(b, seenByB, { ...seenByB, skills: [recon] });
    deliver("b", "a");
    const shownA = { ...ada, skills: [melee, recon] };
    const merged = edit(a, shownA, shownA);
    assert.deepEqual(merged.skills, [recon]);
  });

  test("this tab's own last write is not merged with itself: typing back an old value sticks", () => {
    const { a } = twoTabs();
    a.updateStore((s) => putCharacter(s, ada));
    const first = edit(a, ada, { ...ada, name: "Adx" });
    const back = edit(a, first, { ...ada, name: "Ada" });
    assert.equal(back.name, "Ada");
  });
});
