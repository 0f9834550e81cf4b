// Keeping the screen awake while a fight is open (Screen Wake Lock): asked for while the page shows
// combatants, asked again when the page comes back into view (the browser drops it when hidden),
// released when the fight empties or the page is left. Where the browser has no wake lock, nothing.

export function createWakeKeeper(onChange = () => {}) {
  let lock = null;
  let wanted = false;
  let asking = false;

  async function ask() {
    if (!wanted || lock || asking || document.visibilityState !== "visible" || !navigator.wakeLock?.request) return;
    asking = true;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener?.("release", () => {
        lock = null;
        onChange(false);
      });
      if (!wanted) await release();
      else onChange(true);
    } catch (_) {
      lock = null; // refused (battery saver, not visible): the screen may dim as usual
    } finally {
      asking = false;
    }
  }

  async function release() {
    const held = lock;
    lock = null;
    if (held) {
      try {
        await held.release();
      } catch (_) {
        /* already released */
      }
      onChange(false);
    }
  }

  const visible = () => ask();
  document.addEventListener("visibilitychange", visible);

  return {
    // Keep the screen awake (true) or let it sleep (false).
    want(value) {
      wanted = value;
      if (value) ask();
      else release();
    },
    // The page is left: let the screen sleep and stop listening.
    stop() {
      wanted = false;
      document.removeEventListener("visibilitychange", visible);
      release();
    },
    held: () => Boolean(lock),
  };
}
