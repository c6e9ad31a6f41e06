// Byte moves shared by the LZ-family codecs (LZ4, snappy, BloscLZ).

/** Reads 4 bytes little-endian as a signed 32-bit integer (only compared for equality). */
export function read32(src: Uint8Array, p: number): number {
  return src[p] | (src[p + 1] << 8) | (src[p + 2] << 16) | (src[p + 3] << 24);
}

/** Copies `length` bytes between different buffers (or non-overlapping ranges); returns the new output position. */
export function copyBytes(
  src: Uint8Array,
  from: number,
  dst: Uint8Array,
  to: number,
  length: number,
): number {
  if (length < 24) {
    for (let i = 0; i < length; i++) dst[to + i] = src[from + i];
  } else {
    dst.set(src.subarray(from, from + length), to);
  }
  return to + length;
}

/**
 * Copies an LZ match of `length` bytes from `distance` bytes back, where the source may overlap
 * the destination (a repeating pattern); returns the new output position.
 */
export function copyMatch(dst: Uint8Array, op: number, distance: number, length: number): number {
  if (distance === 1) {
    dst.fill(dst[op - 1], op, op + length);
    return op + length;
  }
  if (length < 32) {
    let ref = op - distance;
    for (let i = 0; i < length; i++) dst[op++] = dst[ref++];
    return op;
  }
  // Copy in chunks that never overlap their source, doubling the pattern each time.
  let dist = distance;
  while (length > 0) {
    const n = Math.min(dist, length);
    dst.copyWithin(op, op - dist, op - dist + n);
    op += n;
    length -= n;
    dist += n;
  }
  return op;
}

/**
 * Sums the extra bytes of a length as LZ4 and BloscLZ write them (255 while more follow, then
 * the rest) from `src[ip]`, or returns -1 when the data ends first. They take
 * `Math.floor(sum / 255) + 1` bytes.
 */
export function lengthBytes(src: Uint8Array, ip: number, end: number): number {
  let sum = 0;
  let b: number;
  do {
    if (ip >= end) return -1;
    b = src[ip++];
    sum += b;
  } while (b === 255);
  return sum;
}

/** The length of the common prefix of `src[a..]` and `src[b..]`, stopping at `limit` for `a`. */
export function commonLength(src: Uint8Array, a: number, b: number, limit: number): number {
  const a0 = a;
  while (a < limit && src[a] === src[b]) {
    a++;
    b++;
  }
  return a - a0;
}
