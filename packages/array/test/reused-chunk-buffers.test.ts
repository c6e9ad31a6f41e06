import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { createArray, openArray } from "@z/array";
import { type Slice, slice } from "@z/indexing";
import { FsStore } from "@z/store-fs";
import { tempDir } from "@z/test-utils";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

/*
 * Chunks on a store with `getInto` (FsStore) are read into a few reused buffers instead of a
 * new buffer per chunk. The reference is the same array in a Map store, which
 * reads every chunk the usual way.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);

let sandbox: { dir: string; remove: () => void };
beforeEach(() => {
  sandbox = tempDir("z-array-reused-buffers-");
});
afterEach(() => sandbox.remove());

const DTYPES = ["int32", "float64", "uint8", "int16"] as const;

interface Case {
  shape: number[];
  chunks: number[];
  dtype: (typeof DTYPES)[number];
  zarrFormat: 2 | 3;
  bigEndian: boolean;
  fillValue: number;
  /** Which chunks of a regular pattern get written (the rest stay missing: fill value). */
  written: boolean[];
  selection: [number, number, number][];
  concurrency: number;
  /** Stored as they are, or compressed (gzip expands small chunks: larger than the buffers). */
  codec: "none" | "gzip" | "blosc or crc32c";
}

const caseArb: fc.Arbitrary<Case> = fc.integer({ min: 1, max: 3 }).chain((ndim) => {
  const dims = <T>(arb: fc.Arbitrary<T>) => fc.array(arb, { minLength: ndim, maxLength: ndim });
  return fc
    .record({
      shape: dims(fc.integer({ min: 1, max: 9 })),
      chunks: dims(fc.integer({ min: 1, max: 4 })),
      dtype: fc.constantFrom(...DTYPES),
      zarrFormat: fc.constantFrom(2 as const, 3 as const),
      bigEndian: fc.boolean(),
      fillValue: fc.integer({ min: -3, max: 3 }),
      written: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
      selection: dims(
        fc.tuple(fc.nat({ max: 9 }), fc.nat({ max: 9 }), fc.integer({ min: 1, max: 3 })),
      ),
      concurrency: fc.integer({ min: 1, max: 4 }),
      codec: fc.constantFrom("none" as const, "gzip" as const, "blosc or crc32c" as const),
    })
    .map((c) => ({ ...c, fillValue: c.dtype === "uint8" ? Math.abs(c.fillValue) : c.fillValue }));
});

/** The creation options of a case (v2: a compressor or none; v3: `bytes` and maybe one more). */
function options(c: Case) {
  const endian = c.bigEndian ? "big" : "little";
  const compressor = {
    none: null,
    gzip: { id: "gzip", level: 1 },
    "blosc or crc32c": { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
  }[c.codec];
  const v2 = { zarrFormat: 2 as const, compressor, filters: null };
  const more = { none: [], gzip: [{ name: "gzip" }], "blosc or crc32c": [{ name: "crc32c" }] };
  const v3 = { codecs: [{ name: "bytes", configuration: { endian } }, ...more[c.codec]] };
  return {
    shape: c.shape,
    chunks: c.chunks,
    dtype:
      c.zarrFormat === 2 && c.dtype !== "uint8"
        ? `${c.bigEndian ? ">" : "<"}${c.dtype === "int32" ? "i4" : c.dtype === "int16" ? "i2" : "f8"}`
        : c.dtype,
    fillValue: c.fillValue,
    ...(c.zarrFormat === 2 ? v2 : v3),
  } as never;
}

/** Writes every chunk whose flat index hits a `written` flag with distinct values. */
async function fill(arr: Awaited<ReturnType<typeof createArray>>, c: Case): Promise<void> {
  const grid = c.shape.map((n, i) => Math.ceil(n / c.chunks[i]));
  const total = grid.reduce((a, b) => a * b, 1);
  for (let k = 0; k < total; k++) {
    if (!c.written[k % c.written.length]) continue;
    let rest = k;
    const region: Slice[] = [];
    const size: number[] = [];
    for (let axis = grid.length - 1; axis >= 0; axis--) {
      const at = rest % grid[axis];
      rest = Math.floor(rest / grid[axis]);
      const start = at * c.chunks[axis];
      const stop = Math.min(start + c.chunks[axis], c.shape[axis]);
      region.unshift(slice(start, stop));
      size.unshift(stop - start);
    }
    const n = size.reduce((a, b) => a * b, 1);
    const data = Array.from({ length: n }, (_, i) => ((k * 31 + i * 7) % 100) - 20);
    await arr.set(region, c.dtype === "uint8" ? data.map((v) => v & 0xff) : data);
  }
}

/** An FsStore that counts reads into a caller's buffer. */
class CountingFsStore extends FsStore {
  intoCalls = 0;
  override getInto(key: string, target: Uint8Array, options?: { signal?: AbortSignal }) {
    this.intoCalls++;
    return super.getInto(key, target, options);
  }
}

describe("chunk reads through reused buffers", () => {
  it("equal the reads of the same array in a Map store", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const dir = path.join(sandbox.dir, `a${Math.random().toString(36).slice(2)}`);
        const fs = await createArray(new FsStore(dir, { fsync: false }), options(c));
        const map = await createArray(new Map(), options(c));
        await fill(fs, c);
        await fill(map, c);
        const selection = c.selection.map(([a, b, step]) => slice(a, b, step));
        const readOptions = { concurrency: c.concurrency };
        const expected = await map.get(selection, readOptions);
        const actual = await fs.get(selection, readOptions);
        expect(actual.shape).toEqual(expected.shape);
        expect(Array.from(actual.data as ArrayLike<number>)).toEqual(
          Array.from(expected.data as ArrayLike<number>),
        );
        // The whole array: every chunk, more of them than buffers.
        const whole = await fs.get(null, { concurrency: c.concurrency });
        expect(Array.from(whole.data as ArrayLike<number>)).toEqual(
          Array.from((await map.get()).data as ArrayLike<number>),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it("a chunk file of the wrong size is a DecodeError naming its key", async () => {
    const store = new CountingFsStore(sandbox.dir, { fsync: false });
    const arr = await createArray(store, {
      shape: [4, 4],
      chunks: [2, 2],
      dtype: "int32",
      codecs: [{ name: "bytes" }],
    });
    await arr.set(null, 1);
    expect(Array.from((await arr.get()).data as Int32Array)).toEqual(new Array(16).fill(1));
    expect(store.intoCalls).toBe(4); // the reused-buffer path ran
    for (const size of [3, 17, 100]) {
      writeFileSync(path.join(sandbox.dir, "c", "1", "0"), new Uint8Array(size));
      const error = await arr.get().then(
        () => expect.fail("expected a DecodeError"),
        (e: unknown) => e as Error & { key?: string },
      );
      expect(error).toMatchObject({ name: "DecodeError", key: "c/1/0" });
      expect(error.message).toContain(`${size} bytes`);
    }
  });

  it("v2 chunks under nested keys without dimension_separator are found", async () => {
    const store = new FsStore(sandbox.dir, { fsync: false });
    await store.set(
      ".zarray",
      new TextEncoder().encode(
        JSON.stringify({
          zarr_format: 2,
          shape: [2, 4],
          chunks: [1, 2],
          dtype: "<i2",
          compressor: null,
          filters: null,
          fill_value: 9,
          order: "C",
        }),
      ),
    );
    await store.set("1/1", new Uint8Array(Int16Array.from([5, 6]).buffer));
    const arr = await openArray(store);
    expect(Array.from((await arr.get()).data as Int16Array)).toEqual([9, 9, 9, 9, 9, 9, 5, 6]);
  });
});
