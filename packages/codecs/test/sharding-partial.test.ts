import {
  type ByteRangeSource,
  CodecError,
  type CodecPipeline,
  loadCodecs,
  memorySource,
  type SourceRange,
  type SubchunkWrite,
} from "@z/codecs";
import { cIndex, cOrder } from "@z/codecs/testing";
import type { Chunk } from "@z/ndarray";
import { product } from "@z/ndarray";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  FILL,
  handIndex,
  indexSize,
  pipelineOf,
  regionOf,
  type ShardCase,
  shardCaseArb,
  shardShape,
  storedShard,
  truthOf,
} from "./shard-cases.js";

/*
 * The partial decoder and encoder of sharded chunks against references: a partial decode must
 * give what a full decode gives, sliced; a partial encode what a full decode, change and encode
 * gives; over shards written by our encoder and by hand in any inner-chunk order with gaps, one
 * or two levels of sharding, and a gzip after the sharding codec (whole-chunk fallback).
 */

const RUNS = { numRuns: 60 };

// The codecs of the cases (codecsOf) load on first use; pipelineOf builds them synchronously.
beforeAll(() => loadCodecs(["sharding_indexed", "crc32c", "gzip"]));

/** The values of a chunk of any strides, in C order. */
function valuesOf(chunk: Chunk): number[] {
  return cOrder(chunk.shape).map(
    (coords) =>
      (chunk.data as Int32Array)[coords.reduce((s, x, axis) => s + x * chunk.stride[axis], 0)],
  );
}

/** The sub-chunk grid of a pipeline's chunks: counts per axis and every sub-chunk's coordinates. */
function subchunksOf(pipeline: CodecPipeline): { counts: number[]; all: number[][] } {
  const counts = pipeline.spec.shape.map((n, axis) => n / pipeline.subchunkShape[axis]);
  return { counts, all: cOrder(counts) };
}

/** A source over bytes in memory that records the bytes each read returns. */
function countingSource(
  bytes: Uint8Array,
): ByteRangeSource & { reads: SourceRange[]; bytesRead: number } {
  const inner = memorySource(bytes);
  const source = {
    size: bytes.length,
    reads: [] as SourceRange[],
    bytesRead: 0,
    async get(range: SourceRange) {
      const got = await inner.get(range);
      source.reads.push(range);
      source.bytesRead += got?.length ?? 0;
      return got;
    },
    async getRanges(ranges: readonly SourceRange[]) {
      const got = (await inner.getRanges?.(ranges)) ?? [];
      source.reads.push(...ranges);
      source.bytesRead += got.reduce((n, b) => n + b.length, 0);
      return got;
    },
  };
  return source;
}

/**
 * The bytes a partial read of `requested` innermost chunks (coordinates in the grid of level
 * `k`'s shard) must read: the index, then for each touched non-empty inner chunk its bytes or,
 * for a nested shard, what reading it partially needs.
 */
function neededBytes(c: ShardCase, shard: Uint8Array, k: number, requested: number[][]): number {
  const level = c.levels[k];
  // Innermost chunks per inner chunk of this level, along each axis.
  const perInner = c.innermost.map((_, axis) =>
    product(c.levels.slice(k + 1).map((l) => l.counts[axis])),
  );
  const entries = handIndex(shard, level);
  const groups = new Map<number, number[][]>();
  for (const coords of requested) {
    const inner = cIndex(
      coords.map((x, axis) => Math.floor(x / perInner[axis])),
      level.counts,
    );
    const within = coords.map((x, axis) => x % perInner[axis]);
    groups.set(inner, [...(groups.get(inner) ?? []), within]);
  }
  let total = indexSize(level);
  for (const [inner, within] of groups) {
    const entry = entries[inner];
    if (!entry) continue;
    // The last level's chunks, and nested inner chunks wanted whole, are read whole.
    const whole =
      k === c.levels.length - 1 || new Set(within.map(String)).size === product(perInner);
    total += whole
      ? entry.nbytes
      : neededBytes(c, shard.subarray(entry.offset, entry.offset + entry.nbytes), k + 1, within);
  }
  return total;
}

