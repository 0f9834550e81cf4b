// The engine's memory snapshot, stored sparse (worker.js keeps it in Cache Storage). Pure: bytes in,
// bytes out.
//
// Stored sparse: about half of Python's memory is zeros, in whole 64 KiB pages. Only the
// other pages are kept (after a header: format, length, page count, page numbers), so a returning
// visit reads about 15 MB from Cache Storage instead of 31 MB. A snapshot that does not unpack is
// ignored (and replaced by the next one made).
export const SPARSE_FORMAT = 0x4d4e5332; // "MNS2"
export const PAGE = 65536;

export function pack(bytes) {
  const memory = bytes.byteOffset % 4 ? bytes.slice() : bytes;
  const words = new Uint32Array(memory.buffer, memory.byteOffset, memory.length >>> 2);
  const kept = [];
  for (let start = 0; start < memory.length; start += PAGE) {
    const end = Math.min(memory.length, start + PAGE);
    let used = false;
    for (let w = start >>> 2; w < end >>> 2 && !used; w++) used = words[w] !== 0;
    for (let b = end & ~3; b < end && !used; b++) used = memory[b] !== 0;
    if (used) kept.push(start / PAGE);
  }
  const header = new Uint32Array([SPARSE_FORMAT, memory.length, kept.length, ...kept]);
  const out = new Uint8Array(header.byteLength + kept.length * PAGE);
  out.set(new Uint8Array(header.buffer));
  kept.forEach((page, i) => {
    out.set(memory.subarray(page * PAGE, (page + 1) * PAGE), header.byteLength + i * PAGE);
  });
  return out;
}

export function unpack(packed) {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  const count = packed.byteLength >= 12 ? view.getUint32(8, true) : -1;
  const length = count >= 0 ? view.getUint32(4, true) : 0;
  const body = 12 + 4 * count;
  if (count < 0 || view.getUint32(0, true) !== SPARSE_FORMAT || packed.byteLength !== body + count * PAGE) {
    throw new Error("not a snapshot of this format");
  }
  const memory = new Uint8Array(length);
  for (let i = 0; i < count; i++) {
    const start = view.getUint32(12 + 4 * i, true) * PAGE;
    if (start >= length) throw new Error("a snapshot page lies outside its memory");
    const from = body + i * PAGE;
    memory.set(packed.subarray(from, from + Math.min(PAGE, length - start)), start);
  }
  return memory;
}
