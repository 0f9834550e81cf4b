// Calculator engine client: one module Web Worker per tab running the bundled Pyodide,
// created on first use and kept alive across mkdocs-material's instant navigation.
// Every script that needs Python (calculators.js, character.js, tracker.js) goes through
// window.mnemeEngine. The worker file name is filled in at build (sitebuild/bundle.py).
// A call's arguments go as JSON text with Python's size and depth limits, measured by the worker
// before Python reads them; an engine that dies ({type: "fatal"}) is restarted once by itself.
import { pageSettings } from "./lib/page-settings.js";

function startEngines() {
  const WORKER_FILE = "__MNEME_WORKER__";
  const script = document.currentScript;
  const assets = new URL(".", script ? script.src : location.href);
  // Read at each engine start, so a test can change it between attempts.
  const config = () => Object.assign({ bootTimeoutMs: 60000 }, window.mnemeCalculatorConfig || {});
  const stats = { engineStarts: 0, results: 0, restarts: 0 };
  const MAX_RESTARTS = 1;
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
    return { ready: rejected, failed: error, compute: () => rejected, call: () => rejected, warm: () => {} };
  }

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

  function startEngine() {
    stats.engineStarts += 1;
    let worker;
    const early = adoptEarly();
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
    const pending = new Map();
    let nextId = 1;
    let resolveReady;
    let rejectReady;
    const ready = new Promise((resolve, reject) => {
      resolveReady = resolve;
      rejectReady = reject;
    });
    ready.catch(() => {});
    const self = { ready, failed: null, compute, call, warm };
    const timer = setTimeout(
      () => fail(new Error("the engine took too long to start")),
      config().bootTimeoutMs,
    );

    function fail(error) {
      clearTimeout(timer);
      if (self.failed) return;
      self.failed = error;
      worker.terminate();
      rejectReady(error);
      if (engine === self) engine = null;
      // An engine that died after starting is replaced once, by itself; a second death waits for
      // the page's Retry (any later request starts a new engine too).
      if (error.fatal && stats.restarts < MAX_RESTARTS) {
        stats.restarts += 1;
        engine = startEngine();
        error.message = `the rules engine stopped (${error.message}) and was restarted: try again`;
      } else if (error.fatal) {
        error.message = `the rules engine stopped again (${error.message})`;
      }
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
    }

    worker.onmessage = (event) => {
      const msg = event.data || {};
      if (msg.type === "ready") {
        clearTimeout(timer);
        mark("mneme:engine-ready");
        stats.timings = msg.timings;
        stats.build = msg.build; // the build of the wheel this engine runs
        resolveReady();
      } else if (msg.type === "progress") {
        // Bytes downloaded while the engine starts: calculators.js shows them.
        stats.downloaded = msg.bytes;
        window.dispatchEvent(new CustomEvent("mneme:engine-progress", { detail: { bytes: msg.bytes } }));
      } else if (msg.type === "boot-failed") {
        fail(new Error(msg.error || "the engine failed to start"));
      } else if (msg.type === "fatal") {
        fail(Object.assign(new Error(msg.error || "the engine stopped"), { fatal: true }));
      } else if (msg.type === "result" || msg.type === "failed") {
        const waiter = pending.get(msg.id);
        if (!waiter) return;
        pending.delete(msg.id);
        if (msg.ms !== undefined) stats.pythonMs = msg.ms;
        if (msg.type === "result") waiter.resolve(msg.payload);
        else waiter.reject(Object.assign(new Error(msg.error), { computeFailed: true }));
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      fail(new Error(event.message || "the engine failed to load"));
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
        pending.set(id, { resolve, reject });
        worker.postMessage({ ...message, id, limits: limits() });
      });
    }

    // A table app's call waits for the engine: by then the page's limits have been parsed.
    function send(message) {
      return ready.then(() => post(message));
    }

    // A calculator's result is asked for at once: the worker computes it the moment it
    // has started, and sends it right after saying so, without waiting for the page to ask again
    // (on a phone the page is often still busy then: its theme's script runs as the engine starts).
    function compute(name, values, root) {
      return post({ type: "compute", name, values, root });
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
      worker.postMessage({ type: "warm", names });
    }

    return self;
  }

  function getEngine() {
    if (engine) return engine;
    const started = startEngine();
    if (!started.failed) engine = started; // a failed start is retried on the next request
    return started;
  }

  // call(module, name, args): ask a Python module of the calculators package (one with call_json)
  // through the shared engine, starting it if needed; resolves to that module's JSON answer.
  function call(module, name, args) {
    return getEngine().call(String(module), String(name), args || {});
  }

  window.mnemeEngine = { stats, get: getEngine, call, mark };
}

if (!window.mnemeEngine) startEngines();
