// The players' view of a fight the referee showed (a "#fight=..." link): round, whose turn, the
// order and each combatant's state, as the referee chose to show them, and how old it is. Read-only:
// it reads the link and nothing else, writes nothing to this device's storage (the referee's
// tracker, if this is the referee's phone, stays untouched) and needs no rules engine.

import { h } from "../lib/dom.js";
import { ageText, readFight } from "./fight-link.js";

export function bindPlayersView(root, C) {
  const status = h("p", { class: "mt-status", role: "status", "aria-live": "polite", "data-age": "" });
  let timer = null;

  function show() {
    clearInterval(timer);
    const read = readFight(location.hash, C.limits, C.states);
    if (read.error) {
      root.replaceChildren(h("p", { class: "mt-error", role: "alert", "data-fight-error": "", text: read.error }));
      root.dataset.state = "refused";
      return;
    }
    const f = read.fight;
    const current = f.turn >= 0 ? f.order[f.turn] : null;
    const age = () => {
      status.textContent = `As the referee showed it ${ageText(f.at, Date.now())} (${new Date(f.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}). Ask them to show it again after changes.`;
    };
    age();
    timer = setInterval(age, 30000);
    root.replaceChildren(
      h("div", { class: "mt-sticky" },
        h("p", { class: "mt-round" }, "Round ", h("strong", { "data-round": "", text: String(f.round) }), h("br"),
          h("span", { "data-current": "", text: current ? `${current.name} acts` : "nobody's turn yet" })),
        status),
      h("ol", { class: "mt-order mt-players-order", "data-order": "", "aria-label": "Order of action" },
        f.order.map((e, i) =>
          h("li", { class: `mt-card${i === f.turn ? " mt-current" : ""}${e.dead ? " mt-dead" : ""}`, "data-combatant": String(i), "aria-current": i === f.turn ? "step" : null },
            h("div", { class: "mt-card-head" },
              h("span", { class: "mt-init", "data-initiative": "", title: "Initiative", text: e.init }),
              h("span", { class: "mt-name", "data-name": "", text: e.name }),
              h("span", { class: `mt-side mt-side-${e.side}`, text: e.side }),
              h("span", { class: `mt-state mt-state-${e.state}`, "data-state": e.state, text: e.dead ? "dead" : C.states[e.state] })),
            "hp" in e
              ? h("p", { class: "mt-line" }, h("span", { "data-damage": "", text: `${e.damage} damage` }), ` of HP ${e.hp} \u00b7 wound penalty `, h("strong", { "data-penalty": "", text: e.penalty }))
              : null))),
      f.hp ? null : h("p", { class: "mt-hint", text: "The referee shows adversaries' state only." }),
    );
    root.dataset.state = "ready";
  }

  show();
  window.addEventListener("hashchange", show);
  return () => {
    clearInterval(timer);
    window.removeEventListener("hashchange", show);
  };
}
