// The theme waits for the first result. On a calculator page the theme's script is
// held back (sitebuild/early_engine.py: with_held_theme): on a phone it takes a third of a second of
// the main thread, just when a returning visit's engine answers. It starts once the first result
// is on screen, the engine has failed, or the hold has run out (themeHoldMs). Until then a stand-in
// for its document$ (each page shown) runs what our scripts subscribe for this page, and then hands
// them to the theme's own for the pages instant navigation shows; the theme waits for
// DOMContentLoaded, so the event is sent again for it once it has loaded.

export const theme = { held: null, subscribers: [], contentLoaded: false };

export function holdTheme(holdMs) {
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
  setTimeout(startTheme, holdMs);
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
// throttling 80 ms of blocking time). Done here for the stylesheets, in a task of its own before the
// theme's script, so the theme finds them absolute and leaves them alone.
const ABSOLUTE = /^(?:[a-z]+:)?\/\//i;

function absoluteStylesheets() {
  for (const link of document.querySelectorAll('link[rel="stylesheet"][href]')) {
    if (!ABSOLUTE.test(link.getAttribute("href"))) link.setAttribute("href", link.href);
  }
}

function startTheme() {
  const held = theme.held;
  if (!held) return;
  theme.held = null;
  absoluteStylesheets();
  // After the frame that styles the page with them (or soon, in a tab that draws no frames).
  let loaded = false;
  const load = () => {
    if (!loaded) loadTheme(held);
    loaded = true;
  };
  requestAnimationFrame(() => setTimeout(load, 0));
  setTimeout(load, 250);
}

function loadTheme(held) {
  const tag = document.createElement("script");
  tag.src = new URL(held.getAttribute("data-mneme-theme") || "", document.baseURI).href;
  // Its mounting (the DOMContentLoaded sent again in handOver) runs as a task of its own, after the
  // script's evaluation: one long task on a phone became two shorter ones, input handled between them.
  tag.onload = () => setTimeout(handOver, 0);
  tag.onerror = () => console.warn(`${tag.src} did not load`);
  held.replaceWith(tag);
}

// After the frame that shows the result: the theme's long task comes after the player sees it.
export function startThemeSoon() {
  if (theme.held) requestAnimationFrame(() => setTimeout(startTheme, 0));
}
