// Calculator engine client: one module Web Worker per tab running the bundled Pyodide,
// created on first use and kept alive across mkdocs-material's instant navigation.
// Every script that needs Python (calculators.js, character.js, tracker.js) goes through
// window.mnemeEngine. The worker file name is filled in at build (sitebuild/bundle.py).
// A call's arguments go as JSON text with Python's size and depth limits, measured by the worker
// before Python reads them. Every request has a deadline and the worker a heartbeat (lib/engine-watch.js):
// an engine that dies ({type: "fatal"}, an error, or silence) or hangs is replaced once by itself,
// and its start is stopped only when nothing more arrives (a slow download is never cut short). A start
// whose download was cut or stalled starts again by itself, from what had arrived (the worker keeps it),
// after a pause that doubles each time, a few times in a row (stats.retrying says what happens).
// window events: "mneme:engine-progress" {bytes, total}, "mneme:engine-phase" {step},
// "mneme:engine-down" {replaced, message}.
import { hideProgress, retryWords, showProgress } from "./lib/engine-progress.js";
import { createWatch } from "./lib/engine-watch.js";
import { pageSettings } from "./lib/page-settings.js";

function startEngines() {
  const WORKER_FILE = "__MNEME_WORKER__";
  const script = document.currentScript;
  const assets = new URL(".", script ? script.src : location.href);
  // Read at each engine start, so a test can change it between attempts. bootTimeoutMs: how long a
  // start may go with nothing new arriving (a download still making progress is never stopped);
  // silenceMs: how long the worker may say nothing while the page waits for it (a request, or the
  // heartbeat's ping every pingMs) before it counts as dead or hung (engine-watch.js); retries: how many
  // starts in a row a cut download is tried again by itself with nothing more arriving (the first
  // after retryMs, each next after twice as long).
  const config = () =>
    Object.assign(
      { bootTimeoutMs: 30000, silenceMs: 30000, pingMs: 5000, retries: 4, retryMs: 2000 },
      window.mnemeCalculatorConfig || {},
    );
  const stats = { engineStarts: 0, results: 0, restarts: 0, retries: 0, retrying: "", outdated: false };
  const retrying = { attempt: 0, total: 0, bytes: 0 }; // this run of automatic retries
  const KEEP_WAIT_MS = 2000; // how long a stalled worker may take to keep what arrived
  const PROGRESS_SHOWN_AFTER_MS = 400; // a returning visit's quick start shows no progress
  const warmed = new Set(); // calculators' names warmed so far: a replacement engine warms them too
  // Answers the worker found to write the HTML the page was built with (compute's `built` key): the
  // page leaves that HTML as it is (calculators.js).
  const asBuilt = new WeakSet();
  let engine = null;
  let callLimits = null;

  // The worker measures every request against these before Python sees it (size in characters,
  // nesting depth): Python's numbers (sitebuild/table_ui.py, "limits"), read from the page's
  // table settings. Without them the worker refuses every call.
  function limits() {
    if (!callLimits) {
      try {
        const given = pageSettings()?.limits;
        if (given) callLimits = { chars: given.call_chars, depth: given.call_depth };
      } catch (_) {
        /* no settings on this page: the worker refuses calls it cannot measure */
      }
    }
    return callLimits;
  }

  // What a refused call resolves to: the table modules' own refusal shape (a sentence for the page).
  function refusal(error) {
    return { ok: false, error, path: "" };
  }

  function mark(name) {
    try {
      if (performance.getEntriesByName(name).length === 0) performance.mark(name);
    } catch (_) {
      /* marks are best effort */
    }
  }

  function failedEngine(error) {
    const rejected = Promise.reject(error);
    rejected.catch(() => {});
    return {
      ready: rejected,
      failed: error,
      compute: () => rejected,
      call: () => rejected,
      post: () => rejected,
      warm: () => {},
    };
  }

  function tell(name, detail) {
    window.dispatchEvent(new CustomEvent(name, { detail }));
  }

  // A tab left open across a deploy (another tab pressed "Update now", or the site changed) asks for
  // files of its own build, which the site no longer has: its engine can never start again. The
  // worker's file, named by its content, says so: gone from the site (and from the offline copy).
  async function outdated() {
    try {
      const response = await fetch(new URL(WORKER_FILE, assets), { cache: "no-store" });
      return response.status === 404 || response.status === 410;
    } catch (_) {
      return false; // offline, or the server unreachable: nothing is known
    }
  }

  const OUTDATED =
    "the site has been updated since this page was opened: reload the page to use the new version " +
    "(what you have entered is kept)";

  // Started early: on a page with a calculator or a table app, a small script at the top
  // of <head> (sitebuild/early_engine.py) creates the worker before the page's stylesheets and scripts
  // load, and keeps what it says until this file takes it over (once, and only the same worker file).
  function adoptEarly() {
    const early = window.mnemeEarlyEngine;
    if (!early || early.adopted || !early.worker) return null;
    early.adopted = true;
    if (new URL(early.url, document.baseURI).href !== new URL(WORKER_FILE, assets).href) {
      early.worker.terminate();
      return null;
    }
    return early;
  }

  // One worker and what the page waits for from it. `replacement`: this engine replaces one that died
  // after starting; should it die too, it is not replaced by itself again (the page's Retry, or any
  // later request, starts a new one).
  function startEngine(replacement = false) {
    stats.engineStarts += 1;
    let worker;
    const early = replacement ? null : adoptEarly();
    if (early) worker = early.worker;
    else {
      mark("mneme:worker-start");
      try {
        if (typeof Worker !== "function") throw new Error("this browser has no Web Workers");
        worker = new Worker(new URL(WORKER_FILE, assets), { type: "module" });
      } catch (error) {
        return failedEngine(error instanceof Error ? error : new Error(String(error)));
      }
    }
    const pending = new Map(); // id -> {resolve, reject, message}
    let nextId = 1;
    let resolveReady;
    let rejectReady;
    const ready = new Promise((resolve, reject) => {
      resolveReady = resolve;
      rejectReady = reject;
    });
    ready.catch(() => {});
    const self = { ready, failed: null, started: false, compute, call, post, warm };
    const cfg = config();
    const startedAt = performance.now();
    const measures = {
      get bootTimeoutMs() {
        return config().bootTimeoutMs;
      },
      get silenceMs() {
        return config().silenceMs;
      },
    };
    const watch = createWatch({ now: startedAt, limits: measures });
    let lastPing = startedAt;
    let lastTick = startedAt;
    const tick = Math.min(1000, cfg.pingMs);
    // The heartbeat: while the page is shown (or waits for an answer), a ping every pingMs; at each
    // tick, a start that stalled or a worker that went silent fails this engine. A tick that comes
    // late (the tab was hidden or frozen, its timers held back) judges nothing: it starts again.
    const beat = setInterval(() => {
      const now = performance.now();
      const late = now - lastTick > 3 * tick + 1000;
      lastTick = now;
      if (late) return watch.paused(now);
      if (now - lastPing >= cfg.pingMs && (document.visibilityState !== "hidden" || pending.size)) {
        lastPing = now;
        watch.asked(now);
        worker.postMessage({ type: "ping" });
      }
      const verdict = watch.verdict(now);
      if (verdict?.lost) fail(Object.assign(new Error(verdict.reason), { fatal: true }));
      else if (verdict && !kept) {
        // A download that stopped arriving: the worker keeps what it has first; the next start goes on.
        keepWhatArrived().then((saved) => {
          if (self.started) kept = null; // it moved on meanwhile after all
          else fail(Object.assign(new Error(verdict.reason), { resumable: true, kept: saved === true }));
        });
      }
    }, tick);

    let kept = null; // resolves once the worker has kept what arrived (or has taken too long)
    function keepWhatArrived() {
      return new Promise((resolve) => {
        kept = resolve;
        setTimeout(resolve, KEEP_WAIT_MS, false);
        worker.postMessage({ type: "keep" });
      });
    }

    function fail(error) {
      if (self.failed) return;
      clearInterval(beat);
      self.failed = error;
      worker.terminate();
      rejectReady(error);
      if (engine === self) engine = null;
      // An engine that died or hangs (after starting, or while it started) is replaced once, by
      // itself, and what waited for it is asked again of the replacement, but the request it died on.
      let next = null;
      if (error.fatal && !replacement) {
        stats.restarts += 1;
        next = engine = startEngine(true);
        error.message = `the rules engine stopped (${error.message}) and was restarted: try again`;
      } else if (error.fatal) {
        error.message = `the rules engine stopped again (${error.message})`;
      } else if (error.resumable || retrying.attempt > 0) {
        // A download cut or stalled (or a start failing again while it is tried again): started again
        // by itself, later, from what had arrived; what waited for this one waits for that one.
        next = retryLater(error);
        if (next) error.next = engine = next;
      }
      if (!next || error.fatal) hideProgress(document);
      const waiting = Array.from(pending.entries());
      pending.clear();
      const settle = () => {
        for (const [id, waiter] of waiting) {
          if (next && id !== error.id) next.post(waiter.message).then(waiter.resolve, waiter.reject);
          else waiter.reject(error);
        }
        if (error.fatal) tell("mneme:engine-down", { replaced: Boolean(next), message: error.message });
      };
      if (error.fatal || next || !(error.checkBuild || error.resumable)) return settle();
      // A start that failed: first ask whether this page's build is still the site's.
      outdated().then((old) => {
        if (old) {
          stats.outdated = true;
          error.outdated = true;
          error.message = OUTDATED;
        }
        settle();
      });
    }

    const speak = {
      ready(msg) {
        mark("mneme:engine-ready");
        self.started = true;
        stats.timings = msg.timings;
        stats.build = msg.build; // the build of the wheel this engine runs
        Object.assign(retrying, { attempt: 0, total: 0, bytes: 0 });
        stats.retrying = "";
        hideProgress(document);
        resolveReady();
      },
      progress(msg) {
        // Bytes of the engine arrived while it starts, against its total: calculators.js says them
        // in the status line, and beside the answer once the start is not a quick one.
        // Started again after a cut: said once it has got past what had arrived before (never backwards).
        if (msg.bytes < retrying.bytes) return;
        stats.retrying = "";
        stats.downloaded = msg.bytes;
        stats.total = msg.total;
        if (!self.started && performance.now() - startedAt >= PROGRESS_SHOWN_AFTER_MS) {
          showProgress(document, msg.bytes, msg.total);
        }
        tell("mneme:engine-progress", { bytes: msg.bytes, total: msg.total });
      },
      "boot-failed"(msg) {
        const error = new Error(msg.error || "the engine failed to start");
        fail(Object.assign(error, { checkBuild: true, resumable: Boolean(msg.resumable), kept: Boolean(msg.kept) }));
      },
      kept(msg) {
        kept?.(Boolean(msg.kept));
      },
      phase(msg) {
        tell("mneme:engine-phase", { step: msg.step }); // a start that moves on (lib/theme-hold.js)
      },
      fatal(msg) {
        fail(Object.assign(new Error(msg.error || "the engine stopped"), { fatal: true, id: msg.id }));
      },
      result(msg) {
        if (msg.asBuilt && msg.payload && typeof msg.payload === "object") asBuilt.add(msg.payload);
        answered(msg, (waiter) => waiter.resolve(msg.payload));
      },
      failed(msg) {
        answered(msg, (waiter) => waiter.reject(Object.assign(new Error(msg.error), { computeFailed: true })));
      },
    };

    function answered(msg, settle) {
      const waiter = pending.get(msg.id);
      if (!waiter) return;
      pending.delete(msg.id);
      if (msg.ms !== undefined) stats.pythonMs = msg.ms;
      settle(waiter);
    }

    worker.onmessage = (event) => {
      if (self.failed) return;
      const msg = event.data || {};
      const now = performance.now();
      watch.heard(msg.type, now);
      speak[msg.type]?.(msg);
      if (pending.size && self.started) watch.stillWaiting(now); // a start has its own measure
    };
    worker.onerror = (event) => {
      event.preventDefault();
      // Before it has started: its file did not load (perhaps no longer on the site); after: it broke.
      const error = new Error(event.message || "the engine failed to load");
      fail(Object.assign(error, self.started ? { fatal: true } : { checkBuild: true }));
    };
    if (early) {
      // What the worker said before this file loaded, in order, once this engine is the page's (a
      // microtask: before any newer message); from now on it comes straight here.
      queueMicrotask(() => {
        for (const event of early.heard.splice(0)) {
          if (event.type === "error") worker.onerror(event);
          else worker.onmessage(event);
        }
      });
    }

    // Post the message under a fresh id; the worker answers once it has started.
    function post(message) {
      return new Promise((resolve, reject) => {
        if (self.failed) return reject(self.failed);
        const id = nextId++;
        pending.set(id, { resolve, reject, message });
        if (self.started) watch.asked(performance.now()); // a start has its own measure
        worker.postMessage({ ...message, id, limits: limits() });
      });
    }

    // A table app's call waits for the engine: by then the page's limits have been parsed. A start
    // tried again by itself hands the call on to the next one.
    function send(message) {
      return ready.then(
        () => post(message),
        (error) => (error.next ? error.next.post(message) : Promise.reject(error)),
      );
    }

    // A calculator's result is asked for at once: the worker computes it the moment it
    // has started, and sends it right after saying so, without waiting for the page to ask again
    // (on a phone the page is often still busy then: its theme's script runs as the engine starts).
    // `built`: the key of the result HTML the page shows as built (data-built), while it does.
    function compute(name, values, root, built) {
      return post({ type: "compute", name, values, root, built });
    }

    // The arguments travel as JSON text, so the worker can measure them before anything parses them.
    function call(module, name, args) {
      let text;
      try {
        text = JSON.stringify(args);
      } catch (_) {
        return Promise.resolve(refusal("This is too deeply nested to be read."));
      }
      return send({ type: "call", module, name, args: text });
    }

    function warm(names) {
      for (const name of String(names || "").split(",")) if (name) warmed.add(name);
      if (!self.failed) worker.postMessage({ type: "warm", names });
    }

    if (warmed.size) warm(Array.from(warmed).join(","));
    return self;
  }

  // A start cut short, started again after `wait` ms (doubling each time in a row): an engine that
  // begins then, unless the site has moved to another build meanwhile (then it says to reload). null
  // when it has been tried often enough with nothing more arriving: the page offers Retry.
  function retryLater(error) {
    const cfg = config();
    const bytes = stats.downloaded || 0;
    if (bytes > retrying.bytes) {
      retrying.bytes = bytes; // it got further than the last time: a fresh run of tries
      retrying.attempt = 0;
    }
    if (retrying.attempt >= cfg.retries || retrying.total >= 5 * cfg.retries) return null;
    retrying.attempt += 1;
    retrying.total += 1;
    stats.retries += 1;
    const wait = cfg.retryMs * 2 ** (retrying.attempt - 1);
    const say = (when) => {
      const from = error.kept ? ", from what has arrived" : "";
      stats.retrying = `Interrupted (${error.message}): trying again ${when}${from} (${retrying.attempt} of ${cfg.retries}).`;
      if (stats.total) showProgress(document, stats.downloaded || 0, stats.total, retryWords(stats.downloaded, stats.total, when));
      tell("mneme:engine-progress", { bytes: stats.downloaded || 0, total: stats.total || 0 });
    };
    say(`in ${Math.max(1, Math.round(wait / 1000))} s`);
    let begin;
    const begun = new Promise((resolve) => {
      begin = resolve;
    });
    const later = {
      ready: begun.then((next) => next.ready),
      failed: null,
      started: false,
      compute: (...args) => begun.then((next) => next.compute(...args)),
      call: (...args) => begun.then((next) => next.call(...args)),
      post: (message) => begun.then((next) => next.post(message)),
      warm: (names) => begun.then((next) => next.warm(names)),
    };
    later.ready.catch(() => {});
    setTimeout(async () => {
      let next;
      if (await outdated()) {
        stats.outdated = true;
        stats.retrying = "";
        hideProgress(document);
        next = failedEngine(Object.assign(new Error(OUTDATED), { outdated: true }));
      } else {
        say("now");
        next = startEngine();
      }
      if (engine === later) engine = next.failed ? null : next;
      begin(next);
    }, wait);
    return later;
  }

  function getEngine() {
    if (engine) return engine;
    // A page of a build the site no longer has cannot start an engine: it says to reload.
    if (stats.outdated) return failedEngine(Object.assign(new Error(OUTDATED), { outdated: true }));
    retrying.attempt = 0; // asked again (the player's Retry, an edit): a fresh run of tries
    stats.retrying = "";
    const started = startEngine();
    if (!started.failed) engine = started; // a failed start is retried on the next request
    return started;
  }

  // call(module, name, args): ask a Python module of the calculators package (one with call_json)
  // through the shared engine, starting it if needed; resolves to that module's JSON answer.
  function call(module, name, args) {
    return getEngine().call(String(module), String(name), args || {});
  }

  // writesAsBuilt(payload): whether a computed answer writes the HTML its page was built with.
  window.mnemeEngine = { stats, get: getEngine, call, mark, writesAsBuilt: (payload) => asBuilt.has(payload) };
}

if (!window.mnemeEngine) startEngines();
