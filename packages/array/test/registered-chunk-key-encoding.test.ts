import path from "node:path";
import { createArray, openArray, zerosLike } from "@z/array";
import {
  type ChunkKeyEncoding,
  type JsonObject,
  MetadataError,
  registerChunkKeyEncoding,
  UnsupportedExtensionError,
} from "@z/metadata";
import type { Listable, Readable, Writable } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { MemoryStore } from "@z/store-memory";
import { scratchFolders, startTestHttpServer } from "@z/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/*
 * A chunk key encoding registered at runtime is usable everywhere the built-in ones are: creating
 * an array with it, writing, reading back (also over HTTP), resizing (which finds chunks by
 * decoding keys) and creating arrays like it.
 */

/** `k<prefix>1-2`: coordinates joined by dashes after a configured prefix. */
class DashedKeys implements ChunkKeyEncoding {
  readonly name = "test.dashed";
  readonly separator = "." as const;
  constructor(private readonly prefix: string) {}
  encode(coords: readonly number[]): string {
    return `k${this.prefix}${coords.join("-")}`;
  }
  decode(key: string, ndim: number): number[] | undefined {
    const head = `k${this.prefix}`;
    if (!key.startsWith(head)) return undefined;
    const parts = key.slice(head.length).split("-");
    if (ndim === 0) return key === head ? [] : undefined;
    if (parts.length !== ndim || parts.some((p) => !/^\d+$/.test(p))) return undefined;
    return parts.map(Number);
  }
  toJson(): JsonObject {
    return { name: this.name, configuration: { prefix: this.prefix } };
  }
}

registerChunkKeyEncoding("test.dashed", (config) => {
  const prefix = config.configuration.prefix ?? "";
  if (typeof prefix !== "string" || !/^[a-z]*$/.test(prefix))
    throw new MetadataError(`test.dashed: prefix must be lower-case letters, got ${prefix}`);
  return new DashedKeys(prefix);
});

const scratch = scratchFolders("z-key-encoding-");

async function keysOf(store: Listable): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list()) keys.push(key);
  return keys.sort();
}

async function roundTrip(store: Readable & Writable & Listable): Promise<void> {
  const array = await createArray(store, {
    path: "a",
    shape: [4, 5],
    chunks: [2, 3],
    dtype: "int32",
    compressors: null,
    chunkKeyEncoding: { name: "test.dashed", configuration: { prefix: "x" } },
  });
  const values = Int32Array.from({ length: 20 }, (_, i) => i * 3 - 7);
  await array.set(null, values);
  expect(await keysOf(store)).toEqual([
    "a/kx0-0",
    "a/kx0-1",
    "a/kx1-0",
    "a/kx1-1",
    "a/zarr.json",
    "zarr.json",
  ]);
  const reopened = await openArray(store, { path: "a" });
  expect(reopened.metadata.chunkKeyEncoding.toJson()).toEqual({
    name: "test.dashed",
    configuration: { prefix: "x" },
  });
  expect(Array.from((await reopened.get()).data as Int32Array)).toEqual(Array.from(values));
  // Shrinking removes the chunks past the new edge, found by decoding the listed keys.
  await reopened.resize([2, 3]);
  expect(await keysOf(store)).toEqual(["a/kx0-0", "a/zarr.json", "zarr.json"]);
  const like = await zerosLike(store, reopened, { path: "b" });
  expect(like.metadata.chunkKeyEncoding.toJson()).toEqual(
    reopened.metadata.chunkKeyEncoding.toJson(),
  );
}

