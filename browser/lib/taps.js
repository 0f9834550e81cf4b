// Every tap once: a tap on the same action again within a short window is the same tap (a finger
// that bounced, a double tap on a slow phone), unless the action is meant to repeat (a +1 stepper);
// and actions run one at a time, in the order tapped, across this device's tabs (none is dropped
// because another is still running). Pure: the clock and the browser's lock manager come in.

import { canonical, isObject } from "./documents.js";

export const TAP_WINDOW_MS = 400;

// What makes two taps "the same action": the action as data, less what differs at every tap
// (a fresh dice seed).
export function tapKey(action) {
  if (!isObject(action)) return String(action);
  const { seed: _seed, ...rest } = action;
  if (isObject(rest.combatant)) {
    const { seed: _s, ...combatant } = rest.combatant;
    rest.combatant = combatant;
  }
  return JSON.stringify(canonical(rest));
}

// `counts(key)`: whether a tap on `key` counts now; a second tap within `windowMs` of the last
// counted one does not (and does not restart the window, so steady taps a window apart all count).
export function createTapGuard({ now = () => Date.now(), windowMs = TAP_WINDOW_MS } = {}) {
  const last = new Map();
  function counts(key) {
    const t = now();
    const previous = last.get(key);
    if (previous !== undefined && t - previous < windowMs) return false;
    last.set(key, t);
    return true;
  }
  return { counts };
}

// Runs jobs one after another: `run(job)` answers a promise of job()'s result, once every job
// queued before it has finished (or failed). With `locks` (navigator.locks), each job also holds
// the lock `name`, so tabs of this site on this device take turns: each reads what the one before
// it wrote. Without it (an old browser), the tab's own jobs still take turns.
export function createQueue({ name, locks = null }) {
  let tail = Promise.resolve();
  let waiting = 0;
  function run(job) {
    waiting += 1;
    const held = () => (locks && typeof locks.request === "function" ? locks.request(name, () => job()) : job());
    const done = tail.then(held, held);
    tail = done.then(
      () => {
        waiting -= 1;
      },
      () => {
        waiting -= 1;
      },
    );
    return done;
  }
  return { run, pending: () => waiting };
}
