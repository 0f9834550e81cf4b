// Small tasks (lib/tasks.js): each step after a yield runs in a task of its own, never as a microtask
// of the step before; what waits for idle or a frame has a deadline.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { afterFrame, nextTask, whenIdle } from "../../browser/lib/tasks.js";

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
