import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createStorage } from "../../browser/lib/storage.js";
import { actionWords, createTrackerStore, describeAction, freshest, freshestUndo, HANDED_STAMPS, handOn, MAX_UNDO, undoEntry, unsavedDamage } from "../../browser/lib/tracker-store.js";
import { MemoryStorage } from "./_fakes.mjs";

function setUp(entries = {}) {
  const local = new MemoryStorage(entries);
  const storage = createStorage({ open: () => local });
  const fight = createTrackerStore({ storage, key: "t", undoKey: "u" });
  return { local, fight, storage };
}

const round = (n) => ({ round: n, combatants: [], log: [] });

describe("the fight on this device", () => {
  test("a saved change can be undone: the tracker before it goes on the stack with its words", () => {
    const { fight } = setUp();
    assert.equal(fight.save(round(2), round(1), "next turn"), "");
    assert.deepEqual(fight.undoStack(), [{ tracker: round(1), what: "next turn" }]);
  });

  test("the undo stack keeps the newest MAX_UNDO changes", () => {
    const { fight } = setUp();
    for (let n = 0; n < MAX_UNDO + 3; n++) fight.save(round(n + 1), round(n), `step ${n}`);
    const stack = fight.undoStack();
    assert.equal(stack.length, MAX_UNDO);
    assert.equal(stack[0].what, "step 3");
  });

  test("a full store says the change cannot be undone after a reload", () => {
    const { local, fight } = setUp();
    const setItem = local.setItem.bind(local);
    local.setItem = (k, v) => (k === "u" ? (() => { throw new Error("full"); })() : setItem(k, v));
    assert.equal(fight.save(round(2), round(1), "x"), "the change is saved but cannot be undone after a reload");
  });

  test("what this tab wrote is not news; another tab's write is, and is read as the latest", () => {
    const { local, fight } = setUp();
    fight.save(round(1), null, "");
    assert.equal(fight.isNews(local.getItem("t")), false);
    local.setItem("t", JSON.stringify(round(5)));
    assert.equal(fight.isNews(local.getItem("t")), true);
    assert.deepEqual(fight.latest(round(1)).tracker, round(5));
  });

  test("with nothing newer or nothing readable stored, the latest is what this tab shows", () => {
    const { local, fight } = setUp();
    assert.deepEqual(fight.latest(round(3)), { text: null, tracker: round(3) });
    local.setItem("t", "{broken");
    assert.deepEqual(fight.latest(round(3)).tracker, round(3));
  });

  test("a restore writes the tracker and the shortened stack", () => {
    const { local, fight } = setUp();
    fight.save(round(2), round(1), "a");
    assert.equal(fight.restore(round(1), []), "");
    assert.deepEqual(JSON.parse(local.getItem("t")), round(1));
    assert.deepEqual(fight.undoStack(), []);
    assert.equal(fight.isNews(local.getItem("t")), false);
  });

  test("entries of the undo stack that cannot be read are kept aside and taken out of it", () => {
    const junk = [null, 3, { tracker: "x", what: "b" }, { tracker: { combatants: {} }, what: "c" }, { tracker: round(2), what: 5 }];
    const { local, fight, storage } = setUp({ u: JSON.stringify([junk[0], junk[1], { tracker: round(1), what: "a" }, ...junk.slice(2)]) });
    assert.deepEqual(fight.undoStack(), [{ tracker: round(1), what: "a" }]);
    assert.deepEqual(JSON.parse(local.getItem("u")), [{ tracker: round(1), what: "a" }]);
    assert.deepEqual(storage.backups("u").map((b) => JSON.parse(b.text)), [junk]);
  });

  test("an undo stack that is not a list is kept aside whole", () => {
    const { local, fight, storage } = setUp({ u: "{broken" });
    assert.deepEqual(fight.undoStack(), []);
    assert.equal(local.getItem("u"), null);
    assert.deepEqual(storage.backups("u").map((b) => b.text), ["{broken"]);
  });

  test("a step the rules engine refused is kept aside, and the next Undo reaches the one before", () => {
    const { fight, storage } = setUp();
    fight.save(round(2), round(1), "a");
    fight.save(round(3), { ...round(2), round: "junk" }, "b");
    const stack = fight.undoStack();
    const refused = stack.pop();
    assert.equal(fight.setAsideUndo(refused, stack), "");
    assert.deepEqual(fight.undoStack(), [{ tracker: round(1), what: "a" }]);
    assert.deepEqual(JSON.parse(storage.backups("u")[0].text), refused);
  });
});