describe("partial decode gives what a full decode gives, sliced", () => {
  it("any layout, any set of sub-chunks in any order", async () => {
    await fc.assert(
      fc.asyncProperty(shardCaseArb(), fc.integer({ min: 0, max: 1 << 20 }), async (c, pick) => {
        const pipeline = pipelineOf(c);
        const stored = await storedShard(c);
        const shape = shardShape(c);
        const truth = Array.from(truthOf(c));
        // The reference: the full decode, which must itself give the values written.
        const full = valuesOf(await pipeline.decode(stored));
        expect(full).toEqual(truth);
        const { all } = subchunksOf(pipeline);
        const requested = all.filter((_, i) => ((pick >> (i % 20)) + i) % 3 !== 0).reverse();
        const decoder = await pipeline.partialDecoder(memorySource(stored));
        const got = await decoder!.decodeSubchunks(requested);
        expect(got.length).toBe(requested.length);
        got.forEach((chunk, i) => {
          const sub = pipeline.subchunkShape;
          const origin = requested[i].map((x, axis) => x * sub[axis]);
          const expected = regionOf(full, shape, origin, sub);
          // Nothing asked for a shared result: every sub-chunk comes back.
          expect(chunk).not.toBeNull();
          if (chunk === undefined) expect(expected.every((v) => v === FILL)).toBe(true);
          else expect(valuesOf(chunk as NonNullable<typeof chunk>)).toEqual(expected);
        });
      }),
      RUNS,
    );
  });

  it("sub-chunks are the innermost chunks, except behind a gzip after the sharding codec", () => {
    fc.assert(
      fc.property(shardCaseArb(), (c) => {
        const pipeline = pipelineOf(c);
        expect(pipeline.supportsPartialIo).toBe(c.after === "none");
        expect([...pipeline.subchunkShape]).toEqual(
          c.after === "none" ? c.innermost : shardShape(c),
        );
      }),
      RUNS,
    );
  });

  it("a sub-chunk outside the grid is a CodecError naming it", async () => {
    for (const after of ["none", "gzip"] as const) {
      const c = { ...fc.sample(shardCaseArb({ after: [after] }), { numRuns: 1, seed: 5 })[0] };
      const pipeline = pipelineOf(c);
      const decoder = await pipeline.partialDecoder(memorySource(await storedShard(c)));
      const outside = pipeline.subchunkShape.map((n, axis) => pipeline.spec.shape[axis] / n);
      const failure = decoder!.decodeSubchunks([outside]);
      await expect(failure).rejects.toThrow(CodecError);
      await expect(failure).rejects.toThrow(`[${outside}]`);
      await expect(
        pipeline.partialEncode(undefined, [{ coords: outside, covers: true, write: () => {} }]),
      ).rejects.toThrow(CodecError);
    }
  });

  it("a missing chunk has no decoder", async () => {
    const c = fc.sample(shardCaseArb(), { numRuns: 1, seed: 3 })[0];
    const missing: ByteRangeSource = { get: async () => undefined };
    expect(await pipelineOf(c).partialDecoder(missing)).toBeUndefined();
  });
});

describe("partial decode reads only what the sub-chunks need", () => {
  it("the index, then the bytes of the requested non-empty inner chunks (nested: their own index and chunks)", async () => {
    await fc.assert(
      fc.asyncProperty(
        shardCaseArb({ after: ["none"] }),
        fc.integer({ min: 0, max: 1 << 20 }),
        async (c, pick) => {
          const pipeline = pipelineOf(c);
          const stored = await storedShard(c);
          const { all } = subchunksOf(pipeline);
          const requested = all.filter((_, i) => ((pick >> (i % 20)) & 3) === 0);
          const source = countingSource(stored);
          const decoder = await pipeline.partialDecoder(source);
          await decoder!.decodeSubchunks(requested);
          expect(source.bytesRead).toBe(neededBytes(c, stored, 0, requested));
        },
      ),
      RUNS,
    );
  });

  it("one inner chunk of a shard: two reads, a small part of the shard", async () => {
    const c: ShardCase = {
      levels: [{ counts: [4, 4], indexLocation: "end", checksum: true, order: "random with gaps" }],
      innermost: [8, 8],
      leaf: "bytes",
      after: "none",
      writer: "hand",
      seed: 0,
    };
    const stored = await storedShard(c);
    const source = countingSource(stored);
    const decoder = await pipelineOf(c).partialDecoder(source);
    // An inner chunk the seed keeps non-empty.
    const present = handIndex(stored, c.levels[0]).findIndex((e) => e !== undefined);
    await decoder!.decodeSubchunks([cOrder([4, 4])[present]]);
    expect(source.reads).toEqual([
      { suffix: 16 * 16 + 4 },
      expect.objectContaining({ length: 256 }),
    ]);
    expect(source.bytesRead).toBe(16 * 16 + 4 + 256);
    expect(source.bytesRead).toBeLessThan(stored.length / 4);
  });

  it("gzip after the sharding codec: one read of the whole chunk", async () => {
    const c = fc.sample(shardCaseArb({ after: ["gzip"] }), { numRuns: 1, seed: 7 })[0];
    const stored = await storedShard(c);
    const source = countingSource(stored);
    const pipeline = pipelineOf(c);
    const decoder = await pipeline.partialDecoder(source);
    const [chunk] = await decoder!.decodeSubchunks([c.innermost.map(() => 0)]);
    expect(source.reads).toEqual([{ offset: 0 }]);
    expect(valuesOf(chunk!)).toEqual(Array.from(truthOf(c)));
  });
});

