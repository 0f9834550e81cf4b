// "Use my character" above a calculator form: fill the form in from a character kept on this
// device, and write the damage taken back to it (table/prefill.py says what goes where).

import { STORED_MARK } from "../lib/character-store.js";
import { h } from "../lib/dom.js";
import { call } from "./table.js";

// Write-back inputs whose saved value is an output: the damage after the hit, not before it.
const SAVED_FROM = { own_damage: "damage_now" };

// The page is built with the box as a new player sees it (sitebuild/table_ui.py, mine_box); it
// is filled in place, so nothing below it moves.
export function bindMine(form, table) {
  if (form.mnemeMine) return;
  form.mnemeMine = true;
  const name = form.dataset.calculator;
  const rootUrl = form.dataset.root || "";
  const previous = form.previousElementSibling;
  const built = previous?.matches(`.mt-mine[data-mine-for="${CSS.escape(name)}"]`) ? previous : null;
  if (built) markStored(table.loadStore().characters.length > 0); // its words right until it is filled
  call("prefill_plan", { calculator: name }).then(
    (plan) => {
      const box = plan.keys.length ? mineControl(form, name, plan, rootUrl, table) : null;
      if (built && box) built.replaceWith(box);
      else if (built) built.remove();
      else if (box) form.before(box);
    },
    () => {},
  );
}

// <html> marked as the store now reads (head/early.js marked it before the first paint from a
// lighter read; a page reached by the theme's instant navigation keeps the mark of the first one).
function markStored(kept) {
  const root = document.documentElement;
  if (root.hasAttribute(STORED_MARK) !== kept) root.toggleAttribute(STORED_MARK, kept);
}

// The row of controls a kept character gets, as the build makes its place (sitebuild/table_ui.py,
// _controls_to_come): inert and unseen (calculators.css shows its place only with a character kept).
function controlsToCome(plan, words) {
  const button = (quiet, text) => h("button", { type: "button", class: quiet ? "mt-button mt-quiet" : "mt-button", disabled: true }, text);
  return h("div", { class: "mt-row mt-mine-later", "aria-hidden": "true", inert: true },
    h("select", { disabled: true }),
    plan.needs_choice ? h("select", { disabled: true }) : null,
    button(false, words.use),
    plan.write_back.length ? button(true, words.save) : null);
}

function mineControl(form, name, plan, rootUrl, table) {
  const box = h("div", { class: "mt-mine", "data-mine-for": name });
  const notes = h("ul", { class: "mt-mine-notes", "aria-live": "polite" });
  const status = h("p", { class: "mt-mine-status", role: "status" });
  const who = h("select", { "aria-label": "Character" });
  const using = h("select", { "aria-label": "Rolling with" });
  const store = table.loadStore();

  const words = table.config().mine;
  if (!store.characters.length) {
    // The same words and row as the built box (sitebuild/table_ui.py, mine_box); the mark picks which
    // shows.
    box.append(
      h("span", { class: "mt-mine-title", text: words.title }),
      " ",
      controlsToCome(plan, words),
      h("span", { class: "mt-mine-stored", text: words.stored }),
      h("a", { href: `${rootUrl}table/character/`, text: words.none_link }),
      words.none_rest,
    );
    return box;
  }
  for (const c of store.characters) who.append(h("option", { value: c.id, text: c.name, selected: c.id === store.active }));

  function character() {
    const current = table.loadStore();
    return current.characters.find((c) => c.id === who.value) || null;
  }

  function fillUsing() {
    using.replaceChildren();
    const c = character();
    if (!c) return;
    if (plan.weapons) {
      (c.weapons || []).forEach((w, i) => {
        using.append(h("option", { value: `weapon:${i}`, text: `${w.name} (${w.damage})` }));
      });
    }
    for (const s of c.skills || []) {
      using.append(h("option", { value: `skill:${s.name}`, text: `${s.name} ${s.level}`, selected: s.name === plan.preferred_skill }));
    }
    using.hidden = !plan.needs_choice || using.options.length === 0;
  }

  function fill() {
    const c = character();
    if (!c) return;
    call("prefill", { calculator: name, character: c, using: using.hidden ? "" : using.value }).then(
      (result) => {
        // Only what nobody gave: a field the player typed or a link handed on keeps its value.
        const given = form.mnemeGiven || new Set();
        const filled = result.notes.filter((n) => !given.has(n.key));
        const kept = result.notes.filter((n) => given.has(n.key));
        for (const n of filled) {
          const el = form.elements.namedItem(n.key);
          if (el && "value" in el) el.value = result.values[n.key];
        }
        notes.replaceChildren(...filled.map((n) => h("li", { "data-note-for": n.key, text: `${n.label}: ${n.text}` })));
        if (kept.length) {
          notes.append(h("li", { "data-kept": "", text: `Kept as given: ${kept.map((n) => n.label).join(", ")}` }));
        }
        if (result.skipped.length) notes.append(h("li", { text: `Not filled (pick a weapon): ${result.skipped.join(", ")}` }));
        status.textContent = filled.length
          ? `Filled in from ${result.name}: ${filled.map((n) => n.label).join(", ")}.`
          : `Nothing filled from ${result.name}: every field it knows was given.`;
        form.dispatchEvent(new Event("input", { bubbles: true }));
      },
      (error) => (status.textContent = `Not filled in: ${error.message}`),
    );
  }

  function writeBack() {
    const c = character();
    if (!c) return;
    const values = {};
    for (const key of plan.write_back) {
      const el = form.elements.namedItem(key);
      if (el) values[key] = el.value;
      // A calculator that works out the damage after a hit (One attack) saves that, not the damage
      // the character had before it.
      const after = SAVED_FROM[key] && form.querySelector(`[data-output="${SAVED_FROM[key]}"]`);
      if (after) {
        const empty = table.config().calculators.empty;
        if (after.textContent === empty || !after.textContent.trim()) {
          status.textContent = "Enter the damage rolls you made to save the hit taken.";
          return;
        }
        values[key] = after.textContent.trim();
      }
    }
    call("write_back", { calculator: name, character: c, values }).then(
      (result) => {
        if (!result.changes.length) {
          status.textContent = `Nothing to change on ${result.character.name}.`;
          return;
        }
        // The character and its waiting draft (typing not checked yet) both take the saved value.
        const problem = table.updateStore((s) => {
          if (table.saveValue(s, result.character.id, "damage", result.character.damage) === undefined) s.characters.push(result.character);
        });
        status.textContent = problem
          ? `Not saved to ${result.character.name}: ${problem}.`
          : `Saved to ${result.character.name}: ${result.changes.join(", ")}.`;
      },
      (error) => (status.textContent = `Not saved: ${error.message}`),
    );
  }

  who.addEventListener("change", fillUsing);
  fillUsing();
  box.append(
    h("span", { class: "mt-mine-title", text: words.title }),
    h("div", { class: "mt-row" }, who, using,
      h("button", { type: "button", class: "mt-button", "data-action": "use-mine", onclick: fill }, words.use),
      plan.write_back.length
        ? h("button", { type: "button", class: "mt-button mt-quiet", "data-action": "write-back", onclick: writeBack }, words.save)
        : null),
    notes,
    status,
  );
  return box;
}

