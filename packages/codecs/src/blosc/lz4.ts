import { DecodeError } from "../errors.js";

/**
 * Raw LZ4 blocks (no frame), as c-blosc stores them.
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
 * Compresses `length` bytes of `src` at `start` into `dst` at `dstStart`, writing at most
 * `maxOutput` bytes. Returns the compressed size, or 0 when LZ4 would not fit the limit.
 */
export function lz4Compress(
  src: Uint8Array,
  start: number,
  length: number,
  dst: Uint8Array,
  dstStart: number,
  maxOutput: number,
  acceleration: number,
): number {
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
      if (litLength >= 15) {
        dst[token] = 15 << 4;
        let len = litLength - 15;
        for (; len >= 255; len -= 255) dst[op++] = 255;
        dst[op++] = len;
      } else {
        dst[token] = litLength << 4;
      }
      op = copyBytes(src, anchor, dst, op, litLength);

      for (;;) {
        const offset = ip - match;
        dst[op++] = offset & 0xff;
        dst[op++] = offset >>> 8;
        let matchCode = countMatch(src, ip + MINMATCH, match + MINMATCH, matchlimit);
        ip += matchCode + MINMATCH;
        if (limited && op + (1 + LASTLITERALS) + Math.floor((matchCode + 240) / 255) > olimit)
          return 0;
        if (matchCode >= 15) {
          dst[token] += 15;
          matchCode -= 15;
          for (; matchCode >= 255; matchCode -= 255) dst[op++] = 255;
          dst[op++] = matchCode;
        } else {
          dst[token] += matchCode;
        }
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
  if (limited && op + lastRun + 1 + Math.floor((lastRun + 255 - 15) / 255) > olimit) return 0;
  if (lastRun >= 15) {
    dst[op++] = 15 << 4;
    let acc = lastRun - 15;
    for (; acc >= 255; acc -= 255) dst[op++] = 255;
    dst[op++] = acc;
  } else {
    dst[op++] = lastRun << 4;
  }
  op = copyBytes(src, anchor, dst, op, lastRun);
  return op - dstStart;
}

/**
 * Decodes the raw LZ4 block `src[start, end)` into `dst[dstStart, dstEnd)` and returns the
 * number of bytes written. Matches may only reach back to `dstStart`.
 * @throws DecodeError for a malformed block or one that does not fit
 */
export function lz4Decompress(
  src: Uint8Array,
  start: number,
  end: number,
  dst: Uint8Array,
  dstStart: number,
  dstEnd: number,
): number {
  let ip = start;
  let op = dstStart;
  // Unaligned 32-bit reads and writes, for copies 8 bytes at a time.
  const from = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const to = new DataView(dst.buffer, dst.byteOffset, dst.byteLength);
  while (ip < end) {
    const token = src[ip++];
    let lit = token >>> 4;
    if (lit === 15) {
      let b: number;
      do {
        if (ip >= end) throw lz4Error("a literal length runs past the end of the block");
        b = src[ip++];
        lit += b;
      } while (b === 255);
    }
    if (lit > 0) {
      if (ip + lit > end) throw lz4Error("literals run past the end of the block");
      if (op + lit > dstEnd) throw lz4Error("literals overflow the decoded size");
      if (lit <= 16 && ip + 16 <= end && op + 16 <= dstEnd) {
        // Short literals, 8 bytes at a time: may write up to 7 bytes past them, inside the
        // stream's own output, which what follows overwrites (a stream that stops short is an
        // error, its output never used).
        for (let i = 0; i < lit; i += 8) {
          to.setUint32(op + i, from.getUint32(ip + i, true), true);
          to.setUint32(op + i + 4, from.getUint32(ip + i + 4, true), true);
        }
        op += lit;
      } else {
        op = copyBytes(src, ip, dst, op, lit);
      }
      ip += lit;
    }
    if (ip >= end) break;
    if (ip + 2 > end) throw lz4Error("a match offset is cut off");
    const offset = src[ip] | (src[ip + 1] << 8);
    ip += 2;
    if (offset === 0 || offset > op - dstStart)
      throw lz4Error(`match offset ${offset} points before the start of the block`);
    let len = token & 15;
    if (len === 15) {
      let b: number;
      do {
        if (ip >= end) throw lz4Error("a match length runs past the end of the block");
        b = src[ip++];
        len += b;
      } while (b === 255);
    }
    len += MINMATCH;
    if (op + len > dstEnd) throw lz4Error("a match overflows the decoded size");
    if (offset >= 8 && len <= 64 && op + len + 8 <= dstEnd) {
      // 8 bytes at a time: each copy reads bytes at least 8 back, already final, so overlapping
      // matches repeat as they should; the overshoot (up to 7 bytes) stays inside the stream's
      // output and is overwritten by what follows.
      const stop = op + len;
      for (let ref = op - offset; op < stop; op += 8, ref += 8) {
        to.setUint32(op, to.getUint32(ref, true), true);
        to.setUint32(op + 4, to.getUint32(ref + 4, true), true);
      }
      op = stop;
    } else {
      op = copyMatch(dst, op, offset, len);
    }
  }
  return op - dstStart;
}

function lz4Error(what: string): DecodeError {
  return new DecodeError(`blosc: corrupt lz4 stream: ${what}`);
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

/** Reads 4 bytes little-endian as a signed 32-bit integer (only compared for equality). */
export function read32(src: Uint8Array, p: number): number {
  return src[p] | (src[p + 1] << 8) | (src[p + 2] << 16) | (src[p + 3] << 24);
}

/** The length of the common prefix of `src[a..]` and `src[b..]`, stopping at `limit` for `a`. */
function countMatch(src: Uint8Array, a: number, b: number, limit: number): number {
  const a0 = a;
  while (a < limit && src[a] === src[b]) {
    a++;
    b++;
  }
  return a - a0;
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
