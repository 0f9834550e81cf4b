// The theme waits for the first result. On a calculator page the theme's script is
// held back (sitebuild/early_engine.py: with_held_theme): on a phone it takes a third of a second of
// the main thread, just when a returning visit's engine answers, and on a first visit it and what it
// fetches as it starts (its search index, search worker and sitemap: about 140 kB) share the link with
// the engine's WebAssembly. It starts once the first result is on screen, the engine has failed, the
// engine's start has gone quiet for the hold (themeHoldMs: nothing more arrived, no step reached), or
// the player reaches for what it runs: a tap or focus in the header or the navigation, or a key
// outside the page's fields (search's shortcuts); each step of its start then waits for a pause in the
// player's input and an idle page (at most lib/tasks.js' QUIET_WAIT_MS), unless the player reached for it. Until then a stand-in
// for its document$ (each page shown) runs what our scripts subscribe for this page, and then hands
// them to the theme's own for the pages instant navigation shows; the theme waits for
// DOMContentLoaded, so the event is sent again for it once it has loaded.

import { afterFrame, QUIET_WAIT_MS, whenQuiet } from "./tasks.js";

export const theme = {
  held: null,
  subscribers: [],
  contentLoaded: false,
  holdMs: 0,
  quietWaitMs: QUIET_WAIT_MS,
  timer: 0,
  urgent: false,
  hurry: null,
};

// What the theme runs on the page: the header (search, palette), the tabs and the navigation.
const THEME_PARTS = ".md-header, .md-tabs, .md-sidebar, .md-search";
const FIELD = "input, select, textarea, [contenteditable]";
const REACHED = ["pointerdown", "focusin", "keydown"];

function reached(event) {
  const target = event.target instanceof Element ? event.target : null;
  const forTheme =
    event.type === "keydown" ? !target?.closest(FIELD) || target.closest(THEME_PARTS) : target?.closest(THEME_PARTS);
  if (!forTheme) return;
  theme.urgent = true; // a start already under way waits no longer for idle
  theme.hurry?.();
  startTheme();
}

function stopListening() {
  for (const type of REACHED) document.removeEventListener(type, reached, { capture: true });
}

// The engine's start moved on (bytes arrived, a step reached): the hold runs from now again.
function holdOn() {
  if (!theme.held) return;
  clearTimeout(theme.timer);
  theme.timer = setTimeout(startTheme, theme.holdMs);
}

// holdMs: how long a start gone quiet holds the theme; quietWaitMs: how long its start waits at most for
// a pause in the player's input.
export function holdTheme(holdMs, quietWaitMs = QUIET_WAIT_MS) {
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
  theme.holdMs = holdMs;
  theme.quietWaitMs = quietWaitMs;
  holdOn();
  window.addEventListener("mneme:engine-progress", holdOn);
  window.addEventListener("mneme:engine-phase", holdOn);
  for (const type of REACHED) document.addEventListener(type, reached, { capture: true, passive: true });
}

function handOver() {
  const pages = window.document$;
  if (!pages || pages.mnemeStandIn) return;
  for (const next of theme.subscribers.splice(0)) {
    let first = true; // this page, already done: the theme's first value is the one sent below
    pages.subscribe((doc) => {
      if (first) first = false;
      else next(doc);
    });
  }
  if (theme.contentLoaded) document.dispatchEvent(new Event("DOMContentLoaded"));
}

// The theme's instant navigation writes every relative address of the page as an absolute one
// (element.href = element.href): for a stylesheet that is a new sheet, so the whole page is styled
// again inside the theme's first task (about 20 ms of a phone's main thread on a calculator page, at 4x
// throttling 80 ms of blocking time), and the old sheet is dropped at once: the page shows without
// its styles until the new one has come (on a slow link a jump the player sees). Done here before the
// theme's script, without the gap: each relative stylesheet gets an absolute copy beside it, applying
// to no medium while it loads (a sheet for no medium costs no style pass; a copy that applied at once
// restyled the whole page with every rule twice), and once all have loaded each copy takes its
// original's media and the original goes, together: one style pass. The theme then finds them absolute
// and leaves them alone. A copy that fails, or has not loaded in time, goes instead (its original stays).
const ABSOLUTE = /^(?:[a-z]+:)?\/\//i;
const SWAP_WAIT_MS = 3000; // a stylesheet that never answers does not hold the theme for good
const NO_MEDIUM = "not all";

