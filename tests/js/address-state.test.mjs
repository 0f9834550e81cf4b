import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { addressFor, isReloadKey, keepUnwritten, searchFor, UNWRITTEN_KEY, unwrittenFor, valuesFromAddress } from "../../browser/lib/address-state.js";
import { MemoryStorage } from "./_fakes.mjs";

const FIELDS = [
  { name: "modifier", label: "Modifier", limit: 4 },
  { name: "note", label: "Note", limit: 10 },
];

describe("the address follows the form", () => {
  test("every value goes into the query, in order", () => {
    assert.equal(searchFor({ modifier: "2", difficulty: "10", chart: "0" }), "modifier=2&difficulty=10&chart=0");
  });

  test("the address is written only when it differs", () => {
    assert.equal(addressFor("https://x.test/c/effect/?modifier=1", { modifier: "2" }), "https://x.test/c/effect/?modifier=2");
    assert.equal(addressFor("https://x.test/c/effect/?modifier=2", { modifier: "2" }), null);
  });
});

describe("a link sets the form", () => {
  test("the values it names, and no others", () => {
    assert.deepEqual(valuesFromAddress("?modifier=3&other=1", null, FIELDS), { values: { modifier: "3" }, errors: {} });
  });

  test("a value longer than its field's limit is refused with a sentence, not cut", () => {
    const { values, errors } = valuesFromAddress("?modifier=12345&note=ok", null, FIELDS);
    assert.deepEqual(values, { note: "ok" });
    assert.equal(errors.modifier, "Modifier: the link's value is too long (at most 4 characters), so it was not used.");
  });

  test("a value exactly at the limit is taken", () => {
    assert.deepEqual(valuesFromAddress("?modifier=1234", null, FIELDS).values, { modifier: "1234" });
  });

  test("values kept since the address was written win over it", () => {
    assert.deepEqual(valuesFromAddress("?modifier=1", { modifier: 7 }, FIELDS).values, { modifier: "7" });
  });
});

describe("values not yet in the address", () => {
  const here = { pathname: "/c/effect/", search: "?modifier=1" };

  test("come back for the same address only", () => {
    const session = new MemoryStorage();
    keepUnwritten(() => session, here, { modifier: "5" });
    assert.deepEqual(unwrittenFor(() => session, here), { modifier: "5" });
    assert.equal(unwrittenFor(() => session, { ...here, search: "?modifier=5" }), null);
    assert.equal(unwrittenFor(() => session, { ...here, pathname: "/c/other/" }), null);
  });

  test("blocked or unreadable session storage gives nothing back and throws nothing", () => {
    const blocked = () => {
      throw new Error("SecurityError");
    };
    keepUnwritten(blocked, here, { modifier: "5" });
    assert.equal(unwrittenFor(blocked, here), null);
    const session = new MemoryStorage({ [UNWRITTEN_KEY]: "{oops" });
    assert.equal(unwrittenFor(() => session, here), null);
  });
});

test("a reload key is F5, Ctrl+R or Cmd+R", () => {
  assert.equal(isReloadKey({ key: "F5" }), true);
  assert.equal(isReloadKey({ key: "R", ctrlKey: true }), true);
  assert.equal(isReloadKey({ key: "r", metaKey: true }), true);
  assert.equal(isReloadKey({ key: "r" }), false);
});
