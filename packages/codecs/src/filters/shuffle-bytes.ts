// The byte shuffle itself: private to the @z packages. shuffle.ts holds the public side, which the
// package entry re-exports whole.
import { LITTLE_ENDIAN_HOST } from "@z/ndarray";

/** numcodecs' shuffle: byte k of element i goes to `k * count + i`. */
export function shuffleBytes(bytes: Uint8Array, size: number): Uint8Array {
  const count = bytes.length / size;
  const out = new Uint8Array(bytes.length);
  if (LITTLE_ENDIAN_HOST && size % 4 === 0 && bytes.byteOffset % 4 === 0) {
    // Whole 32-bit words in, four bytes out to four planes: a quarter of the loads.
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    const perElement = size / 4;
    for (let w = 0; w < perElement; w++) {
      const p0 = 4 * w * count;
      const p1 = p0 + count;
      const p2 = p1 + count;
      const p3 = p2 + count;
      for (let i = 0, j = w; i < count; i++, j += perElement) {
        const word = words[j];
        out[p0 + i] = word;
        out[p1 + i] = word >>> 8;
        out[p2 + i] = word >>> 16;
        out[p3 + i] = word >>> 24;
      }
    }
    return out;
  }
  for (let b = 0; b < size; b++) {
    const base = b * count;
    for (let i = 0, j = b; i < count; i++, j += size) out[base + i] = bytes[j];
  }
  return out;
}

/** The inverse of {@link shuffleBytes}. */
export function unshuffleBytes(bytes: Uint8Array, size: number): Uint8Array {
  const count = bytes.length / size;
  const out = new Uint8Array(bytes.length);
  if (LITTLE_ENDIAN_HOST && size % 4 === 0) {
    // Four planes in, one 32-bit word out: a quarter of the stores.
    const words = new Uint32Array(out.buffer, 0, bytes.length / 4);
    const perElement = size / 4;
    for (let w = 0; w < perElement; w++) {
      const p0 = 4 * w * count;
      const p1 = p0 + count;
      const p2 = p1 + count;
      const p3 = p2 + count;
      for (let i = 0, j = w; i < count; i++, j += perElement) {
        words[j] =
          bytes[p0 + i] | (bytes[p1 + i] << 8) | (bytes[p2 + i] << 16) | (bytes[p3 + i] << 24);
      }
    }
    return out;
  }
  for (let b = 0; b < size; b++) {
    const base = b * count;
    for (let i = 0, j = b; i < count; i++, j += size) out[j] = bytes[base + i];
  }
  return out;
}
