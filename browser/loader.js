// Page loader: the one script of ours on every page. It adds the calculator runtime
// (engine.js, calculators.js) only where a calculator is, and the table apps
// (character.js, tracker.js) only where they appear (the character page, the tracker, calculator
// pages for "use my character"), by their content-hashed names (filled in by sitebuild/bundle.py).
// It runs again on each page mkdocs-material's instant navigation shows (document$), so a page
// reached without a reload still gets what it needs; the engine worker lives on in the window.
// Updates never mix: each page's head carries the build it belongs to
// (<meta name="mneme-build">, which instant navigation brings along with the new page); a page of
// another build shown by instant navigation is loaded afresh, with its own scripts.
// Start early: on a reading page, once idle and not Save-Data, the engine is warmed in the background.
// window.mnemeLoaderConfig = {warm: false} (set before this script) turns the warm start off.
// The answer before the theme, on the table apps' pages too: where the build held the theme's script
// there and no calculator holds it (calculators.js), the loader holds it (lib/theme-hold.js) until the
// app has drawn the engine's view (TABLE_DRAWN; at once when it drew what needs no engine), the engine
// failed, its start went quiet for themeHoldMs, or the player reached for the header.
import { explainAbbreviations } from "./lib/abbr-tips.js";
import { characterPrefix, keepsCharacter, STORED_MARK } from "./lib/character-store.js";
import { followKeyboard } from "./lib/keyboard-inset.js";
import { SETTINGS_ID } from "./lib/page-settings.js";
import { whenQuiet } from "./lib/tasks.js";
import { holdTheme, startThemeSoon, TABLE_DRAWN, theme } from "./lib/theme-hold.js";

