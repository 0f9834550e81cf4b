// Small tasks (lib/tasks.js): each step after a yield runs in a task of its own, never as a microtask
// of the step before; what waits for idle, a frame or a pause in the player's input has a deadline.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { afterFrame, nextTask, QUIET_MS, QUIET_WAIT_MS, whenIdle, whenQuiet } from "../../browser/lib/tasks.js";

const saved = { scheduler: globalThis.scheduler, idle: globalThis.requestIdleCallback, raf: globalThis.requestAnimationFrame };
afterEach(() => {
  globalThis.scheduler = saved.scheduler;
  globalThis.requestIdleCallback = saved.idle;
  globalThis.requestAnimationFrame = saved.raf;
});

// How many microtasks had run when `waiting` resolved (a long chain is queued first).
async function microtasksBefore(waiting) {
  let ran = 0;
  let chain = Promise.resolve();
  for (let i = 0; i < 1000; i++) chain = chain.then(() => ran++);
  await waiting;
  return ran;
}

test("without scheduler.yield, the next step waits for a new task (a MessageChannel hop)", async () => {
  globalThis.scheduler = undefined;
  assert.equal(await microtasksBefore(nextTask()), 1000);
});

test("with scheduler.yield, it is the browser's yield", async () => {
  let asked = 0;
  globalThis.scheduler = {
    yield() {
      asked++;
      return new Promise((resolve) => setTimeout(resolve, 0));
    },
  };
  assert.equal(await microtasksBefore(nextTask()), 1000);
  assert.equal(asked, 1);
});

test("idle: the browser's idle callback with the deadline given; without one, the next task", async () => {
  const asked = [];
  globalThis.requestIdleCallback = (run, options) => {
    asked.push(options.timeout);
    setTimeout(run, 0);
  };
  await whenIdle(2000);
  assert.deepEqual(asked, [2000]);
  globalThis.requestIdleCallback = undefined;
  globalThis.scheduler = undefined;
  assert.equal(await microtasksBefore(whenIdle(2000)), 1000);
});

test("after a frame: a task after it, or the fallback in a tab that draws none", async () => {
  let frame = null;
  globalThis.requestAnimationFrame = (run) => (frame = run);
  let done = false;
  const waiting = afterFrame(20).then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(done, false); // no frame yet
  frame();
  await waiting;
  assert.equal(done, true);
  globalThis.requestAnimationFrame = () => {}; // hidden: no frame ever
  const started = Date.now();
  await afterFrame(30);
  assert.ok(Date.now() - started >= 25);
});

// A page's document stand-in: the player's input is an event on it.
function fakePage() {
  const page = new EventTarget();
  page.type = (kind = "input") => page.dispatchEvent(new Event(kind));
  return page;
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("a pause: the player's quiet time counts from the wait's start, and idle follows it", async () => {
  const page = fakePage();
  let idleAsked = 0;
  globalThis.requestIdleCallback = (run) => {
    idleAsked++;
    setTimeout(run, 0);
  };
  const started = performance.now();
  await whenQuiet({ quietMs: 60, target: page });
  const waited = performance.now() - started;
  assert.ok(waited >= 55 && waited < 1000, waited); // no input at all: the quiet time, not the bound
  assert.equal(idleAsked, 1);
});

test("a pause: each key, tap or edit starts the quiet time again", async () => {
  const page = fakePage();
  globalThis.requestIdleCallback = (run) => setTimeout(run, 0);
  const started = performance.now();
  let done = 0;
  const waiting = whenQuiet({ quietMs: 80, target: page }).then(() => (done = performance.now()));
  for (const kind of ["keydown", "input", "pointerdown", "change"]) {
    await sleep(40);
    assert.equal(done, 0, kind);
    page.type(kind);
  }
  await waiting;
  const lastInputAt = 160; // four inputs 40 ms apart
  assert.ok(done - started >= lastInputAt + 75, done - started);
});

test("a pause: input between the pause and the idle moment waits for the next pause", async () => {
  const page = fakePage();
  let idle = null;
  globalThis.requestIdleCallback = (run) => (idle = run);
  let done = false;
  const waiting = whenQuiet({ quietMs: 30, target: page }).then(() => (done = true));
  await sleep(50);
  assert.ok(idle); // the pause seen: idle asked for
  page.type(); // the player is back before the page was idle
  const first = idle;
  idle = null;
  first();
  await sleep(10);
  assert.equal(done, false);
  await sleep(40);
  assert.ok(idle); // a new pause, a new idle moment
  idle();
  await waiting;
  assert.equal(done, true);
});

test("a player who never pauses still gets what waits, at the bound", async () => {
  const page = fakePage();
  globalThis.requestIdleCallback = (run) => setTimeout(run, 0);
  const from = performance.now();
  const typing = setInterval(() => page.type(), 10);
  try {
    await whenQuiet({ quietMs: 50, from, until: from + 150, target: page });
    const waited = performance.now() - from;
    assert.ok(waited >= 145 && waited < 600, waited);
  } finally {
    clearInterval(typing);
  }
  // The defaults: a pause of a second and a half, ten seconds at most.
  assert.deepEqual([QUIET_MS, QUIET_WAIT_MS], [1500, 10000]);
});

test("steps of one start share its beginning: a later step resolves at the next idle moment", async () => {
  const page = fakePage();
  globalThis.requestIdleCallback = (run) => setTimeout(run, 0);
  const from = performance.now();
  await whenQuiet({ quietMs: 40, from, target: page });
  const second = performance.now();
  await whenQuiet({ quietMs: 40, from, target: page });
  assert.ok(performance.now() - second < 30);
});
