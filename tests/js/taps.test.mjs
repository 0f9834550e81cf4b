import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createQueue, createTapGuard, TAP_WINDOW_MS, tapKey } from "../../browser/lib/taps.js";

describe("every tap once", () => {
  test("a second tap on the same action within the window counts once; after it, again", () => {
    let t = 1000;
    const taps = createTapGuard({ now: () => t });
    assert.equal(taps.counts("next"), true);
    t += 120;
    assert.equal(taps.counts("next"), false);
    t += 180; // 300 ms after the first: still the same tap
    assert.equal(taps.counts("next"), false);
    t = 1000 + TAP_WINDOW_MS;
    assert.equal(taps.counts("next"), true);
  });

  test("taps on different actions all count", () => {
    const taps = createTapGuard({ now: () => 5 });
    assert.equal(taps.counts(tapKey({ type: "hit", id: "c1", rolls: "5" })), true);
    assert.equal(taps.counts(tapKey({ type: "hit", id: "c2", rolls: "5" })), true);
    assert.equal(taps.counts(tapKey({ type: "hit", id: "c1", rolls: "6" })), true);
    assert.equal(taps.counts(tapKey({ type: "hit", id: "c1", rolls: "5" })), false);
  });

  test("the same action with a fresh dice seed is the same tap (Add my character twice)", () => {
    const add = (seed) => ({ type: "add", combatant: { name: "Ada", character_id: "ch-a", seed } });
    assert.equal(tapKey(add(11)), tapKey(add(99)));
    assert.equal(tapKey({ type: "roll", id: "c1", seed: 1 }), tapKey({ id: "c1", seed: 2, type: "roll" }));
    assert.notEqual(tapKey(add(1)), tapKey({ type: "add", combatant: { name: "Bob", seed: 1 } }));
  });
});

describe("one action at a time", () => {
  test("jobs run in the order given, each after the one before has finished, failures included", async () => {
    const queue = createQueue({ name: "q" });
    const seen = [];
    const slow = (label, ms, fail) => () =>
      new Promise((resolve, reject) =>
        setTimeout(() => {
          seen.push(label);
          if (fail) reject(new Error(label));
          else resolve(label);
        }, ms),
      );
    const a = queue.run(slow("a", 30));
    const b = queue.run(slow("b", 1, true));
    const c = queue.run(slow("c", 1));
    assert.equal(queue.pending(), 3);
    assert.equal(await a, "a");
    await assert.rejects(b, /b/);
    assert.equal(await c, "c");
    assert.deepEqual(seen, ["a", "b", "c"]);
    assert.equal(queue.pending(), 0);
  });

  test("with a lock manager, every job runs holding the named lock", async () => {
    const held = [];
    const locks = {
      request: (name, job) => {
        held.push(name);
        return job();
      },
    };
    const queue = createQueue({ name: "fight:turns", locks });
    assert.equal(await queue.run(() => 7), 7);
    assert.equal(await queue.run(async () => 8), 8);
    assert.deepEqual(held, ["fight:turns", "fight:turns"]);
  });
});
