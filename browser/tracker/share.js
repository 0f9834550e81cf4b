// "Show to players": the fight as the players may see it, in a link and its QR code on the
// referee's screen (and the phone's share sheet where there is one). Nothing is sent anywhere: the
// fight travels inside the link, which the players' cameras read off the screen. The referee shows
// it again after changes; the players' page says how old it is.

import { h } from "../lib/dom.js";
import { fightSnapshot, fightUrl } from "./fight-link.js";
import { qrSvg } from "./qr.js";

// The panel; `getView()` answers the view shown now (null while there is none); `pageHref` is the
// players' page.
export function sharePanel({ getView, pageHref, say }) {
  const hpBox = h("input", { type: "checkbox", "data-field": "adversary-hp" });
  const out = h("div", { class: "mt-share-out", "data-share": "", hidden: true });
  const show = h("button", { type: "button", class: "mt-button", "data-action": "show-players", onclick: () => draw(false) }, "Show to players");
  const panel = h("details", { class: "mt-players", "data-players": "" },
    h("summary", { text: "Show to players" }),
    h("p", { class: "mt-hint", text: "A link and its QR code: the players open it on their phones and see the round, whose turn it is, the order and how everyone stands. Nothing is sent anywhere; show it again after changes." }),
    h("label", { class: "mt-check" }, hpBox, " Players see adversaries' damage and HP (otherwise their state only)"),
    show,
    out,
  );

  function draw(quiet) {
    const view = getView();
    if (!view?.tracker.combatants.length) {
      out.hidden = false;
      out.replaceChildren(h("p", { class: "mt-error", role: "alert", text: "Add combatants first: there is no fight to show yet." }));
      return;
    }
    const at = new Date().toISOString();
    const href = fightUrl(pageHref, fightSnapshot(view, { at, adversaryHp: hpBox.checked }));
    const qr = qrSvg(href, "QR code of the link to this fight");
    const link = h("input", { type: "text", readonly: true, class: "mt-link", "data-field": "players-link", "aria-label": "Link for the players", value: href });
    const copy = h("button", {
      type: "button",
      class: "mt-button mt-quiet",
      "data-action": "copy-players-link",
      onclick: () => {
        link.select();
        navigator.clipboard?.writeText(href).then(() => say("Link copied."), () => say("Select the link and copy it."));
      },
    }, "Copy link");
    const share = navigator.share
      ? h("button", {
          type: "button",
          class: "mt-button mt-quiet",
          "data-action": "share-players-link",
          onclick: () => navigator.share({ title: "The fight", url: href }).catch(() => {}),
        }, "Share\u2026")
      : null;
    out.hidden = false;
    out.replaceChildren(
      qr || h("p", { class: "mt-error", text: "Too many combatants for one QR code: share the link instead." }),
      h("p", { class: "mt-hint", "data-shown-at": at, text: `Shown at ${new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}, round ${view.tracker.round}${view.pending ? " (from this device; the engine had not answered yet)" : ""}.` }),
      link,
      h("div", { class: "mt-row" }, copy, share),
    );
    if (!quiet) say("Shown to players: they scan the code or open the link. Show it again after changes.");
  }

  // After a change, a code on screen is drawn again (the players scan the new one).
  return { panel, refresh: () => (panel.open && !out.hidden ? draw(true) : null) };
}
