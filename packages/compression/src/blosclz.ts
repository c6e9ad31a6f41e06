import { DecompressionError } from "./errors.js";
import { copyBytes, copyMatch, lengthBytes, read32 } from "./lz4/copy.js";

/**
 * BloscLZ, Blosc's own FastLZ-derived codec. The compressor follows BloscLZ 2.5 as shipped in
 * c-blosc 1.21: an "entropy probe" over the last quarter of the input first decides whether
 * compressing is worth it, then a greedy LZ77 pass with a 4-byte hash.
 *
 * Stream format: a control byte `c`; `c < 32` is a run of `c + 1` literals; otherwise a match
 * of length `(c >> 5) + 2` (7 means more length bytes follow, each added, 255 continuing) at
 * distance `((c & 31) << 8) + next byte + 1`; the distance byte pair 31/255 introduces a
 * 16-bit far distance (+8191). The first control byte carries a marker in bit 5.
 */

const MAX_COPY = 32;
const MAX_DISTANCE = 8191;
const MAX_FARDISTANCE = 65535 + MAX_DISTANCE - 1;
const HASH_LOG = 14;
const HASH_LOG2 = 12;
const CRATIO_THRESHOLD = [0, 2, 1.5, 1.2, 1.2, 1.2, 1.2, 1.15, 1.1, 1.0];
const HASH_LOG_BY_CLEVEL = [
  0,
  HASH_LOG - 2,
  HASH_LOG - 1,
  HASH_LOG,
  HASH_LOG,
  HASH_LOG,
  HASH_LOG,
  HASH_LOG,
  HASH_LOG,
  HASH_LOG,
];

const htab = new Int32Array(1 << HASH_LOG);
const probeTable = new Int32Array(1 << HASH_LOG2);

function hashOf(seq: number, bits: number): number {
  return Math.imul(seq, -1640531535) >>> (32 - bits);
}

/**
 * Where a match (or, at distance 1, a run) that already covers 4 bytes ends: one past the first
 * differing byte, or `bound` if everything up to it matches (BloscLZ's get_match/get_run).
 */
function matchEnd(src: Uint8Array, ip: number, bound: number, ref: number): number {
  while (ip < bound) {
    if (src[ref++] !== src[ip++]) return ip;
  }
  return ip;
}

/** BloscLZ's estimate of the compression ratio of `maxlen` bytes at `base` (get_cratio). */
function probeRatio(
  src: Uint8Array,
  base: number,
  maxlen: number,
  minlen: number,
  ipshift: number,
): number {
  const hashlen = 1 << HASH_LOG2;
  const limit = Math.min(maxlen, hashlen);
  const ipBound = base + limit - 1;
  const ipLimit = base + limit - 12;
  probeTable.fill(0);
  let ip = base;
  let oc = 5;
  let copy = 4;
  while (ip < ipLimit) {
    const anchor = ip;
    const seq = read32(src, ip);
    const h = hashOf(seq, HASH_LOG2);
    let ref = base + probeTable[h];
    let distance = anchor - ref;
    probeTable[h] = anchor - base;
    if (distance === 0 || distance >= MAX_FARDISTANCE || read32(src, ref) !== seq) {
      oc++;
      ip = anchor + 1;
      if (++copy === MAX_COPY) {
        copy = 0;
        oc++;
      }
      continue;
    }
    ref += 4;
    distance--;
    ip = matchEnd(src, anchor + 4, ipBound, ref) - ipshift;
    const len = ip - anchor;
    if (len < minlen) {
      oc++;
      ip = anchor + 1;
      if (++copy === MAX_COPY) {
        copy = 0;
        oc++;
      }
      continue;
    }
    if (!copy) oc--;
    copy = 0;
    if (len >= 7) oc += Math.floor((len - 7) / 255) + 1;
    oc += distance < MAX_DISTANCE ? 2 : 4;
    probeTable[hashOf(read32(src, ip), HASH_LOG2)] = ip - base;
    ip += 2;
    oc++;
  }
  return (ip - base) / oc;
}

/**
 * Compresses `src` into `dst` with BloscLZ at `clevel` (0 to 9), at most `dst.length` bytes.
 * Returns the compressed size, or 0 when the data is not worth compressing or does not fit.
 * `splitBlock` says whether c-blosc splits blocks into byte streams (it tunes the match
 * parameters).
 */
