// Calculators front end: binds every <form data-calculator> to the shared engine
// (engine.js: a module Web Worker running Pyodide). Contract: calculators/README.md.
(function () {
  "use strict";
  if (window.mnemeCalculators) return;

  const TRUE = ["1", "true", "on", "yes"];
  const EMPTY = "\u2014";
  const { stats, get: getEngine, call, mark } = window.mnemeEngine;

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

  window.mnemeCalculators = { stats, bindAll, call };
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(bindAll);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", bindAll);
  } else {
    bindAll();
  }
})();
