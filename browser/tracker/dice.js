// A seed for Python's dice (the rules engine rolls; this only picks where it starts).
export function seed() {
  const buffer = new Uint32Array(1);
  if (window.crypto?.getRandomValues) crypto.getRandomValues(buffer);
  else buffer[0] = Math.floor(Math.random() * 2 ** 32);
  return buffer[0];
}
