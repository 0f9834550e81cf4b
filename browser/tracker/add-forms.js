// Adding combatants to the fight: by hand, or from the characters kept on this device.

import { h } from "../lib/dom.js";
import { parseNumber as intOrNull } from "../lib/form-state.js";
import { seed } from "./dice.js";
import { modeSelect, numberField, readFields } from "./fields.js";

export function addCombatantForm({ C, act }) {
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
    h("label", { class: "mt-field" }, h("span", { text: "Initiative" }), modeSelect(fresh.mode, C.modes)),
    h("div", { class: "mt-triple" },
      numberField("Skill", { "data-field": "skill", value: String(fresh.skill) }),
      numberField("Roll (2d6)", { "data-field": "roll", placeholder: "later" }),
      numberField("Told", { "data-field": "entered", placeholder: "\u2014" })),
    h("p", { class: "mt-error", role: "alert", "data-add-error": "" }),
    h("button", { type: "submit", class: "mt-button", "data-action": "add" }, "Add to the fight"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const combatant = readFields(form, {
      texts: ["name", "side", "mode"],
      numbers: ["strength", "dexterity", "endurance", "roll", "entered"],
      counts: ["skill"],
    });
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
export function fromCharactersForm({ T, act }) {
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
              const combatant = await T.call("combatant_from_character", { character: c });
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

