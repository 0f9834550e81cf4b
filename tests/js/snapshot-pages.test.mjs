import assert from "node:assert/strict";
import { test } from "node:test";
import { PAGE, pack, SPARSE_FORMAT, unpack } from "../../browser/lib/snapshot-pages.js";

function memoryWith(length, marks) {
  const memory = new Uint8Array(length);
  for (const [at, value] of marks) memory[at] = value;
  return memory;
}

test("a memory comes back byte for byte, its zero pages left out of the stored bytes", () => {
  const memory = memoryWith(5 * PAGE, [[3, 1], [2 * PAGE + 17, 9], [5 * PAGE - 1, 4]]);
  const packed = pack(memory);
  assert.equal(packed.byteLength, 12 + 4 * 3 + 3 * PAGE);
  assert.deepEqual(unpack(packed), memory);
});

test("a last page shorter than a whole page, and bytes after the last whole word, are kept", () => {
  const memory = memoryWith(PAGE + 7, [[PAGE + 6, 5]]);
  assert.deepEqual(unpack(pack(memory)), memory);
});

test("a memory that does not start on a word boundary is read all the same", () => {
  const buffer = new Uint8Array(2 * PAGE + 1);
  buffer[PAGE + 1] = 8;
  const memory = buffer.subarray(1);
  assert.deepEqual(unpack(pack(memory)), memory);
});

test("an all-zero memory keeps its length and no page", () => {
  const packed = pack(new Uint8Array(3 * PAGE));
  assert.equal(packed.byteLength, 12);
  assert.equal(unpack(packed).length, 3 * PAGE);
});

test("bytes of another format, cut short or pointing outside the memory are refused", () => {
  const packed = pack(memoryWith(2 * PAGE, [[0, 1]]));
  assert.throws(() => unpack(packed.subarray(0, packed.byteLength - 1)), /not a snapshot/);
  assert.throws(() => unpack(new Uint8Array(4)), /not a snapshot/);
  const other = packed.slice();
  new DataView(other.buffer).setUint32(0, SPARSE_FORMAT + 1, true);
  assert.throws(() => unpack(other), /not a snapshot/);
  const outside = packed.slice();
  new DataView(outside.buffer).setUint32(12, 9, true);
  assert.throws(() => unpack(outside), /outside its memory/);
});
