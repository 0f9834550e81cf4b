// The engine's heartbeat, as pure logic (engine.js keeps one per worker; tests/js/engine-watch.test.mjs).
// Two questions, asked on each tick of a timer with the time now (ms):
// - stalled: the start has not moved (no byte arrived, no step reached) for `bootTimeoutMs` while the
//   worker answers (it waits for the network, not on its own work). A slow download that is still
//   making progress is never stopped, however long it takes.
// - silent: the page has been waiting for the worker (a request, or a heartbeat's ping) and the worker
//   has said nothing at all for `silenceMs`: it died without a word, or hangs (a loop in Python).
// Any message from the worker is a sign of life; progress and steps are also signs of a start moving.

// `limits` is read at each verdict ({bootTimeoutMs, silenceMs}: a page may change them meanwhile). While
// the engine starts, its thread may be busy for seconds at a time (Python's start): the silence allowed
// then is the larger of the two.
export function createWatch({ now, limits }) {
  let started = false;
  let moved = now; // when the start last moved
  let waitingSince = null; // when the page began waiting for a word it has not had yet
  return {
    // A message from the worker: `kind` "progress" or "phase" (the start moved), "ready", or any other.
    heard(kind, at) {
      waitingSince = null;
      if (kind === "progress" || kind === "phase") moved = at;
      if (kind === "ready") started = true;
    },
    // The page asked something (a request, a ping) and waits for the worker to answer.
    asked(at) {
      if (waitingSince === null) waitingSince = at;
    },
    // Still waiting after a message (other requests not answered yet): the wait starts again now.
    stillWaiting(at) {
      waitingSince = at;
    },
    // The page's timers did not run for a while (a hidden or frozen tab): what was waited for is
    // measured again from now, as the worker's answers may still be on their way.
    paused(at) {
      if (waitingSince !== null) waitingSince = at;
      moved = at;
    },
    // null while all is well; else a sentence saying what went wrong, and whether the worker is lost
    // (it hangs or died: replace it) or only its start stalled (a download that no longer arrives).
    verdict(at) {
      const { bootTimeoutMs, silenceMs } = limits;
      const silence = started ? silenceMs : Math.max(silenceMs, bootTimeoutMs);
      if (waitingSince !== null && at - waitingSince > silence) {
        return { lost: true, reason: `it did not answer for ${seconds(silence)}` };
      }
      if (!started && waitingSince === null && at - moved > bootTimeoutMs) {
        return { lost: false, reason: `its download stopped: nothing arrived for ${seconds(bootTimeoutMs)}` };
      }
      return null;
    },
  };
}

function seconds(ms) {
  return `${Math.round(ms / 1000)} s`;
}
