// JSON documents compared and merged as data (pure).

export const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

// The same value with every object's keys sorted: equal data, equal text.
export function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical(value[k])]),
  );
}

// Equal as data, whatever the order of keys.
export const same = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

const textOf = (value) => JSON.stringify(canonical(value));

function counts(list) {
  const out = new Map();
  for (const item of list) out.set(textOf(item), (out.get(textOf(item)) || 0) + 1);
  return out;
}

// Three-way merge of a list (skills, weapons), item by item, so two tabs each adding one keep
// both. An item edited in place here replaces the same item in theirs (where it still is); an
// item removed here goes from theirs; an item added here joins theirs after the item it follows
// here, unless theirs already holds it (so merging again changes nothing). Where both tabs
// edited the same item, this tab's edit wins, as for any field.
export function mergeList(base, mine, theirs) {
  if (!Array.isArray(base) || !Array.isArray(mine) || !Array.isArray(theirs)) return mine;
  if (same(mine, base)) return theirs;
  if (same(theirs, base) || same(theirs, mine)) return mine;
  const out = theirs.slice();
  if (mine.length === base.length) {
    const edited = new Set();
    mine.forEach((item, i) => {
      if (same(item, base[i])) return;
      const free = (k) => !edited.has(k) && same(out[k], base[i]);
      const at = i < out.length && free(i) ? i : out.findIndex((_, k) => free(k));
      if (at >= 0) {
        out[at] = item;
        edited.add(at);
      } else if (theirs.length === base.length && !edited.has(i)) {
        out[i] = item;
        edited.add(i);
      } else if (!out.some((x) => same(x, item))) out.push(item);
    });
    return out;
  }
  const had = counts(base);
  const have = counts(mine);
  for (const [text, n] of had) {
    for (let gone = n - (have.get(text) || 0); gone > 0; gone--) {
      const at = out.findIndex((x) => textOf(x) === text);
      if (at >= 0) out.splice(at, 1);
    }
  }
  mine.forEach((item, i) => {
    const text = textOf(item);
    const there = out.filter((x) => textOf(x) === text).length;
    if ((have.get(text) || 0) <= (had.get(text) || 0) || there >= (have.get(text) || 0)) return;
    const before = i > 0 ? out.findIndex((x) => same(x, mine[i - 1])) : -1;
    out.splice(before >= 0 ? before + 1 : i === 0 ? 0 : out.length, 0, item);
  });
  return out;
}

// Three-way merge of one character, field by field: what this tab changed since `base` wins
// (it is the newer edit), everything else comes from `theirs` (the other tabs' latest).
// Characteristics merge one by one, skills and weapons item by item (mergeList).
export function mergeCharacter(base, mine, theirs) {
  if (!base || !theirs) return mine;
  const out = { ...theirs };
  for (const field of Object.keys(mine)) {
    if ((field === "skills" || field === "weapons") && Array.isArray(mine[field])) {
      out[field] = mergeList(base[field], mine[field], theirs[field]);
    } else if (field === "characteristics" && isObject(mine[field]) && isObject(theirs[field])) {
      const was = isObject(base[field]) ? base[field] : {};
      out[field] = { ...theirs[field] };
      for (const k of Object.keys(mine[field])) if (!same(mine[field][k], was[k])) out[field][k] = mine[field][k];
    } else if (!same(mine[field], base[field])) out[field] = mine[field];
  }
  return out;
}

// Whether JSON `text` nests deeper than `limit` arrays and objects: one pass over the text, no
// parse (a parser recurses, and a deep enough text overflows the engine's stack). Text that is not
// JSON is measured the same way; only its brackets outside strings count.
export function nestsDeeper(text, limit) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // a backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}
