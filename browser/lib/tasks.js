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

// How long what waits for an idle page waits at most (the theme's script, the offline copy's
// registration, "use my character"): one figure for all of them.
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
