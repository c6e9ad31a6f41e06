/**
 * Shards for the partial I/O tests: one or two levels of `sharding_indexed` (nested), inner
 * chunks encoded as plain `bytes` or `bytes` + gzip, optionally a gzip after the sharding codec;
 * written either by our own encoder or by hand (`buildShard`) the way other writers lay shards
 * out: inner chunks in C, Morton or random order, with unused bytes between them. The values
 * are known (the truth the tests compare with), and some innermost chunks are empty.
 */
import { gzipSync } from "node:zlib";
import { CodecPipeline } from "@z/codecs";
import {
  buildShard,
  cIndex,
  cOrder,
  mortonOrder,
  permutation,
  type ShardLayout,
  seededRandom,
} from "@z/codecs/testing";
import { type NamedConfig, resolveDataTypeV3 } from "@z/metadata";
import { cOrderStrides, product } from "@z/ndarray";
import fc from "fast-check";

/** The fill value of every case: never one of the stored values (1..1000). */
export const FILL = -7;
export const INT32 = resolveDataTypeV3("int32");

/** One level of sharding. */
export interface Level {
  /** Inner chunks per shard of this level, along each axis. */
  counts: number[];
  indexLocation: "start" | "end";
  checksum: boolean;
  order: "c" | "morton" | "random with gaps";
}

/** A shard case. */
export interface ShardCase {
  /** Outer level first. */
  levels: Level[];
  /** The innermost chunk shape. */
  innermost: number[];
  /** The codecs of innermost chunks after `bytes`. */
  leaf: "bytes" | "gzip";
  /** A bytes-to-bytes codec after the outer sharding codec. */
  after: "none" | "gzip";
  writer: "ours" | "hand";
  seed: number;
}

/** The shard shape: the innermost shape times every level's counts. */
export function shardShape(c: ShardCase): number[] {
  return c.innermost.map((n, axis) => n * product(c.levels.map((l) => l.counts[axis])));
}

/** The inner chunk shape of level `k`. */
export function innerShapeOf(c: ShardCase, k: number): number[] {
  return c.innermost.map(
    (n, axis) => n * product(c.levels.slice(k + 1).map((l) => l.counts[axis])),
  );
}

const entry = (name: string, configuration: object): NamedConfig => ({
  name,
  configuration: configuration as never,
  mustUnderstand: true,
});

/** The codec list of a case. */
export function codecsOf(c: ShardCase): NamedConfig[] {
  let codecs: NamedConfig[] = [entry("bytes", { endian: "little" })];
  if (c.leaf === "gzip") codecs.push(entry("gzip", { level: 1 }));
  for (let k = c.levels.length - 1; k >= 0; k--) {
    const level = c.levels[k];
    const indexCodecs = [entry("bytes", { endian: "little" })];
    if (level.checksum) indexCodecs.push(entry("crc32c", {}));
    codecs = [
      entry("sharding_indexed", {
        chunk_shape: innerShapeOf(c, k),
        codecs,
        index_codecs: indexCodecs,
        index_location: level.indexLocation,
      }),
    ];
  }
  if (c.after === "gzip") codecs.push(entry("gzip", { level: 1 }));
  return codecs;
}

/** The pipeline of a case's shards. */
export function pipelineOf(c: ShardCase): CodecPipeline {
  return CodecPipeline.create(
    codecsOf(c),
    { shape: shardShape(c), dataType: INT32, fillValue: FILL },
    3,
  );
}

/** Whether the innermost chunk at `coords` (in the shard's innermost grid) is empty. */
export function emptyMask(c: ShardCase): (coords: readonly number[]) => boolean {
  const counts = shardShape(c).map((n, axis) => n / c.innermost[axis]);
  const random = seededRandom(c.seed);
  const flags = cOrder(counts).map(() => random() < 0.3);
  return (coords) => flags[cIndex(coords, counts)];
}

/** The values of a case's shard, C order: the fill value in empty innermost chunks. */
export function truthOf(c: ShardCase): Int32Array {
  const shape = shardShape(c);
  const empty = emptyMask(c);
  const data = new Int32Array(product(shape));
  cOrder(shape).forEach((coords, i) => {
    const inner = coords.map((x, axis) => Math.floor(x / c.innermost[axis]));
    data[i] = empty(inner) ? FILL : ((i * 37 + c.seed) % 1000) + 1;
  });
  return data;
}

/** The values of a `shape` block at `origin` of a C-order array of shape `full`, C order. */
export function regionOf(
  data: ArrayLike<number>,
  full: readonly number[],
  origin: readonly number[],
  shape: readonly number[],
): number[] {
  return cOrder(shape)
    .map((local) =>
      cIndex(
        local.map((x, axis) => origin[axis] + x),
        full,
      ),
    )
    .map((i) => data[i]);
}

