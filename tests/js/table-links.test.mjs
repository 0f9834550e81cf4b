import assert from "node:assert/strict";
import { test } from "node:test";
import { fromBase64url, nestingWithin, peekCharacter, readPayload, toBase64url } from "../../browser/character/link-peek.js";
import { ageText, fightFragment, fightSnapshot, fightUrl, readFight } from "../../browser/tracker/fight-link.js";
import { PENDING_ROW, drawable, provisionalView, textStamp, viewToKeep } from "../../browser/tracker/local-view.js";

// The page settings' limits and states as sitebuild/table_ui.py gives them (the figures that matter here).
const LIMITS = { import_chars: 20000, call_depth: 16, name: 40, tracked: 40, round: 100000, damage: 10000000, hp: 297 };
const STATES = { unhurt: "unhurt", wounded: "wounded", seriously_wounded: "seriously wounded", dying: "dying" };

const view = {
  tracker: {
    round: 3,
    combatants: [
      { id: "c1", name: "Ada \u00e9", side: "character", damage: 5, dead: false },
      { id: "c2", name: "Ork", side: "adversary", damage: 12, dead: false },
    ],
  },
  order: ["c2", "c1"],
  current: "c1",
  rows: {
    c1: { state: "wounded", initiative_shown: "9", hp: 21, wound_penalty_signed: "\u22121" },
    c2: { state: "seriously_wounded", initiative_shown: "11", hp: 18, wound_penalty_signed: "\u22122" },
  },
};

test("base64url carries UTF-8 text both ways, and anything else is refused", () => {
  for (const text of ["", "a", "{\"name\":\"Zo\u00eb \ud83c\udfb2\"}", "x".repeat(1001)]) assert.equal(fromBase64url(toBase64url(text)), text);
  assert.doesNotMatch(toBase64url("\u00ff\u00fe???>>>"), /[+/=]/);
  assert.equal(fromBase64url("abc$"), null);
  assert.equal(fromBase64url("_w"), null); // 0xff alone is not UTF-8
});

test("nesting is measured without parsing, strings skipped", () => {
  assert.equal(nestingWithin("[[[]]]", 3), true);
  assert.equal(nestingWithin("[[[[]]]]", 3), false);
  assert.equal(nestingWithin('["[[[[[[", {"a": "\\"{{{{"}]', 2), true);
});

test("a payload over the limits is refused with a sentence before any parse", () => {
  assert.match(readPayload("x".repeat(21), { maxChars: 20, maxDepth: 4, what: "a fight" }).error, /too long to be a fight \(21 characters; at most 20\)/);
  const deep = toBase64url(`${"[".repeat(17)}${"]".repeat(17)}`);
  assert.match(readPayload(deep, { maxChars: 999, maxDepth: 16, what: "a character" }).error, /nests deeper than 16 levels/);
  assert.match(readPayload(toBase64url("{nope"), { maxChars: 999, maxDepth: 16, what: "a fight" }).error, /damaged/);
});

test("a character link is named at once from its data", () => {
  const doc = { name: "Ada", characteristics: { strength: 8, dexterity: 9, psionics: null } };
  const peek = peekCharacter(`character=${toBase64url(JSON.stringify(doc))}`, LIMITS);
  assert.deepEqual(peek, { character: { name: "Ada", characteristics: { strength: 8, dexterity: 9 } } });
  assert.match(peekCharacter(`character=${toBase64url("[1]")}`, LIMITS).error, /does not carry a character/);
});

test("a fight goes out and comes back as the players may see it", () => {
  const at = "2026-11-26T12:00:00.000Z";
  const hidden = fightSnapshot(view, { at, adversaryHp: false });
  assert.deepEqual(hidden, {
    v: 1,
    at,
    round: 3,
    turn: 1,
    hp: false,
    order: [
      { name: "Ork", side: "adversary", state: "seriously_wounded", init: "11", dead: false },
      { name: "Ada \u00e9", side: "character", state: "wounded", init: "9", dead: false, hp: 21, damage: 5, penalty: "\u22121" },
    ],
  });
  const url = fightUrl("https://x.test/s/table/fight/?q=1", hidden);
  assert.ok(url.startsWith("https://x.test/s/table/fight/#fight="));
  assert.deepEqual(readFight(new URL(url).hash, LIMITS, STATES), { fight: hidden });
  const shown = fightSnapshot(view, { at, adversaryHp: true });
  assert.equal(shown.order[0].hp, 18);
  assert.deepEqual(readFight(fightFragment(shown), LIMITS, STATES).fight, shown);
});

test("a fight link that is not exactly a fight is refused whole", () => {
  const at = "2026-11-26T12:00:00.000Z";
  const good = fightSnapshot(view, { at, adversaryHp: false });
  const bad = (change) => readFight(fightFragment({ ...structuredClone(good), ...change }), LIMITS, STATES).error;
  assert.match(readFight("#section", LIMITS, STATES).error, /carries no fight/);
  assert.match(bad({ v: 2 }), /another version/);
  assert.match(bad({ extra: 1 }), /unexpected content/);
  assert.match(bad({ round: 0 }), /no round/);
  assert.match(bad({ turn: 2 }), /no turn/);
  assert.match(bad({ turn: 0, order: [{ ...good.order[0], state: "<b>" }] }), /a state/);
  assert.match(bad({ turn: 0, order: [{ ...good.order[0], hp: 5 }] }), /numbers/);
  assert.match(bad({ turn: 0, order: [{ ...good.order[0], name: "x".repeat(41) }] }), /a name/);
  assert.match(bad({ order: Array(41).fill(good.order[0]), turn: 0 }), /at most 40 combatants/);
  assert.match(readFight(`fight=${"A".repeat(20001)}`, LIMITS, STATES).error, /too long/);
});

test("the age of a shown fight is said in words", () => {
  const at = "2026-11-26T12:00:00.000Z";
  const t = Date.parse(at);
  assert.equal(ageText(at, t + 59000), "just now");
  assert.equal(ageText(at, t + 60000), "1 minute ago");
  assert.equal(ageText(at, t + 7 * 60000), "7 minutes ago");
  assert.equal(ageText(at, t + 2 * 3600000), "2 hours ago");
  assert.equal(ageText(at, t + 3 * 86400000), "3 days ago");
});

test("a stored fight is drawn from the engine's last view of that very text, else with numbers pending", () => {
  const text = JSON.stringify(view.tracker);
  assert.equal(textStamp(text), textStamp(`${text}`));
  assert.notEqual(textStamp(text), textStamp(text.replace("Ork", "Orc")));
  const kept = viewToKeep(text, view);
  const again = provisionalView(view.tracker, text, kept);
  assert.deepEqual([again.order, again.current, again.pending, again.rows.c2.hp], [["c2", "c1"], "c1", true, 18]);
  const changed = { ...view.tracker, round: 4 };
  const fresh = provisionalView(changed, JSON.stringify(changed), kept);
  assert.deepEqual([fresh.order, fresh.current, fresh.round, fresh.rows.c1], [["c1", "c2"], null, 4, PENDING_ROW]);
  assert.equal(provisionalView(view.tracker, text, { ...kept, order: ["c1"] }).current, null);
  assert.equal(drawable(view.tracker), true);
  assert.equal(drawable({ round: 1, combatants: [{ id: 3 }] }), false);
  assert.equal(drawable([]), false);
});
