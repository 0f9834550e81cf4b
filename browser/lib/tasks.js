// Main-thread work in small tasks. Lighthouse (and a phone) counts every task of the page's main thread
// longer than 50 ms as blocking: our own steps give the thread back between them, and what can wait
// until the page is idle does.

// A promise resolved in a task of its own: scheduler.yield() where the browser has it (the rest goes
// ahead of other queued work, after input and drawing), else a MessageChannel hop (no timer clamp).
export function nextTask() {
  const scheduler = globalThis.scheduler;
  if (scheduler && typeof scheduler.yield === "function") return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

// How long what waits for an idle page waits at most: one figure for all of them.
export const IDLE_WAIT_MS = 2000;

// A promise resolved once the main thread is idle, or after `timeoutMs` at the latest (a browser
// without requestIdleCallback: in a task of its own).
export function whenIdle(timeoutMs = IDLE_WAIT_MS) {
  if (typeof globalThis.requestIdleCallback !== "function") return nextTask();
  return new Promise((resolve) => globalThis.requestIdleCallback(() => resolve(), { timeout: timeoutMs }));
}

// A promise resolved after the next frame is drawn (a task after it), or after `fallbackMs` in a tab
// that draws no frames (hidden).
export function afterFrame(fallbackMs = 250) {
  return new Promise((resolve) => {
    let done = false;
    const go = () => {
      if (!done) resolve();
      done = true;
    };
    requestAnimationFrame(() => setTimeout(go, 0));
    setTimeout(go, fallbackMs);
  });
}

// A pause in the player's input: what is heavy and can wait (the theme's start, the offline copy's
// registration, "use my character") starts only once the player has neither typed nor tapped for
// QUIET_MS, and the page is idle. An idle page alone is no pause: between two edits the main thread is
// idle while the engine computes, and a third of a second of the theme's script there held the next
// answer that long (its mounting, over half a second). The pause counts from the first answer too: a
// player reads it, then edits (a phone's edit half a second to a second after it waited for the theme).
// QUIET_WAIT_MS bounds the wait: a player who never pauses still gets them.
export const QUIET_MS = 1500;
export const QUIET_WAIT_MS = 10000;
const INPUT_EVENTS = ["keydown", "pointerdown", "input", "change"];
const watched = new WeakSet();
let lastInput = Number.NEGATIVE_INFINITY;

function heardInput() {
  lastInput = performance.now();
}

// The player's input is heard from the first wait on (document's capture phase, passive).
function watchInput(target) {
  if (!target || typeof target.addEventListener !== "function" || watched.has(target)) return;
  watched.add(target);
  for (const type of INPUT_EVENTS) target.addEventListener(type, heardInput, { capture: true, passive: true });
}

// A promise resolved once the player has not typed or tapped for `quietMs`, counted from `from` at the
// earliest (a wait begun as an answer shows: the player may be about to edit), and then the page is
// idle; at `until` at the latest (timestamps of performance.now()). Several steps of one start share
// `from` and `until`: each after the first resolves at the next idle moment while the pause lasts.
export function whenQuiet({ quietMs = QUIET_MS, from = performance.now(), until = from + QUIET_WAIT_MS, target } = {}) {
  watchInput(target || globalThis.document);
  return new Promise((resolve) => {
    const check = () => {
      const now = performance.now();
      if (now >= until) return resolve();
      const quietFor = now - Math.max(lastInput, from);
      if (quietFor < quietMs) return setTimeout(check, Math.min(quietMs - quietFor, until - now));
      const heard = lastInput;
      // Idle, then still no input since the pause was seen (else the player is back: wait again).
      whenIdle(Math.min(IDLE_WAIT_MS, Math.max(1, until - now))).then(() =>
        lastInput === heard || performance.now() >= until ? resolve() : check(),
      );
    };
    check();
  });
}
