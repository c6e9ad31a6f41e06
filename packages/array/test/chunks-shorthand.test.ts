import { createArray, createGroup, openArray } from "@z/array";
import { slice } from "@z/indexing";
import { MetadataError } from "@z/metadata";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { MemoryStore } from "@z/store-memory";
import { havePython, runPython, startTestHttpServer } from "@z/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { memoryAndFsStores } from "./store-kinds.js";

/*
 * zarr-python's shorthands of the chunks option: one number for every axis, -1 for a whole
 * axis, "auto" for the default guess.
 */

const { stores, dir: sandboxDir } = memoryAndFsStores("z-chunks-shorthand-");

for (const [storeName, makeStore] of stores) {
  for (const zarrFormat of [2, 3] as const) {
    describe(`${storeName}, v${zarrFormat}`, () => {
      it("chunks: 5 is 5 along every axis, as written and read back", async () => {
        const store = makeStore();
        const arr = await createArray(store, {
          shape: [12, 7, 3],
          chunks: 5,
          dtype: "int16",
          zarrFormat,
        });
        expect(arr.chunks).toEqual([5, 5, 5]);
        const back = await openArray(store);
        expect(back.chunks).toEqual([5, 5, 5]);
        expect(back.nchunks).toBe(3 * 2 * 1);
        await arr.set([slice(4, 6), null, 2], 9);
        const { data } = await back.get([slice(3, 7), 0, 2]);
        expect(Array.from(data as Int16Array)).toEqual([0, 9, 9, 0]);
      });

      it("-1 is a whole axis, alone or in a list", async () => {
        const whole = await createArray(makeStore(), {
          shape: [6, 4],
          chunks: -1,
          dtype: "uint8",
          zarrFormat,
        });
        expect(whole.chunks).toEqual([6, 4]);
        const mixed = await createArray(makeStore(), {
          shape: [6, 4],
          chunks: [-1, 3],
          dtype: "uint8",
          zarrFormat,
        });
        expect(mixed.chunks).toEqual([6, 3]);
        // An empty axis still has chunks of at least one element.
        const empty = await createArray(makeStore(), {
          shape: [0, 4],
          chunks: -1,
          dtype: "uint8",
          zarrFormat,
        });
        expect(empty.chunks).toEqual([1, 4]);
      });

      it('"auto" is the default guess', async () => {
        const shape = [3000, 700];
        const auto = await createArray(makeStore(), {
          shape,
          chunks: "auto",
          dtype: "float64",
          zarrFormat,
        });
        const guessed = await createArray(makeStore(), { shape, dtype: "float64", zarrFormat });
        expect(auto.chunks).toEqual(guessed.chunks);
        expect(auto.chunks).not.toEqual(shape);
      });

      it("groups take the shorthand too", async () => {
        const root = await createGroup(makeStore(), { zarrFormat });
        const arr = await root.createArray("x", { shape: [9, 9], chunks: 4, dtype: "int8" });
        expect(arr.chunks).toEqual([4, 4]);
      });
    });
  }

  it(`${storeName}: shards with chunks given as one number`, async () => {
    const store = makeStore();
    const arr = await createArray(store, {
      shape: [8, 8],
      chunks: 2,
      shards: [4, 4],
      dtype: "uint8",
    });
    expect(arr.chunks).toEqual([2, 2]);
    expect(arr.shards).toEqual([4, 4]);
    expect((await openArray(store)).chunks).toEqual([2, 2]);
  });
}

describe("bad shorthands are MetadataErrors naming the option", () => {
  for (const chunks of [0, -2, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
    it(`chunks: ${chunks}`, async () => {
      const error = await createArray(new MemoryStore(), {
        shape: [4],
        chunks,
        dtype: "int8",
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MetadataError);
      expect((error as Error).message).toMatch(/chunks option/);
    });
  }
  it("a list with a bad entry is still refused", async () => {
    await expect(
      createArray(new MemoryStore(), { shape: [4, 4], chunks: [-1, -2], dtype: "int8" }),
    ).rejects.toThrow(MetadataError);
  });
  it('"auto" only as the whole option', async () => {
    await expect(
      // @ts-expect-error: "auto" is not an axis length
      createArray(new MemoryStore(), { shape: [4, 4], chunks: ["auto", 2], dtype: "int8" }),
    ).rejects.toThrow(MetadataError);
  });
});

describe("the shorthand against the full list", () => {
  it("chunks: c writes the same metadata as one c per axis; -1 as the extents", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 4 }),
        fc.integer({ min: 1, max: 20 }),
        fc.constantFrom(2 as const, 3 as const),
        async (shape, c, zarrFormat) => {
          const doc = async (chunks: number | number[]) => {
            const store = new MemoryStore();
            await createArray(store, { shape, chunks, dtype: "int32", zarrFormat });
            const key = zarrFormat === 3 ? "zarr.json" : ".zarray";
            return new TextDecoder().decode(await store.get(key));
          };
          expect(await doc(c)).toBe(await doc(shape.map(() => c)));
          expect(await doc(-1)).toBe(await doc(shape.map((n) => Math.max(1, n))));
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("zarr-python 2 reads what the shorthand wrote", () => {
  it.runIf(havePython("chunks-shorthand"))("same chunks", async () => {
    const dir = `${sandboxDir()}/py`;
    await createArray(new FsStore(dir), {
      shape: [10, 20],
      chunks: 6,
      dtype: "<f4",
      zarrFormat: 2,
    });
    const out = runPython(`import zarr; print(zarr.open(${JSON.stringify(dir)}, mode="r").chunks)`);
    expect(out.trim()).toBe("(6, 6)");
  });
});

describe("HttpStore (reads)", () => {
  it("an array written with chunks: 3 reads back with 3 along every axis", async () => {
    const root = `${sandboxDir()}/served`;
    const arr = await createArray(new FsStore(root), { shape: [7, 5], chunks: 3, dtype: "int32" });
    await arr.set(null, 4);
    const server = await startTestHttpServer({ root });
    try {
      const back = await openArray(new HttpStore(server.url));
      expect(back.chunks).toEqual([3, 3]);
      expect(back.cdataShape).toEqual([3, 2]);
      const { data } = await back.get([6, slice(3, 5)]);
      expect(Array.from(data as Int32Array)).toEqual([4, 4]);
    } finally {
      await server.stop();
    }
  });
});
