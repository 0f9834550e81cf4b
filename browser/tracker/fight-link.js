// A fight shown to the players without a server: what they may see of the tracker (round, whose
// turn, the order, each combatant's state; the referee chooses whether adversaries' damage and HP
// show) travels inside a link, "fight=" + base64url of compact JSON, after the "#" (browsers never
// send it to a server). The player's page reads it as data, bounded and checked field by field.
// Pure: the tracker's derived view in, the link out; a link in, the fight or a sentence out.

import { readPayload, toBase64url } from "../character/link-peek.js";

export const FIGHT_LINK = "fight=";
export const FIGHT_VERSION = 1;
const ENTRY_KEYS = new Set(["name", "side", "state", "init", "dead", "hp", "damage", "penalty"]);
const FIGHT_KEYS = new Set(["v", "at", "round", "turn", "hp", "order"]);

// What the players see of `view` (table/tracker.py: derive_tracker), at time `at` (ISO text):
// characters' damage, HP and wound penalty always, adversaries' only with `adversaryHp`.
export function fightSnapshot(view, { at, adversaryHp }) {
  const byId = new Map(view.tracker.combatants.map((c) => [c.id, c]));
  const order = view.order.map((id) => {
    const c = byId.get(id);
    const row = view.rows[id];
    const entry = { name: c.name, side: c.side, state: row.state, init: row.initiative_shown, dead: c.dead };
    if (c.side === "character" || adversaryHp) Object.assign(entry, { hp: row.hp, damage: c.damage, penalty: row.wound_penalty_signed });
    return entry;
  });
  return { v: FIGHT_VERSION, at, round: view.tracker.round, turn: view.current ? view.order.indexOf(view.current) : -1, hp: Boolean(adversaryHp), order };
}

export const fightFragment = (snapshot) => FIGHT_LINK + toBase64url(JSON.stringify(snapshot));

// The address of the players' page (`pageHref`: the fight page) carrying `snapshot`.
export function fightUrl(pageHref, snapshot) {
  const url = new URL(pageHref);
  url.search = "";
  url.hash = fightFragment(snapshot);
  return url.href;
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const intIn = (v, low, high) => Number.isInteger(v) && v >= low && v <= high;
const shortText = (v, max) => typeof v === "string" && v.length <= max;

// The fight a "#fight=..." fragment carries: {fight} or {error: sentence}. `limits`: the page
// settings' limits (import_chars, call_depth, name, tracked, round, damage, hp); `states`: the known
// injury states. Anything unexpected refuses the whole link: nothing is cut or guessed.
export function readFight(hash, limits, states) {
  const text = String(hash || "").replace(/^#/, "");
  if (!text.startsWith(FIGHT_LINK)) return { error: "This address carries no fight: ask the referee to show it again." };
  const read = readPayload(text.slice(FIGHT_LINK.length), { maxChars: limits.import_chars, maxDepth: limits.call_depth, what: "a fight" });
  if (read.error) return read;
  const f = read.value;
  const bad = (why) => ({ error: `The link does not carry a fight the page can show (${why}).` });
  if (!isObject(f) || Object.keys(f).some((k) => !FIGHT_KEYS.has(k))) return bad("unexpected content");
  if (f.v !== FIGHT_VERSION) return bad("made by another version of the site: reload both pages");
  if (!shortText(f.at, 40) || Number.isNaN(Date.parse(f.at))) return bad("no time");
  if (!intIn(f.round, 1, limits.round)) return bad("no round");
  if (!Array.isArray(f.order) || f.order.length > limits.tracked) return bad(`at most ${limits.tracked} combatants`);
  if (!intIn(f.turn, -1, f.order.length - 1)) return bad("no turn");
  if (typeof f.hp !== "boolean") return bad("no choice of what is shown");
  for (const e of f.order) {
    if (!isObject(e) || Object.keys(e).some((k) => !ENTRY_KEYS.has(k))) return bad("unexpected content");
    if (!shortText(e.name, limits.name) || !e.name) return bad("a name");
    if (e.side !== "character" && e.side !== "adversary") return bad("a side");
    if (!(e.state in states)) return bad("a state");
    if (!shortText(e.init, 8) || typeof e.dead !== "boolean") return bad("an initiative");
    const numbers = ["hp", "damage", "penalty"].filter((k) => k in e).length;
    if (numbers !== 0 && numbers !== 3) return bad("a combatant's numbers");
    if (numbers && (!intIn(e.hp, 0, limits.hp) || !intIn(e.damage, 0, limits.damage) || !shortText(e.penalty, 8))) {
      return bad("a combatant's numbers");
    }
  }
  return { fight: f };
}

// How long ago `at` was, in words, at `nowMs` ("just now", "4 minutes ago", "2 hours ago", "3 days ago").
export function ageText(at, nowMs) {
  const seconds = Math.max(0, Math.round((nowMs - Date.parse(at)) / 1000));
  const unit = (n, word) => `${n} ${word}${n === 1 ? "" : "s"} ago`;
  if (seconds < 60) return "just now";
  if (seconds < 3600) return unit(Math.floor(seconds / 60), "minute");
  if (seconds < 86400) return unit(Math.floor(seconds / 3600), "hour");
  return unit(Math.floor(seconds / 86400), "day");
}
