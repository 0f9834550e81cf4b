import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { progressWords, retryWords } from "../../browser/lib/engine-progress.js";
import { createWatch } from "../../browser/lib/engine-watch.js";

const LIMITS = { limits: { bootTimeoutMs: 30_000, silenceMs: 20_000 } };

describe("the engine's heartbeat", () => {
  test("never stops a slow start that keeps making progress", () => {
    const watch = createWatch({ now: 0, ...LIMITS });
    // 9.6 MB at 100 KB/s: 96 s of download, a chunk every half second, the page pinging every 5 s.
    for (let at = 0; at <= 96_000; at += 500) {
      if (at % 5000 === 0) watch.asked(at);
      watch.heard("progress", at);
      assert.equal(watch.verdict(at), null, `at ${at} ms`);
    }
    watch.heard("ready", 97_000);
    assert.equal(watch.verdict(200_000), null); // started, idle, nothing asked: nothing to judge
  });

  test("stops a start whose download no longer arrives, though the worker still answers", () => {
    const watch = createWatch({ now: 0, ...LIMITS });
    watch.heard("progress", 1000);
    for (let at = 5000; at <= 31_000; at += 5000) {
      watch.asked(at);
      watch.heard("pong", at + 5); // alive, but nothing more arrives
    }
    assert.equal(watch.verdict(31_000), null);
    const verdict = watch.verdict(31_001);
    assert.equal(verdict.lost, false);
    assert.equal(verdict.reason, "its download stopped: nothing arrived for 30 s");
  });

  test("allows a starting worker the start's measure of silence (Python's start keeps it busy)", () => {
    const watch = createWatch({ now: 0, ...LIMITS });
    watch.asked(1000);
    assert.equal(watch.verdict(25_000), null);
    assert.deepEqual(watch.verdict(31_001), { lost: true, reason: "it did not answer for 30 s" });
  });

  test("reads its limits at each verdict", () => {
    const limits = { bootTimeoutMs: 30_000, silenceMs: 20_000 };
    const watch = createWatch({ now: 0, limits });
    watch.heard("ready", 0);
    watch.asked(0);
    assert.equal(watch.verdict(5000), null);
    limits.silenceMs = 3000;
    assert.equal(watch.verdict(5000).lost, true);
  });

  test("a start whose worker is busy (Python's start) is judged by silence, not as stalled", () => {
    const watch = createWatch({ now: 0, ...LIMITS });
    watch.heard("progress", 1000);
    watch.asked(2000); // a ping the busy worker has not answered yet
    assert.equal(watch.verdict(31_500), null);
    watch.heard("pong", 31_500);
    assert.equal(watch.verdict(31_600).lost, false); // answering again, and still nothing arrives
  });

  test("a step of the start counts as progress", () => {
    const watch = createWatch({ now: 0, ...LIMITS });
    watch.heard("phase", 25_000);
    assert.equal(watch.verdict(50_000), null);
    assert.equal(watch.verdict(55_001).lost, false);
  });

  test("finds a worker that says nothing while the page waits: dead or hung", () => {
    const watch = createWatch({ now: 0, ...LIMITS });
    watch.heard("ready", 1000);
    watch.asked(10_000); // a request (or a ping) that is never answered
    watch.asked(15_000); // a later one does not move the wait
    assert.equal(watch.verdict(30_000), null);
    assert.deepEqual(watch.verdict(30_001), { lost: true, reason: "it did not answer for 20 s" });
  });

  test("each answer restarts the wait for the requests still pending", () => {
    const watch = createWatch({ now: 0, ...LIMITS });
    watch.heard("ready", 0);
    watch.asked(0);
    watch.heard("result", 19_000);
    watch.stillWaiting(19_000); // another request is still pending
    assert.equal(watch.verdict(39_000), null);
    assert.equal(watch.verdict(39_001).lost, true);
  });

  test("a tab whose timers were held back judges nothing until it has waited again", () => {
    const watch = createWatch({ now: 0, ...LIMITS });
    watch.heard("ready", 0);
    watch.asked(1000);
    watch.paused(600_000); // hidden for ten minutes; the pong may still be on its way
    assert.equal(watch.verdict(600_001), null);
    assert.equal(watch.verdict(620_001).lost, true);
  });
});

describe("the engine's progress in words", () => {
  test("says whole kB arrived of the whole engine, never past the total", () => {
    assert.equal(progressWords(3_149_400, 11_837_000), "Loading the engine: 3149 of 11837 kB");
    assert.equal(progressWords(0, 11_837_000), "Loading the engine: 0 of 11837 kB");
    assert.equal(progressWords(12_000_000, 11_837_000), "Loading the engine: 11837 of 11837 kB");
    assert.equal(progressWords(2_239_000, 0), "Loading the engine: 2239 kB");
    assert.equal(retryWords(4_000_400, 12_085_470, "in 2 s"), "Retrying in 2 s: 4000 of 12085 kB");
    assert.equal(retryWords(0, 0, "now"), "Retrying now: 0 kB");
    assert.equal(progressWords(undefined, undefined), "Loading the engine: 0 kB");
  });
});
