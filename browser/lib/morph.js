// The working under a result: the build's HTML (for the page's own inputs), then each result's. A
// new one is written over the shown one in place: only the text and attributes that differ change,
// and a node is replaced only where the structure differs, so an equal working leaves the page
// alone. Rewriting the whole of it (innerHTML) made a phone style and lay out all of it again at
// every edit. What the theme does to a page when it starts is kept: a link made
// absolute (same address), a table wrapped to scroll on a phone (written into in place).
// A result's details come in parts (the working, each chart, the rule links: render.py's
// details_parts, with their sizes): a part equal to the one shown is not even parsed, so an edit
// that leaves a chart as it was costs the page nothing for it (morphParts). An answer that writes
// what the page was built with is not even compared (keepParts: the worker says so).

const THEME_TABLE_WRAP = ".md-typeset__scrollwrap";

function sameAttribute(el, name, value) {
  const now = el.getAttribute(name);
  if (now === value) return true;
  return (
    name === "href" &&
    now !== null &&
    new URL(now, document.baseURI).href === new URL(value, document.baseURI).href
  );
}

// Make the element `old` equal to `node` (same name): its attributes, then its children.
function morphElement(old, node) {
  for (const { name } of Array.from(old.attributes)) {
    // A <details> the reader opened (a chart's table) stays open through the next result.
    if (name === "open" && old.nodeName === "DETAILS") continue;
    if (!node.hasAttribute(name)) old.removeAttribute(name);
  }
  for (const { name, value } of Array.from(node.attributes)) {
    if (!sameAttribute(old, name, value)) old.setAttribute(name, value);
  }
  morph(old, node);
}

// Make `into`'s children equal to `from`'s, touching only what differs.
export function morph(into, from) {
  const have = Array.from(into.childNodes);
  const want = Array.from(from.childNodes);
  want.forEach((node, i) => {
    let old = have[i];
    if (old && node.nodeName === "TABLE" && old.nodeType === Node.ELEMENT_NODE && old.matches(THEME_TABLE_WRAP)) {
      old = old.querySelector("table") || old;
    }
    if (!old) into.appendChild(node);
    else if (old.nodeType !== node.nodeType || old.nodeName !== node.nodeName) old.replaceWith(node);
    else if (node.nodeType !== Node.ELEMENT_NODE) {
      if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
    } else morphElement(old, node);
  });
  for (let i = want.length; i < have.length; i++) have[i].remove();
}

// HTML text as nodes (inert: a template's content runs no script).
export function parsed(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content;
}

// `html` cut into its parts by their sizes (JavaScript string lengths), or null when the sizes do
// not add up to it (none given: the whole is one part).
export function cut(html, sizes) {
  if (!Array.isArray(sizes)) return null;
  const parts = [];
  let at = 0;
  for (const size of sizes) {
    if (!Number.isInteger(size) || size < 0) return null;
    parts.push(html.slice(at, at + size));
    at += size;
  }
  return at === html.length ? parts : null;
}

// Make `into`'s children equal to `html`, given in parts (`sizes`), each one element: when the parts
// shown last are as many as these and each is one of `into`'s children, only the parts that differ
// are parsed and patched; otherwise the whole is (morph). `into` remembers the parts it shows.
export function morphParts(into, html, sizes) {
  const parts = cut(html, sizes);
  const shown = into.mnemeParts;
  const kids = into.childNodes;
  into.mnemeParts = parts;
  if (parts && shown && shown.length === parts.length && kids.length === parts.length) {
    const changed = [];
    for (let i = 0; i < parts.length; i++) {
      if (parts[i] === shown[i]) continue;
      const fresh = parsed(parts[i]);
      const node = fresh.firstChild;
      if (fresh.childNodes.length !== 1 || node.nodeType !== Node.ELEMENT_NODE) return morph(into, parsed(html));
      changed.push([kids[i], node]);
    }
    for (const [old, node] of changed) {
      if (old.nodeName === node.nodeName) morphElement(old, node);
      else old.replaceWith(node);
    }
    return;
  }
  morph(into, parsed(html));
}

// `into` shows `html` already (as the page was built): it is left as it is, and remembers its parts
// (`sizes`) so the next morphParts patches only those that differ.
export function keepParts(into, html, sizes) {
  into.mnemeParts = cut(html, sizes);
}
