import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { canonical, mergeCharacter, mergeList, nestsDeeper, same } from "../../browser/lib/documents.js";

describe("same data", () => {
  test("key order does not matter, at any depth", () => {
    assert.equal(same({ a: 1, b: { c: 2, d: [1, { e: 3, f: 4 }] } }, { b: { d: [1, { f: 4, e: 3 }], c: 2 }, a: 1 }), true);
    assert.deepEqual(Object.keys(canonical({ b: 1, a: 2 })), ["a", "b"]);
  });

  test("array order and values do", () => {
    assert.equal(same([1, 2], [2, 1]), false);
    assert.equal(same({ a: 1 }, { a: "1" }), false);
  });
});

describe("merging one character with another tab's edit", () => {
  const base = { name: "Ada", armor: 1, notes: "", characteristics: { strength: 7, dexterity: 7 } };

  test("what this tab changed wins; the other tab's changes elsewhere are kept", () => {
    const mine = { ...base, name: "Ada L." };
    const theirs = { ...base, armor: 3 };
    assert.deepEqual(mergeCharacter(base, mine, theirs), { ...base, name: "Ada L.", armor: 3 });
  });

  test("characteristics merge one by one", () => {
    const mine = { ...base, characteristics: { strength: 9, dexterity: 7 } };
    const theirs = { ...base, characteristics: { strength: 7, dexterity: 4 } };
    assert.deepEqual(mergeCharacter(base, mine, theirs).characteristics, { strength: 9, dexterity: 4 });
  });

  test("both changed one field: this tab's (the newer edit) wins", () => {
    const merged = mergeCharacter(base, { ...base, armor: 2 }, { ...base, armor: 5 });
    assert.equal(merged.armor, 2);
  });

  test("with no base or no other version, this tab's version stands", () => {
    const mine = { ...base, armor: 2 };
    assert.equal(mergeCharacter(null, mine, base), mine);
    assert.equal(mergeCharacter(base, mine, null), mine);
  });
});

describe("merging lists item by item", () => {
  const melee = { name: "Melee", level: 1 };
  const recon = { name: "Recon", level: 2 };
  const tactics = { name: "Tactics", level: 0 };
  const base = { name: "Ada", skills: [melee] };

  test("two tabs each adding a skill keep both", () => {
    const merged = mergeCharacter(base, { ...base, skills: [melee, recon] }, { ...base, skills: [melee, tactics] });
    assert.deepEqual(merged.skills, [melee, recon, tactics]);
  });

  test("merging again changes nothing (the other tab's merge of the same two)", () => {
    const once = mergeList([melee], [melee, recon], [melee, tactics]);
    assert.deepEqual(mergeList([melee], [melee, tactics], once), once);
  });

  test("an item removed here goes; one the other tab added stays", () => {
    assert.deepEqual(mergeList([melee, recon], [recon], [melee, recon, tactics]), [recon, tactics]);
  });

  test("an item edited here in place is edited where it now is in theirs", () => {
    const better = { ...melee, level: 3 };
    assert.deepEqual(mergeList([melee, recon], [better, recon], [tactics, melee, recon]), [tactics, better, recon]);
  });

  test("both tabs edited the same item: this tab's edit wins", () => {
    assert.deepEqual(mergeList([melee], [{ ...melee, level: 4 }], [{ ...melee, level: 2 }]), [{ ...melee, level: 4 }]);
  });

  test("the same item added by both tabs is kept once", () => {
    assert.deepEqual(mergeList([melee], [melee, recon], [melee, recon]), [melee, recon]);
  });

  test("nothing changed on one side: the other side's list", () => {
    assert.deepEqual(mergeList([melee], [melee], [recon]), [recon]);
    assert.deepEqual(mergeList([melee], [recon], [melee]), [recon]);
  });
});

describe("measuring nesting before anything parses", () => {
  test("depth counts arrays and objects, not brackets inside strings", () => {
    assert.equal(nestsDeeper('{"a": [[1]]}', 3), false);
    assert.equal(nestsDeeper('{"a": [[[1]]]}', 3), true);
    assert.equal(nestsDeeper('{"a": "[[[[[[", "b": "\\"[[[["}', 1), false);
    assert.equal(nestsDeeper("[".repeat(7400), 16), true);
  });
});
