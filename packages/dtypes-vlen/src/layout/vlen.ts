import { DecodeError } from "@z/codecs";
import type { ItemBounds } from "./utf8.js";

/** The vlen layout's header: the u32le item count. */
export const VLEN_HEADER_SIZE = 4;

/** Item boundaries of a vlen-layout buffer. */
export interface VlenScan extends ItemBounds {
  /** The sum of the item lengths. */
  payloadSize: number;
}

function readU32(bytes: Uint8Array, at: number): number {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
}

function writeU32(out: Uint8Array, at: number, value: number): void {
  out[at] = value & 0xff;
  out[at + 1] = (value >>> 8) & 0xff;
  out[at + 2] = (value >>> 16) & 0xff;
  out[at + 3] = (value >>> 24) & 0xff;
}

/**
 * Reads the vlen layout (numcodecs `vlen-utf8` / `vlen-bytes` / `vlen-array`, zarr v3
 * `vlen-utf8` / `vlen-bytes`): a u32le item count, then for each item a u32le byte length and
 * the bytes. Everything is checked against the buffer before anything is allocated: the count
 * must be the chunk's element count, every length must fit in what remains, and nothing may
 * follow the last item.
 *
 * @param expected the number of elements of the chunk
 * @throws DecodeError for a truncated buffer, a length past the end, a count that does not
 *   match the chunk, or trailing bytes
 */
export function scanVlen(bytes: Uint8Array, expected: number, codec: string): VlenScan {
  const size = bytes.length;
  if (size < VLEN_HEADER_SIZE) {
    throw new DecodeError(
      `${codec}: the chunk has ${size} bytes, too few for the 4-byte item count`,
    );
  }
  const count = readU32(bytes, 0);
  if (count !== expected) {
    throw new DecodeError(
      `${codec}: the chunk says it holds ${count} items; the chunk shape has ${expected} elements`,
    );
  }
  // Every item needs at least its 4-byte length: check before allocating per-item tables.
  if (VLEN_HEADER_SIZE + 4 * count > size) {
    throw new DecodeError(
      `${codec}: ${count} items need at least ${VLEN_HEADER_SIZE + 4 * count} bytes; the chunk has only ${size}`,
    );
  }
  const Table = size > 0xffffffff ? Float64Array : Uint32Array;
  const starts = new Table(count);
  const ends = new Table(count);
  let position = VLEN_HEADER_SIZE;
  let payloadSize = 0;
  for (let i = 0; i < count; i++) {
    if (position + 4 > size) {
      throw new DecodeError(
        `${codec}: truncated: item ${i} of ${count} starts at byte ${position}, past the chunk's end (${size} bytes)`,
      );
    }
    const length = readU32(bytes, position);
    position += 4;
    if (length > size - position) {
      throw new DecodeError(
        `${codec}: item ${i} of ${count} claims ${length} bytes but only ${size - position} remain in the chunk`,
      );
    }
    starts[i] = position;
    position += length;
    ends[i] = position;
    payloadSize += length;
  }
  if (position !== size) {
    throw new DecodeError(
      `${codec}: ${size - position} unexpected bytes after the last of ${count} items`,
    );
  }
  return { starts, ends, count, payloadSize };
}

/**
 * Writes the vlen layout for items of the given byte sizes; `write(i, out, at)` writes item
 * `i`'s bytes at `out[at]`.
 */
export function encodeVlen(
  sizes: ArrayLike<number>,
  count: number,
  write: (index: number, out: Uint8Array, at: number) => void,
): Uint8Array {
  let total = VLEN_HEADER_SIZE + 4 * count;
  for (let i = 0; i < count; i++) total += sizes[i];
  const out = new Uint8Array(total);
  writeU32(out, 0, count);
  let position = VLEN_HEADER_SIZE;
  for (let i = 0; i < count; i++) {
    const size = sizes[i];
    writeU32(out, position, size);
    position += 4;
    if (size > 0) write(i, out, position);
    position += size;
  }
  return out;
}
