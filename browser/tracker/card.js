// One combatant's card in the order of action: its initiative, state, damage and reminders, the
// damage box, and its details to edit (initiative, characteristics, first aid, dead or removed).

import { h } from "../lib/dom.js";
import { parseNumber as intOrNull } from "../lib/form-state.js";
import { seed } from "./dice.js";
import { leadFields, modeSelect, numberField, readFields } from "./fields.js";

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
  const dice = h("input", { type: "text", autocomplete: "off", "data-field": "dice", "aria-label": `Damage dice on ${c.name}`, placeholder: "dice: 3d6", class: "mt-dice", hidden: true });
  const effect = h("input", { type: "text", inputmode: "numeric", autocomplete: "off", "data-field": "hit_effect", "aria-label": `The hit's Effect on ${c.name} (${C.minimum_damage_effect} or more: at least 1 a roll)`, placeholder: "Effect", class: "mt-dice", hidden: true });
  const raw = h("input", { type: "checkbox", "data-field": "before_armor" });
  raw.addEventListener("change", () => {
    dice.hidden = !raw.checked;
    effect.hidden = !raw.checked;
    rolls.placeholder = raw.checked ? "rolls as made: 5, 9" : "rolls after armor: 5, 9";
    rolls.setAttribute("aria-label", `Damage rolls on ${c.name}, ${raw.checked ? "before" : "after"} armor`);
  });
  const hit = () => {
    if (!rolls.value.trim()) return;
    const action = { type: "hit", id, rolls: rolls.value };
    if (raw.checked) Object.assign(action, { before_armor: true, dice: dice.value });
    if (raw.checked && effect.value.trim()) action.effect = intOrNull(effect.value) ?? effect.value;
    act(action, slot);
  };
  rolls.addEventListener("keydown", (event) => {
    if (event.key === "Enter") hit();
  });
  return h(
    "li",
    { class: `mt-card${current ? " mt-current" : ""}${c.dead ? " mt-dead" : ""}${row.acts === false ? " mt-out" : ""}${view.pending ? " mt-pending" : ""}`, "data-combatant": id, "data-acts": String(row.acts !== false), "aria-current": current ? "step" : null },
    h("div", { class: "mt-card-head" },
      h("span", { class: "mt-init", "data-initiative": "", title: "Initiative", text: row.initiative_shown }),
      h("span", { class: "mt-name", "data-name": "", text: c.name }),
      h("span", { class: `mt-side mt-side-${c.side}`, text: c.side }),
      h("span", { class: `mt-state mt-state-${row.state}`, "data-state": row.state, text: c.dead ? "dead" : C.states[row.state] || "\u2026" }),
      row.acts === false && !c.dead ? h("span", { class: "mt-skip", "data-skipped": "", text: "passed over" }) : null,
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
    h("div", { class: "mt-row mt-raw" },
      h("label", { class: "mt-check" }, raw, h("span", { "data-armor": "", text: `Rolls as made: take off armor ${c.armor}` })),
      dice,
      effect),
    incomingBox(c, slot, act),
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
      h("div", { class: "mt-triple" },
        numberField("Initiative skill", { "data-field": "skill", value: c.skill }),
        numberField("Armor", { "data-field": "armor", value: c.armor ?? 0 })),
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
      const fields = readFields(box, {
        texts: ["name", "mode", "lead"],
        numbers: ["lead_score", "roll", "entered", "strength", "dexterity", "endurance"],
        counts: ["tactics_effect", "skill", "armor"],
      });
      act({ type: "update", id: c.id, fields }, slot);
    }
    return box;
  }
}

// An attack the combatant failed against, told as "failed by N with cover C" (and the other mitigating
// factors: conditions, defence skill; the attacker's rate of attack): Python mitigates it, asks how many
// damage rolls of which dice to make, and takes the combatant's armor off each.
function incomingBox(c, slot, act) {
  const box = h("details", { class: "mt-incoming", "data-incoming": c.id },
    h("summary", { text: "Incoming attack" }),
    h("div", { class: "mt-triple" },
      numberField("Failed by", { "data-field": "failed_by", placeholder: "5" }),
      numberField("Cover", { "data-field": "cover", placeholder: "0" }),
      numberField("Conditions", { "data-field": "incoming_conditions", placeholder: "0" })),
    h("div", { class: "mt-triple" },
      numberField("Defence skill", { "data-field": "incoming_skill", placeholder: "0" }),
      numberField("Rate of attack", { "data-field": "incoming_rate_of_attack", placeholder: "no limit" }),
      numberField("Armor", { "data-field": "incoming_armor", value: c.armor ?? 0 })),
    h("div", { class: "mt-triple" },
      h("label", { class: "mt-field" }, h("span", { text: "Dice" }), h("input", { type: "text", autocomplete: "off", "data-field": "incoming_dice", placeholder: "3d6" })),
      h("label", { class: "mt-field mt-wide" }, h("span", { text: "Rolls as made" }), h("input", { type: "text", inputmode: "numeric", autocomplete: "off", "data-field": "incoming_rolls", placeholder: "after the count is shown" }))),
    h("button", { type: "button", class: "mt-button", "data-action": "incoming", onclick: resolve }, "Resolve attack"));
  return box;
  function resolve() {
    const get = (key) => box.querySelector(`[data-field="incoming_${key}"], [data-field="${key}"]`).value.trim();
    // A number as a number; anything else as typed, so Python names the mistake beside the field.
    const num = (key) => (get(key) === "" ? null : (intOrNull(get(key)) ?? get(key)));
    act({
      type: "incoming",
      id: c.id,
      failed_by: num("failed_by"),
      cover: num("cover") ?? 0,
      conditions: num("conditions") ?? 0,
      skill: num("skill") ?? 0,
      rate_of_attack: num("rate_of_attack") ?? 0,
      armor: num("armor"),
      dice: get("dice"),
      rolls: get("rolls"),
    }, slot);
  }
}
