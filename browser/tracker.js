// Combat tracker: combatants, initiative, rounds, damage, reminders and undo, kept on this device.
// It holds state only: every action is applied by table/tracker.py in the worker
// (initiative, order, injury state, wound penalty, bleeding, dying and massive damage come
// from rules_core). The empty tracker, labels and ruling texts are Python's too
// (sitebuild/table_ui.py, through window.mnemeTable.config()). It works on the page's table that
// character.js makes (window.mnemeTable: its storage, the characters), which the loader always
// loads first (loader.js: needs).

import { h, onEachPage } from "./lib/dom.js";
import { parseNumber as intOrNull } from "./lib/form-state.js";

function startTracker() {
  const MAX_UNDO = 30;

  function seed() {
    const buffer = new Uint32Array(1);
    if (window.crypto && crypto.getRandomValues) crypto.getRandomValues(buffer);
    else buffer[0] = Math.floor(Math.random() * 2 ** 32);
    return buffer[0];
  }

  function bindTracker(root) {
    const T = window.mnemeTable;
    const { call } = T;
    const C = T.config();
    // Keys named by the site's scope (see character.js); the undo stack holds {tracker, what}.
    const KEY = T.key("tracker.v1");
    const UNDO_KEY = T.key("tracker.undo.v1");
    let basedOn = null; // the stored tracker text this tab's view was made from
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
    const addForm = addCombatantForm();
    const fromMine = fromCharactersForm();

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
    rulingTactics.addEventListener("change", () => act({ type: "ruling", negative_tactics: rulingTactics.checked }));
    rulingReading.addEventListener("change", () => act({ type: "ruling", reading: rulingReading.value }));

    function undoStack() {
      const stack = T.readJson(UNDO_KEY);
      return Array.isArray(stack) ? stack.filter((entry) => entry && typeof entry === "object") : [];
    }

    function setBusy(value) {
      busy = value;
      root.toggleAttribute("aria-busy", value);
    }

    // The tracker as stored now (another tab may have changed it since this one drew it).
    function latest() {
      const text = T.readText(KEY);
      if (text === null || text === basedOn) return { text, tracker: view.tracker };
      const tracker = T.readJson(KEY);
      return tracker && typeof tracker === "object" ? { text, tracker } : { text: basedOn, tracker: view.tracker };
    }

    // Write the tracker and push `before` on the undo stack, both read afresh; "" or why not.
    function store(tracker, before, what) {
      const problem = T.writeJson(KEY, tracker);
      if (problem) return problem;
      basedOn = T.readText(KEY);
      if (before) {
        const stack = undoStack();
        stack.push({ tracker: before, what });
        if (T.writeJson(UNDO_KEY, stack.slice(-MAX_UNDO))) return "the change is saved but cannot be undone after a reload";
      }
      return "";
    }

    // One action, applied by Python to the latest stored tracker; if another tab wrote meanwhile,
    // it is applied again to theirs, so neither change is lost.
    async function act(action, slot) {
      if (busy || !view) return;
      setBusy(true);
      alert.textContent = "";
      if (slot) slot.textContent = "";
      try {
        let base = latest();
        let next = await call("tracker_action", { tracker: base.tracker, action });
        const now = T.readText(KEY);
        if (now !== base.text && now !== null) {
          base = latest();
          next = await call("tracker_action", { tracker: base.tracker, action });
        }
        const said = T.same(next.tracker.log, base.tracker.log) ? "" : next.tracker.log[next.tracker.log.length - 1] || "";
        const what = said.replace(/^R\d+: /, "").replace(/\.$/, "") || describe(action, base.tracker);
        const problem = store(next.tracker, base.tracker, what);
        render(next);
        status.textContent = problem ? `Not saved on this device: ${problem}. ${what}` : said || what;
      } catch (error) {
        (slot || alert).textContent = error.refused ? error.message : `The rules engine is not answering (${error.message}).`;
      } finally {
        setBusy(false);
      }
    }

    // A few words for an action that leaves no line in the log (for Undo to name).
    function describe(action, tracker) {
      const who = tracker.combatants.find((c) => c.id === action.id)?.name || "";
      if (action.type === "next") return "next turn";
      if (action.type === "update") return `${who}'s details changed`;
      if (action.type === "ruling") return "a ruling changed";
      if (action.type === "new_fight") return "new fight";
      return action.type;
    }

    async function undo() {
      if (busy || !view) return;
      const stack = undoStack();
      if (!stack.length) {
        status.textContent = "Nothing to undo.";
        return;
      }
      setBusy(true);
      try {
        const entry = stack.pop();
        const previous = entry.tracker && entry.what !== undefined ? entry.tracker : entry; // older entries: the tracker alone
        const what = entry.tracker && entry.what !== undefined ? entry.what : "the last change";
        const back = await call("derive_tracker", { tracker: previous });
        const problem = T.writeJson(KEY, back.tracker) || T.writeJson(UNDO_KEY, stack);
        basedOn = T.readText(KEY);
        render(back);
        status.textContent = problem ? `Undone on this page only (${problem}): ${what}.` : `Undone: ${what}.`;
      } catch (error) {
        alert.textContent = `Cannot undo: ${error.message}`;
      } finally {
        setBusy(false);
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
      const characters = T.loadStore().characters;
      return view.tracker.combatants
        .filter((c) => c.character_id)
        .map((c) => ({ id: c.character_id, name: c.name, damage: c.damage, saved: characters.find((x) => x.id === c.character_id) }))
        .filter((u) => u.saved && u.saved.damage !== u.damage);
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

    function numberField(label, attrs) {
      return h("label", { class: "mt-field" }, h("span", { text: label }), h("input", { type: "text", inputmode: "numeric", autocomplete: "off", ...attrs }));
    }

    function modeSelect(value) {
      const select = h("select", { "data-field": "mode", "aria-label": "Initiative" });
      for (const [key, text] of C.modes) select.append(h("option", { value: key, text, selected: key === value }));
      return select;
    }

    function addCombatantForm() {
      const fresh = C.new_combatant;
      const side = h("select", { "data-field": "side" }, C.sides.map(([value, text]) => h("option", { value, text })));
      side.value = fresh.side;
      const form = h("form", { class: "mt-add-form", "data-add": "", novalidate: true, autocomplete: "off" },
        h("label", { class: "mt-field" }, h("span", { text: "Name" }), h("input", { type: "text", "data-field": "name", maxlength: C.limits.name, required: true })),
        h("label", { class: "mt-field" }, h("span", { text: "Side" }), side),
        h("div", { class: "mt-triple" },
          numberField("Str", { "data-field": "strength", value: String(fresh.strength) }),
          numberField("Dex", { "data-field": "dexterity", value: String(fresh.dexterity) }),
          numberField("End", { "data-field": "endurance", value: String(fresh.endurance) })),
        h("label", { class: "mt-field" }, h("span", { text: "Initiative" }), modeSelect(fresh.mode)),
        h("div", { class: "mt-triple" },
          numberField("Skill", { "data-field": "skill", value: String(fresh.skill) }),
          numberField("Roll (2d6)", { "data-field": "roll", placeholder: "later" }),
          numberField("Told", { "data-field": "entered", placeholder: "\u2014" })),
        h("p", { class: "mt-error", role: "alert", "data-add-error": "" }),
        h("button", { type: "submit", class: "mt-button", "data-action": "add" }, "Add to the fight"),
      );
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const get = (key) => form.querySelector(`[data-field="${key}"]`).value;
        const combatant = {
          name: get("name"),
          side: get("side"),
          strength: intOrNull(get("strength")),
          dexterity: intOrNull(get("dexterity")),
          endurance: intOrNull(get("endurance")),
          skill: intOrNull(get("skill")) ?? 0,
          mode: get("mode"),
          roll: intOrNull(get("roll")),
          entered: intOrNull(get("entered")),
        };
        const slot = form.querySelector("[data-add-error]");
        act({ type: "add", combatant }, slot).then(() => {
          if (!slot.textContent) {
            form.querySelector('[data-field="name"]').value = "";
            form.querySelector('[data-field="roll"]').value = "";
            form.querySelector('[data-field="entered"]').value = "";
          }
        });
      });
      return form;
    }

    // A saved character joins with its initiative: the roll typed here, or rolled at once.
    function fromCharactersForm() {
      const box = h("div", { class: "mt-from-mine" });
      function fill() {
        const store = T.loadStore();
        box.replaceChildren();
        if (!store.characters.length) return;
        const select = h("select", { "aria-label": "My characters" });
        for (const c of store.characters) select.append(h("option", { value: c.id, text: c.name }));
        const roll = h("input", {
          type: "text",
          inputmode: "numeric",
          autocomplete: "off",
          "data-field": "mine-roll",
          "aria-label": "Initiative roll (2d6); empty: rolled for you",
          placeholder: "roll 2d6",
          class: "mt-roll",
        });
        const slot = h("p", { class: "mt-error", role: "alert" });
        box.append(
          h("div", { class: "mt-row" }, select, roll,
            h("button", {
              type: "button",
              class: "mt-button",
              "data-action": "add-mine",
              onclick: async () => {
                const c = T.loadStore().characters.find((x) => x.id === select.value);
                if (!c) return;
                try {
                  const combatant = await call("combatant_from_character", { character: c });
                  const typed = intOrNull(roll.value);
                  if (typed === null) combatant.seed = seed();
                  else combatant.roll = typed;
                  await act({ type: "add", combatant }, slot);
                  if (!slot.textContent) roll.value = "";
                } catch (error) {
                  slot.textContent = error.message;
                }
              },
            }, "Add my character")),
          h("p", { class: "mt-hint", text: "Type the initiative roll, or leave it empty and it is rolled for you." }),
          slot,
        );
      }
      fill();
      box.refresh = fill;
      return box;
    }

    function card(id) {
      const c = view.tracker.combatants.find((x) => x.id === id);
      const row = view.rows[id];
      const current = id === view.current;
      const slot = h("p", { class: "mt-error", role: "alert", "data-card-error": "" });
      const rolls = h("input", { type: "text", inputmode: "numeric", autocomplete: "off", "data-field": "rolls", "aria-label": `Damage rolls on ${c.name}, after armor`, placeholder: "rolls after armor: 5, 9" });
      const shown = openDetails.has(id);
      const more = h("div", { class: "mt-more", "data-more": id, hidden: !shown }, editFields(c, slot));
      const toggle = h("button", {
        type: "button",
        class: "mt-button mt-quiet",
        "data-action": "more",
        "aria-expanded": String(shown),
        onclick: () => {
          const open = more.hidden;
          more.hidden = !open;
          toggle.setAttribute("aria-expanded", String(open));
          if (open) openDetails.add(id);
          else openDetails.delete(id);
        },
      }, "Details");
      const hit = () => {
        if (!rolls.value.trim()) return;
        act({ type: "hit", id, rolls: rolls.value }, slot);
      };
      rolls.addEventListener("keydown", (event) => {
        if (event.key === "Enter") hit();
      });
      return h(
        "li",
        { class: `mt-card${current ? " mt-current" : ""}${c.dead ? " mt-dead" : ""}`, "data-combatant": id, "aria-current": current ? "step" : null },
        h("div", { class: "mt-card-head" },
          h("span", { class: "mt-init", "data-initiative": "", title: "Initiative", text: row.initiative_shown }),
          h("span", { class: "mt-name", "data-name": "", text: c.name }),
          h("span", { class: `mt-side mt-side-${c.side}`, text: c.side }),
          h("span", { class: `mt-state mt-state-${row.state}`, "data-state": row.state, text: c.dead ? "dead" : C.states[row.state] }),
        ),
        h("p", { class: "mt-line" },
          h("span", { "data-damage": "", text: `${c.damage} damage` }), ` of HP ${row.hp} \u00b7 wound penalty `,
          h("strong", { "data-penalty": "", text: row.wound_penalty_signed }),
          ` \u00b7 ${row.initiative_text}`),
        row.reminders.length
          ? h("ul", { class: "mt-reminders" }, row.reminders.map((r) => h("li", { class: `mt-reminder mt-reminder-${r.kind}`, "data-reminder": r.kind, text: r.text })))
          : null,
        h("div", { class: "mt-row mt-hit" }, rolls,
          h("button", { type: "button", class: "mt-button", "data-action": "hit", onclick: hit }, "Add damage"),
          toggle),
        slot,
        more,
      );

      function editFields(c, slot) {
        const box = h("div", { class: "mt-edit" },
          h("label", { class: "mt-field" }, h("span", { text: "Name" }), h("input", { type: "text", "data-field": "name", value: c.name, maxlength: C.limits.name })),
          h("label", { class: "mt-field" }, h("span", { text: "Initiative" }), modeSelect(c.mode)),
          h("div", { class: "mt-triple" },
            numberField("Roll (2d6)", { "data-field": "roll", value: c.roll ?? "" }),
            numberField("Told", { "data-field": "entered", value: c.entered ?? "" }),
            numberField("Tactics Effect", { "data-field": "tactics_effect", value: c.tactics_effect })),
          h("div", { class: "mt-triple" },
            numberField("Str", { "data-field": "strength", value: c.strength }),
            numberField("Dex", { "data-field": "dexterity", value: c.dexterity }),
            numberField("End", { "data-field": "endurance", value: c.endurance })),
          numberField("Initiative skill", { "data-field": "skill", value: c.skill }),
          h("div", { class: "mt-row" },
            h("button", { type: "button", class: "mt-button", "data-action": "apply", onclick: apply }, "Apply"),
            h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "roll", onclick: () => act({ type: "roll", id: c.id, seed: seed() }, slot) }, "Roll 2d6")),
          h("div", { class: "mt-row" },
            numberField("Damage taken", { "data-field": "set_damage", value: c.damage }),
            h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "set-damage", onclick: () => act({ type: "set_damage", id: c.id, damage: intOrNull(box.querySelector('[data-field="set_damage"]').value) }, slot) }, "Correct damage")),
          h("div", { class: "mt-row" },
            numberField("First aid Effect", { "data-field": "first_aid_effect", value: "", placeholder: "0" }),
            h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "first-aid", onclick: () => act({ type: "first_aid", id: c.id, effect: intOrNull(box.querySelector('[data-field="first_aid_effect"]').value) }, slot) }, "First aid")),
          c.character_id
            ? h("div", { class: "mt-row" },
              h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "save-damage", onclick: () => saveDamage(damageToSave().filter((u) => u.id === c.character_id)) }, "Save damage to My character"))
            : null,
          h("div", { class: "mt-row" },
            h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "dead", onclick: () => act({ type: "dead", id: c.id, value: !c.dead }, slot) }, c.dead ? "Not dead" : "Dead"),
            h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "remove", onclick: () => act({ type: "remove", id: c.id }, slot) }, "Remove")),
        );
        function apply() {
          const get = (key) => box.querySelector(`[data-field="${key}"]`).value;
          act({
            type: "update",
            id: c.id,
            fields: {
              name: get("name"),
              mode: get("mode"),
              roll: intOrNull(get("roll")),
              entered: intOrNull(get("entered")),
              tactics_effect: intOrNull(get("tactics_effect")) ?? 0,
              strength: intOrNull(get("strength")),
              dexterity: intOrNull(get("dexterity")),
              endurance: intOrNull(get("endurance")),
              skill: intOrNull(get("skill")) ?? 0,
            },
          }, slot);
        }
        return box;
      }
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
      undoButton.disabled = undoStack().length === 0;
      rulingTactics.checked = t.negative_tactics;
      rulingReading.value = t.reading;
      list.replaceChildren(...next.order.map((id) => card(id)));
      logList.replaceChildren(...t.log.slice(-10).reverse().map((line) => h("li", { text: line })));
      fromMine.refresh();
      root.dataset.state = "ready";
    }

    // Kept aside: trackers this page could not read, to download (or forget).
    function showBackups() {
      const kept = T.backups(KEY);
      keptAside.hidden = kept.length === 0;
      keptAside.replaceChildren(
        h("h2", { text: "Kept aside" }),
        h("p", { text: "A saved fight this page could not read was kept here rather than lost." }),
        h("ul", { class: "mt-kept-list" }, kept.map((b) => h("li", { "data-backup": b.key },
          h("span", { text: `${b.when.replace("T", " ").slice(0, 19)} UTC, ${b.text.length} characters ` }),
          h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "backup-download", onclick: () => T.download(b.text, `kept-aside-fight-${b.when.slice(0, 10)}.json`) }, "Download"),
          h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "backup-drop", onclick: () => {
            if (!window.confirm("Forget this backup? It cannot be brought back.")) return;
            T.dropBackup(b.key);
            showBackups();
          } }, "Forget"),
        ))),
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
        basedOn = T.readText(KEY);
        render(first);
      });
    }

    // Another tab changed the fight: show theirs.
    T.onChange(KEY, () => {
      const text = T.readText(KEY);
      if (busy || !view || text === basedOn || text === null) return;
      const tracker = T.readJson(KEY);
      if (!tracker || typeof tracker !== "object") return;
      call("derive_tracker", { tracker }).then((next) => {
        basedOn = text;
        render(next);
        status.textContent = "Reloaded a change made in another tab.";
      }, () => {});
    });

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
        basedOn = savedText;
        status.textContent = T.blocked()
          ? "This browser blocks storage for this site: the fight is kept on this page only, until you close it."
          : saved
            ? "Tracker restored from this device."
            : "A new tracker: add combatants below.";
        render(first);
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
