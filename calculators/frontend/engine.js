// Calculator engine client: one module Web Worker per tab running the bundled Pyodide,
// created on first use and kept alive across mkdocs-material's instant navigation.
// Every script that needs Python (calculators.js, character.js, tracker.js) goes through
// window.mnemeEngine. The worker file name is filled in at build (hooks/engine_bundle.py).
(function () {
  "use strict";
  if (window.mnemeEngine) return;

  const WORKER_FILE = "__MNEME_WORKER__";
  const script = document.currentScript;
  const assets = new URL(".", script ? script.src : location.href);
  // Read at each engine start, so a test can change it between attempts.
  const config = () => Object.assign({ bootTimeoutMs: 60000 }, window.mnemeCalculatorConfig || {});
  const stats = { engineStarts: 0, results: 0 };
  let engine = null;

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

  function startEngine() {
    stats.engineStarts += 1;
    mark("mneme:worker-start");
    let worker;
    try {
      if (typeof Worker !== "function") throw new Error("this browser has no Web Workers");
      worker = new Worker(new URL(WORKER_FILE, assets), { type: "module" });
    } catch (error) {
      return failedEngine(error instanceof Error ? error : new Error(String(error)));
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
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
      if (engine === self) engine = null;
    }

    worker.onmessage = (event) => {
      const msg = event.data || {};
      if (msg.type === "ready") {
        clearTimeout(timer);
        mark("mneme:engine-ready");
        stats.timings = msg.timings;
        resolveReady();
      } else if (msg.type === "boot-failed") {
        fail(new Error(msg.error || "the engine failed to start"));
      } else if (msg.type === "result" || msg.type === "failed") {
        const waiter = pending.get(msg.id);
        if (!waiter) return;
        pending.delete(msg.id);
        stats.pythonMs = msg.ms;
        if (msg.type === "result") waiter.resolve(msg.payload);
        else waiter.reject(Object.assign(new Error(msg.error), { computeFailed: true }));
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      fail(new Error(event.message || "the engine failed to load"));
    };

    function compute(name, values, root) {
      return ready.then(
        () =>
          new Promise((resolve, reject) => {
            if (self.failed) return reject(self.failed);
            const id = nextId++;
            pending.set(id, { resolve, reject });
            worker.postMessage({ type: "compute", id, name, values, root });
          }),
      );
    }

    function call(module, name, args) {
      return ready.then(
        () =>
          new Promise((resolve, reject) => {
            if (self.failed) return reject(self.failed);
            const id = nextId++;
            pending.set(id, { resolve, reject });
            worker.postMessage({ type: "call", id, module, name, args });
          }),
      );
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
})();