/** A write: covered sub-chunks get new values everywhere, others at some elements; `fill` writes the fill value. */
interface WriteSpec {
  sub: number;
  covers: boolean;
  fill: boolean;
  salt: number;
}

function newValue(w: WriteSpec, k: number): number | undefined {
  if (!w.covers && (k + w.salt) % 3 !== 0) return undefined;
  return w.fill ? FILL : ((k * 13 + w.salt) % 997) + 1;
}

describe("partial encode gives what a full decode, change and encode gives", () => {
  it("any layout, any writes; unwritten inner chunks keep their stored bytes", async () => {
    await fc.assert(
      fc.asyncProperty(
        shardCaseArb(),
        fc.boolean(),
        fc.array(
          fc.record({
            sub: fc.nat(),
            covers: fc.boolean(),
            fill: fc.boolean(),
            salt: fc.nat({ max: 1000 }),
          }),
          { maxLength: 12 },
        ),
        async (c, stored, specs) => {
          const pipeline = pipelineOf(c);
          const shape = shardShape(c);
          const current = stored ? await storedShard(c) : undefined;
          const { all } = subchunksOf(pipeline);
          const sub = pipeline.subchunkShape;
          // Each sub-chunk at most once.
          const seen = new Set<number>();
          const chosen = specs
            .map((w) => ({ ...w, sub: w.sub % all.length }))
            .filter((w) => !seen.has(w.sub) && seen.add(w.sub));
          // The reference: the full chunk (decoded, or the fill value), changed in place.
          const expected = current
            ? valuesOf(await pipeline.decode(current))
            : new Array<number>(product(shape)).fill(FILL);
          for (const w of chosen) {
            const origin = all[w.sub].map((x, axis) => x * sub[axis]);
            cOrder(sub).forEach((local, k) => {
              const v = newValue(w, k);
              if (v !== undefined)
                expected[
                  cIndex(
                    local.map((x, axis) => origin[axis] + x),
                    shape,
                  )
                ] = v;
            });
          }
          const writes = chosen.map(
            (w): SubchunkWrite => ({
              coords: all[w.sub],
              covers: w.covers,
              write: (chunk) => {
                expect(chunk.shape).toEqual([...sub]);
                cOrder(sub).forEach((_, k) => {
                  const v = newValue(w, k);
                  if (v !== undefined) (chunk.data as Int32Array)[k] = v;
                });
              },
            }),
          );
          const result = await pipeline.partialEncode(current, writes);
          if (result === undefined) {
            expect(expected.every((v) => v === FILL)).toBe(true);
            return;
          }
          expect(valuesOf(await pipeline.decode(result))).toEqual(expected);
          if (c.after === "gzip" || !current) return;
          // Inner chunks of the outer shard that no write touched keep their stored bytes.
          const level = c.levels[0];
          const perInner = sub.map((n, axis) => shape[axis] / level.counts[axis] / n);
          const touched = new Set(
            chosen.map((w) =>
              cIndex(
                all[w.sub].map((x, axis) => Math.floor(x / perInner[axis])),
                level.counts,
              ),
            ),
          );
          const before = handIndex(current, level);
          const after = handIndex(result, level);
          before.forEach((entry, i) => {
            if (touched.has(i)) return;
            const old = entry && current.subarray(entry.offset, entry.offset + entry.nbytes);
            const now =
              after[i] && result.subarray(after[i].offset, after[i].offset + after[i].nbytes);
            expect(now).toEqual(old);
          });
        },
      ),
      RUNS,
    );
  });
});
