// What the rules make of a character (table/character.py: derive_character), as the page shows it.

import { h } from "../lib/dom.js";

// The derived numbers' elements: HP, state, wound penalty, movement, thresholds, characteristic
// modifiers, skills and weapons, each as Python words it.
export function derivedNumbers(d) {
  const t = d.thresholds;
  return [
    h("h2", { text: `${d.character.name}: what the rules make of it` }),
    h(
      "dl",
      { class: "mt-facts" },
      h("dt", { text: "HP" }), h("dd", { "data-derived": "hp", text: d.hp }),
      h("dt", { text: "State" }), h("dd", { "data-derived": "state", class: `mt-state mt-state-${d.state}`, text: d.state_text }),
      h("dt", { text: "Wound penalty" }), h("dd", { "data-derived": "wound_penalty", text: d.wound_penalty_signed }),
      h("dt", { text: "Movement" }), h("dd", { text: d.movement }),
    ),
    h("p", { class: "mt-working", text: `${d.hp_text}. ${d.wound_penalty_text}.` }),
    h(
      "p",
      { class: "mt-working", "data-derived": "thresholds" },
      `Wounded from ${t.wounded}, seriously wounded from ${t.seriously_wounded}, critically wounded from ${t.critically_wounded}, dying from ${t.dying} damage.`,
    ),
    h("ul", { class: "mt-working", "data-derived": "chm" }, Object.values(d.chm).map((m) => h("li", { text: m.text }))),
    d.skills.length
      ? h("ul", { class: "mt-working", "data-derived": "skills" }, d.skills.map((s) => h("li", { text: `${s.name}: ${s.competence_text}; ${s.modifier_text}` })))
      : null,
    d.weapons.length
      ? h(
          "ul",
          { class: "mt-working", "data-derived": "weapons" },
          d.weapons.map((w) => h("li", { text: `${w.name}: ${w.damage}, rate of attack ${w.rate_text}; ${w.modifier_text} (${w.competence_text})` })),
        )
      : null,
  ];
}
