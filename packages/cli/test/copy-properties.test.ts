import {
  copyArrayElements,
  createArray,
  LoggingStore,
  MemoryStore,
  openArray,
  slice,
} from "@z/zarr";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planArray } from "../src/copy/plan.js";

/**
 * Property: for any shape, any source chunking (sharded or not, either format) and any copy
 * options (format, compressor, chunks), the planned copy reads back exactly the source's
 * elements, and every destination chunk or shard is written at most once and never read.
 * The reference model is a flat array of the values written.
 */
const dims = fc.integer({ min: 1, max: 3 });
const setup = dims.chain((n) =>
  fc.record({
    shape: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: n, maxLength: n }),
    inner: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: n, maxLength: n }),
    perShard: fc.option(fc.array(fc.integer({ min: 1, max: 3 }), { minLength: n, maxLength: n })),
    sourceFormat: fc.constantFrom(2 as const, 3 as const),
    format: fc.option(fc.constantFrom(2 as const, 3 as const)),
    compressor: fc.option(fc.constantFrom("none" as const, "gzip" as const, "zstd" as const)),
    chunks: fc.option(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: n, maxLength: n })),
    /** Which elements keep the fill value (so some chunks are never written). */
    holes: fc.integer({ min: 2, max: 7 }),
  }),
);

describe("zarr copy plans (property)", () => {
  it("copy what the source holds, one write per destination chunk or shard", async () => {
    await fc.assert(
      fc.asyncProperty(setup, async (s) => {
        const sharded = s.sourceFormat === 3 && s.perShard !== null;
        const store = new MemoryStore();
        const source = await createArray(store, {
          path: "src",
          shape: s.shape,
          dtype: "int32",
          fillValue: -5,
          zarrFormat: s.sourceFormat,
          chunks: s.inner,
          ...(sharded ? { shards: s.inner.map((n, i) => n * (s.perShard as number[])[i]) } : {}),
        });
        const size = s.shape.reduce((a, b) => a * b, 1);
        const model = Int32Array.from({ length: size }, (_, k) =>
          Math.floor(k / 3) % s.holes === 0 ? -5 : k * 7 - 20,
        );
        await source.set(null, { data: model, shape: s.shape });
        const options = await planArray(source, {
          format: s.format ?? undefined,
          compressor: s.compressor ?? undefined,
          chunks: s.chunks ?? undefined,
        });
        const log = new LoggingStore(new MemoryStore());
        await createArray(log as never, { ...options, path: "dst" });
        const target = await openArray(log as never, { path: "dst" });
        log.clear();
        await copyArrayElements(source, target, { concurrency: 4 });
        const sets = log.requests.filter((r) => r.method === "set").map((r) => r.key);
        expect(new Set(sets).size).toBe(sets.length);
        expect(log.requests.filter((r) => r.method === "get" || r.method === "getRanges")).toEqual(
          [],
        );
        const got = await target.get(s.shape.map((n) => slice(0, n)));
        expect(Array.from(got.data as Int32Array)).toEqual(Array.from(model));
        if (s.chunks) expect(target.chunks).toEqual(s.chunks);
        if (sharded && (s.format ?? 3) === 3 && target.shards && s.chunks)
          expect(target.shards.every((n, i) => n % (s.chunks as number[])[i] === 0)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
