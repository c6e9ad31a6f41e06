import { commonLength, read32 } from "./copy.js";
import { lastLiteralsBound, writeLiterals, writeMatch } from "./sequence.js";

/**
 * The LZ4 block compressor (raw blocks, no frame), as c-blosc uses it.
 *
 * The compressor reproduces `LZ4_compress_fast` of LZ4 1.9.x as built for 64-bit machines, byte
 * for byte, including its output limit (`LZ4_compress_fast` with a destination smaller than
 * `LZ4_compressBound` gives up, returning 0, by its own conservative checks). A 32-bit build,
 * such as numcodecs.js's WebAssembly LZ4, hashes 4 instead of 5 bytes for inputs of 64 KiB and
 * more, and so writes different (equally valid) blocks than the native library c-blosc uses.
 */

const MINMATCH = 4;
const MFLIMIT = 12;
const LASTLITERALS = 5;
const LIMIT_64K = 65536 + MFLIMIT - 1;
const SKIP_TRIGGER = 6;
const MAX_DISTANCE = 65535;
const ACCELERATION_MAX = 65537;

const table = new Int32Array(1 << 13);

/** LZ4's worst-case output size for `n` input bytes. */
export function lz4CompressBound(n: number): number {
  return n + Math.floor(n / 255) + 16;
}

/**
 * Compresses `src` into one raw LZ4 block in `dst`, writing at most `dst.length` bytes, as
 * `LZ4_compress_fast` does at `acceleration` (1 and up; higher is faster and compresses less).
 * Returns the compressed size, or 0 when LZ4 would not fit the block in `dst`.
 */
export function lz4CompressBlock(src: Uint8Array, dst: Uint8Array, acceleration = 1): number {
  const start = 0;
  const length = src.length;
  const dstStart = 0;
  const maxOutput = dst.length;
  const limited = maxOutput < lz4CompressBound(length);
  const olimit = dstStart + maxOutput;
  const accel = acceleration < 1 ? 1 : Math.min(acceleration, ACCELERATION_MAX);
  const small = length < LIMIT_64K;
  const hash = small ? hash4 : hash5;
  table.fill(0, 0, small ? 1 << 13 : 1 << 12);
  const iend = start + length;
  const mflimitPlusOne = iend - MFLIMIT + 1;
  const matchlimit = iend - LASTLITERALS;
  let op = dstStart;
  let anchor = start;

  if (length >= MFLIMIT + 1) {
    table[hash(src, start)] = 0;
    let ip = start + 1;
    let forwardH = hash(src, ip);
    outer: for (;;) {
      let match = 0;
      // Find a match, skipping faster the longer none is found.
      {
        let forwardIp = ip;
        let step = 1;
        let searchMatchNb = accel << SKIP_TRIGGER;
        for (;;) {
          const h = forwardH;
          const current = forwardIp - start;
          const matchIndex = table[h];
          ip = forwardIp;
          forwardIp += step;
          step = searchMatchNb++ >> SKIP_TRIGGER;
          if (forwardIp > mflimitPlusOne) break outer;
          match = start + matchIndex;
          forwardH = hash(src, forwardIp);
          table[h] = current;
          if (!small && matchIndex + MAX_DISTANCE < current) continue;
          if (read32(src, match) === read32(src, ip)) break;
        }
      }
      // Extend the match backwards over the pending literals.
      while (ip > anchor && match > start && src[ip - 1] === src[match - 1]) {
        ip--;
        match--;
      }
      const litLength = ip - anchor;
      let token = op++;
      if (limited && op + litLength + (2 + 1 + LASTLITERALS) + Math.floor(litLength / 255) > olimit)
        return 0;
      op = writeLiterals(dst, token, op, src, anchor, litLength);

      for (;;) {
        const offset = ip - match;
        const matchCode = commonLength(src, ip + MINMATCH, match + MINMATCH, matchlimit);
        ip += matchCode + MINMATCH;
        if (limited && op + 2 + (1 + LASTLITERALS) + Math.floor((matchCode + 240) / 255) > olimit)
          return 0;
        op = writeMatch(dst, token, op, offset, matchCode);
        anchor = ip;
        if (ip >= mflimitPlusOne) break outer;
        table[hash(src, ip - 2)] = ip - 2 - start;
        // Try the position right after the match before searching again.
        const h = hash(src, ip);
        const current = ip - start;
        const matchIndex = table[h];
        match = start + matchIndex;
        table[h] = current;
        if (
          (small || matchIndex + MAX_DISTANCE >= current) &&
          read32(src, match) === read32(src, ip)
        ) {
          token = op++;
          dst[token] = 0;
          continue;
        }
        break;
      }
      forwardH = hash(src, ++ip);
    }
  }

  const lastRun = iend - anchor;
  if (limited && op + lastLiteralsBound(lastRun) > olimit) return 0;
  op = writeLiterals(dst, op, op + 1, src, anchor, lastRun);
  return op - dstStart;
}

/** LZ4's hash of the 4 bytes at `p`, for inputs under 64 KiB (13-bit table). */
function hash4(src: Uint8Array, p: number): number {
  return Math.imul(read32(src, p), -1640531535) >>> 19;
}

/** LZ4's 64-bit hash of the 5 bytes at `p` (12-bit table): ((bytes << 24) * 889523592379) >> 52. */
function hash5(src: Uint8Array, p: number): number {
  const b0 = src[p];
  const xHi = src[p + 1] | (src[p + 2] << 8) | (src[p + 3] << 16) | (src[p + 4] << 24);
  // 889523592379 = 0xCF_1BBCDCBB; x = xHi:(b0 << 24). Only the high word of the product counts.
  const high =
    Math.imul(xHi, 0x1bbcdcbb) + Math.imul(b0 << 24, 0xcf) + Math.floor((b0 * 0x1bbcdcbb) / 256);
  return high >>> 20;
}
