// The players' view of a fight the referee showed (a "#fight=..." link): round, whose turn, the
// order and each combatant's state, as the referee chose to show them, and how old it is; or a
// player's character shown to the referee ("#character=..."), as a QR code. Read-only:
// it reads the link and nothing else, writes nothing to this device's storage (the referee's
// tracker, if this is the referee's phone, stays untouched) and needs no rules engine.

import { peekCharacter } from "../character/link-peek.js";
import { h } from "../lib/dom.js";
import { CHARACTER_LINK, characterLinkUrl } from "../lib/link-codec.js";
import { ageText, readFight } from "./fight-link.js";
import { qrSvg } from "./qr.js";

// A player's character, shown for the referee's camera: a QR code of the tracker's address carrying
// it (the tracker offers to add it to the fight).
function showCharacter(root, C, fragment) {
  const peek = peekCharacter(fragment, C.limits);
  if (peek.error) {
    root.replaceChildren(h("p", { class: "mt-error", role: "alert", "data-fight-error": "", text: peek.error }));
    root.dataset.state = "refused";
    return;
  }
  const href = characterLinkUrl(new URL("../tracker/", location.href).href, fragment);
  const qr = qrSvg(href, `QR code of ${peek.character.name} for the referee's tracker`);
  root.replaceChildren(
    h("h2", { "data-shown-character": "", text: `For the referee: ${peek.character.name}` }),
    h("p", { class: "mt-hint", text: "The referee scans this with their phone: the combat tracker opens and offers to add this character to the fight." }),
    qr || h("p", { class: "mt-error", text: "Too long for a QR code: send the link instead." }),
    h("input", { type: "text", readonly: true, class: "mt-link", "data-field": "referee-link", "aria-label": "Link for the referee's tracker", value: href }),
  );
  root.dataset.state = "ready";
}

export function bindPlayersView(root, C) {
  const status = h("p", { class: "mt-status", role: "status", "aria-live": "polite", "data-age": "" });
  let timer = null;

  function show() {
    clearInterval(timer);
    const fragment = location.hash.replace(/^#/, "");
    if (fragment.startsWith(CHARACTER_LINK)) return showCharacter(root, C, fragment);
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
