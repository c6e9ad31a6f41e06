import { lz4CompressBound } from "./compress.js";
import { commonLength, read32 } from "./copy.js";
import { lastLiteralsBound, writeLiterals, writeMatch } from "./sequence.js";

/**
 * LZ4HC, LZ4's high-compression mode, as `LZ4_compress_HC` of LZ4 1.9.x runs for the levels
 * c-blosc passes (1 to 9: the hash-chain strategy, `2^(level-1)` candidates per position, at
 * least 2, and repeated-byte analysis at level 9). It writes the ordinary LZ4 block format.
 */

const MINMATCH = 4;
const MFLIMIT = 12;
const LASTLITERALS = 5;
const OPTIMAL_ML = 15 - 1 + MINMATCH;
const MAX_DISTANCE = 65535;
const HASH_LOG = 15;
/** Index of the first input byte: LZ4HC starts its indexes 64 KiB up so that 0 means "empty". */
const PREFIX_INDEX = 65536;

// 192 KiB of tables, allocated on first use.
let hashTable = new Int32Array(0);
let chainTable = new Uint16Array(0);
let nextToUpdate = PREFIX_INDEX;
/** Outputs of {@link widerMatch}: where the best match's source and start are. */
let matchPos = 0;
let startPos = 0;

const NB_SEARCHES = [2, 2, 2, 4, 8, 16, 32, 64, 128, 256];

/**
 * Compresses `src` into one raw LZ4 block in `dst` with LZ4HC at `clevel` (1 to 9), writing at
 * most `dst.length` bytes. Returns the compressed size, or 0 when it does not fit.
 */
