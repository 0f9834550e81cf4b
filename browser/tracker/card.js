// One combatant's card in the order of action: its initiative, state, damage and reminders, the
// damage box, and its details to edit (initiative, characteristics, first aid, dead or removed).

import { h } from "../lib/dom.js";
import { parseNumber as intOrNull } from "../lib/form-state.js";
import { seed } from "./dice.js";
import { leadFields, modeSelect, numberField } from "./fields.js";

export function combatantCard(view, id, { C, act, openDetails, saveDamage, damageToSave }) {
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
    { class: `mt-card${current ? " mt-current" : ""}${c.dead ? " mt-dead" : ""}${view.pending ? " mt-pending" : ""}`, "data-combatant": id, "aria-current": current ? "step" : null },
    h("div", { class: "mt-card-head" },
      h("span", { class: "mt-init", "data-initiative": "", title: "Initiative", text: row.initiative_shown }),
      h("span", { class: "mt-name", "data-name": "", text: c.name }),
      h("span", { class: `mt-side mt-side-${c.side}`, text: c.side }),
      h("span", { class: `mt-state mt-state-${row.state}`, "data-state": row.state, text: c.dead ? "dead" : C.states[row.state] || "\u2026" }),
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
      h("label", { class: "mt-field" }, h("span", { text: "Initiative" }), modeSelect(c.mode, C.modes)),
      leadFields(C, c.lead || "dexterity", c.lead_score),
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
          lead: get("lead"),
          lead_score: intOrNull(get("lead_score")),
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

