// Combat tracker: combatants, initiative, rounds, damage, reminders and undo, kept on this device.
// It holds state only: every action is applied by table/tracker.py in the worker
// (initiative, order, injury state, wound penalty, bleeding, dying and massive damage come
// from rules_core). The empty tracker, labels and ruling texts are Python's too
// (sitebuild/table_ui.py, through window.mnemeTable.config()). It works on the page's table that
// character.js makes (window.mnemeTable: its storage, the characters), which the loader always
// loads first (loader.js: needs).
// Local first: the stored fight is drawn at once, from the engine's last view of it (kept beside
// it, tracker/local-view.js), marked pending until the engine answers; actions taken meanwhile wait
// in order (kept in this tab's session storage across a reload) and are applied one by one, never
// dropped. The same page, with data-view="players", is the players' read-only view of a shown fight.

import { h, onEachPage } from "./lib/dom.js";
import { keptAsideContent } from "./lib/kept-aside.js";
import { createQueue, createTapGuard, tapKey } from "./lib/taps.js";
import { characterLinkIn, withoutCharacterLink } from "./lib/link-codec.js";
import { actionWords, createTrackerStore, handOn, undoEntry, unsavedDamage } from "./lib/tracker-store.js";
import { tableDrawn } from "./lib/theme-hold.js";
import { peekCharacter } from "./character/link-peek.js";
import { addCombatantForm, fromCharactersForm } from "./tracker/add-forms.js";
import { combatantCard } from "./tracker/card.js";
import { seed } from "./tracker/dice.js";
import { createHandoff } from "./tracker/handoff.js";
import { drawable, provisionalView, viewToKeep } from "./tracker/local-view.js";
import { bindPlayersView } from "./tracker/players.js";
import { sharePanel } from "./tracker/share.js";
import { createWakeKeeper } from "./tracker/wake.js";

const RETRY_MS = 4000; // the first wait before asking a silent engine again, doubled each time up to a minute
const RETRY_MAX_MS = 60000;

// When the fight was first drawn (from storage, then by the engine), for the tests and benchmarks.
function mark(name) {
  try {
    if (performance.getEntriesByName(name).length === 0) performance.mark(name);
  } catch (_) {
    /* marks are best effort */
  }
}