export function lz4hcCompressBlock(src: Uint8Array, dst: Uint8Array, clevel = 9): number {
  const start = 0;
  const length = src.length;
  const dstStart = 0;
  const maxout = dst.length;
  const maxAttempts = NB_SEARCHES[Math.min(Math.max(clevel, 1), 9)];
  const patternAnalysis = maxAttempts > 128;
  const limited = maxout < lz4CompressBound(length);
  const oend = dstStart + maxout;
  const base = start - PREFIX_INDEX;
  const iend = start + length;
  const mflimit = iend - MFLIMIT;
  const matchlimit = iend - LASTLITERALS;
  if (hashTable.length === 0) {
    hashTable = new Int32Array(1 << HASH_LOG);
    chainTable = new Uint16Array(1 << 16);
  } else {
    hashTable.fill(0);
  }
  nextToUpdate = PREFIX_INDEX;

  let ip = start;
  let anchor = start;
  let op = dstStart;

  /** LZ4HC_encodeSequence: false when the output limit is reached. */
  const encode = (matchLength: number, ref: number): boolean => {
    const token = op++;
    const literals = ip - anchor;
    if (limited && op + Math.floor(literals / 255) + literals + (2 + 1 + LASTLITERALS) > oend)
      return false;
    op = writeLiterals(dst, token, op, src, anchor, literals);
    const matchCode = matchLength - MINMATCH;
    if (limited && op + 2 + Math.floor(matchCode / 255) + (1 + LASTLITERALS) > oend) return false;
    op = writeMatch(dst, token, op, ip - ref, matchCode);
    ip += matchLength;
    anchor = ip;
    return true;
  };

  if (length >= MFLIMIT + 1) {
    main: while (ip <= mflimit) {
      let ml = widerMatch(
        src,
        base,
        start,
        ip,
        ip,
        matchlimit,
        MINMATCH - 1,
        maxAttempts,
        patternAnalysis,
      );
      if (ml < MINMATCH) {
        ip++;
        continue;
      }
      let ref = matchPos;
      let start0 = ip;
      let ref0 = ref;
      let ml0 = ml;
      let start2 = 0;
      let ref2 = 0;
      let ml2 = 0;
      let start3 = 0;
      let ref3 = 0;
      let ml3 = 0;
      let search3 = false;
      for (;;) {
        if (!search3) {
          // _Search2: is there a longer match starting inside the current one?
          if (ip + ml <= mflimit) {
            ml2 = widerMatch(
              src,
              base,
              start,
              ip + ml - 2,
              ip,
              matchlimit,
              ml,
              maxAttempts,
              patternAnalysis,
            );
            if (ml2 > ml) {
              ref2 = matchPos;
              start2 = startPos;
            }
          } else {
            ml2 = ml;
          }
          if (ml2 === ml) {
            if (!encode(ml, ref)) return 0;
            continue main;
          }
          if (start0 < ip && start2 < ip + ml0) {
            ip = start0;
            ref = ref0;
            ml = ml0;
          }
          if (start2 - ip < 3) {
            ml = ml2;
            ip = start2;
            ref = ref2;
            continue;
          }
          search3 = true;
        }
        // _Search3
        if (start2 - ip < OPTIMAL_ML) {
          let newMl = ml;
          if (newMl > OPTIMAL_ML) newMl = OPTIMAL_ML;
          if (ip + newMl > start2 + ml2 - MINMATCH) newMl = start2 - ip + ml2 - MINMATCH;
          const correction = newMl - (start2 - ip);
          if (correction > 0) {
            start2 += correction;
            ref2 += correction;
            ml2 -= correction;
          }
        }
        if (start2 + ml2 <= mflimit) {
          ml3 = widerMatch(
            src,
            base,
            start,
            start2 + ml2 - 3,
            start2,
            matchlimit,
            ml2,
            maxAttempts,
            patternAnalysis,
          );
          if (ml3 > ml2) {
            ref3 = matchPos;
            start3 = startPos;
          }
        } else {
          ml3 = ml2;
        }
        if (ml3 === ml2) {
          if (start2 < ip + ml) ml = start2 - ip;
          if (!encode(ml, ref)) return 0;
          ip = start2;
          if (!encode(ml2, ref2)) return 0;
          continue main;
        }
        if (start3 < ip + ml + 3) {
          if (start3 >= ip + ml) {
            if (start2 < ip + ml) {
              const correction = ip + ml - start2;
              start2 += correction;
              ref2 += correction;
              ml2 -= correction;
              if (ml2 < MINMATCH) {
                start2 = start3;
                ref2 = ref3;
                ml2 = ml3;
              }
            }
            if (!encode(ml, ref)) return 0;
            ip = start3;
            ref = ref3;
            ml = ml3;
            start0 = start2;
            ref0 = ref2;
            ml0 = ml2;
            search3 = false;
            continue;
          }
          start2 = start3;
          ref2 = ref3;
          ml2 = ml3;
          continue;
        }
        // Three ascending matches: write the first one.
        if (start2 < ip + ml) {
          if (start2 - ip < OPTIMAL_ML) {
            if (ml > OPTIMAL_ML) ml = OPTIMAL_ML;
            if (ip + ml > start2 + ml2 - MINMATCH) ml = start2 - ip + ml2 - MINMATCH;
            const correction = ml - (start2 - ip);
            if (correction > 0) {
              start2 += correction;
              ref2 += correction;
              ml2 -= correction;
            }
          } else {
            ml = start2 - ip;
          }
        }
        if (!encode(ml, ref)) return 0;
        ip = start2;
        ref = ref2;
        ml = ml2;
        start2 = start3;
        ref2 = ref3;
        ml2 = ml3;
      }
    }
  }

  const lastRun = iend - anchor;
  if (limited && op + lastLiteralsBound(lastRun) > oend) return 0;
  op = writeLiterals(dst, op, op + 1, src, anchor, lastRun);
  return op - dstStart;
}

function hashAt(src: Uint8Array, p: number): number {
  return Math.imul(read32(src, p), -1640531535) >>> (32 - HASH_LOG);
}

/** Reads 2 bytes; bytes outside the array (LZ4HC may peek before its input) read as 0. */
function read16(src: Uint8Array, p: number): number {
  return (src[p] ?? 0) | ((src[p + 1] ?? 0) << 8);
}

/** LZ4HC_Insert: chains every position before `target` (an index) into the tables. */
function insert(src: Uint8Array, base: number, target: number): void {
  for (let idx = nextToUpdate; idx < target; idx++) {
    const h = hashAt(src, base + idx);
    let delta = idx - hashTable[h];
    if (delta > MAX_DISTANCE) delta = MAX_DISTANCE;
    chainTable[idx & 0xffff] = delta;
    hashTable[h] = idx;
  }
  nextToUpdate = target;
}

