// Combat tracker: combatants, initiative, rounds, damage, reminders and undo, kept on this device.
// It holds state only: every action is applied by table/tracker.py in the worker
// (initiative, order, injury state, wound penalty, bleeding, dying and massive damage come
// from rules_core). The empty tracker, labels and ruling texts are Python's too
// (sitebuild/table_ui.py, through window.mnemeTable.config()). It works on the page's table that
// character.js makes (window.mnemeTable: its storage, the characters), which the loader always
// loads first (loader.js: needs).

import { h, onEachPage } from "./lib/dom.js";
import { keptAsideContent } from "./lib/kept-aside.js";
import { createQueue, createTapGuard, tapKey } from "./lib/taps.js";
import { actionWords, createTrackerStore, undoEntry, unsavedDamage } from "./lib/tracker-store.js";
import { addCombatantForm, fromCharactersForm } from "./tracker/add-forms.js";
import { combatantCard } from "./tracker/card.js";

function startTracker() {
  function bindTracker(root) {
    const T = window.mnemeTable;
    const { call } = T;
    const C = T.config();
    // Keys named by the site's scope (see character/table.js); the undo stack holds {tracker, what}.
    const KEY = T.key("tracker.v1");
    const UNDO_KEY = T.key("tracker.undo.v1");
    const fight = createTrackerStore({ storage: T, key: KEY, undoKey: UNDO_KEY });
    // Every tap once (a second tap on the same action within a moment is the same tap), and the
    // actions of this device's tabs one at a time, each on the fight the one before it saved.
    const taps = createTapGuard();
    const queue = createQueue({ name: `${KEY}:turns`, locks: navigator.locks || null });
    const emptyTracker = () => structuredClone(C.empty.tracker);
    let view = null;
    let busy = false;
    const openDetails = new Set();

    const status = h("p", { class: "mt-status", role: "status", "aria-live": "polite" });
    const alert = h("p", { class: "mt-error", role: "alert", "data-tracker-error": "" });
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
    const addForm = addCombatantForm({ C, act });
    const fromMine = fromCharactersForm({ T, act });

    root.replaceChildren(
      h("div", { class: "mt-sticky" },
        h("div", { class: "mt-row mt-sticky-row" },
          h("p", { class: "mt-round" }, "Round ", roundEl, h("br"), currentEl),
          undoButton,
          nextButton),
        status,
        alert,
      ),
      list,
      h("section", { class: "mt-add", "aria-label": "Add combatants" }, h("h2", { text: "Add combatants" }), fromMine, addForm),
      h("details", { class: "mt-rulings" }, h("summary", { text: "Rulings and new fight" }),
        h("label", { class: "mt-check" }, rulingTactics, ` ${C.rulings.negative_tactics}`),
        rulingReading,
        h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "save-all-damage", onclick: () => saveDamage(damageToSave()) }, "Save damage to My character"),
        h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "new-fight", onclick: newFight }, "New fight (clears the tracker)"),
      ),
      keptAside,
      h("section", { class: "mt-log-box", "aria-label": "What happened" }, h("h2", { text: "What happened" }), logList),
    );
    // A ruling sets what its control shows: every change counts, however quick (none is a double tap).
    rulingTactics.addEventListener("change", () => act({ type: "ruling", negative_tactics: rulingTactics.checked }, null, { repeat: true }));
    rulingReading.addEventListener("change", () => act({ type: "ruling", reading: rulingReading.value }, null, { repeat: true }));

    function setBusy(value) {
      busy = value;
      root.toggleAttribute("aria-busy", value);
    }

    // One action, applied by Python to the latest stored tracker; if another tab wrote meanwhile,
    // it is applied again to theirs, so neither change is lost. A tap on the same action again
    // within a moment counts once, unless `repeat` (an action meant to be tapped again and again).
    function act(action, slot, { repeat = false } = {}) {
      if (!view) return Promise.resolve();
      if (!repeat && !taps.counts(tapKey(action))) return Promise.resolve();
      return queue.run(() => applyAction(action, slot));
    }

    async function applyAction(action, slot) {
      setBusy(true);
      alert.textContent = "";
      if (slot) slot.textContent = "";
      try {
        let base = fight.latest(view.tracker);
        let next = await call("tracker_action", { tracker: base.tracker, action });
        const now = T.readText(KEY);
        if (now !== base.text && now !== null) {
          base = fight.latest(view.tracker);
          next = await call("tracker_action", { tracker: base.tracker, action });
        }
        const said = T.same(next.tracker.log, base.tracker.log) ? "" : next.tracker.log[next.tracker.log.length - 1] || "";
        const what = actionWords(said, action, base.tracker);
        const problem = fight.save(next.tracker, base.tracker, what);
        render(next);
        status.textContent = problem ? `Not saved on this device: ${problem}. ${what}` : said || what;
      } catch (error) {
        (slot || alert).textContent = error.refused ? error.message : `The rules engine is not answering (${error.message}).`;
      } finally {
        settle();
      }
    }

    function undo() {
      if (!view || !taps.counts("undo")) return Promise.resolve();
      return queue.run(undoNow);
    }

    async function undoNow() {
      const stack = fight.undoStack();
      if (!stack.length) {
        status.textContent = "Nothing to undo.";
        return;
      }
      setBusy(true);
      const entry = stack.pop();
      try {
        const { tracker: previous, what } = undoEntry(entry);
        const back = await call("derive_tracker", { tracker: previous });
        const problem = fight.restore(back.tracker, stack);
        render(back);
        status.textContent = problem ? `Undone on this page only (${problem}): ${what}.` : `Undone: ${what}.`;
      } catch (error) {
        if (error.refused) {
          // One unreadable step never blocks the others: it is kept aside and the next Undo goes on.
          const problem = fight.setAsideUndo(entry, stack);
          alert.textContent = problem
            ? `Cannot undo: that step could not be read (${error.message}) and ${problem}.`
            : `That undo step could not be read (${error.message}); it is kept aside below. Undo again for the step before it.`;
          showBackups();
          if (view) render(view);
        } else alert.textContent = `Cannot undo: ${error.message}`;
      } finally {
        settle();
      }
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

    function render(next) {
      view = next;
      const t = next.tracker;
      roundEl.textContent = String(t.round);
      const current = t.combatants.find((c) => c.id === next.current);
      const unknown = current && next.rows[current.id].initiative === null;
      currentEl.textContent = !current
        ? "add combatants below"
        : unknown
          ? `${current.name}: initiative not known yet (roll or type it under Details)`
          : `${current.name} acts`;
      nextButton.disabled = t.combatants.length === 0;
      undoButton.disabled = fight.undoStack().length === 0;
      rulingTactics.checked = t.negative_tactics;
      rulingReading.value = t.reading;
      const parts = { C, act, openDetails, saveDamage, damageToSave };
      list.replaceChildren(...next.order.map((id) => combatantCard(next, id, parts)));
      logList.replaceChildren(...t.log.slice(-10).reverse().map((line) => h("li", { text: line })));
      fromMine.refresh();
      root.dataset.state = "ready";
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
      return call("derive_tracker", { tracker: emptyTracker() }).then((first) => {
        fight.seeStored();
        render(first);
      });
    }

    // Another tab changed the fight: show theirs.
    T.onChange(KEY, showTheirs);
    function showTheirs() {
      const text = T.readText(KEY);
      if (busy || !view || !fight.isNews(text)) return;
      const tracker = T.readJson(KEY);
      if (!tracker || typeof tracker !== "object") return;
      call("derive_tracker", { tracker }).then((next) => {
        fight.see(text);
        render(next);
        status.textContent = "Reloaded a change made in another tab.";
      }, () => {});
    }

    // The last queued action done: another tab's write heard meanwhile (while busy) is shown now.
    function settle() {
      setBusy(queue.pending() > 1);
      if (!busy) setTimeout(showTheirs, 0);
    }

    status.textContent = "Starting the rules engine\u2026";
    const savedText = T.readText(KEY);
    const saved = T.readJson(KEY);
    showBackups();
    if (saved === undefined || (saved !== null && (typeof saved !== "object" || Array.isArray(saved)))) {
      setAside(savedText, "it is not a tracker").catch((error) => {
        status.textContent = `The rules engine is not answering (${error.message}).`;
        root.dataset.state = "error";
      });
      return;
    }
    call("derive_tracker", { tracker: saved || emptyTracker() }).then(
      (first) => {
        fight.see(savedText);
        status.textContent = T.blocked()
          ? "This browser blocks storage for this site: the fight is kept on this page only, until you close it."
          : saved
            ? "Tracker restored from this device."
            : "A new tracker: add combatants below.";
        render(first);
        showBackups(); // an unreadable undo step found while drawing is listed at once
      },
      (error) => {
        if (error.refused) {
          setAside(savedText, error.message).catch(() => {});
        } else {
          status.textContent = `The rules engine is not answering (${error.message}).`;
          root.dataset.state = "error";
        }
      },
    );
  }

  function bindAll() {
    const root = document.querySelector('[data-mneme-table="tracker"]');
    if (root && !root.mnemeBound && window.mnemeTable?.config()) {
      root.mnemeBound = true;
      bindTracker(root);
    }
  }

  window.mnemeTracker = { bindAll };
  onEachPage(bindAll);
}

if (!window.mnemeTracker) startTracker();