function absoluteStylesheets() {
  const copies = [];
  for (const link of document.querySelectorAll('link[rel="stylesheet"][href]')) {
    if (ABSOLUTE.test(link.getAttribute("href"))) continue;
    const copy = link.cloneNode(false);
    copy.setAttribute("href", link.href);
    copy.setAttribute("media", NO_MEDIUM);
    const loaded = new Promise((done) => {
      copy.addEventListener("load", () => done(true), { once: true });
      copy.addEventListener("error", () => done(false), { once: true });
    });
    link.after(copy);
    copies.push({ link, copy, loaded, ok: null });
  }
  for (const entry of copies) entry.loaded.then((ok) => (entry.ok = ok));
  const all = Promise.all(copies.map((entry) => entry.loaded));
  return Promise.race([all, new Promise((done) => setTimeout(done, SWAP_WAIT_MS))]).then(() => {
    for (const { link, copy, ok } of copies) {
      if (ok) {
        const media = link.getAttribute("media");
        if (media === null) copy.removeAttribute("media");
        else copy.setAttribute("media", media);
        link.remove();
      } else copy.remove();
    }
  });
}

// Each step of the theme's start is a task of its own, and each waits for a pause in the player's input
// (lib/tasks.js: whenQuiet; a wait from the start's beginning, bounded once for all its steps): the
// stylesheets made absolute (one style pass), then, after the frame that draws them, the script (its
// evaluation, one task we cannot split), then its mounting (handOver, the theme's longest task). While
// the player types in a calculator none of them runs: each answer comes without waiting for them.
// A player who reaches for the theme (`urgent`) gets it at once.
function startTheme() {
  const held = theme.held;
  if (!held) return;
  theme.held = null;
  clearTimeout(theme.timer);
  window.removeEventListener("mneme:engine-progress", holdOn);
  window.removeEventListener("mneme:engine-phase", holdOn);
  const from = performance.now();
  const until = from + theme.quietWaitMs;
  const pause = () =>
    theme.urgent
      ? null
      : new Promise((resolve) => {
          theme.hurry = resolve; // a tap or key for the theme meanwhile: at once
          whenQuiet({ from, until }).then(resolve);
        });
  Promise.resolve(pause())
    .then(absoluteStylesheets)
    .then(() => afterFrame())
    .then(pause)
    .then(() => loadTheme(held, pause));
}

function loadTheme(held, pause) {
  const tag = document.createElement("script");
  tag.src = new URL(held.getAttribute("data-mneme-theme") || "", document.baseURI).href;
  // Its mounting (the DOMContentLoaded sent again in handOver) runs as a task of its own, after the
  // script's evaluation, once the player pauses again (or at once when urgent): one long task on a
  // phone became two shorter ones, input handled between them.
  tag.onload = () =>
    Promise.resolve(pause()).then(() => {
      theme.hurry = null;
      stopListening();
      setTimeout(handOver, 0);
    });
  tag.onerror = () => console.warn(`${tag.src} did not load`);
  held.replaceWith(tag);
}

// A table app's page (character, tracker, players' view) has drawn the engine's view of what the device
// keeps, or the engine refused or did not answer (`engine`: true), or drew what needs no engine at all
// (false: the players' view, a character page with no character): loader.js, which holds the theme
// there, starts it, at once when nothing waited for the engine (held, it only came later, just as the
// engine's start took the processor).
export const TABLE_DRAWN = "mneme:table-drawn";

export function tableDrawn(engine = true) {
  window.dispatchEvent(new CustomEvent(TABLE_DRAWN, { detail: { engine } }));
}

// After the frame that shows the result, once the player pauses: the theme's long tasks come after the
// player sees the answer, and apart from the edits that follow it.
export function startThemeSoon() {
  if (theme.held) afterFrame().then(startTheme);
}
