// Calculators front end: binds every <form data-calculator> to the shared engine
// (engine.js: a module Web Worker running Pyodide). Contract: calculators/README.md.
// Python's words for the few things this script must say as it does (calculators/format.py,
// calculators/framework/render.py) come with the page's settings (sitebuild/table_ui.py).
import { addressFor, isReloadKey, keepUnwritten, unwrittenFor, valuesFromAddress } from "./lib/address-state.js";
import {
  flippedSign,
  lengthLimit,
  readValues as valuesOf,
  rulingsTitle,
  setValue,
  steppedValue,
} from "./lib/form-state.js";
import { keepParts, morph, morphParts, parsed } from "./lib/morph.js";
import { pageSettings } from "./lib/page-settings.js";
import { nextTask } from "./lib/tasks.js";
import { holdTheme, startThemeSoon, theme } from "./lib/theme-hold.js";

function startCalculators() {
  const { stats, get: getEngine, call, mark, writesAsBuilt } = window.mnemeEngine;

  // window.mnemeCalculatorConfig, set before this script, may change the theme's hold, the longest its
  // start waits for a pause in the player's input (quietWaitMs, lib/tasks.js' QUIET_WAIT_MS when unset)
  // and the address's quiet time (the tests do). The hold counts only a start gone quiet (lib/theme-hold.js):
  // on the phone profile Pyodide's own start, after the WebAssembly has arrived, is 0.5 s to 1.6 s of
  // nothing said, under load.
  const CONFIG = Object.assign({ themeHoldMs: 3000, urlQuietMs: 150 }, window.mnemeCalculatorConfig || {});

  // A form's named inputs and selects, found once (its fields never change; a page shown again has new
  // forms): each edit and each answer walks them.
  function controls(form) {
    if (!form.mnemeControls) {
      form.mnemeControls = Array.from(form.elements).filter(
        (el) => el.name && (el.tagName === "INPUT" || el.tagName === "SELECT"),
      );
    }
    return form.mnemeControls;
  }

  // Where the form says what is wrong with a field, by the field's name (found once, like the controls).
  function errorSlot(form, name) {
    if (!form.mnemeErrorSlots) {
      form.mnemeErrorSlots = new Map();
      for (const slot of form.querySelectorAll("[data-error-for]")) {
        if (!form.mnemeErrorSlots.has(slot.dataset.errorFor)) form.mnemeErrorSlots.set(slot.dataset.errorFor, slot);
      }
    }
    return form.mnemeErrorSlots.get(name) || null;
  }

  function readValues(form) {
    return valuesOf(controls(form));
  }

  // A control still holding the value the page was built with (the calculator's default).
  function isDefault(el) {
    if (el.tagName === "SELECT") return Array.from(el.options).every((o) => o.selected === o.defaultSelected);
    if (el.type === "checkbox") return el.checked === el.defaultChecked;
    return el.value === el.defaultValue;
  }

  function fieldLabel(form, el) {
    const label = el.id ? form.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null;
    return label ? label.textContent : el.name;
  }

  // Rulings fold: its title says how many readings differ from the site's default.
  function updateRulings(form) {
    const fold = form.querySelector("[data-rulings]");
    const label = fold?.querySelector("[data-rulings-label]");
    if (!label) return;
    const changed = Array.from(fold.querySelectorAll("select[data-default]")).filter(
      (el) => el.value !== el.dataset.default,
    ).length;
    const text = rulingsTitle(changed);
    if (label.textContent !== text) label.textContent = text;
  }

  // Fields shown only while one of their choices has its value (data-only="side=attacked pay=costly":
  // one side of a fight, or an option that needs the field).
  function updateShown(form) {
    for (const field of form.querySelectorAll("[data-only]")) {
      const shown = field.dataset.only.split(" ").some((pair) => {
        const [key, value] = pair.split("=");
        const choice = form.elements.namedItem(key);
        return !choice || choice.value === value;
      });
      show(field, shown);
    }
  }

  function setStatus(form, text) {
    const status = form.querySelector("[data-status]");
    if (status && status.textContent !== text) status.textContent = text;
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

  // The key of the result HTML the form shows as the page was built (its details' data-built), while
  // no answer has been written over it; else undefined.
  function builtKey(form) {
    const details = form.querySelector("[data-details]");
    const next = form.querySelector("[data-next]");
    if (!details?.dataset.built || details.mnemeHtml !== undefined || next?.mnemeHtml !== undefined) return undefined;
    return details.dataset.built;
  }

  function apply(form, payload) {
    const empty = pageSettings().calculators.empty; // an output that does not apply (render.py)
    const errors = payload.errors || {};
    const fromLink = form.mnemeLinkErrors || {};
    for (const el of controls(form)) {
      const message = errors[el.name] || fromLink[el.name] || "";
      if (message) {
        if (el.getAttribute("aria-invalid") !== "true") el.setAttribute("aria-invalid", "true");
      } else el.removeAttribute("aria-invalid");
      const slot = errorSlot(form, el.name);
      if (slot && slot.textContent !== message) slot.textContent = message;
    }
    const formError = form.querySelector("[data-form-error]");
    if (formError && formError.textContent !== (payload.form_error || "")) {
      formError.textContent = payload.form_error || "";
    }
    const outputs = payload.outputs || {};
    for (const out of form.querySelectorAll("[data-output]")) {
      const text = outputs[out.dataset.output] || empty;
      if (out.textContent !== text) out.textContent = text;
      // Only the outputs that apply to this outcome show (render.py hides the same ones).
      const tile = out.closest(".calc-output");
      if (tile) show(tile, text !== empty);
    }
    const summary = form.querySelector("[data-summary]");
    if (summary) {
      const text = payload.summary || empty;
      if (summary.textContent !== text) summary.textContent = text;
      show(summary, text !== empty);
    }
    // The details and the next links' HTML are rendered and escaped by calculators/render.py (the
    // build's renderer); the links sit right under the answer.
    // The details come in parts (working, each chart, rule links): only a part that changed is
    // parsed and patched (an edit that leaves a chart as it was costs the page nothing for it).
    // An answer that writes what the page was built with (the first one, for the values the page was
    // built with: the worker compared it with the build's key) leaves that HTML as it is: on a phone,
    // parsing and comparing all of it took 60 ms of the main thread just as the first answer came.
    const details = form.querySelector("[data-details]");
    const next = form.querySelector("[data-next]");
    const asBuilt = Boolean(builtKey(form)) && Boolean(writesAsBuilt?.(payload));
    if (asBuilt) {
      keepParts(details, payload.details || "", payload.details_sizes);
      stats.asBuilt = (stats.asBuilt || 0) + 1;
    } else if (details && details.mnemeHtml !== (payload.details || "")) {
      morphParts(details, payload.details || "", payload.details_sizes);
    }
    if (details) details.mnemeHtml = payload.details || "";
    if (next && !asBuilt && next.mnemeHtml !== (payload.next || "")) morph(next, parsed(payload.next || ""));
    if (next) next.mnemeHtml = payload.next || "";
    // A folded field with a mistake in it opens its fold, so the message is seen.
    const fold = form.querySelector("[data-more]");
    if (fold && !fold.open && Object.keys(errors).some((key) => fold.querySelector(`[name="${CSS.escape(key)}"]`))) {
      fold.open = true;
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
    const href = addressFor(location.href, readValues(form));
    if (href) history.replaceState(history.state, "", href);
  }

  // `values`: the form's values as just read (an edit reads them once, for the engine and for this).
  function syncUrlLater(form, values) {
    unsynced.add(form);
    clearTimeout(form.mnemeUrlTimer);
    form.mnemeUrlTimer = setTimeout(() => syncUrl(form), URL_QUIET_MS);
    keepUnwrittenValues(form, values);
  }

  // Until the address is written, a reload (which no page event can delay: a write as the page goes
  // comes too late for it) would lose the newest values: each edit keeps them in this tab's
  // sessionStorage beside the address they are newer than, and only the first form bound after a
  // reload of that same address takes them back (once written, the address differs, or holds them).
  let reloaded = false;
  try {
    reloaded = performance.getEntriesByType("navigation")[0].type === "reload";
  } catch (_) {
    /* no navigation timing: nothing is taken back */
  }

  // Values a reload of the address would give back anyway (the form as the address set it, nothing
  // kept yet) are not kept: a page's first access to sessionStorage waits for the browser's process
  // (on a phone, or a busy machine, up to a fifth of a second of the main thread as the first result
  // arrives). Once something was kept, every later value is (a value edited back must replace it).
  // The values a reload of this address gives back: the address's, the rest at their defaults (a
  // field changed before the form was bound makes it none).
  function rememberAsGiven(form) {
    const given = form.mnemeFromAddress || new Set();
    const asGiven = controls(form).every((el) => given.has(el.name) || isDefault(el));
    form.mnemeAsGiven = asGiven ? JSON.stringify(readValues(form)) : null;
  }

  function keepUnwrittenValues(form, values = readValues(form)) {
    // Never beside another page's address (a result arriving just after a Back is the old page's).
    if (!form.isConnected || location.pathname !== form.mnemePath) return;
    const text = JSON.stringify(values);
    if (!form.mnemeKept && text === form.mnemeAsGiven) return;
    // The values this form kept last beside this same address are not written again (the answer to an
    // edit finds the values its edit kept): one write per edit, not two (each about 1.5 ms of a phone's
    // main thread).
    const record = `${location.pathname}?${location.search} ${text}`;
    if (record === form.mnemeKept) return;
    form.mnemeKept = record;
    keepUnwritten(() => sessionStorage, location, values);
  }

  // The same holds for a Back or Forward of the theme's instant navigation: the address of the page
  // left within a moment of an edit was not written yet, so coming Forward to it takes them back.
  window.addEventListener("popstate", () => {
    reloaded = true;
  });

  function unwrittenValues() {
    const first = reloaded;
    reloaded = false;
    return first ? unwrittenFor(() => sessionStorage, location) : null;
  }

  // A hand-off to this very page (One attack's miss to its "I'm attacked" side): the theme's instant
  // navigation does not load a page again for a new query, so the link's values are applied here, the
  // form first back at its defaults as a link opens it, and the address moves on (Back returns to it).
  function samePageHandoff(event, link) {
    const forms = document.querySelectorAll("form[data-calculator]");
    if (!link || forms.length !== 1 || !forms[0].mnemeBound || event.defaultPrevented) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || url.pathname !== location.pathname) return;
    event.preventDefault();
    event.stopPropagation();
    const form = forms[0];
    history.pushState(null, "", url.href);
    form.reset();
    takeAddress(form, true);
    rememberAsGiven(form);
    form.dispatchEvent(new Event("input", { bubbles: true }));
    window.scrollTo(0, form.getBoundingClientRect().top + window.scrollY);
  }

  function syncUrlNow() {
    for (const form of Array.from(unsynced)) syncUrl(form);
  }

  window.addEventListener("pagehide", syncUrlNow);
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && syncUrlNow());
  window.addEventListener("keydown", (event) => isReloadKey(event) && syncUrlNow(), true);
  window.addEventListener(
    "click",
    (event) => {
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest("a[href]")) reloaded = false; // a link followed: its page starts from its address
      const leaving = !target || target.closest("a[href]") || !Array.from(unsynced).some((f) => f.contains(target));
      if (leaving) syncUrlNow();
      samePageHandoff(event, target?.closest("a[data-handoff]"));
    },
    true,
  );

  // The values the address gives (a link followed, a shared link, a reload): set in the form, and marked
  // as given where a hand-off link named them.
  function takeAddress(form, single) {
    form.mnemeLinkErrors = {};
    // The fields the player gave, or a link handed on ("use my character" leaves them alone).
    form.mnemeGiven = new Set();
    if (single) {
      const settings = pageSettings().calculators;
      const fields = controls(form).map((el) => ({
        name: el.name,
        label: fieldLabel(form, el),
        limit: lengthLimit(el, settings.url_text_limit),
      }));
      const { values, errors } = valuesFromAddress(location.search, unwrittenValues(), fields);
      for (const [key, message] of Object.entries(errors)) {
        form.mnemeLinkErrors[key] = message;
        const slot = errorSlot(form, key);
        if (slot) slot.textContent = message;
      }
      for (const el of controls(form)) if (el.name in values) setValue(el, values[el.name], settings.true);
      form.mnemeFromAddress = new Set(Object.keys(values));
      if (Object.keys(values).length) markStale(form, true);
      // A hand-off link names only what it carries: all of that was given (but a field it leaves empty,
      // a value it does not know). A page's own address (written back after each edit) names every
      // field: then only those away from the default were given.
      const handedOn = Object.keys(values).length < controls(form).length;
      for (const el of controls(form)) {
        const known = handedOn ? values[el.name] !== "" : !isDefault(el);
        if (el.name in values && known) form.mnemeGiven.add(el.name);
      }
      const fold = form.querySelector("[data-more]");
      if (fold && Array.from(fold.querySelectorAll("input, select")).some((el) => el.name in values && !isDefault(el))) {
        fold.open = true;
      }
    }
    updateRulings(form);
    updateShown(form);
  }

  function bind(form, single) {
    if (form.mnemeBound) return;
    form.mnemeBound = true;
    form.mnemePath = location.pathname; // the page it is on (syncUrl)
    const name = form.dataset.calculator;
    const root = form.dataset.root || "";
    const retry = form.querySelector("[data-retry]");
    let running = false;
    let again = false;

    for (const button of form.querySelectorAll(".calc-step, .calc-sign")) button.hidden = false;
    takeAddress(form, single);
    rememberAsGiven(form);

    const staleMark = form.querySelector("[data-stale-mark]");
    const updating = staleMark ? staleMark.textContent : "";

    function engineFailed(error) {
      startThemeSoon();
      form.dataset.state = "error";
      setStatus(
        form,
        `The live calculator could not start (${error.message}). ` +
          "The result shown is for the values it was last computed with.",
      );
      // An edit's result will not come: the mark says so instead of "updating" for good.
      if (staleMark) staleMark.textContent = "Out of date: the live calculator has stopped.";
      // A page of a build the site no longer has: its Retry reloads it (the address keeps the values).
      if (retry) {
        retry.textContent = stats.outdated ? "Reload" : "Retry";
        retry.hidden = false;
      }
    }

    // `given`: the form's values, when the caller has just read them (an edit).
    async function run(given) {
      if (running) {
        again = true;
        return;
      }
      running = true;
      let values = given;
      try {
        do {
          again = false;
          const asked = values || readValues(form);
          values = undefined; // a computation again reads the values anew
          const payload = await getEngine().compute(name, asked, root, builtKey(form));
          if (again) continue;
          const t0 = performance.now();
          apply(form, payload);
          stats.applyMs = performance.now() - t0;
          // Written only when they change: an attribute set again to its value still costs a style check.
          if (form.dataset.state !== "ready") form.dataset.state = "ready";
          // equals <meta name="mneme-build">
          if (stats.build && form.dataset.engineBuild !== stats.build) form.dataset.engineBuild = stats.build;
          setStatus(form, "Live: the result updates as you type.");
          stats.results += 1;
          mark("mneme:first-result");
          startThemeSoon();
          // The answer is on the page: what follows it (the address, the listeners: "use my character",
          // the offline copy) runs in a task of its own, so no task holds both. An edit meanwhile is
          // computed first; its answer is the one told.
          await nextTask();
          if (again) continue;
          // No edit since it was asked for (again is false): the form holds the values it was asked with.
          if (single) syncUrlLater(form, asked);
          const t1 = performance.now();
          form.dispatchEvent(new CustomEvent("calculator:result", { bubbles: true, detail: { name, payload } }));
          stats.listenersMs = performance.now() - t1;
        } while (again);
      } catch (error) {
        if (error?.computeFailed) {
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
      if (staleMark) staleMark.textContent = updating;
      setStatus(form, startingText());
      getEngine().warm(name);
      run();
    }

    function startingText() {
      const bytes = stats.downloaded || 0;
      // A whole number of kB, written as Python's format.number writes an integer (no separators).
      const got = bytes ? ` ${String(Math.round(bytes / 1000))} kB of the engine downloaded.` : "";
      // A download cut short, tried again by itself (engine.js says what happens).
      const again = stats.retrying ? ` ${stats.retrying}` : "";
      return `Starting the live calculator\u2026${got}${again}`;
    }

    // While the engine starts, say how far it has got (bytes downloaded, from engine.js).
    window.addEventListener("mneme:engine-progress", () => {
      if (form.isConnected && form.dataset.state === "loading") setStatus(form, startingText());
    });

    // An edit makes the shown result out of date until the result for the newest values arrives
    // (run() computes again while edits keep coming, so they apply in order, the last one last).
    // The values go to the engine first: the page's own bookkeeping (the marks, the address) is done
    // while the engine computes, not before it starts.
    function edited(event) {
      if (event?.target?.name) delete form.mnemeLinkErrors[event.target.name];
      if (event?.target?.name && !event.mnemeFilled) form.mnemeGiven.add(event.target.name);
      const values = readValues(form);
      run(values);
      markStale(form, false);
      updateRulings(form);
      updateShown(form);
      if (single) syncUrlLater(form, values);
    }

    form.addEventListener("input", edited);
    form.addEventListener("change", edited);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      run();
    });
    form.addEventListener("click", (event) => {
      const sign = event.target.closest(".calc-sign");
      if (sign && form.contains(sign)) {
        const input = sign.parentElement.querySelector("input");
        input.value = flippedSign(input.value, Number(input.dataset.min), Number(input.dataset.max));
        if (input.value === "-") {
          // A lone minus: the digits come next, typed after it.
          input.focus();
          input.setSelectionRange(1, 1);
        }
        edited({ target: input });
        return;
      }
      const button = event.target.closest(".calc-step");
      if (!button || !form.contains(button)) return;
      const input = button.parentElement.querySelector("input");
      const step = Number(button.dataset.step) * Number(input.dataset.step || 1);
      const next = steppedValue(input.value, step, Number(input.dataset.min), Number(input.dataset.max));
      input.value = String(next);
      edited({ target: input });
    });
    if (retry) retry.addEventListener("click", () => (stats.outdated ? location.reload() : start()));
    // An engine lost while live (it died or hangs, engine.js): with its replacement starting, the
    // form says so and computes again; with none, it says the calculator stopped and offers Retry.
    window.addEventListener("mneme:engine-down", (event) => {
      if (!form.isConnected || form.dataset.state !== "ready") return;
      if (event.detail.replaced) start();
      else engineFailed(new Error(event.detail.message));
    });
    start();
  }

  function bindAll() {
    const forms = document.querySelectorAll("form[data-calculator]");
    if (!forms.length) return;
    // The page's settings carry Python's words and limits; a page without them keeps its built result.
    if (!pageSettings()) return console.warn("calculators: this page has no settings (#mneme-table-config)");
    for (const form of forms) bind(form, forms.length === 1);
  }

  holdTheme(CONFIG.themeHoldMs, CONFIG.quietWaitMs);
  window.mnemeCalculators = { stats, bindAll, call, theme };
  // Each page shown: mkdocs-material's document$ (instant navigation), or its stand-in while the
  // theme is held; a page shown by instant navigation loads this script after the theme's. Without
  // either (no theme), the page's forms are bound at once and again at DOMContentLoaded.
  // The first page's forms are bound in a task of their own: this script runs in one task with the
  // page's other deferred scripts (engine.js, the loader, the offline copy's), on a phone just as the
  // engine's worker compiles its WebAssembly beside it.
  let first = true;
  function onPage() {
    if (!first) return bindAll();
    first = false;
    nextTask().then(bindAll);
  }
  function subscribed() {
    if (!(window.document$ && typeof window.document$.subscribe === "function")) return false;
    window.document$.subscribe(onPage);
    return true;
  }
  if (!subscribed()) {
    bindAll();
    if (document.readyState !== "complete") {
      document.addEventListener("DOMContentLoaded", () => subscribed() || bindAll(), { once: true });
    }
  }
}

if (!window.mnemeCalculators) startCalculators();
