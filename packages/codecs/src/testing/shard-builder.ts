/**
 * Builds shard bytes by hand, independently of our sharding encoder, the way other writers lay
 * them out: inner chunks in any order (zarr-python writes Morton order), with gaps and unused
 * bytes between them, and an index of uint64 little-endian (offset, nbytes) pairs in C order
 * over the inner chunks (2^64-1 twice for an empty one), optionally followed by a crc32c.
 */

/** The empty-entry marker of a shard index. */
const EMPTY = 0xffff_ffff_ffff_ffffn;

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32C (Castagnoli), bit-reflected, as the `crc32c` codec appends it (written here on purpose). */
export function crc32cOf(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of bytes) crc = CRC32C_TABLE[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Inner chunk coordinates of a shard with `counts` inner chunks per axis, in C order. */
export function cOrder(counts: readonly number[]): number[][] {
  const out: number[][] = [];
  const total = counts.reduce((a, b) => a * b, 1);
  for (let i = 0; i < total; i++) {
    const coords = new Array<number>(counts.length);
    let rest = i;
    for (let axis = counts.length - 1; axis >= 0; axis--) {
      coords[axis] = rest % counts[axis];
      rest = Math.floor(rest / counts[axis]);
    }
    out.push(coords);
  }
  return out;
}

/** The C-order number of inner chunk `coords`. */
export function cIndex(coords: readonly number[], counts: readonly number[]): number {
  return coords.reduce((i, c, axis) => i * counts[axis] + c, 0);
}

/**
 * Inner chunk numbers (C order) in Morton (Z) order, as zarr-python 3 writes them: the bits of
 * a Z code are dealt to the axes in turn, axis 0 taking the lowest bit; codes that fall outside
 * the shard are skipped.
 */
export function mortonOrder(counts: readonly number[]): number[] {
  const bits = counts.map((n) => Math.ceil(Math.log2(Math.max(n, 1))));
  const maxBits = Math.max(0, ...bits);
  const total = counts.reduce((a, b) => a * b, 1);
  const out: number[] = [];
  for (let z = 0; out.length < total; z++) {
    const coords = counts.map(() => 0);
    let bit = 0;
    for (let level = 0; level < maxBits; level++) {
      for (let axis = 0; axis < counts.length; axis++) {
        if (level >= bits[axis]) continue;
        coords[axis] |= ((z >> bit) & 1) << level;
        bit++;
      }
    }
    if (coords.every((c, axis) => c < counts[axis])) out.push(cIndex(coords, counts));
  }
  return out;
}

/** A deterministic pseudo-random generator (mulberry32), so every run lays shards out alike. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A permutation of 0..n-1 drawn from `random`. */
export function permutation(n: number, random: () => number): number[] {
  const out = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * The bytes of a shard index: uint64 little-endian (offset, nbytes) pairs, then (with
 * `checksum`) the crc32c of those bytes, little-endian.
 */
export function encodeIndex(entries: BigUint64Array, checksum: boolean): Uint8Array {
  const index = new Uint8Array(entries.length * 8 + (checksum ? 4 : 0));
  const view = new DataView(index.buffer);
  for (const [k, v] of entries.entries()) view.setBigUint64(k * 8, v, true);
  if (checksum)
    view.setUint32(entries.length * 8, crc32cOf(index.subarray(0, entries.length * 8)), true);
  return index;
}

/** How to lay a shard out. */
export interface ShardLayout {
  /** The order in which the inner chunks' bytes follow one another (C-order numbers). */
  order: readonly number[];
  /** Unused bytes before each placed chunk (by position in `order`), 0 when absent. */
  gaps?: (position: number) => number;
  /** Where the index is. */
  indexLocation: "start" | "end";
  /** Whether the index codecs end with `crc32c` (4 checksum bytes after the index). */
  checksum: boolean;
}

/**
 * The bytes of one shard: `chunks` holds each inner chunk's encoded bytes in C order
 * (undefined = empty, marked 2^64-1 in the index).
 */
export function buildShard(
  chunks: readonly (Uint8Array | undefined)[],
  layout: ShardLayout,
): Uint8Array {
  const indexBytes = chunks.length * 16 + (layout.checksum ? 4 : 0);
  const entries = new BigUint64Array(chunks.length * 2).fill(EMPTY);
  const pieces: Uint8Array[] = [];
  let at = layout.indexLocation === "start" ? indexBytes : 0;
  layout.order.forEach((i, position) => {
    const gap = layout.gaps?.(position) ?? 0;
    if (gap > 0) {
      // Unused bytes: garbage a reader must never look at.
      pieces.push(Uint8Array.from({ length: gap }, (_, k) => (k * 151 + position) & 0xff));
      at += gap;
    }
    const bytes = chunks[i];
    if (!bytes) return;
    entries[2 * i] = BigInt(at);
    entries[2 * i + 1] = BigInt(bytes.length);
    pieces.push(bytes);
    at += bytes.length;
  });
  const index = encodeIndex(entries, layout.checksum);
  const parts = layout.indexLocation === "start" ? [index, ...pieces] : [...pieces, index];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
