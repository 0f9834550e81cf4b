// Stand-ins for the browser's world, for the pure modules' tests.

// A Storage (localStorage) in memory; `full` makes every write throw as a full store does.
export class MemoryStorage {
  constructor(entries = {}) {
    this.map = new Map(Object.entries(entries));
    this.full = false;
  }
  get length() {
    return this.map.size;
  }
  key(i) {
    return [...this.map.keys()][i] ?? null;
  }
  getItem(k) {
    return this.map.has(k) ? this.map.get(k) : null;
  }
  setItem(k, v) {
    if (this.full) throw Object.assign(new Error("full"), { name: "QuotaExceededError" });
    this.map.set(k, String(v));
  }
  removeItem(k) {
    this.map.delete(k);
  }
}

// A clock that moves one second at each reading, from 2026-01-02T03:04:05Z.
export function steppingClock() {
  let t = Date.UTC(2026, 0, 2, 3, 4, 5);
  return () => {
    t += 1000;
    return new Date(t - 1000);
  };
}
