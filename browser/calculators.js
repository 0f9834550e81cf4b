// Calculators front end: binds every <form data-calculator> to the shared engine
// (engine.js: a module Web Worker running Pyodide). Contract: calculators/README.md.
(function () {
  "use strict";
  if (window.mnemeCalculators) return;

  const TRUE = ["1", "true", "on", "yes"];
  const EMPTY = "\u2014";
  // Longest value a link may put in a field with no shorter limit of its own (render.URL_TEXT_LIMIT).
  const URL_TEXT_LIMIT = 200;
  const { stats, get: getEngine, call, mark } = window.mnemeEngine;

  // The theme waits for the first result. On a calculator page the theme's script is
  // held back (sitebuild/early_engine.py: with_held_theme): on a phone it takes a third of a second of
  // the main thread, just when a returning visit's engine answers. It starts once the first result
  // is on screen, the engine has failed, or themeHoldMs has passed (window.mnemeCalculatorConfig, set
  // before this script, may change it: the tests do). Until then a stand-in for its
  // document$ (each page shown) runs what our scripts subscribe for this page, and then hands them
  // to the theme's own for the pages instant navigation shows; the theme waits for DOMContentLoaded,
  // so the event is sent again for it once it has loaded.
  const CONFIG = Object.assign({ themeHoldMs: 1500, urlQuietMs: 150 }, window.mnemeCalculatorConfig || {});
  const HOLD_MS = CONFIG.themeHoldMs;
  const theme = { held: null, subscribers: [], contentLoaded: false };

  function holdTheme() {
    const tag = document.querySelector("script[data-mneme-theme]");
    if (!tag || window.document$) return;
    theme.held = tag;
    document.addEventListener("DOMContentLoaded", () => (theme.contentLoaded = true), { once: true });
    window.document$ = {
      mnemeStandIn: true,
      subscribe(next) {
        theme.subscribers.push(next);
        next(document);
        return {
          unsubscribe() {
            const at = theme.subscribers.indexOf(next);
            if (at >= 0) theme.subscribers.splice(at, 1);
          },
        };
      },
    };
    setTimeout(startTheme, HOLD_MS);
  }

  function handOver() {
    const pages = window.document$;
    if (!pages || pages.mnemeStandIn) return;
    for (const next of theme.subscribers.splice(0)) {
      let first = true; // this page, already done: the theme's first value is the one sent below
      pages.subscribe((doc) => (first ? (first = false) : next(doc)));
    }
    if (theme.contentLoaded) document.dispatchEvent(new Event("DOMContentLoaded"));
  }

  function startTheme() {
    const held = theme.held;
    if (!held) return;
    theme.held = null;
    const tag = document.createElement("script");
    tag.src = new URL(held.getAttribute("data-mneme-theme") || "", document.baseURI).href;
    tag.onload = handOver;
    tag.onerror = () => console.warn(`${tag.src} did not load`);
    held.replaceWith(tag);
  }

  // After the frame that shows the result: the theme's long task comes after the player sees it.
  function startThemeSoon() {
    if (theme.held) requestAnimationFrame(() => setTimeout(startTheme, 0));
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
    if (el.type === "checkbox") el.checked = TRUE.includes(text.trim().toLowerCase());
    else el.value = text;
  }

  // The most characters a field accepts: its own maxlength (text), data-max-length (numbers: the
  // digits Python reads), else the link limit. A longer value from a link is refused, not cut.
  function lengthLimit(el) {
    if (el.maxLength > 0) return el.maxLength;
    if (el.dataset.maxLength) return Number(el.dataset.maxLength);
    return URL_TEXT_LIMIT;
  }

  function fieldLabel(form, el) {
    const label = el.id ? form.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null;
    return label ? label.textContent : el.name;
  }

  // Rulings fold: its title says how many readings differ from the site's default.
  function updateRulings(form) {
    const fold = form.querySelector("[data-rulings]");
    const label = fold && fold.querySelector("[data-rulings-label]");
    if (!label) return;
    const changed = Array.from(fold.querySelectorAll("select[data-default]")).filter(
      (el) => el.value !== el.dataset.default,
    ).length;
    const text = changed ? `Rulings (${changed} not default)` : "Rulings (all default)";
    if (label.textContent !== text) label.textContent = text;
  }

  function setStatus(form, text) {
    const status = form.querySelector("[data-status]");
    if (status && status.textContent !== text) status.textContent = text;
  }

  // The working under a result: the build's HTML (for the page's own inputs), then each result's. A
  // new one is written over the shown one in place: only the text and attributes that differ change,
  // and a node is replaced only where the structure differs, so an equal working leaves the page
  // alone. Rewriting the whole of it (innerHTML) made a phone style and lay out all of it again at
  // every edit. What the theme does to a page when it starts is kept: a link made
  // absolute (same address), a table wrapped to scroll on a phone (written into in place).
  const THEME_TABLE_WRAP = ".md-typeset__scrollwrap";

  function sameAttribute(el, name, value) {
    const now = el.getAttribute(name);
    if (now === value) return true;
    return name === "href" && now !== null && new URL(now, document.baseURI).href === new URL(value, document.baseURI).href;
  }

  function morph(into, from) {
    const have = Array.from(into.childNodes);
    const want = Array.from(from.childNodes);
    want.forEach((node, i) => {
      let old = have[i];
      if (old && node.nodeName === "TABLE" && old.nodeType === Node.ELEMENT_NODE && old.matches(THEME_TABLE_WRAP)) {
        old = old.querySelector("table") || old;
      }
      if (!old) into.appendChild(node);
      else if (old.nodeType !== node.nodeType || old.nodeName !== node.nodeName) old.replaceWith(node);
      else if (node.nodeType !== Node.ELEMENT_NODE) {
        if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
      } else {
        for (const { name } of Array.from(old.attributes)) if (!node.hasAttribute(name)) old.removeAttribute(name);
        for (const { name, value } of Array.from(node.attributes)) {
          if (!sameAttribute(old, name, value)) old.setAttribute(name, value);
        }
        morph(old, node);
      }
    });
    for (let i = want.length; i < have.length; i++) have[i].remove();
  }

  function parsed(html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  // Out of date: the state at once (data-stale: an edit the engine has not answered yet), the look
  // (data-stale-shown: the result dimmed, the mark shown) only once the answer is STALE_SHOW_MS
  // late. A fast answer neither flickers nor costs a phone two style and layout passes per edit.
  const STALE_SHOW_MS = 250;

  function markStale(form, now) {
    form.setAttribute("data-stale", "");
    if (now) form.setAttribute("data-stale-shown", "");
    else if (!form.mnemeStaleTimer) {
      form.mnemeStaleTimer = setTimeout(() => {
        form.mnemeStaleTimer = 0;
        if (form.hasAttribute("data-stale")) form.setAttribute("data-stale-shown", "");
      }, STALE_SHOW_MS);
    }
  }

  function markFresh(form) {
    clearTimeout(form.mnemeStaleTimer);
    form.mnemeStaleTimer = 0;
    form.removeAttribute("data-stale");
    form.removeAttribute("data-stale-shown");
  }

  function show(el, visible) {
    if (el.hidden === visible) el.hidden = !visible;
  }

  function apply(form, payload) {
    const errors = payload.errors || {};
    const fromLink = form.mnemeLinkErrors || {};
    for (const el of controls(form)) {
      const message = errors[el.name] || fromLink[el.name] || "";
      if (message) {
        if (el.getAttribute("aria-invalid") !== "true") el.setAttribute("aria-invalid", "true");
      } else el.removeAttribute("aria-invalid");
      const slot = form.querySelector(`[data-error-for="${CSS.escape(el.name)}"]`);
      if (slot && slot.textContent !== message) slot.textContent = message;
    }
    const formError = form.querySelector("[data-form-error]");
    if (formError && formError.textContent !== (payload.form_error || "")) {
      formError.textContent = payload.form_error || "";
    }
    const outputs = payload.outputs || {};
    for (const out of form.querySelectorAll("[data-output]")) {
      const text = outputs[out.dataset.output] || EMPTY;
      if (out.textContent !== text) out.textContent = text;
      // Only the outputs that apply to this outcome show (render.py hides the same ones).
      const tile = out.closest(".calc-output");
      if (tile) show(tile, text !== EMPTY);
    }
    const summary = form.querySelector("[data-summary]");
    if (summary) {
      const text = payload.summary || EMPTY;
      if (summary.textContent !== text) summary.textContent = text;
      show(summary, text !== EMPTY);
    }
    const details = form.querySelector("[data-details]");
    // The details HTML is rendered and escaped by calculators/render.py (the build's renderer).
    if (details) {
      const html = payload.details || "";
      if (details.mnemeHtml !== html) morph(details, parsed(html));
      details.mnemeHtml = html;
    }
    markFresh(form);
  }

  // The address follows the values of a page's only calculator, so a reload or a shared link gives
  // them back. Writing it (history.replaceState) costs a phone about 10 ms of its main thread with
  // the browser's answer, which at every keystroke doubled the wait for each answer. So it
  // is written once the page is quiet: URL_QUIET_MS after the last edit or answer (while the player
  // keeps typing the answers come first); and at once when the player may be leaving: a link
  // followed, a click outside the form (Update), a reload key, the page hidden or left. (The
  // configuration read above, urlQuietMs, may change the wait: the tests do.)
  const URL_QUIET_MS = CONFIG.urlQuietMs;
  const unsynced = new Set(); // forms whose values the address does not hold yet

  function syncUrl(form) {
    unsynced.delete(form);
    clearTimeout(form.mnemeUrlTimer);
    // Never into another page's address: going back starts at once, the old page goes later.
    if (!form.isConnected || location.pathname !== form.mnemePath) return;
    const url = new URL(location.href);
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(readValues(form))) params.set(key, value);
    url.search = params.toString();
    if (url.href !== location.href) history.replaceState(history.state, "", url.href);
  }

  function syncUrlLater(form) {
    unsynced.add(form);
    clearTimeout(form.mnemeUrlTimer);
    form.mnemeUrlTimer = setTimeout(() => syncUrl(form), URL_QUIET_MS);
    keepUnwritten(form);
  }

  // Until the address is written, a reload (which no page event can delay: a write as the page goes
  // comes too late for it) would lose the newest values: each edit keeps them in this tab's
  // sessionStorage beside the address they are newer than, and only the first form bound after a
  // reload of that same address takes them back (once written, the address differs, or holds them).
  const UNWRITTEN_KEY = "mneme-calculator-unwritten";
  let reloaded = false;
  try {
    reloaded = performance.getEntriesByType("navigation")[0].type === "reload";
  } catch (_) {
    /* no navigation timing: nothing is taken back */
  }

  function keepUnwritten(form) {
    try {
      const kept = { path: location.pathname, search: location.search, values: readValues(form) };
      sessionStorage.setItem(UNWRITTEN_KEY, JSON.stringify(kept));
    } catch (_) {
      /* no sessionStorage (blocked, full): the address alone keeps the values */
    }
  }

  function unwrittenValues() {
    const first = reloaded;
    reloaded = false;
    try {
      const kept = first ? JSON.parse(sessionStorage.getItem(UNWRITTEN_KEY) || "null") : null;
      const fits = kept && kept.path === location.pathname && kept.search === location.search;
      return fits && kept.values && typeof kept.values === "object" ? kept.values : null;
    } catch (_) {
      return null; // unreadable: the address holds what was written
    }
  }

  function syncUrlNow() {
    for (const form of Array.from(unsynced)) syncUrl(form);
  }

  function isReloadKey(event) {
    return event.key === "F5" || ((event.ctrlKey || event.metaKey) && /^r$/i.test(event.key));
  }

  window.addEventListener("pagehide", syncUrlNow);
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && syncUrlNow());
  window.addEventListener("keydown", (event) => isReloadKey(event) && syncUrlNow(), true);
  window.addEventListener(
    "click",
    (event) => {
      const target = event.target instanceof Element ? event.target : null;
      const leaving = !target || target.closest("a[href]") || !Array.from(unsynced).some((f) => f.contains(target));
      if (leaving) syncUrlNow();
    },
    true,
  );

  function bind(form, single) {
    if (form.mnemeBound) return;
    form.mnemeBound = true;
    form.mnemePath = location.pathname; // the page it is on (syncUrl)
    const name = form.dataset.calculator;
    const root = form.dataset.root || "";
    const retry = form.querySelector("[data-retry]");
    let running = false;
    let again = false;

    for (const button of form.querySelectorAll(".calc-step")) button.hidden = false;
    form.mnemeLinkErrors = {};
    if (single) {
      const params = new Map(new URLSearchParams(location.search));
      for (const [key, value] of Object.entries(unwrittenValues() || {})) params.set(key, String(value));
      let fromUrl = false;
      for (const el of controls(form)) {
        if (!params.has(el.name)) continue;
        const text = String(params.get(el.name));
        const limit = lengthLimit(el);
        if (text.length > limit) {
          form.mnemeLinkErrors[el.name] =
            `${fieldLabel(form, el)}: the link's value is too long (at most ${limit} characters), ` +
            "so it was not used.";
          const slot = form.querySelector(`[data-error-for="${CSS.escape(el.name)}"]`);
          if (slot) slot.textContent = form.mnemeLinkErrors[el.name];
          continue;
        }
        setValue(el, text);
        fromUrl = true;
      }
      if (fromUrl) markStale(form, true);
    }
    updateRulings(form);

    function engineFailed(error) {
      startThemeSoon();
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
          const payload = await getEngine().compute(name, readValues(form), root);
          if (again) continue;
          const t0 = performance.now();
          apply(form, payload);
          stats.applyMs = performance.now() - t0;
          form.dataset.state = "ready";
          if (stats.build) form.dataset.engineBuild = stats.build; // equals <meta name="mneme-build">
          setStatus(form, "Live: the result updates as you type.");
          stats.results += 1;
          mark("mneme:first-result");
          startThemeSoon();
          if (single) syncUrlLater(form);
          const t1 = performance.now();
          form.dispatchEvent(new CustomEvent("calculator:result", { bubbles: true, detail: { name, payload } }));
          stats.listenersMs = performance.now() - t1;
        } while (again);
      } catch (error) {
        if (error && error.computeFailed) {
          console.error(`calculator ${name}: ${error.message}`);
          const formError = form.querySelector("[data-form-error]");
          if (formError) formError.textContent = "Something went wrong computing this result.";
          startThemeSoon();
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
      setStatus(form, startingText());
      getEngine().warm(name);
      run();
    }

    function startingText() {
      const bytes = stats.downloaded || 0;
      // A whole number of kB, written as Python's format.number writes an integer (no separators).
      const got = bytes ? ` ${String(Math.round(bytes / 1000))} kB of the engine downloaded.` : "";
      return `Starting the live calculator\u2026${got}`;
    }

    // While the engine starts, say how far it has got (bytes downloaded, from engine.js).
    window.addEventListener("mneme:engine-progress", () => {
      if (form.isConnected && form.dataset.state === "loading") setStatus(form, startingText());
    });

    // An edit makes the shown result out of date until the result for the newest values arrives
    // (run() computes again while edits keep coming, so they apply in order, the last one last).
    function edited(event) {
      if (event && event.target && event.target.name) delete form.mnemeLinkErrors[event.target.name];
      markStale(form, false);
      updateRulings(form);
      if (single) syncUrlLater(form);
      run();
    }

    form.addEventListener("input", edited);
    form.addEventListener("change", edited);
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
      edited({ target: input });
    });
    if (retry) retry.addEventListener("click", start);
    start();
  }

  function bindAll() {
    const forms = document.querySelectorAll("form[data-calculator]");
    forms.forEach((form) => bind(form, forms.length === 1));
  }

  holdTheme();
  window.mnemeCalculators = { stats, bindAll, call, theme };
  // Each page shown: mkdocs-material's document$ (instant navigation), or its stand-in while the
  // theme is held; a page shown by instant navigation loads this script after the theme's. Without
  // either (no theme), the page's forms are bound at once and again at DOMContentLoaded.
  function subscribed() {
    if (!(window.document$ && typeof window.document$.subscribe === "function")) return false;
    window.document$.subscribe(bindAll);
    return true;
  }
  if (!subscribed()) {
    bindAll();
    if (document.readyState !== "complete") {
      document.addEventListener("DOMContentLoaded", () => subscribed() || bindAll(), { once: true });
    }
  }
})();