/** The layout of the shard of level `k` at `salt`. */
function layoutOf(c: ShardCase, k: number, salt: number): ShardLayout {
  const level = c.levels[k];
  const n = product(level.counts);
  const random = seededRandom(c.seed * 7919 + salt * 31 + k);
  const order =
    level.order === "c"
      ? Array.from({ length: n }, (_, i) => i)
      : level.order === "morton"
        ? mortonOrder(level.counts)
        : permutation(n, random);
  const gaps = order.map(() => (level.order === "random with gaps" ? Math.floor(random() * 9) : 0));
  return {
    order,
    gaps: (position) => gaps[position],
    indexLocation: level.indexLocation,
    checksum: level.checksum,
  };
}

/**
 * Encodes the block of level `k` at `origin` by hand; undefined for an innermost chunk that is
 * empty, or an inner shard all of whose chunks are.
 */
function handEncode(
  c: ShardCase,
  truth: Int32Array,
  k: number,
  origin: number[],
): Uint8Array | undefined {
  const full = shardShape(c);
  if (k === c.levels.length) {
    const inner = origin.map((o, axis) => o / c.innermost[axis]);
    if (emptyMask(c)(inner)) return undefined;
    const values = regionOf(truth, full, origin, c.innermost);
    const bytes = new Uint8Array(values.length * 4);
    const view = new DataView(bytes.buffer);
    values.forEach((v, i) => {
      view.setInt32(i * 4, v, true);
    });
    return c.leaf === "gzip" ? gzipSync(bytes) : bytes;
  }
  const inner = innerShapeOf(c, k);
  const chunks = cOrder(c.levels[k].counts).map((coords) =>
    handEncode(
      c,
      truth,
      k + 1,
      coords.map((x, axis) => origin[axis] + x * inner[axis]),
    ),
  );
  if (k > 0 && chunks.every((b) => b === undefined)) return undefined;
  return buildShard(chunks, layoutOf(c, k, cIndex(origin, full)));
}

/** The stored bytes of a case's shard. */
export async function storedShard(c: ShardCase): Promise<Uint8Array> {
  const truth = truthOf(c);
  const shape = shardShape(c);
  if (c.writer === "ours") {
    return pipelineOf(c).encode({ data: truth, shape, stride: cOrderStrides(shape) });
  }
  const shard = handEncode(
    c,
    truth,
    0,
    shape.map(() => 0),
  ) as Uint8Array;
  return c.after === "gzip" ? gzipSync(shard) : shard;
}

/** Reads a shard index by hand: (offset, nbytes) per inner chunk, undefined for empty ones. */
export function handIndex(
  shard: Uint8Array,
  level: Level,
): ({ offset: number; nbytes: number } | undefined)[] {
  const n = product(level.counts);
  const size = n * 16 + (level.checksum ? 4 : 0);
  const at = level.indexLocation === "start" ? 0 : shard.length - size;
  const view = new DataView(shard.buffer, shard.byteOffset + at, n * 16);
  return Array.from({ length: n }, (_, i) => {
    const offset = view.getBigUint64(i * 16, true);
    const nbytes = view.getBigUint64(i * 16 + 8, true);
    if (offset === 0xffff_ffff_ffff_ffffn) return undefined;
    return { offset: Number(offset), nbytes: Number(nbytes) };
  });
}

/** The encoded size of a level's index. */
export function indexSize(level: Level): number {
  return product(level.counts) * 16 + (level.checksum ? 4 : 0);
}

const levelArb = (ndim: number, maxCount: number) =>
  fc.record({
    counts: fc.array(fc.integer({ min: 1, max: maxCount }), { minLength: ndim, maxLength: ndim }),
    indexLocation: fc.constantFrom("start" as const, "end" as const),
    checksum: fc.boolean(),
    order: fc.constantFrom("c" as const, "morton" as const, "random with gaps" as const),
  });

/** Shard cases: one level up to 3-d, or two levels (nested) up to 2-d. */
export const shardCaseArb = (options: { after?: ("none" | "gzip")[] } = {}) =>
  fc
    .record({ nested: fc.boolean(), ndim: fc.integer({ min: 1, max: 3 }) })
    .chain(({ nested, ndim }) => {
      const dims = nested ? Math.min(ndim, 2) : ndim;
      return fc.record({
        levels: nested
          ? fc.tuple(levelArb(dims, 2), levelArb(dims, 2))
          : fc.tuple(levelArb(dims, 3)),
        innermost: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: dims, maxLength: dims }),
        leaf: fc.constantFrom("bytes" as const, "gzip" as const),
        after: fc.constantFrom(...(options.after ?? ["none" as const, "gzip" as const])),
        writer: fc.constantFrom("ours" as const, "hand" as const),
        seed: fc.integer({ min: 0, max: 1 << 20 }),
      });
    })
    .map((c): ShardCase => ({ ...c, levels: [...c.levels] }));
