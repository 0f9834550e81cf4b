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
    early.worker = new Worker(new URL(url, document.baseURI), { type: "module" });
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

startEarly(document.currentScript);
