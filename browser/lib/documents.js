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

// Three-way merge of one character, field by field: what this tab changed since `base` wins
// (it is the newer edit), everything else comes from `theirs` (the other tabs' latest).
// Characteristics merge one by one.
export function mergeCharacter(base, mine, theirs) {
  if (!base || !theirs) return mine;
  const out = { ...theirs };
  for (const field of Object.keys(mine)) {
    if (field === "characteristics" && isObject(mine[field]) && isObject(theirs[field])) {
      const was = isObject(base[field]) ? base[field] : {};
      out[field] = { ...theirs[field] };
      for (const k of Object.keys(mine[field])) if (!same(mine[field][k], was[k])) out[field][k] = mine[field][k];
    } else if (!same(mine[field], base[field])) out[field] = mine[field];
  }
  return out;
}
