// Registers the offline service worker (sw.js at the site root, written by hooks/offline.py).
// The URL is relative to this script (assets/offline/ -> ../../), so the site works under any
// sub-path. Registration waits until the page has loaded and, on a calculator page, until its
// first live result (or failure, or nothing new from the engine for calculatorWaitMs), then for a
// pause in the player's input, so precaching never competes with the first paint, the engine or the
// answers to the player's edits.
// Offline that says so: a small mark in the page footer shows the precache's progress,
// then "Available offline", or which files could not be saved, with Retry (tried again by itself when a
// page opens and when the network comes back), or that a newer version was deployed meanwhile (its copy
// is then saved, and takes over by itself once complete).
// Updates that never mix: when a new version is installed and waiting, a notice offers
// [data-action="update"]: the new worker takes over and the page reloads at once.
// window.mnemeOffline.ready resolves to the active registration (null when unsupported or off);
// window.mnemeOffline.status() is the last status the worker reported;
// window.mnemeOfflineConfig = {register: false} (set before this script) turns it off.
import { whenQuiet } from "../lib/tasks.js";

const WAKE_WAIT_MS = 3000; // how long "Update now" waits for the running worker's answer before asking

function startOffline() {
  const script = document.currentScript;
  const base = new URL("../../", script ? script.src : location.href);
  const config = Object.assign({ register: true, calculatorWaitMs: 20000 }, window.mnemeOfflineConfig || {});
  const supported = "serviceWorker" in navigator && window.isSecureContext;
  // A page opened under a worker already in control (not the visit that saved the copy just now).
  const controlledAtLoad = supported && Boolean(navigator.serviceWorker.controller);
  let status = null;
  let activeCache = null;
  let updating = false;
  let lastCheck = 0;

  function loaded() {
    return document.readyState === "complete"
      ? Promise.resolve()
      : new Promise((resolve) => window.addEventListener("load", resolve, { once: true }));
  }

  // Until the page's calculators have their first live result, or nothing new has come from the engine
  // for calculatorWaitMs (its bytes arriving, or its tries again after a cut, are news): on a slow link
  // the copy does not share the link with an engine still downloading.
  function calculatorsSettled() {
    const forms = Array.from(document.querySelectorAll("form[data-calculator]"));
    const busy = () => forms.some((form) => form.dataset.state === "loading");
    if (!forms.length || !busy()) return Promise.resolve();
    return new Promise((resolve) => {
      let seen = "";
      let last = performance.now();
      const poll = setInterval(() => {
        const engine = window.mnemeEngine?.stats || {};
        const news = `${engine.downloaded || 0} ${engine.retrying || ""}`;
        if (news !== seen) {
          seen = news;
          last = performance.now();
        }
        if (!busy() || performance.now() - last > config.calculatorWaitMs) {
          clearInterval(poll);
          resolve();
        }
      }, 250);
    });
  }

  // ------------------------------------------------------------ the mark in the footer

  function mark() {
    let el = document.querySelector("[data-mneme-offline]");
    if (!el) {
      const home = document.querySelector(".md-footer-meta__inner") || document.body;
      el = document.createElement("div");
      el.className = "mneme-offline";
      el.setAttribute("data-mneme-offline", "");
      el.setAttribute("role", "status");
      el.append(document.createElement("span"));
      home.append(el);
    }
    return el;
  }

  function render() {
    if (!status) return;
    const el = mark();
    el.dataset.state = status.state;
    const text = el.querySelector("span");
    const failed = status.failed || [];
    let words;
    if (status.state === "saving") {
      words = `Saving for offline use\u2026 ${status.done || 0} of ${status.total || 0} files`;
    } else if (status.state === "ready") {
      words = "Available offline";
    } else if (status.state === "outdated") {
      words = "A newer version was published: saving it for offline use\u2026";
    } else {
      const shown = failed.slice(0, 3).join(", ") + (failed.length > 3 ? ", \u2026" : "");
      words =
        `Not fully available offline: ${failed.length} of ${status.total} files could not be saved ` +
        `(${shown}).`;
    }
    if (text.textContent !== words) text.textContent = words;
    let retry = el.querySelector('[data-action="offline-retry"]');
    if (status.state === "partial" && !retry) {
      retry = document.createElement("button");
      retry.type = "button";
      retry.className = "md-button";
      retry.setAttribute("data-action", "offline-retry");
      retry.textContent = "Retry";
      retry.addEventListener("click", retrySaving);
      el.append(" ", retry);
    } else if (status.state !== "partial" && retry) {
      retry.remove();
    }
  }

  async function retrySaving() {
    const registration = await navigator.serviceWorker.getRegistration(base.href);
    // A first copy tells its outcome before its install has ended (sw.js): a Retry pressed at once can
    // find the worker still installing, with no active or waiting one to ask (the press was lost).
    const worker = registration && (registration.active || registration.waiting || registration.installing);
    if (worker) worker.postMessage({ type: "retry" });
  }

  function heard(event) {
    const msg = event.data || {};
    if (msg.type !== "offline-status") return;
    // A copy overtaken by a deploy (this page's or a new one's): ask for the newest version.
    if (msg.state === "outdated") checkForUpdate();
    // Only the version this page runs on (or the first one being saved) speaks in the mark.
    if (activeCache && msg.cache !== activeCache) return;
    if (!activeCache && msg.state !== "saving" && navigator.serviceWorker.controller) activeCache = msg.cache;
    status = msg;
    render();
  }

  async function checkForUpdate() {
    const registration = await navigator.serviceWorker.getRegistration(base.href);
    if (!registration) return;
    registration.update().catch(() => {});
    // An install still under way takes that call in (Chromium folds it into the running job) and then
    // fails, its copy outdated: ask again once it is gone, or the newest version waits for the next check.
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "redundant") registration.update().catch(() => {});
    });
  }

  // A new version that took over by itself (this page's copy was incomplete or outdated): the mark
  // now speaks for its copy.
  async function adoptController() {
    const controller = navigator.serviceWorker.controller;
    if (!controller) return;
    activeCache = null;
    controller.postMessage({ type: "status" });
  }

  // ------------------------------------------------------------ a waiting new version

  function offerUpdate(registration) {
    if (!registration.waiting || !navigator.serviceWorker.controller) return;
    if (document.querySelector("[data-mneme-update]")) return;
    const notice = document.createElement("div");
    notice.className = "mneme-update";
    notice.setAttribute("data-mneme-update", "");
    notice.setAttribute("role", "status");
    const words = document.createElement("span");
    words.textContent = "A new version of this site is ready.";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "md-button md-button--primary";
    button.setAttribute("data-action", "update");
    button.textContent = "Update now";
    button.addEventListener("click", async () => {
      updating = true;
      button.disabled = true;
      const waiting = registration.waiting;
      if (!waiting) {
        location.reload();
        return;
      }
      // The browser swaps versions once the running worker is idle, and asks it to go idle at once
      // only if it is running when the new one asks to take over. Woken at that moment (by a request
      // of an open page), it would keep the switch waiting for its ordinary idle timeout (about 30 s
      // in Chromium, the button pressed and nothing happening): it answers first, then the ask.
      const controller = navigator.serviceWorker.controller;
      if (controller) await askStatus(controller, WAKE_WAIT_MS);
      waiting.postMessage({ type: "skip-waiting" });
    });
    notice.append(words, " ", button);
    document.body.append(notice);
  }

  function watchUpdates(registration) {
    offerUpdate(registration);
    registration.addEventListener("updatefound", () => {
      const next = registration.installing;
      if (!next) return;
      next.addEventListener("statechange", () => {
        if (next.state === "installed") offerUpdate(registration);
      });
    });
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (updating) location.reload();
      else adoptController();
    });
    // Look for a new version as the player moves between pages (instant navigation), at most once a minute.
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(() => {
        render();
        if (Date.now() - lastCheck < 60000) return;
        lastCheck = Date.now();
        registration.update().catch(() => {});
      });
    }
  }

  // The worker's status (its reply to "status"), or null after waitMs without one.
  function askStatus(worker, waitMs) {
    return new Promise((resolve) => {
      const done = (value) => {
        navigator.serviceWorker.removeEventListener("message", once);
        clearTimeout(timer);
        resolve(value);
      };
      const once = (event) => {
        if (event.data?.type === "offline-status" && event.data.reply) done(event.data);
      };
      const timer = setTimeout(done, waitMs, null);
      navigator.serviceWorker.addEventListener("message", once);
      worker.postMessage({ type: "status" });
    });
  }

  async function register() {
    if (!supported || !config.register) return null;
    navigator.serviceWorker.addEventListener("message", heard);
    navigator.serviceWorker.startMessages();
    await loaded();
    await calculatorsSettled();
    // Then once the player pauses and the page is idle (lib/tasks.js: whenQuiet, bounded): the
    // registration and the copy's first messages stay out of the tasks that draw the first result and
    // those that answer the edits after it.
    await whenQuiet();
    try {
      const registration = await navigator.serviceWorker.register(new URL("sw.js", base).href, {
        scope: base.href,
      });
      lastCheck = Date.now();
      watchUpdates(registration);
      const ready = await navigator.serviceWorker.ready;
      const first = ready.active ? await askStatus(ready.active, 5000) : null;
      if (first) {
        activeCache = first.cache;
        if (first.state !== "saving" || !status) {
          status = first;
          render();
        }
        // A copy that could not save every file (a link that dropped) tries them again by itself, as
        // the next page opens (the visit that saved it has just tried each a few times).
        if (first.state === "partial" && controlledAtLoad) retrySaving();
      }
      window.addEventListener("online", () => status?.state === "partial" && retrySaving());
      return ready;
    } catch (error) {
      console.warn(`Offline use is unavailable: ${(error?.message) || error}`);
      return null;
    }
  }

  window.mnemeOffline = { ready: register(), status: () => status };
}

if (!window.mnemeOffline) startOffline();
