import assert from "node:assert/strict";
import { test } from "node:test";
import { characterLinkIn, characterLinkUrl, withoutCharacterLink } from "../../browser/lib/link-codec.js";

test("a fragment carrying a character is taken whole, with or without its #", () => {
  assert.equal(characterLinkIn("#character=abc"), "character=abc");
  assert.equal(characterLinkIn(`character=${"x".repeat(5000)}`).length, 5010);
  assert.equal(characterLinkIn("#section-2"), "");
  assert.equal(characterLinkIn(""), "");
});

test("a character link is the page's address with the character as fragment and no query", () => {
  assert.equal(
    characterLinkUrl("https://x.test/a/table/character/?q=1#old", "character=v1.abc"),
    "https://x.test/a/table/character/#character=v1.abc",
  );
});

test("once taken, the address loses its character fragment and keeps its query", () => {
  assert.equal(withoutCharacterLink({ hash: "#character=abc", pathname: "/a/", search: "?q=1" }), "/a/?q=1");
  assert.equal(withoutCharacterLink({ hash: "#top", pathname: "/a/", search: "" }), null);
});
