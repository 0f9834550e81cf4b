// Early engine start, inlined at the top of <head> of each page with a calculator or a
// table app (sitebuild/early_engine.py; its hash joins the page's Content-Security-Policy). It creates
// the engine's worker before the page's stylesheets and scripts load, so Pyodide's downloads begin
// at once, and keeps what the worker says until engine.js takes it over (window.mnemeEarlyEngine).
// It also marks <html> when this device keeps a character, so the "use my character" box reads right
// from the first paint (markStoredCharacter).

import { characterPrefix, keepsCharacter, STORED_MARK } from "../lib/character-store.js";

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
    early.worker = spawn(new URL(url, document.baseURI).href);
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

// The worker's own text is inlined just before this script (a data block: sitebuild/early_engine.py):
// run from a blob, its downloads start at once, not a round trip later once worker.js has arrived. It
// is told its file's address (its downloads are named from there). Otherwise it starts from its file.
function spawn(address) {
  const text = document.getElementById("mneme-worker")?.textContent;
  if (text && typeof Blob === "function" && URL.createObjectURL) {
    try {
      // Tests may shorten the wait before the engine's memory snapshot (browser/worker.js).
      const quiet = Number(window.mnemeEngineConfig?.snapshotQuietMs) || 0;
      const head = `globalThis.mnemeWorkerStart = ${JSON.stringify({ url: address, snapshotQuietMs: quiet })};\n`;
      const blob = URL.createObjectURL(new Blob([head, text], { type: "text/javascript" }));
      return new Worker(blob, { type: "module" });
    } catch (_) {
      /* no blob worker (a policy, an old browser): from its file */
    }
  }
  return new Worker(address, { type: "module" });
}

// A character kept on this device (lib/character-store.js: keepsCharacter, a read of its documents'
// keys and shape only): <html> gets STORED_MARK before the body is parsed, and calculators.css shows
// the box's words for it. The keys are scoped as character/table.js scopes them, by the site's root
// (two levels above the worker's file, assets/calculators/, as above character.js).
function markStoredCharacter(script) {
  try {
    const url = script?.getAttribute("data-mneme-worker");
    if (!url) return;
    const scope = new URL("../../", new URL(url, document.baseURI)).pathname;
    if (keepsCharacter(window.localStorage, characterPrefix(scope))) document.documentElement.setAttribute(STORED_MARK, "");
  } catch (_) {
    /* storage blocked: the box as a new player sees it */
  }
}

startEarly(document.currentScript);
markStoredCharacter(document.currentScript);
