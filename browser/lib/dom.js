// Building the page's elements: text always goes in as text, never as HTML.

// h("button", {type: "button", onclick: f, text: "Go"}, child, ...): an element with attributes,
// listeners (on...), dataset and children (nodes or text; null, undefined and false are skipped).
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") el.textContent = String(value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// Offer `text` as a file named `name` (JSON).
export function download(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = h("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// Each page shown: mkdocs-material's document$ (instant navigation) when there, else once the
// page is parsed.
export function onEachPage(run) {
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(run);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run, { once: true });
  else run();
}