function startLoader() {
  // scripts: name -> hashed file; everywhere: other scripts of browser/, for every page.
  const CONFIG = __MNEME_LOADER_CONFIG__;
  const script = document.currentScript;
  const assets = new URL(".", script ? script.src : location.href);
  const settings = Object.assign({ warm: true, warmDelayMs: 3000, themeHoldMs: 3000 }, window.mnemeLoaderConfig || {});
  const loading = new Map();
  let warmed = false;

  // A script the page itself carries (a calculator page has engine.js and calculators.js before the
  // theme's script, sitebuild/early_engine.py) has already run when this one does, and left its global:
  // it is not added again. A page shown by instant navigation gets them from here.
  const GLOBALS = { engine: "mnemeEngine", calculators: "mnemeCalculators" };

  function load(name) {
    if (!loading.has(name) && GLOBALS[name] && window[GLOBALS[name]]) loading.set(name, Promise.resolve(name));
    if (!loading.has(name)) {
      const file = CONFIG.scripts[name];
      loading.set(
        name,
        new Promise((resolve, reject) => {
          if (!file) return reject(new Error(`no script named ${name}`));
          const tag = document.createElement("script");
          tag.src = new URL(file, assets).href;
          tag.async = false; // scripts added together run in order (engine.js before calculators.js)
          tag.onload = () => resolve(name);
          tag.onerror = () => reject(new Error(`${file} did not load`));
          document.body.append(tag);
        }),
      );
      loading.get(name).catch((error) => console.warn(error.message));
    }
    return loading.get(name);
  }

  // What this page uses, in load order.
  function needs(doc) {
    const out = [];
    const calculator = doc.querySelector("form[data-calculator]");
    const table = doc.getElementById(SETTINGS_ID) || doc.querySelector("[data-mneme-table]");
    if (calculator || table) out.push("engine");
    if (calculator) out.push("calculators");
    if (table) out.push("character");
    if (doc.querySelector('[data-mneme-table="tracker"]')) out.push("tracker");
    return out;
  }

  // On a calculator page "use my character" (character.js) asks the engine before it shows anything,
  // and the page is built with its box as a new player sees it: on a first visit its script waits for
  // the first result, so its bytes do not share the link with the engine's. A page the offline copy
  // serves (its files come from the device) and a page of the table apps need it at once.
  function afterFirstResult(doc, name) {
    const calculator = doc.querySelector("form[data-calculator]");
    if (name !== "character" || !calculator || doc.querySelector("[data-mneme-table]")) return false;
    if (window.mnemeEngine?.stats?.results || navigator.serviceWorker?.controller) return false;
    // Once the player pauses after it and the page is idle (lib/tasks.js: whenQuiet, bounded): its
    // script's evaluation is a task apart from the answer's and from those of the edits after it.
    const go = () => whenQuiet().then(() => load(name));
    doc.addEventListener("calculator:result", go, { once: true });
    window.addEventListener("mneme:engine-down", go, { once: true });
    return true;
  }

  // A character kept on this device, for the "use my character" box of a calculator page that instant
  // navigation shows before character.js has run in this window: head/early.js marked <html> for the
  // first page only (a reading page has no mark at all), with the same read. Once character.js runs,
  // it marks each page itself (character/use-mine.js). The keys are scoped by the site's root, two
  // levels above this file (assets/calculators/), as character/table.js scopes them. The first page
  // keeps early.js's mark.
  let pagesShown = 0;
  function markStoredCharacter(doc) {
    if (pagesShown++ === 0 || window.mnemeTable || !doc.querySelector("form[data-calculator]")) return;
    let kept = false;
    try {
      kept = keepsCharacter(window.localStorage, characterPrefix(new URL("../../", assets).pathname));
    } catch (_) {
      /* storage blocked: the box as a new player sees it */
    }
    if (doc.documentElement.hasAttribute(STORED_MARK) !== kept) doc.documentElement.toggleAttribute(STORED_MARK, kept);
  }

  function warmLater() {
    if (warmed || !settings.warm) return;
    const connection = navigator.connection || {};
    if (connection.saveData || /(^|-)2g$/.test(connection.effectiveType || "")) return;
    warmed = true;
    const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 1));
    const start = () =>
      setTimeout(
        () =>
          idle(() => {
            load("engine").then(() => window.mnemeEngine?.get(), () => {});
          }),
        settings.warmDelayMs,
      );
    if (document.readyState === "complete") start();
    else window.addEventListener("load", start, { once: true });
  }

  function onPage() {
    const marker = document.querySelector('meta[name="mneme-build"]');
    const build = marker?.getAttribute("content");
    if (build && build !== CONFIG.build) {
      // A page of another deploy, shown by instant navigation: load it whole, with its own scripts.
      // Until it reloads, nothing of this build binds its calculators or table apps (they are
      // unmarked, so the scripts already here find nothing to compute with the old engine).
      for (const el of document.querySelectorAll("form[data-calculator], [data-mneme-table]")) {
        el.removeAttribute("data-calculator");
        el.removeAttribute("data-mneme-table");
      }
      location.reload();
      return;
    }
    const wanted = needs(document);
    markStoredCharacter(document);
    for (const name of [...wanted, ...(CONFIG.everywhere || [])]) if (!afterFirstResult(document, name)) load(name);
    if (!wanted.length) warmLater();
  }

  // A table app's page (its theme held by the build, sitebuild/early_engine.py): the theme waits for
  // the app's first drawing of the engine's view, as a calculator page's waits for its first result.
  function holdThemeForTable() {
    holdTheme(settings.themeHoldMs, settings.quietWaitMs);
    if (!theme.held) return;
    const drawn = (event) => {
      if (event.detail?.engine === false) theme.urgent = true; // nothing waits for the engine here
      startThemeSoon();
    };
    window.addEventListener(TABLE_DRAWN, drawn, { once: true });
    window.addEventListener("mneme:engine-down", startThemeSoon, { once: true });
  }

  // Every page: abbreviations explain themselves on a tap; a sticky answer bar stays above the keyboard.
  explainAbbreviations(document);
  followKeyboard(window);
  window.mnemeLoader = { build: CONFIG.build, load, loaded: () => Array.from(loading.keys()) };
  holdThemeForTable();
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(onPage);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", onPage, { once: true });
  else onPage();
}

if (!window.mnemeLoader) startLoader();
