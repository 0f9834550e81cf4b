// Kept between sessions: a fortnightly table must find its characters again. At the first save the
// page asks the browser to keep this site's data (navigator.storage.persist) and says what it
// answered; it offers installation where the browser allows it (beforeinstallprompt), says on an
// iPhone how to add the site to the Home Screen and why, and reminds of the last backup once it is
// older than a month, with a one-tap download of everything kept here.

import { h } from "../lib/dom.js";

export const BACKUP_EVERY_DAYS = 30;
const DAY_MS = 86400000;

// beforeinstallprompt may fire before any page binds: it is kept here for the offer.
const install = { event: null, listeners: new Set() };
window.addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault();
  install.event = event;
  for (const listener of install.listeners) listener();
});
window.addEventListener("appinstalled", () => {
  install.event = null;
  for (const listener of install.listeners) listener();
});

export function onIPhone() {
  const ua = navigator.userAgent || "";
  return /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
}

export function installed() {
  return Boolean(navigator.standalone) || Boolean(window.matchMedia?.("(display-mode: standalone)").matches);
}

export const PERSIST_WORDS = {
  yes: "This browser agreed to keep this site's data until you delete it.",
  no: "This browser did not promise to keep this site's data: it may clear it when space runs short or after weeks without a visit. Keep a backup file.",
  none: "This browser cannot be asked to keep this site's data: keep a backup file.",
};

// The days since `iso` at `nowMs` (whole days, rounded down).
export const daysSince = (iso, nowMs) => Math.floor((nowMs - Date.parse(iso)) / DAY_MS);

// Whether to remind of a backup: something is kept, and the last backup (or, without one, the first
// save) is older than BACKUP_EVERY_DAYS.
export function backupDue(state, nowMs) {
  const since = state.lastBackup || state.firstSaved;
  return Boolean(since) && daysSince(since, nowMs) >= BACKUP_EVERY_DAYS;
}

// `T`: the page's table (character/table.js). `everything()`: the text of a backup file.
export function createKeeper(T, everything) {
  const KEY = T.key("kept.v1");
  const read = () => {
    const value = T.readJson(KEY);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  };
  const write = (change) => {
    const state = { ...read(), ...change };
    T.writeJson(KEY, state);
    for (const listener of listeners) listener();
    return state;
  };
  const listeners = new Set();
  let asking = null;

  // A save succeeded: the first one asks for persistent storage; the answer is kept and said.
  function saved() {
    const state = read();
    if (!state.firstSaved) write({ firstSaved: new Date().toISOString() });
    if (state.persist || asking) return asking;
    if (!navigator.storage?.persist) {
      write({ persist: "none", asked: new Date().toISOString() });
      return Promise.resolve("none");
    }
    asking = navigator.storage.persist().then(
      (granted) => write({ persist: granted ? "yes" : "no", asked: new Date().toISOString() }).persist,
      () => write({ persist: "no", asked: new Date().toISOString() }).persist,
    );
    return asking;
  }

  function backedUp() {
    write({ lastBackup: new Date().toISOString() });
  }

  function downloadBackup() {
    const day = new Date().toISOString().slice(0, 10);
    T.download(everything(), `mneme-backup-${day}.json`);
    backedUp();
  }

  // The panel: what the browser answered, the install offer or Home Screen advice, the reminder.
  function panel() {
    const box = h("section", { class: "mt-keep", "data-keep": "", "aria-label": "Kept between sessions" });
    function fill() {
      const state = read();
      const now = Date.now();
      const parts = [];
      if (state.persist) parts.push(h("p", { "data-persist": state.persist, text: PERSIST_WORDS[state.persist] || PERSIST_WORDS.no }));
      if (install.event && !installed()) {
        parts.push(
          h("p", {}, "Install this site as an app: it opens from your home screen, works offline and its data is kept with it. ",
            h("button", {
              type: "button",
              class: "mt-button",
              "data-action": "install",
              onclick: async () => {
                const event = install.event;
                if (!event) return;
                install.event = null;
                await event.prompt();
                fill();
              },
            }, "Install")),
        );
      } else if (onIPhone() && !installed()) {
        parts.push(
          h("p", { "data-home-screen": "" },
            "On iPhone and iPad, add this site to the Home Screen: tap the Share button, then ",
            h("strong", { text: "Add to Home Screen" }),
            ". Safari deletes what a site keeps after seven days of use without a visit, unless the site is on the Home Screen; from there your characters and the fight stay."),
        );
      }
      if (backupDue(state, now)) {
        const since = state.lastBackup
          ? `Your last backup is ${daysSince(state.lastBackup, now)} days old.`
          : `No backup since you started on ${state.firstSaved.slice(0, 10)}.`;
        parts.push(
          h("p", { class: "mt-reminder", "data-backup-reminder": "" }, `${since} A browser can lose what it keeps: `,
            h("button", { type: "button", class: "mt-button", "data-action": "backup-now", onclick: downloadBackup }, "Download a backup")),
        );
      }
      box.hidden = parts.length === 0;
      box.replaceChildren(...parts);
    }
    fill();
    listeners.add(fill);
    install.listeners.add(fill);
    return box;
  }

  return { saved, backedUp, downloadBackup, panel, state: read };
}