export function blosclzCompress(
  src: Uint8Array,
  dst: Uint8Array,
  clevel: number,
  splitBlock: boolean,
): number {
  const start = 0;
  const length = src.length;
  const dstStart = 0;
  const maxout = dst.length;
  const maxlen = Math.trunc(length / 4);
  const cratio = probeRatio(src, start + length - maxlen, maxlen, 3, 3);
  if (cratio < CRATIO_THRESHOLD[clevel]) return 0;
  const low = !splitBlock || cratio < 4;
  const ipshift = low ? 3 : 4;
  const minlen = low ? 3 : 4;
  const hashlog = HASH_LOG_BY_CLEVEL[clevel];
  const ipBound = start + length - 1;
  const ipLimit = start + length - 12;
  const opLimit = dstStart + maxout;
  if (length < 16 || maxout < 66) return 0;
  htab.fill(0, 0, 1 << hashlog);

  let ip = start;
  let op = dstStart;
  let copy = 4;
  dst[op++] = MAX_COPY - 1;
  dst[op++] = src[ip++];
  dst[op++] = src[ip++];
  dst[op++] = src[ip++];
  dst[op++] = src[ip++];

  while (ip < ipLimit) {
    const anchor = ip;
    const seq = read32(src, ip);
    const h = hashOf(seq, hashlog);
    let ref = start + htab[h];
    let distance = anchor - ref;
    htab[h] = anchor - start;
    let isMatch = distance !== 0 && distance < MAX_FARDISTANCE && read32(src, ref) === seq;
    let len = 0;
    if (isMatch) {
      ref += 4;
      distance--;
      ip = matchEnd(src, anchor + 4, ipBound, ref) - ipshift;
      len = ip - anchor;
      // Short matches are expensive to decode; far ones need at least 6 bytes.
      if (len < minlen || (len <= 5 && distance >= MAX_DISTANCE)) isMatch = false;
    }
    if (!isMatch) {
      if (op + 2 > opLimit) return 0;
      dst[op++] = src[anchor];
      ip = anchor + 1;
      if (++copy === MAX_COPY) {
        copy = 0;
        dst[op++] = MAX_COPY - 1;
      }
      continue;
    }
    if (copy) dst[op - copy - 1] = copy - 1;
    else op--;
    copy = 0;
    if (distance < MAX_DISTANCE) {
      if (len < 7) {
        if (op + 2 > opLimit) return 0;
        dst[op++] = (len << 5) + (distance >>> 8);
        dst[op++] = distance & 255;
      } else {
        if (op + 1 > opLimit) return 0;
        dst[op++] = (7 << 5) + (distance >>> 8);
        for (len -= 7; len >= 255; len -= 255) {
          if (op + 1 > opLimit) return 0;
          dst[op++] = 255;
        }
        if (op + 2 > opLimit) return 0;
        dst[op++] = len;
        dst[op++] = distance & 255;
      }
    } else {
      distance -= MAX_DISTANCE;
      if (len < 7) {
        if (op + 4 > opLimit) return 0;
        dst[op++] = (len << 5) + 31;
        dst[op++] = 255;
        dst[op++] = distance >>> 8;
        dst[op++] = distance & 255;
      } else {
        if (op + 1 > opLimit) return 0;
        dst[op++] = (7 << 5) + 31;
        for (len -= 7; len >= 255; len -= 255) {
          if (op + 1 > opLimit) return 0;
          dst[op++] = 255;
        }
        if (op + 4 > opLimit) return 0;
        dst[op++] = len;
        dst[op++] = 255;
        dst[op++] = distance >>> 8;
        dst[op++] = distance & 255;
      }
    }
    // Hash the match boundary (at the top level, also the next position, from the same word).
    const next = read32(src, ip);
    htab[hashOf(next, hashlog)] = ip - start;
    ip++;
    if (clevel === 9) htab[hashOf(next >>> 8, hashlog)] = ip - start;
    ip++;
    if (op + 1 > opLimit) return 0;
    dst[op++] = MAX_COPY - 1;
  }

  while (ip <= ipBound) {
    if (op + 2 > opLimit) return 0;
    dst[op++] = src[ip++];
    if (++copy === MAX_COPY) {
      copy = 0;
      dst[op++] = MAX_COPY - 1;
    }
  }
  if (copy) dst[op - copy - 1] = copy - 1;
  else op--;
  dst[dstStart] |= 1 << 5;
  return op - dstStart;
}

/**
 * Decodes the BloscLZ stream `src` into `dst` and returns the number of bytes written.
 * @throws DecompressionError for a malformed stream or one that does not fit `dst`
 */
export function blosclzDecompress(src: Uint8Array, dst: Uint8Array): number {
  const end = src.length;
  const dstStart = 0;
  const dstEnd = dst.length;
  if (end <= 0) return 0;
  let ip = 0;
  let op = dstStart;
  let ctrl = src[ip++] & 31;
  for (;;) {
    if (ctrl >= 32) {
      let len = (ctrl >>> 5) - 1;
      if (len === 6) {
        const extra = lengthBytes(src, ip, end);
        if (extra < 0) throw blosclzError("a match length runs past the end of the stream");
        len += extra;
        ip += Math.floor(extra / 255) + 1;
      }
      if (ip >= end) throw blosclzError("a match distance is cut off");
      const code = src[ip++];
      len += 3;
      let distance = ((ctrl & 31) << 8) + code + 1;
      if (code === 255 && (ctrl & 31) === 31) {
        if (ip + 2 > end) throw blosclzError("a far match distance is cut off");
        distance = ((src[ip] << 8) | src[ip + 1]) + MAX_DISTANCE + 1;
        ip += 2;
      }
      if (distance > op - dstStart)
        throw blosclzError(`match distance ${distance} points before the start of the block`);
      if (op + len > dstEnd) throw blosclzError("a match overflows the decoded size");
      op = copyMatch(dst, op, distance, len);
    } else {
      const n = ctrl + 1;
      if (ip + n > end) throw blosclzError("literals run past the end of the stream");
      if (op + n > dstEnd) throw blosclzError("literals overflow the decoded size");
      op = copyBytes(src, ip, dst, op, n);
      ip += n;
    }
    if (ip >= end) break;
    ctrl = src[ip++];
  }
  return op - dstStart;
}

function blosclzError(problem: string): DecompressionError {
  return new DecompressionError("blosclz", problem);
}