describe("a registered chunk key encoding in createArray", () => {
  it("MemoryStore: creates, writes, reads back and lists the keys it made", async () => {
    await roundTrip(new MemoryStore());
  });

  it("FsStore: the same, and HttpStore reads it", async () => {
    const dir = scratch();
    await roundTrip(new FsStore(path.join(dir, "data.zarr")));
    const server = await startTestHttpServer({ root: dir });
    try {
      const overHttp = await openArray(new HttpStore(`${server.url}data.zarr`), { path: "a" });
      expect(Array.from((await overHttp.get()).data as Int32Array)).toEqual([
        -7, -4, -1, 8, 11, 14,
      ]);
      expect(server.requests.map((r) => r.path)).toContain("data.zarr/a/kx0-0");
    } finally {
      await server.stop();
    }
  });

  it("the built-in encodings take the configuration form too", async () => {
    const store = new MemoryStore();
    const array = await createArray(store, {
      shape: [2, 2],
      chunks: [1, 1],
      dtype: "uint8",
      chunkKeyEncoding: { name: "v2", configuration: { separator: "/" } },
    });
    await array.set([1, 1], 9);
    expect(await keysOf(store)).toEqual(["1/1", "zarr.json"]);
  });

  it("refuses unknown names, bad configurations and mixed forms with typed errors", async () => {
    const base = { shape: [2], dtype: "uint8" } as const;
    const store = new MemoryStore();
    await expect(
      createArray(store, { ...base, chunkKeyEncoding: { name: "nope", configuration: {} } }),
    ).rejects.toThrow(UnsupportedExtensionError);
    await expect(
      createArray(store, { ...base, chunkKeyEncoding: { name: "nope" } as never }),
    ).rejects.toThrow(/chunkKeyEncoding\.name option "nope".*known: default, v2, test\.dashed/);
    await expect(
      createArray(store, {
        ...base,
        chunkKeyEncoding: { name: "test.dashed", configuration: { prefix: "UP" } },
      }),
    ).rejects.toThrow(/prefix must be lower-case/);
    await expect(
      createArray(store, {
        ...base,
        chunkKeyEncoding: { name: "v2", separator: "/", configuration: {} } as never,
      }),
    ).rejects.toThrow(/separator or a configuration, not both/);
    await expect(
      createArray(store, {
        ...base,
        chunkKeyEncoding: { name: "test.dashed", configuration: 3 } as never,
      }),
    ).rejects.toThrow(MetadataError);
    expect(await keysOf(store)).toEqual([]);
  });
});

describe("a registered chunk key encoding against a model (property)", () => {
  it("the keys stored are those of the chunks written, and every element reads back", async () => {
    const layout = fc
      .integer({ min: 1, max: 3 })
      .chain((ndim) =>
        fc.record({
          shape: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: ndim, maxLength: ndim }),
          chunks: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: ndim, maxLength: ndim }),
          prefix: fc.stringMatching(/^[a-z]{0,3}$/),
        }),
      )
      .chain((l) =>
        fc.record({
          layout: fc.constant(l),
          points: fc.array(fc.tuple(...l.shape.map((n) => fc.integer({ min: 0, max: n - 1 }))), {
            maxLength: 6,
          }),
        }),
      );
    await fc.assert(
      fc.asyncProperty(layout, async ({ layout: { shape, chunks, prefix }, points }) => {
        const store = new MemoryStore();
        const array = await createArray(store, {
          shape,
          chunks,
          dtype: "int16",
          fillValue: -1,
          compressors: null,
          chunkKeyEncoding: { name: "test.dashed", configuration: { prefix } },
        });
        const size = shape.reduce((a, b) => a * b, 1);
        const model = new Int16Array(size).fill(-1);
        const strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
        const keys = new Set<string>(["zarr.json"]);
        for (const [n, point] of points.entries()) {
          await array.set(point, n);
          model[point.reduce((at, c, i) => at + c * strides[i], 0)] = n;
          keys.add(`k${prefix}${point.map((c, i) => Math.floor(c / chunks[i])).join("-")}`);
        }
        // Written values are never the fill value, so every chunk written stays stored.
        expect(new Set(await keysOf(store))).toEqual(keys);
        const reopened = await openArray(store);
        expect(Array.from((await reopened.get()).data as Int16Array)).toEqual(Array.from(model));
      }),
      { numRuns: 60 },
    );
  });
});