// Two tabs' turns under the lock, with this tab's localStorage a write behind (as Chromium's can be).
describe("the fight handed from one turn to the next", () => {
  const text = (n) => JSON.stringify(round(n));

  test("a tab that has not heard the last write takes the text handed on, and the action lands on it", () => {
    const { local, fight } = setUp({ t: text(1) });
    fight.see(text(1));
    // The other tab's turn wrote round 2 over round 1 and handed it on; this tab still reads round 1.
    const handed = handOn(null, text(1), text(2), "a");
    assert.deepEqual(fight.latest(round(1), handed, "a"), { text: text(2), tracker: round(2) });
    // Two writes behind: still the handed text.
    const later = handOn(handed, text(2), text(3), "a");
    assert.equal(freshest(local.getItem("t"), later, "a"), text(3));
    assert.deepEqual(later.stamps.length, 3);
  });

  test("a tab that has heard the write reads the same text either way", () => {
    const handed = handOn(null, text(1), text(2), "a");
    assert.equal(freshest(text(2), handed, "a"), text(2));
  });

  test("a text the record does not know (written by other means) wins over it", () => {
    const handed = handOn(null, text(1), text(2), "a");
    assert.equal(freshest(text(7), handed, "a"), text(7));
    // ...and the next record goes on from it, keeping the stamps before it.
    const next = handOn(handed, text(7), text(8), "a");
    assert.equal(next.stamps.length, 4);
    assert.equal(freshest(text(1), next, "a"), text(8));
  });

  test("a record from before storage was cleared, or with no stored fight, is not used", () => {
    const handed = handOn(null, text(1), text(2), "old");
    assert.equal(freshest(text(1), handed, "new"), text(1));
    assert.equal(freshest(null, handed, "old"), null);
    assert.equal(freshest(text(1), handed, ""), text(1));
    assert.equal(freshest(text(1), { anchor: "old", text: 3, stamps: "x" }, "old"), text(1));
    assert.equal(freshest(text(1), null, "old"), text(1));
  });

  test("the undo stack goes with the handed fight, even where this tab has the fight but not the stack yet", () => {
    const stackOf = (...ns) => JSON.stringify(ns.map((n) => ({ tracker: round(n), what: `step ${n}` })));
    const handed = handOn(null, text(1), text(2), "a", stackOf(1));
    assert.equal(freshestUndo(text(1), "[]", handed, "a"), stackOf(1)); // both a write behind
    assert.equal(freshestUndo(text(2), "[]", handed, "a"), stackOf(1)); // the fight arrived, the stack not yet
    assert.equal(freshestUndo(text(7), stackOf(6), handed, "a"), stackOf(6)); // written by other means
    assert.equal(freshestUndo(text(1), "[]", { ...handed, undo: undefined }, "a"), "[]"); // a record of an older version
    assert.equal(freshestUndo(text(1), "[]", handed, "b"), "[]");
  });

  test("an action saved on a stale copy keeps the other tab's newest undo step under its own", () => {
    const { local, fight } = setUp({ t: text(1), u: "[]" });
    fight.see(text(1));
    // The other tab's turn: round 1 -> 2, its undo step handed on; this tab has heard neither write.
    const theirs = JSON.stringify([{ tracker: round(1), what: "their hit" }]);
    const handed = handOn(null, text(1), text(2), "a", theirs);
    const base = fight.latest(round(1), handed, "a");
    assert.equal(fight.save(round(3), base.tracker, "my hit", handed, "a"), "");
    assert.deepEqual(fight.undoStack(), [
      { tracker: round(1), what: "their hit" },
      { tracker: round(2), what: "my hit" },
    ]);
    const next = handOn(handed, base.text, local.getItem("t"), "a", local.getItem("u"));
    assert.equal(next.undo, local.getItem("u"));
    // Without the record the other tab's step would be lost: what the stale copy alone gives.
    const { fight: alone } = setUp({ t: text(1), u: "[]" });
    alone.save(round(3), round(1), "my hit");
    assert.deepEqual(alone.undoStack(), [{ tracker: round(1), what: "my hit" }]);
  });

  test("a turn that wrote nothing new hands on without stamping the same text twice", () => {
    const handed = handOn(null, text(1), text(2), "a");
    assert.deepEqual(handOn(handed, text(2), text(2), "a").stamps, handed.stamps);
  });

  test("the record keeps the last HANDED_STAMPS stamps", () => {
    let handed = null;
    for (let n = 1; n <= HANDED_STAMPS + 5; n++) handed = handOn(handed, text(n), text(n + 1), "a");
    assert.equal(handed.stamps.length, HANDED_STAMPS);
    assert.equal(handed.text, text(HANDED_STAMPS + 6));
    assert.equal(freshest(text(HANDED_STAMPS + 5), handed, "a"), handed.text);
    assert.equal(freshest(text(1), handed, "a"), text(1));
  });
});

describe("words for the page", () => {
  const tracker = { combatants: [{ id: "c1", name: "Ada" }] };

  test("an undo entry of an older version is the tracker alone", () => {
    assert.deepEqual(undoEntry({ tracker: round(1), what: "x" }), { tracker: round(1), what: "x" });
    assert.deepEqual(undoEntry(round(1)), { tracker: round(1), what: "the last change" });
  });

  test("the log's line names the action, without its round and full stop", () => {
    assert.equal(actionWords("R2: Ada takes 5 damage.", { type: "hit" }, tracker), "Ada takes 5 damage");
    assert.equal(actionWords("", { type: "update", id: "c1" }, tracker), "Ada's details changed");
  });

  test("an action with no log line is named in a few words", () => {
    assert.equal(describeAction({ type: "next" }, tracker), "next turn");
    assert.equal(describeAction({ type: "ruling" }, tracker), "a ruling changed");
    assert.equal(describeAction({ type: "new_fight" }, tracker), "new fight");
    assert.equal(describeAction({ type: "other" }, tracker), "other");
  });

  test("damage to save: only combatants from My character whose damage differs", () => {
    const combatants = [
      { id: "1", name: "Ada", damage: 4, character_id: "ch-a" },
      { id: "2", name: "Bob", damage: 1, character_id: "ch-b" },
      { id: "3", name: "Orc", damage: 9 },
      { id: "4", name: "Gone", damage: 2, character_id: "ch-x" },
    ];
    const characters = [{ id: "ch-a", damage: 0 }, { id: "ch-b", damage: 1 }];
    assert.deepEqual(unsavedDamage(combatants, characters), [{ id: "ch-a", name: "Ada", damage: 4, saved: characters[0] }]);
  });
});
