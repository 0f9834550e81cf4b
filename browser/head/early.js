// Early engine start, inlined at the top of <head> of each page with a calculator or a
// table app (sitebuild/early_engine.py; its hash joins the page's Content-Security-Policy). It creates
// the engine's worker before the page's stylesheets and scripts load, so Pyodide's downloads begin
// at once, and keeps what the worker says until engine.js takes it over (window.mnemeEarlyEngine).

function startEarly(script) {
  // Drawn from the first paint as the running theme draws it (its search button shown): the theme's
  // script makes this swap when it runs, and a calculator page holds that script back until its
  // first result (sitebuild/early_engine.py: with_held_theme).
  document.documentElement.classList.remove("no-js");
  document.documentElement.classList.add("js");
  const url = script?.getAttribute("data-mneme-worker");
  if (!url || window.mnemeEarlyEngine || typeof Worker !== "function") return;
  try {
    const early = { url, heard: [], adopted: false };
    const keep = (event) => {
      if (!early.adopted) early.heard.push(event);
    };
    // A first visit (no offline copy in control): the standard library is asked for here, now, and
    // handed to the worker (worker.js: stdlibFetch), whose own requests start a round trip later.
    const stdlib = script.getAttribute("data-mneme-stdlib");
    const fetches = Boolean(stdlib && typeof fetch === "function" && !navigator.serviceWorker?.controller);
    const name = fetches ? "mneme:stdlib-from-page" : "";
    early.worker = new Worker(new URL(url, document.baseURI), { type: "module", name });
    if (fetches) handStdlib(early.worker, new URL(stdlib, document.baseURI).href);
    early.worker.onmessage = keep;
    early.worker.onerror = (event) => {
      event.preventDefault();
      keep(event);
    };
    window.mnemeEarlyEngine = early;
    if (window.performance?.mark) performance.mark("mneme:worker-start");
  } catch (_) {
    /* engine.js starts the worker itself */
  }
}

function handStdlib(worker, href) {
  fetch(href)
    .then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.arrayBuffer();
    })
    .then(
      (buffer) => worker.postMessage({ type: "stdlib", buffer }, [buffer]),
      (error) => worker.postMessage({ type: "stdlib", error: String(error?.message || error) }),
    );
}

startEarly(document.currentScript);
