// Registers the offline service worker (sw.js at the site root, written by hooks/offline.py).
// The URL is relative to this script (assets/offline/ -> ../../), so the site works under any
// sub-path. Registration waits until the page has loaded and, on a calculator page, until its
// first live result (or failure), so precaching never competes with the first paint or the engine.
// window.mnemeOffline.ready resolves to the active registration (null when unsupported or off);
// window.mnemeOfflineConfig = {register: false} (set before this script) turns it off.
(function () {
  "use strict";
  if (window.mnemeOffline) return;
  const script = document.currentScript;
  const base = new URL("../../", script ? script.src : location.href);
  const config = Object.assign({ register: true, calculatorWaitMs: 20000 }, window.mnemeOfflineConfig || {});
  const supported = "serviceWorker" in navigator && window.isSecureContext;

  function loaded() {
    return document.readyState === "complete"
      ? Promise.resolve()
      : new Promise((resolve) => window.addEventListener("load", resolve, { once: true }));
  }

  function calculatorsSettled() {
    const forms = Array.from(document.querySelectorAll("form[data-calculator]"));
    const busy = () => forms.some((form) => form.dataset.state === "loading");
    if (!forms.length || !busy()) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearInterval(poll);
        clearTimeout(cap);
        resolve();
      };
      const poll = setInterval(() => busy() || done(), 250);
      const cap = setTimeout(done, config.calculatorWaitMs);
    });
  }

  async function register() {
    if (!supported || !config.register) return null;
    await loaded();
    await calculatorsSettled();
    try {
      await navigator.serviceWorker.register(new URL("sw.js", base).href, { scope: base.href });
      return await navigator.serviceWorker.ready;
    } catch (error) {
      console.warn(`Offline use is unavailable: ${(error && error.message) || error}`);
      return null;
    }
  }

  window.mnemeOffline = { ready: register() };
})();
