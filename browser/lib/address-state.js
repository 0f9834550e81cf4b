// The address holds a page's only calculator's values (a shared link gives them back). Pure: the
// address and the controls in, what to write and what to set out.

// The query string for `values` (every value, in the form's order).
export function searchFor(values) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) params.set(key, value);
  return params.toString();
}

// `href` with the values as its query, or null when it already holds them.
export function addressFor(href, values) {
  const url = new URL(href);
  url.search = searchFor(values);
  return url.href === href ? null : url.href;
}

// What a link sets in a form: {values: name -> text, errors: name -> sentence}. `search` is the
// address's query, `unwritten` values kept since (taken over it); `fields` each {name, label,
// limit}: a value longer than its field's limit is refused, not cut.
export function valuesFromAddress(search, unwritten, fields) {
  const params = new Map(new URLSearchParams(search));
  for (const [key, value] of Object.entries(unwritten || {})) params.set(key, String(value));
  const values = {};
  const errors = {};
  for (const { name, label, limit } of fields) {
    if (!params.has(name)) continue;
    const text = String(params.get(name));
    if (text.length > limit) {
      errors[name] =
        `${label}: the link's value is too long (at most ${limit} characters), so it was not used.`;
    } else values[name] = text;
  }
  return { values, errors };
}

// Until the address is written, a reload would lose the newest values: they are kept in this tab's
// session storage beside the address they are newer than. `openSession()` answers a Storage-like
// object (reading window.sessionStorage throws where the browser blocks it).
export const UNWRITTEN_KEY = "mneme-calculator-unwritten";

export function keepUnwritten(openSession, location, values) {
  try {
    const kept = { path: location.pathname, search: location.search, values };
    openSession().setItem(UNWRITTEN_KEY, JSON.stringify(kept));
  } catch (_) {
    /* no sessionStorage (blocked, full): the address alone keeps the values */
  }
}

// The values kept for this very address (a reload of it), or null.
export function unwrittenFor(openSession, location) {
  try {
    const kept = JSON.parse(openSession().getItem(UNWRITTEN_KEY) || "null");
    const fits = kept && kept.path === location.pathname && kept.search === location.search;
    return fits && kept.values && typeof kept.values === "object" ? kept.values : null;
  } catch (_) {
    return null; // unreadable: the address holds what was written
  }
}

export function isReloadKey(event) {
  return event.key === "F5" || (Boolean(event.ctrlKey || event.metaKey) && /^r$/i.test(event.key));
}
