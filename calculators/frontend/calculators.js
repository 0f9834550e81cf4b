// Calculators front end: binds every <form data-calculator> to one shared engine
// (a module Web Worker running Pyodide), created on the first page that has a
// calculator and kept alive across mkdocs-material's instant navigation.
// Contract: calculators/README.md. The worker file name is filled in at build.
(function () {
  "use strict";
  if (window.mnemeCalculators) return;

  const WORKER_FILE = "__MNEME_WORKER__";
  const script = document.currentScript;
  const assets = new URL(".", script ? script.src : location.href);
  // Read at each engine start, so a test can change it between attempts.
  const config = () => Object.assign({ bootTimeoutMs: 60000 }, window.mnemeCalculatorConfig || {});
  const TRUE = ["1", "true", "on", "yes"];
  const EMPTY = "\u2014";
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

  function controls(form) {
    return Array.from(form.elements).filter(
      (el) => el.name && (el.tagName === "INPUT" || el.tagName === "SELECT"),
    );
  }

  function readValues(form) {
    const values = {};
    for (const el of controls(form)) {
      values[el.name] = el.type === "checkbox" ? (el.checked ? "1" : "0") : el.value;
    }
    return values;
  }

  function setValue(el, text) {
    text = String(text).slice(0, 200);
    if (el.type === "checkbox") el.checked = TRUE.includes(text.trim().toLowerCase());
    else el.value = text;
  }

  function setStatus(form, text) {
    const status = form.querySelector("[data-status]");
    if (status && status.textContent !== text) status.textContent = text;
  }

  function apply(form, payload) {
    const errors = payload.errors || {};
    for (const el of controls(form)) {
      const message = errors[el.name] || "";
      if (message) el.setAttribute("aria-invalid", "true");
      else el.removeAttribute("aria-invalid");
      const slot = form.querySelector(`[data-error-for="${CSS.escape(el.name)}"]`);
      if (slot && slot.textContent !== message) slot.textContent = message;
    }
    const formError = form.querySelector("[data-form-error]");
    if (formError) formError.textContent = payload.form_error || "";
    const outputs = payload.outputs || {};
    for (const out of form.querySelectorAll("[data-output]")) {
      const text = outputs[out.dataset.output] || EMPTY;
      if (out.textContent !== text) out.textContent = text;
    }
    const details = form.querySelector("[data-details]");
    // The details HTML is rendered and escaped by calculators/render.py (the build's renderer).
    if (details && details.innerHTML !== payload.details) details.innerHTML = payload.details || "";
    form.removeAttribute("data-stale");
  }

  function syncUrl(form) {
    const url = new URL(location.href);
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(readValues(form))) params.set(key, value);
    url.search = params.toString();
    if (url.href !== location.href) history.replaceState(history.state, "", url.href);
  }

  function bind(form, single) {
    if (form.mnemeBound) return;
    form.mnemeBound = true;
    const name = form.dataset.calculator;
    const root = form.dataset.root || "";
    const retry = form.querySelector("[data-retry]");
    let running = false;
    let again = false;

    for (const button of form.querySelectorAll(".calc-step")) button.hidden = false;
    if (single) {
      const params = new URLSearchParams(location.search);
      let fromUrl = false;
      for (const el of controls(form)) {
        if (params.has(el.name)) {
          setValue(el, params.get(el.name));
          fromUrl = true;
        }
      }
      if (fromUrl) form.setAttribute("data-stale", "");
    }

    function engineFailed(error) {
      form.dataset.state = "error";
      setStatus(
        form,
        `The live calculator could not start (${error.message}). ` +
          "The result shown is for the values it was last computed with.",
      );
      if (retry) retry.hidden = false;
    }

    async function run() {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          if (single) syncUrl(form);
          const payload = await getEngine().compute(name, readValues(form), root);
          if (again) continue;
          const t0 = performance.now();
          apply(form, payload);
          stats.applyMs = performance.now() - t0;
          form.dataset.state = "ready";
          setStatus(form, "Live: the result updates as you type.");
          stats.results += 1;
          mark("mneme:first-result");
          const t1 = performance.now();
          form.dispatchEvent(new CustomEvent("calculator:result", { bubbles: true, detail: { name, payload } }));
          stats.listenersMs = performance.now() - t1;
        } while (again);
      } catch (error) {
        if (error && error.computeFailed) {
          console.error(`calculator ${name}: ${error.message}`);
          const formError = form.querySelector("[data-form-error]");
          if (formError) formError.textContent = "Something went wrong computing this result.";
        } else {
          engineFailed(error || new Error("unknown error"));
        }
      } finally {
        running = false;
      }
    }

    function start() {
      form.dataset.state = "loading";
      if (retry) retry.hidden = true;
      setStatus(form, "Starting the live calculator\u2026");
      getEngine().warm(name);
      run();
    }

    form.addEventListener("input", run);
    form.addEventListener("change", run);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      run();
    });
    form.addEventListener("click", (event) => {
      const button = event.target.closest(".calc-step");
      if (!button || !form.contains(button)) return;
      const input = button.parentElement.querySelector("input");
      const step = Number(button.dataset.step) * Number(input.dataset.step || 1);
      const min = Number(input.dataset.min);
      const max = Number(input.dataset.max);
      const current = /^\s*[+\-\u2212]?\d+\s*$/.test(input.value)
        ? Number(input.value.replace("\u2212", "-"))
        : Number.isFinite(min) && min > 0
          ? min
          : 0;
      const next = Math.min(max, Math.max(min, current + step));
      input.value = String(next);
      run();
    });
    if (retry) retry.addEventListener("click", start);
    start();
  }

  function bindAll() {
    const forms = document.querySelectorAll("form[data-calculator]");
    forms.forEach((form) => bind(form, forms.length === 1));
  }

  // call(module, name, args): ask a Python module of the calculators package (one with call_json)
  // through the shared engine, starting it if needed; resolves to that module's JSON answer.
  function call(module, name, args) {
    return getEngine().call(String(module), String(name), args || {});
  }

  window.mnemeCalculators = { stats, bindAll, call };
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(bindAll);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", bindAll);
  } else {
    bindAll();
  }
})();
