// An abbreviation (DM, ChM, RoA, HP...) explains itself on a tap: a phone has no hover for its title.
// A tap (or a click) on it writes its meaning in words right after it, as page text a screen reader
// reads too; a second tap takes it away. Every page (the page loader installs it), no engine needed.

export const TIP_CLASS = "mneme-abbr-tip";

// The words shown after `abbr`: " (Dice Modifier)".
export function tipText(title) {
  return ` (${String(title).trim()})`;
}

// One listener for the whole document (instant navigation swaps the page under it).
export function explainAbbreviations(doc = document) {
  if (doc.mnemeAbbrTips) return;
  doc.mnemeAbbrTips = true;
  doc.addEventListener("click", (event) => {
    const abbr = event.target instanceof Element ? event.target.closest("abbr[title]") : null;
    if (!abbr?.title.trim()) return;
    const shown = abbr.nextElementSibling?.classList.contains(TIP_CLASS) ? abbr.nextElementSibling : null;
    if (shown) return shown.remove();
    const tip = doc.createElement("span");
    tip.className = TIP_CLASS;
    tip.textContent = tipText(abbr.title);
    abbr.after(tip);
  });
}
