// The working under a result: the build's HTML (for the page's own inputs), then each result's. A
// new one is written over the shown one in place: only the text and attributes that differ change,
// and a node is replaced only where the structure differs, so an equal working leaves the page
// alone. Rewriting the whole of it (innerHTML) made a phone style and lay out all of it again at
// every edit. What the theme does to a page when it starts is kept: a link made
// absolute (same address), a table wrapped to scroll on a phone (written into in place).

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
    } else {
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
  });
  for (let i = want.length; i < have.length; i++) have[i].remove();
}

// HTML text as nodes (inert: a template's content runs no script).
export function parsed(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content;
}
