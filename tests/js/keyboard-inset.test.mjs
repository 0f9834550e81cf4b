// The on-screen keyboard's height, from the layout and the visual viewports (lib/keyboard-inset.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { keyboardInset } from "../../browser/lib/keyboard-inset.js";

test("a keyboard over the layout: the gap between the two bottoms", () => {
  // A 780 px phone screen, a 300 px keyboard: the visual viewport is 480 px tall.
  assert.equal(keyboardInset(780, { height: 480, offsetTop: 0, scale: 1 }), 300);
  // Scrolled so the visual viewport starts 100 px down the layout viewport: 200 px left below it.
  assert.equal(keyboardInset(780, { height: 480, offsetTop: 100, scale: 1 }), 200);
});

test("no keyboard, or a layout that shrinks with it (resizes-content): no gap", () => {
  assert.equal(keyboardInset(780, { height: 780, offsetTop: 0, scale: 1 }), 0);
  assert.equal(keyboardInset(480, { height: 480, offsetTop: 0, scale: 1 }), 0);
  assert.equal(keyboardInset(780, null), 0);
});

test("a pinch zoom shrinks the visual viewport too: not a keyboard", () => {
  assert.equal(keyboardInset(780, { height: 390, offsetTop: 0, scale: 2 }), 0);
});

test("fractions of a pixel are rounded, and never below 0", () => {
  assert.equal(keyboardInset(780, { height: 479.6, offsetTop: 0, scale: 1 }), 300);
  assert.equal(keyboardInset(780, { height: 790, offsetTop: 0, scale: 1 }), 0);
});