/**
 * LZ4HC_InsertAndGetWiderMatch (no dictionary, no chain swap): the longest match for `ip`
 * that may extend back to `iLowLimit`, if longer than `longest`; sets `matchPos`/`startPos`.
 */
function widerMatch(
  src: Uint8Array,
  base: number,
  prefix: number,
  ip: number,
  iLowLimit: number,
  iHighLimit: number,
  longest: number,
  maxAttempts: number,
  patternAnalysis: boolean,
): number {
  const ipIndex = ip - base;
  const lowestMatchIndex =
    PREFIX_INDEX + MAX_DISTANCE + 1 > ipIndex ? PREFIX_INDEX : ipIndex - MAX_DISTANCE;
  const lookBack = ip - iLowLimit;
  const pattern = read32(src, ip);
  let nbAttempts = maxAttempts;
  let repeat = 0; // 0 untested, 1 not a repeat, 2 a run of one byte
  let srcPatternLength = 0;
  insert(src, base, ipIndex);
  let matchIndex = hashTable[hashAt(src, ip)];
  while (matchIndex >= lowestMatchIndex && nbAttempts > 0) {
    nbAttempts--;
    const matchPtr = base + matchIndex;
    if (
      read16(src, iLowLimit + longest - 1) === read16(src, matchPtr - lookBack + longest - 1) &&
      read32(src, matchPtr) === pattern
    ) {
      const back = lookBack ? countBack(src, ip, matchPtr, iLowLimit, prefix) : 0;
      const matchLength =
        MINMATCH + commonLength(src, ip + MINMATCH, matchPtr + MINMATCH, iHighLimit) - back;
      if (matchLength > longest) {
        longest = matchLength;
        matchPos = matchPtr + back;
        startPos = ip + back;
      }
    }
    if (patternAnalysis && chainTable[matchIndex & 0xffff] === 1) {
      const candidateIdx = matchIndex - 1;
      if (repeat === 0) {
        const isRun = (pattern & 0xffff) === pattern >>> 16 && (pattern & 0xff) === pattern >>> 24;
        repeat = isRun ? 2 : 1;
        if (isRun) srcPatternLength = countRun(src, ip + 4, iHighLimit, pattern & 0xff) + 4;
      }
      if (repeat === 2 && candidateIdx >= lowestMatchIndex) {
        const candidate = base + candidateIdx;
        if (read32(src, candidate) === pattern) {
          const forward = countRun(src, candidate + 4, iHighLimit, pattern & 0xff) + 4;
          let backLength = countRunBack(src, candidate, prefix, pattern & 0xff);
          backLength = candidateIdx - Math.max(candidateIdx - backLength, lowestMatchIndex);
          const segment = backLength + forward;
          if (segment >= srcPatternLength && forward <= srcPatternLength) {
            matchIndex = candidateIdx + forward - srcPatternLength;
          } else {
            matchIndex = candidateIdx - backLength;
            if (lookBack === 0) {
              const maxMl = Math.min(segment, srcPatternLength);
              if (longest < maxMl) {
                if (ipIndex - matchIndex > MAX_DISTANCE) break;
                longest = maxMl;
                matchPos = base + matchIndex;
                startPos = ip;
              }
              const toNext = chainTable[matchIndex & 0xffff];
              if (toNext > matchIndex) break;
              matchIndex -= toNext;
            }
          }
          continue;
        }
      }
    }
    matchIndex -= chainTable[matchIndex & 0xffff];
  }
  return longest;
}

/** Common bytes before `ip` and `match` (as a negative count), not going below `iMin`/`mMin`. */
function countBack(src: Uint8Array, ip: number, match: number, iMin: number, mMin: number): number {
  const min = Math.max(iMin - ip, mMin - match);
  let back = 0;
  while (back > min && src[ip + back - 1] === src[match + back - 1]) back--;
  return back;
}

function countRun(src: Uint8Array, p: number, end: number, byte: number): number {
  const p0 = p;
  while (p < end && src[p] === byte) p++;
  return p - p0;
}

function countRunBack(src: Uint8Array, p: number, low: number, byte: number): number {
  const p0 = p;
  while (p > low && src[p - 1] === byte) p--;
  return p0 - p;
}
