// Writing LZ4 sequences (a token, literal length, literals, match offset, match length), shared
// by the fast and the high-compression encoders. A length of 15 or more fills its token field
// with 15 and continues in extra bytes: 255 while more follows, then the rest.
import { copyBytes } from "./copy.js";

/** Writes the extra bytes of a length whose token field holds 15; returns the new position. */
function writeLengthBytes(dst: Uint8Array, op: number, rest: number): number {
  for (; rest >= 255; rest -= 255) dst[op++] = 255;
  dst[op++] = rest;
  return op;
}

/**
 * Starts the sequence whose token is at `token`: its literal length (high nibble and extra
 * bytes at `op`), then the `length` literals from `src[from]`. Returns the new position.
 */
export function writeLiterals(
  dst: Uint8Array,
  token: number,
  op: number,
  src: Uint8Array,
  from: number,
  length: number,
): number {
  if (length >= 15) {
    dst[token] = 15 << 4;
    op = writeLengthBytes(dst, op, length - 15);
  } else {
    dst[token] = length << 4;
  }
  return copyBytes(src, from, dst, op, length);
}

/**
 * Ends the sequence whose token is at `token` with a match `offset` bytes back of `matchCode`
 * + 4 bytes: the offset, then the low nibble and extra bytes of `matchCode`. Returns the new
 * position.
 */
export function writeMatch(
  dst: Uint8Array,
  token: number,
  op: number,
  offset: number,
  matchCode: number,
): number {
  dst[op++] = offset & 0xff;
  dst[op++] = offset >>> 8;
  if (matchCode < 15) {
    dst[token] += matchCode;
    return op;
  }
  dst[token] += 15;
  return writeLengthBytes(dst, op, matchCode - 15);
}

/** The worst-case size of the last literals (a token, extra length bytes, the literals). */
export function lastLiteralsBound(length: number): number {
  return 1 + Math.floor((length + 255 - 15) / 255) + length;
}
