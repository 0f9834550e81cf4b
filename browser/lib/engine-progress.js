// The engine's start, shown beside each calculator's answer (its answer bar, which on a phone stays at
// the bottom of the screen): the bytes of the whole engine that have arrived against its total, as a
// bar and in words, until the engine is ready or has failed; then gone. Drawn over the answer box's bottom
// edge (calculators.css: .calc-progress), clear of the "Out of date" line and of the summary's words, so
// it hides nothing and moves nothing on the page as it comes and goes.
// Hidden from screen readers: the calculator's status line says the same as a live region.

// "Loading the engine: 3149 of 11837 kB" (whole kB, written as Python's format.number writes an
// integer, as the status line does; never more than the total).
export function progressWords(bytes, total) {
  const got = Math.max(0, Number(bytes) || 0);
  const all = Math.max(0, Number(total) || 0);
  const kb = (n) => String(Math.round(n / 1000));
  if (!all) return `Loading the engine: ${kb(got)} kB`;
  return `Loading the engine: ${kb(Math.min(got, all))} of ${kb(all)} kB`;
}

// "Retrying in 2 s: 4000 of 12085 kB" (a download cut short, tried again by itself; as short as the
// progress words, to fit a phone's answer bar).
export function retryWords(bytes, total, when) {
  return progressWords(bytes, total).replace("Loading the engine:", `Retrying ${when}:`);
}

// Each answer bar of `doc` shows `bytes` of `total` (in `note`, when given).
export function showProgress(doc, bytes, total, note = "") {
  for (const answer of doc.querySelectorAll(".calc-answer")) {
    let box = answer.querySelector(":scope > [data-engine-progress]");
    if (!box) {
      box = doc.createElement("p");
      box.className = "calc-progress";
      box.setAttribute("data-engine-progress", "");
      box.setAttribute("aria-hidden", "true");
      const bar = doc.createElement("progress");
      const words = doc.createElement("span");
      box.append(words, bar);
      answer.prepend(box);
    }
    const [words, bar] = box.children;
    const text = note || progressWords(bytes, total);
    if (words.textContent !== text) words.textContent = text;
    if (total > 0) {
      bar.max = total;
      bar.value = Math.min(bytes, total);
    }
  }
}

// The engine is ready, or has failed: the progress goes.
export function hideProgress(doc) {
  for (const box of doc.querySelectorAll("[data-engine-progress]")) box.remove();
}