function startTracker() {
  // A character link (#character=...) shown by a player for the referee's tracker, read before the
  // theme's navigation can rewrite the address.
  let linkPending = characterLinkIn(location.hash);
  let leave = null; // what to undo when the page is left (wake lock, timers)

  function bindTracker(root) {
    const T = window.mnemeTable;
    const { call } = T;
    const C = T.config();
    // Keys named by the site's scope (see character/table.js); the undo stack holds {tracker, what}.
    const KEY = T.key("tracker.v1");
    const VIEW_KEY = T.key("tracker.view.v1");
    const QUEUE_KEY = T.key("tracker.queue.v1");
    const UNDO_KEY = T.key("tracker.undo.v1");
    const ANCHOR_KEY = T.key("tracker.anchor.v1");
    const fight = createTrackerStore({ storage: T, key: KEY, undoKey: UNDO_KEY });
    // Every tap once (a second tap on the same action within a moment is the same tap), and the
    // actions of this device's tabs one at a time (Web Locks), each on the fight the one before it saved.
    const taps = createTapGuard();
    const turns = createQueue({ name: `${KEY}:turns`, locks: navigator.locks || null });
    // What each turn saved, handed to the next tab's turn (localStorage may reach that tab late).
    const handoff = createHandoff(KEY);
    const emptyTracker = () => structuredClone(C.empty.tracker);
    const keeper = T.keeper();
    let view = null;
    let confirmed = false; // the view shown is the engine's, of what storage holds
    let pumping = false;
    let retryTimer = null;
    let retryMs = RETRY_MS;
    const openDetails = new Set();
    const slots = new WeakMap(); // a waiting action -> where its refusal is said
    const settled = new WeakMap(); // a waiting action -> resolve (once applied, refused or cancelled)
    const queue = loadQueue();

    const status = h("p", { class: "mt-status", role: "status", "aria-live": "polite" });
    const alert = h("p", { class: "mt-error", role: "alert", "data-tracker-error": "" });
    const waiting = h("p", { class: "mt-waiting", "data-queued": "0", hidden: true });
    const roundEl = h("strong", { "data-round": "" });
    const currentEl = h("span", { "data-current": "" });
    const undoButton = h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "undo", onclick: undo }, "Undo");
    const nextButton = h("button", { type: "button", class: "mt-button mt-primary", "data-action": "next", onclick: () => act({ type: "next" }) }, "Next turn");
    const list = h("ol", { class: "mt-order", "data-order": "", "aria-label": "Order of action" });
    const logList = h("ol", { class: "mt-log", reversed: true, "data-log": "" });
    const rulingTactics = h("input", { type: "checkbox", "data-ruling": "negative_tactics" });
    const rulingReading = h(
      "select",
      { "data-ruling": "reading", "aria-label": C.rulings.reading.label },
      C.rulings.reading.options.map(([value, text]) => h("option", { value, text })),
    );
    const keptAside = h("section", { class: "mt-kept", "aria-label": "Kept aside", "data-backups": "", hidden: true });
    const offer = h("div", { class: "mt-offer", "data-link-offer": "", hidden: true });
    const addForm = addCombatantForm({ C, act });
    const fromMine = fromCharactersForm({ T, act });
    const share = sharePanel({ getView: () => view, pageHref: new URL("../fight/", location.href).href, say: (text) => (status.textContent = text) });
    const wake = createWakeKeeper((held) => root.toggleAttribute("data-awake", held));

    root.replaceChildren(
      h("div", { class: "mt-sticky" },
        h("div", { class: "mt-row mt-sticky-row" },
          h("p", { class: "mt-round" }, "Round ", roundEl, h("br"), currentEl),
          undoButton,
          nextButton),
        status,
        waiting,
        alert,
      ),
      offer,
      list,
      share.panel,
      h("section", { class: "mt-add", "aria-label": "Add combatants" }, h("h2", { text: "Add combatants" }), fromMine, addForm),
      h("details", { class: "mt-rulings" }, h("summary", { text: "Rulings and new fight" }),
        h("label", { class: "mt-check" }, rulingTactics, ` ${C.rulings.negative_tactics}`),
        rulingReading,
        h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "save-all-damage", onclick: () => saveDamage(damageToSave()) }, "Save damage to My character"),
        h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "new-fight", onclick: newFight }, "New fight (clears the tracker)"),
      ),
      keeper.panel(),
      keptAside,
      h("section", { class: "mt-log-box", "aria-label": "What happened" }, h("h2", { text: "What happened" }), logList),
    );
    // A ruling sets what its control shows: every change counts, however quick (none is a double tap).
    rulingTactics.addEventListener("change", () => act({ type: "ruling", negative_tactics: rulingTactics.checked }, null, { repeat: true }));
    rulingReading.addEventListener("change", () => act({ type: "ruling", reading: rulingReading.value }, null, { repeat: true }));

    // ------------------------------------------------------------ actions, in order

    // Actions wait here until the engine applies them: in this tab's session storage, so a reload
    // before the engine answers loses none (another tab never applies this tab's taps twice).
    function loadQueue() {
      try {
        const saved = JSON.parse(sessionStorage.getItem(QUEUE_KEY) || "[]");
        return Array.isArray(saved) ? saved.filter((op) => op && typeof op === "object" && (op.op === "undo" || op.action)) : [];
      } catch (_) {
        return [];
      }
    }
    function keepQueue() {
      try {
        if (queue.length) sessionStorage.setItem(QUEUE_KEY, JSON.stringify(queue));
        else sessionStorage.removeItem(QUEUE_KEY);
      } catch (_) {
        /* no session storage: the queue lives on this page only */
      }
    }

    function enqueue(op, slot) {
      if (slot) slots.set(op, slot);
      const done = new Promise((resolve) => settled.set(op, resolve));
      queue.push(op);
      keepQueue();
      showWaiting();
      pump();
      return done;
    }

    // A refusal where the action was asked: a mistake in the error style; a prompt (what to give next:
    // how many rolls to make, the hit's Effect) as a question, with the field it asks for focused.
    function say(refused, where, action) {
      where.textContent = refused.message;
      where.classList.toggle("mt-prompt", Boolean(refused.prompt));
      where.setAttribute("role", refused.prompt ? "status" : "alert");
      if (!refused.prompt || !refused.path || !action) return;
      const card = where.closest("[data-combatant]");
      const path = CSS.escape(refused.path);
      const field =
        action.type === "incoming"
          ? card?.querySelector(`[data-incoming] [data-field="incoming_${path}"], [data-incoming] [data-field="${path}"]`)
          : card?.querySelector(`.mt-raw [data-field="${path === "effect" ? "hit_effect" : path}"]`);
      if (field && !field.hidden) field.focus();
    }

    // One action, applied by Python to the latest stored tracker in its turn; resolves once applied
    // (or refused, with the reason where `slot` is). A tap on the same action again within a moment
    // counts once, unless `repeat` (an action meant to be tapped again and again).
    function act(action, slot, { repeat = false } = {}) {
      if (!repeat && !taps.counts(tapKey(action))) return Promise.resolve();
      alert.textContent = "";
      if (slot) slot.textContent = "";
      return enqueue({ action }, slot);
    }

    async function undo() {
      if (!taps.counts("undo")) return;
      if (queue.length && !pumping) {
        // An action not applied yet is simply taken back.
        const op = queue.pop();
        keepQueue();
        settled.get(op)?.();
        showWaiting();
        status.textContent = `Taken back before it was applied: ${op.op === "undo" ? "undo" : actionWords("", op.action, view.tracker)}.`;
        return;
      }
      if (!fight.undoStack().length) {
        // This tab's copy of the stack may be a write behind another tab's: the one handed on says.
        const { mark, handed } = await lastHanded();
        if (!fight.undoStack(handed, mark).length) {
          status.textContent = "Nothing to undo.";
          return;
        }
      }
      return enqueue({ op: "undo" });
    }

    function showWaiting() {
      const n = queue.length;
      waiting.hidden = n === 0;
      waiting.dataset.queued = String(n);
      waiting.textContent = n
        ? `${n} ${n === 1 ? "action" : "actions"} waiting for the rules engine, applied in order when it answers: ${queue.map((op) => (op.op === "undo" ? "undo" : actionWords("", op.action, view ? view.tracker : emptyTracker()))).join(", ")}.`
        : "";
      buttons();
    }

    function buttons() {
      const t = view ? view.tracker : null;
      const adding = queue.some((op) => op.action?.type === "add");
      nextButton.disabled = !t || (t.combatants.length === 0 && !adding);
      undoButton.disabled = queue.length === 0 && fight.undoStack().length === 0;
    }

    // Work through the waiting actions, one at a time; when the engine does not answer, keep them
    // and try again a little later.
    async function pump() {
      if (pumping) return;
      pumping = true;
      root.setAttribute("aria-busy", "true");
      clearTimeout(retryTimer);
      try {
        if (!confirmed) await confirm();
        while (queue.length) {
          const op = queue[0];
          let refused = null;
          try {
            // One at a time across this device's tabs: each applies to the fight the one before saved.
            await turns.run(() => (op.op === "undo" ? applyUndo() : applyAction(op.action)));
          } catch (error) {
            if (!error.refused) throw error;
            refused = error;
          }
          queue.shift();
          keepQueue();
          if (refused) say(refused, slots.get(op) || alert, op.action);
          settled.get(op)?.();
          showWaiting();
        }
        retryMs = RETRY_MS;
      } catch (error) {
        if (error.refused && !confirmed) return;
        status.textContent = queue.length
          ? `The rules engine is not answering yet (${error.message}): what you did waits, in order, and is applied when it does.`
          : `The rules engine is not answering yet (${error.message}): the fight is shown as stored on this device; its numbers follow when it answers.`;
        retryTimer = setTimeout(pump, retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      } finally {
        pumping = false;
        root.removeAttribute("aria-busy");
        setTimeout(showTheirs, 0); // another tab's write heard while this one was busy is shown now
      }
    }

    // This device's stored data, named once (and again after it is cleared): a fight handed on
    // before the clearing is never taken for the stored one. "" where storage is blocked.
    function anchor() {
      const known = T.readText(ANCHOR_KEY);
      if (known) return known;
      const made = T.newId("fight");
      return T.writeText(ANCHOR_KEY, made) ? "" : made;
    }

    // What the last turn handed on, with this device's anchor ({mark, handed}; handed null without one).
    async function lastHanded() {
      const mark = anchor();
      return { mark, handed: mark ? await handoff.read() : null };
    }

    // Hand on the fight this turn left (`written`: what it wrote over `baseText`, by default) with
    // the undo stack as it left it, before the lock passes to another tab.
    async function handOnSaved(handed, baseText, mark, written = T.readText(KEY)) {
      if (written !== null && mark) await handoff.write(handOn(handed, baseText, written, mark, T.readText(UNDO_KEY)));
    }

    async function applyAction(action) {
      const { mark, handed } = await lastHanded();
      let base = fight.latest(view.tracker, handed, mark);
      let next = await call("tracker_action", { tracker: base.tracker, action });
      const now = fight.latest(view.tracker, handed, mark);
      if (now.text !== base.text && now.text !== null) {
        base = now;
        next = await call("tracker_action", { tracker: base.tracker, action });
      }
      const said = T.same(next.tracker.log, base.tracker.log) ? "" : next.tracker.log[next.tracker.log.length - 1] || "";
      const what = actionWords(said, action, base.tracker);
      const problem = fight.save(next.tracker, base.tracker, what, handed, mark);
      if (!problem) {
        keeper.saved();
        await handOnSaved(handed, base.text, mark);
      }
      render(next);
      status.textContent = problem ? `Not saved on this device: ${problem}. ${what}` : said || what;
    }

    async function applyUndo() {
      // The stack as the last turn left it, even when this tab has not yet heard that turn's writes.
      const { mark, handed } = await lastHanded();
      const baseText = fight.latest(view ? view.tracker : null, handed, mark).text;
      const stack = fight.undoStack(handed, mark);
      if (!stack.length) {
        status.textContent = "Nothing to undo.";
        return;
      }
      const entry = stack.pop();
      let back;
      let what;
      try {
        ({ tracker: back, what } = undoEntry(entry));
        back = await call("derive_tracker", { tracker: back });
      } catch (error) {
        if (!error.refused) throw error;
        // One unreadable step never blocks the others: it is kept aside and the next Undo goes on.
        const problem = fight.setAsideUndo(entry, stack);
        if (!problem) await handOnSaved(handed, baseText, mark, baseText);
        alert.textContent = problem
          ? `Cannot undo: that step could not be read (${error.message}) and ${problem}.`
          : `That undo step could not be read (${error.message}); it is kept aside below. Undo again for the step before it.`;
        showBackups();
        if (view) render(view);
        return;
      }
      const problem = fight.restore(back.tracker, stack);
      if (!problem) await handOnSaved(handed, baseText, mark);
      render(back);
      status.textContent = problem ? `Undone on this page only (${problem}): ${what}.` : `Undone: ${what}.`;
    }

    function newFight() {
      const unsaved = damageToSave();
      if (unsaved.length && window.confirm(`Save the damage taken to My character first? (${unsaved.map((u) => `${u.name}: ${u.damage}`).join(", ")})`)) {
        saveDamage(unsaved);
      }
      if (!window.confirm("Clear the tracker for a new fight? (Undo can bring it back.)")) return;
      act({ type: "new_fight" });
    }

    // Combatants added from My character whose damage differs from the character's saved damage.
    function damageToSave() {
      if (!view) return [];
      return unsavedDamage(view.tracker.combatants, T.loadStore().characters);
    }

    // Write the fight's damage onto the saved characters (one document each, read afresh).
    function saveDamage(list) {
      if (!list.length) {
        status.textContent = "Nothing to save: My character already has this damage.";
        return;
      }
      const problem = T.updateStore((store) => {
        for (const u of list) {
          const c = store.characters.find((x) => x.id === u.id);
          if (c) c.damage = u.damage;
          if (store.drafts?.[u.id]) store.drafts[u.id].damage = u.damage;
        }
      });
      status.textContent = problem
        ? `Not saved to My character: ${problem}.`
        : `Saved to My character: ${list.map((u) => `${u.name} damage taken ${u.saved.damage} \u2192 ${u.damage}`).join(", ")}.`;
      fromMine.refresh();
    }

    // ------------------------------------------------------------ drawing

    function render(next) {
      view = next;
      const pending = Boolean(next.pending);
      if (!pending) {
        confirmed = true;
        const text = T.readText(KEY);
        if (text !== null) T.writeJson(VIEW_KEY, viewToKeep(text, next));
      }
      root.toggleAttribute("data-pending", pending);
      const t = next.tracker;
      roundEl.textContent = String(t.round);
      const current = t.combatants.find((c) => c.id === next.current);
      const unknown = current && next.rows[current.id].initiative === null;
      currentEl.textContent = !t.combatants.length
        ? "add combatants below"
        : !current
          ? "working out the order\u2026"
          : unknown
            ? `${current.name}: initiative not known yet (roll or type it under Details)`
            : `${current.name} acts`;
      buttons();
      rulingTactics.checked = t.negative_tactics;
      rulingReading.value = t.reading;
      const parts = { C, act, openDetails, saveDamage, damageToSave };
      list.replaceChildren(...next.order.map((id) => combatantCard(next, id, parts)));
      logList.replaceChildren(...t.log.slice(-10).reverse().map((line) => h("li", { text: line })));
      fromMine.refresh();
      share.refresh();
      wake.want(t.combatants.length > 0);
      root.dataset.state = pending ? "stored" : "ready";
      mark(pending ? "mneme:tracker-stored" : "mneme:tracker-ready");
      if (!pending) tableDrawn(); // the theme, held until now (loader.js)
    }

    // Kept aside: trackers this page could not read, to download (or forget).
    function showBackups() {
      const kept = [...T.backups(KEY), ...T.backups(UNDO_KEY)].sort((a, b) => (a.when < b.when ? 1 : -1));
      keptAside.hidden = kept.length === 0;
      keptAside.replaceChildren(
        ...keptAsideContent(kept, {
          intro: "A saved fight or undo step this page could not read was kept here rather than lost.",
          fileName: (b) => `kept-aside-fight-${b.when.slice(0, 10)}.json`,
          forget: (b) => {
            T.dropBackup(b.key);
            showBackups();
          },
        }),
      );
    }

    // Start afresh from an unreadable stored tracker: keep it aside first, never just overwrite it.
    function setAside(text, why) {
      const kept = T.keepBackup(KEY, text);
      alert.textContent = kept
        ? `The saved fight could not be read (${why}); it is kept aside below and a new one started.`
        : `The saved fight could not be read (${why}) nor kept aside, so it is left in storage untouched; this page starts a new one without saving over it until you act.`;
      if (kept) T.writeJson(KEY, emptyTracker());
      showBackups();
      render(provisionalView(emptyTracker(), "", null));
    }

    // The engine's view of what storage holds (or of a new tracker), replacing the one drawn from
    // storage; an unreadable stored fight is kept aside.
    async function confirm() {
      const text = T.readText(KEY);
      const saved = T.readJson(KEY);
      let first;
      try {
        if (saved === undefined || (saved !== null && (typeof saved !== "object" || Array.isArray(saved)))) {
          throw Object.assign(new Error("it is not a tracker"), { refused: true });
        }
        first = await call("derive_tracker", { tracker: saved || emptyTracker() });
      } catch (error) {
        if (!error.refused) throw error;
        setAside(text, error.message);
        first = await call("derive_tracker", { tracker: emptyTracker() });
        fight.seeStored();
        render(first);
        return;
      }
      fight.see(text);
      render(first);
      if (!queue.length) {
        status.textContent = T.blocked()
          ? "This browser blocks storage for this site: the fight is kept on this page only, until you close it."
          : saved
            ? "Tracker restored from this device."
            : "A new tracker: add combatants below.";
      }
    }

    // A character a player showed (#character=...): named at once, added to the fight when asked.
    function offerCharacter() {
      const link = linkPending;
      if (!link) return;
      linkPending = "";
      const address = withoutCharacterLink(location);
      if (address !== null) history.replaceState(history.state, "", address);
      const peek = peekCharacter(link, C.limits);
      const close = () => {
        offer.hidden = true;
        offer.replaceChildren();
      };
      offer.hidden = false;
      if (peek.error) {
        offer.replaceChildren(h("p", { class: "mt-error", role: "alert", text: `A player's link was not added: ${peek.error}` }));
        return;
      }
      const name = peek.character.name;
      const slot = h("p", { class: "mt-error", role: "alert" });
      offer.replaceChildren(
        h("p", { text: `A player shows a character: ${name}.` }),
        h("button", {
          type: "button",
          class: "mt-button",
          "data-action": "add-linked",
          onclick: async () => {
            offer.querySelector('[data-action="add-linked"]').disabled = true;
            slot.textContent = "Checking it (the rules engine may still be starting)\u2026";
            try {
              const character = await call("import_character", { text: link });
              const combatant = await call("combatant_from_character", { character });
              combatant.character_id = "";
              combatant.seed = seed();
              slot.textContent = "";
              await act({ type: "add", combatant }, slot);
              if (!slot.textContent) close();
            } catch (error) {
              slot.textContent = `Not added: ${error.message}`;
            }
          },
        }, "Add to the fight"),
        h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "ignore-linked", onclick: close }, "Ignore"),
        slot,
      );
    }

    // Another tab changed the fight: show theirs.
    T.onChange(KEY, showTheirs);
    function showTheirs() {
      const text = T.readText(KEY);
      if (pumping || queue.length || !confirmed || !fight.isNews(text)) return;
      const tracker = T.readJson(KEY);
      if (!tracker || typeof tracker !== "object") return;
      call("derive_tracker", { tracker }).then((next) => {
        fight.see(text);
        render(next);
        status.textContent = "Reloaded a change made in another tab.";
      }, () => {});
    }

    // First the fight as stored, at once; then the engine's view of it, then what waited.
    const savedText = T.readText(KEY);
    const saved = T.readJson(KEY);
    showBackups();
    if (saved === undefined || (saved !== null && !drawable(saved))) {
      render(provisionalView(emptyTracker(), "", null));
      status.textContent = "Starting the rules engine\u2026";
    } else {
      render(provisionalView(saved || emptyTracker(), savedText, T.readJson(VIEW_KEY)));
      fight.see(savedText);
      status.textContent = saved?.combatants.length
        ? "The fight as saved on this device; the rules engine is starting (numbers marked pending follow)."
        : "Starting the rules engine\u2026";
    }
    showWaiting();
    offerCharacter();
    pump();
    const stopOnLeave = () => wake.stop();
    window.addEventListener("pagehide", stopOnLeave);
    return () => {
      clearTimeout(retryTimer);
      wake.stop();
      window.removeEventListener("pagehide", stopOnLeave);
    };
  }

  function bindAll() {
    const root = document.querySelector('[data-mneme-table="tracker"]');
    if (root?.mnemeBound) return;
    if (leave) {
      leave();
      leave = null;
    }
    if (!root || !window.mnemeTable?.config()) return;
    root.mnemeBound = true;
    if (root.dataset.view === "players") {
      leave = bindPlayersView(root, window.mnemeTable.config());
      tableDrawn(false); // drawn from the address alone: the theme need not wait for the engine
    } else leave = bindTracker(root);
  }

  window.addEventListener("hashchange", () => {
    const link = characterLinkIn(location.hash);
    if (link) linkPending = link;
  });
  window.mnemeTracker = { bindAll };
  onEachPage(bindAll);
}

if (!window.mnemeTracker) startTracker();
