// The answer bar above the on-screen keyboard. Where the browser lays the page out under the keyboard
// (Safari on iOS; Chrome without the viewport's interactive-widget=resizes-content), the visual viewport
// shrinks while the layout viewport does not, so a bar stuck to the layout's bottom sits under the keys.
// The gap between the two bottoms goes in the CSS property --mneme-keyboard, which the sticky bar adds
// to its `bottom`. Where the layout shrinks with the keyboard (resizes-content), the gap is 0.

// The keyboard's height in CSS pixels: the layout viewport's bottom less the visual viewport's, when the
// page is not zoomed (a pinch zoom also shrinks the visual viewport; that is not a keyboard).
export function keyboardInset(layoutHeight, visual) {
  if (!visual || Math.abs((visual.scale ?? 1) - 1) > 0.01) return 0;
  return Math.max(0, Math.round(layoutHeight - visual.height - visual.offsetTop));
}

// Keeps --mneme-keyboard on the root element up to date (once per window; nothing without the API).
export function followKeyboard(win = window) {
  const visual = win.visualViewport;
  if (!visual || win.mnemeKeyboardFollowed) return;
  win.mnemeKeyboardFollowed = true;
  const root = win.document.documentElement;
  // No keyboard is up as a page opens: the CSS falls back to 0px, and nothing is written (or measured)
  // until the visual viewport changes. A custom property set on the root element restyles every
  // element of the page: at load that was a whole extra style pass (about 70 ms of a phone's main
  // thread on a long page).
  let shown = 0;
  const update = () => {
    const inset = keyboardInset(root.clientHeight, visual);
    if (inset === shown) return;
    shown = inset;
    root.style.setProperty("--mneme-keyboard", `${inset}px`);
  };
  visual.addEventListener("resize", update);
  visual.addEventListener("scroll", update);
}
