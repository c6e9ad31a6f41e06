import {
  ContainsArrayError,
  ContainsGroupError,
  createArray,
  createHierarchy,
  empty,
  emptyLike,
  fromArray,
  full,
  fullLike,
  ones,
  onesLike,
  open,
  openArray,
  openGroup,
  type ZarrArray,
  ZarrGroup,
  zeros,
  zerosLike,
} from "@z/array";
import { UnknownCodecError } from "@z/codecs";
import { slice } from "@z/indexing";
import { MetadataError } from "@z/metadata";
import { BoolArray } from "@z/ndarray";
import {
  LoggingStore,
  MapStore,
  type Readable,
  ReadOnlyError,
  ReadOnlyStore,
  type SetOptions,
} from "@z/store-core";
import { describe, expect, it } from "vitest";
import { dataTypeOfContainer, optionsLike } from "../src/create/options-like.js";

const values = (chunk: { data: ArrayLike<unknown> }) => Array.from(chunk.data);
const chunkKeys = (map: Map<string, Uint8Array>) =>
  [...map.keys()].filter((k) => !/(zarr\.json|\.z\w+)$/.test(k));

describe("zeros, ones, full, empty", () => {
  it("set only the fill value: no chunk is written, every element reads as it", async () => {
    const map = new Map<string, Uint8Array>();
    const z = await zeros(map, { path: "z", shape: [3, 4], chunks: [2, 2] });
    const o = await ones(map, { path: "o", shape: [5], dtype: "int16" });
    // A hierarchy has one format: the v2 array goes to a store of its own.
    const v2map = new Map<string, Uint8Array>();
    const f = await full(v2map, {
      path: "f",
      shape: [2, 2],
      dtype: "float32",
      fillValue: Number.NaN,
      zarrFormat: 2,
    });
    const e = await empty(map, { path: "e", shape: [2], dtype: "uint8" });
    const b = await ones(map, { path: "b", shape: [2], dtype: "bool" });
    expect(chunkKeys(map)).toEqual([]);
    expect(chunkKeys(v2map)).toEqual([]);
    expect(z.dtype).toBe("float64");
    expect(values(await z.get())).toEqual(new Array(12).fill(0));
    expect(values(await o.get())).toEqual([1, 1, 1, 1, 1]);
    expect(values(await f.get()).every(Number.isNaN)).toBe(true);
    expect((await openArray(v2map, { path: "f" })).metadata.fillValueJson).toBe("NaN");
    expect(values(await e.get())).toEqual([0, 0]);
    expect((await b.get()).data).toBeInstanceOf(BoolArray);
    expect(values(await b.get())).toEqual([1, 1]);
  });
});

describe("the *Like helpers", () => {
  it("copy shape, data type, chunks, codecs, fill value and key encoding, not attributes or data", async () => {
    const map = new Map<string, Uint8Array>();
    const source = await createArray(map, {
      path: "src",
      shape: [10, 6],
      chunks: [4, 3],
      dtype: ">i4",
      compressors: [{ name: "gzip", configuration: { level: 2 } }],
      chunkKeyEncoding: { name: "default", separator: "." },
      dimensionNames: ["y", "x"],
      fillValue: 7,
      attributes: { units: "m" },
    });
    await source.set(null, 1);
    const like = await emptyLike(map, source, { path: "like" });
    expect(like.metadata.codecs).toEqual(source.metadata.codecs);
    expect(like.chunks).toEqual([4, 3]);
    expect(like.fillValue).toBe(7);
    expect(like.dimensionNames).toEqual(["y", "x"]);
    expect(like.metadata.chunkKeyEncoding.separator).toBe(".");
    expect(like.attrs).toEqual({});
    expect(values(await like.get([0, slice(0, 2)]))).toEqual([7, 7]);
    expect(values(await (await zerosLike(map, source, { path: "z" })).get([0, 0]))).toEqual([0]);
    expect(
      values(await (await onesLike(map, source, { path: "o", chunks: [5, 5] })).get([0, 0])),
    ).toEqual([1]);
    const v2map = new Map<string, Uint8Array>();
    const filled = await fullLike(v2map, source, { path: "f", fillValue: -3, zarrFormat: 2 });
    expect(filled.zarrFormat).toBe(2);
    expect(filled.metadata.v2?.dtype).toBe(">i4");
    expect(values(await filled.get([9, 5]))).toEqual([-3]);
  });

  it("work from an in-memory value and from a sharded array", async () => {
    const map = new Map<string, Uint8Array>();
    const fromValue = await zerosLike(
      map,
      { data: new Float32Array(6), shape: [2, 3] },
      { path: "v" },
    );
    expect(fromValue.dtype).toBe("float32");
    expect(fromValue.shape).toEqual([2, 3]);
    const sharded = await createArray(map, {
      path: "s",
      shape: [16],
      chunks: [2],
      shards: [8],
      dtype: "uint16",
    });
    const like = await onesLike(map, sharded, { path: "s2" });
    expect(like.chunks).toEqual([2]);
    expect(like.shards).toEqual([8]);
    const rechunked = await onesLike(map, sharded, { path: "s3", shards: [4] });
    expect(rechunked.shards).toEqual([4]);
    expect(rechunked.chunks).toEqual([2]);
  });

  it("optionsLike keeps the user's overrides", async () => {
    const source = await createArray(new Map(), { shape: [4], dtype: "int8", compressors: null });
    const options = optionsLike(source, { compressors: [{ name: "zstd" }], chunks: [2] });
    expect(options.codecs).toBeUndefined();
    expect(options.chunks).toEqual([2]);
    expect(options.compressors).toEqual([{ name: "zstd" }]);
  });
});

describe("fromArray", () => {
  it("writes in-memory data: n-d values, TypedArrays, nested arrays, with the data type they imply", async () => {
    const map = new Map<string, Uint8Array>();
    const nd = await fromArray(
      map,
      { data: Int16Array.of(1, 2, 3, 4, 5, 6), shape: [2, 3] },
      { path: "nd", chunks: [1, 2] },
    );
    expect(nd.dtype).toBe("int16");
    expect(values(await nd.get([1]))).toEqual([4, 5, 6]);
    const flat = await fromArray(map, Float32Array.of(0.5, 1.5), { path: "flat" });
    expect(flat.shape).toEqual([2]);
    expect(flat.dtype).toBe("float32");
    const nested = await fromArray(
      map,
      [
        [1.5, 2],
        [3, 4],
      ],
      { path: "nested" },
    );
    expect(nested.shape).toEqual([2, 2]);
    expect(nested.dtype).toBe("float64");
    expect(values(await nested.get())).toEqual([1.5, 2, 3, 4]);
    const flags = await fromArray(map, [true, false, true], { path: "flags" });
    expect(flags.dtype).toBe("bool");
    const cast = await fromArray(map, [1, 2, 3], { path: "cast", dtype: "uint8" });
    expect(cast.dtype).toBe("uint8");
    expect(dataTypeOfContainer([1n, 2n])).toBe("int64");
  });

  it("copies a Zarr array's stored chunks as bytes when the layout stays the same", async () => {
    const map = new Map<string, Uint8Array>();
    const source = await createArray(map, {
      path: "src",
      shape: [9, 7],
      chunks: [4, 3],
      dtype: "float64",
      fillValue: -1,
      attributes: { a: 1 },
      compressors: [{ name: "zstd", configuration: { level: 1, checksum: false } }],
    });
    await source.set([slice(0, 5), slice(2, 7)], 2.5);
    const store = new LoggingStore(new MapStore(map));
    const copy = await fromArray(store, await openArray(map, { path: "src" }), { path: "copy" });
    expect(copy.attrs).toEqual({ a: 1 });
    const stored = [...map.keys()].filter((k) => k.startsWith("src/c/"));
    expect(stored.length).toBeGreaterThan(0);
    for (const key of stored) expect(map.get(key.replace("src/", "copy/"))).toEqual(map.get(key));
    expect([...map.keys()].filter((k) => k.startsWith("copy/c/")).length).toBe(stored.length);
    expect(values(await copy.get())).toEqual(values(await source.get()));
  });

  it("re-encodes chunk by chunk when the layout changes (chunks, codecs, format, sharding)", async () => {
    const map = new Map<string, Uint8Array>();
    const source = await createArray(map, {
      path: "src",
      shape: [11, 5],
      chunks: [3, 2],
      dtype: "int32",
      fillValue: 0,
    });
    await source.set(null, {
      data: Int32Array.from({ length: 55 }, (_, i) => i * 3 - 20),
      shape: [11, 5],
    });
    const expected = values(await source.get());
    const targets = [
      {
        path: "rechunked",
        chunks: [4, 5],
        compressors: [{ name: "gzip", configuration: { level: 1 } }],
      },
      { path: "v2", zarrFormat: 2 as const },
      { path: "sharded", chunks: [2, 2], shards: [4, 4] },
    ];
    // A hierarchy has one format: the v2 copy goes to a store of its own.
    const v2map = new Map<string, Uint8Array>();
    const storeOf = (target: { zarrFormat?: 2 }) => (target.zarrFormat === 2 ? v2map : map);
    let progress = 0;
    for (const target of targets) {
      const copy = await fromArray(storeOf(target), source, {
        ...target,
        concurrency: 2,
        onProgress: () => progress++,
      });
      expect(values(await copy.get())).toEqual(expected);
      expect(
        values(
          await (await openArray(storeOf(target), { path: target.path })).get([
            slice(null, null, -1),
            1,
          ]),
        ),
      ).toEqual(values(await source.get([slice(null, null, -1), 1])));
    }
    expect(progress).toBeGreaterThan(0);
    await expect(fromArray(map, source, { path: "bad", shape: [3, 3] })).rejects.toThrow(
      /cannot change the shape/,
    );
  });
});

/** A store that counts how many writes are in flight at once. */
class CountingStore extends MapStore {
  inFlight = 0;
  maxInFlight = 0;
  private async counted<T>(write: () => Promise<T>): Promise<T> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    try {
      return await write();
    } finally {
      this.inFlight--;
    }
  }
  override set(key: string, value: Uint8Array, options?: SetOptions): Promise<void> {
    return this.counted(() => super.set(key, value, options));
  }
  // New nodes' documents are written with setIfNotExists (atomic create).
  override setIfNotExists(key: string, value: Uint8Array, options?: SetOptions): Promise<boolean> {
    return this.counted(() => super.setIfNotExists(key, value, options));
  }
}

describe("createHierarchy", () => {
  it("writes every node and the missing parents, concurrently but bounded", async () => {
    const store = new CountingStore(new Map());
    const specs = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        `group${i % 4}/array${i}`,
        { kind: "array" as const, shape: [i + 1], dtype: "uint8" },
      ]),
    );
    const nodes = await createHierarchy(
      store,
      { "": { kind: "group", attributes: { n: 40 } }, ...specs },
      { concurrency: 5 },
    );
    expect(nodes.size).toBe(45);
    expect(nodes.get("group3")).toBeInstanceOf(ZarrGroup);
    expect(store.maxInFlight).toBe(5);
    const root = await openGroup(store);
    expect(root.attrs).toEqual({ n: 40 });
    expect(await root.childNames()).toEqual(["group0", "group1", "group2", "group3"]);
    expect(((await root.get("group2/array38")) as ZarrArray).shape).toEqual([39]);
  });

  it("validates every node before writing anything", async () => {
    const map = new Map<string, Uint8Array>();
    const bad = [
      [
        {
          a: { kind: "array", shape: [2], dtype: "uint8" },
          b: { kind: "array", shape: [2], dtype: "nope" },
        },
        /nope/,
      ],
      [
        { a: { kind: "array", shape: [2], dtype: "uint8", compressors: [{ name: "unheard-of" }] } },
        UnknownCodecError,
      ],
      [
        { a: { kind: "array", shape: [2], dtype: "uint8" }, "a/b": { kind: "group" } },
        ContainsArrayError,
      ],
      [{ "__reserved/x": { kind: "group" } }, /reserved/],
      [
        { a: { kind: "group", zarrFormat: 2 }, "a/b": { kind: "group", zarrFormat: 3 } },
        /v3 node \/a\/b under the v2 group \/a/,
      ],
      [{ a: { kind: "table" } }, /"kind" must be "array" or "group", got "table"/],
    ] as const;
    for (const [specs, error] of bad) {
      await expect(createHierarchy(map, specs as never)).rejects.toThrow(error as never);
      expect(map.size).toBe(0);
    }
  });

  it("refuses existing nodes (nothing written) unless overwrite, and arrays on the way always", async () => {
    const map = new Map<string, Uint8Array>();
    await createHierarchy(map, {
      a: { kind: "group" },
      "a/x": { kind: "array", shape: [2], dtype: "uint8" },
    });
    await (await openArray(map, { path: "a/x" })).set(null, 9);
    const before = new Map(map);
    await expect(
      createHierarchy(map, { "a/x": { kind: "group" }, "a/y": { kind: "group" } }),
    ).rejects.toThrow(ContainsArrayError);
    await expect(createHierarchy(map, { a: { kind: "group" } })).rejects.toThrow(
      ContainsGroupError,
    );
    await expect(
      createHierarchy(map, { "a/x/deeper": { kind: "group" } }, { overwrite: true }),
    ).rejects.toThrow(/cannot create \/a\/x\/deeper inside an array/);
    expect(map).toEqual(before);
    const nodes = await createHierarchy(
      map,
      {
        a: { kind: "group", attributes: { v: 2 } },
        "a/x/y": { kind: "array", shape: [1], dtype: "int8" },
      },
      { overwrite: true },
    );
    expect([...nodes.keys()].sort()).toEqual(["a", "a/x", "a/x/y"]);
    expect(map.has("a/x/c/0")).toBe(false);
    expect(await open(map, { path: "a/x" })).toBeInstanceOf(ZarrGroup);
  });

  it("fails on a store that cannot be written before reading anything, and on a read-only one", async () => {
    const getOnly: Readable = { get: async () => undefined };
    const store = new LoggingStore(getOnly);
    await expect(createHierarchy(store, { a: { kind: "group" } })).rejects.toThrow(ReadOnlyError);
    expect(store.requests).toHaveLength(0);
    const map = new Map<string, Uint8Array>();
    await expect(
      createHierarchy(new ReadOnlyStore(new MapStore(map)), { a: { kind: "group" } }),
    ).rejects.toThrow(ReadOnlyError);
    expect(map.size).toBe(0);
  });

  it("accepts a Map of specs and a default format", async () => {
    const map = new Map<string, Uint8Array>();
    await createHierarchy(map, new Map([["x", { kind: "array", shape: [3], dtype: "float32" }]]), {
      zarrFormat: 2,
    });
    expect(map.has(".zgroup")).toBe(true);
    expect(map.has("x/.zarray")).toBe(true);
    expect((await openArray(map, { path: "x" })).zarrFormat).toBe(2);
  });

  it("keeps createArray's errors for a bad spec", async () => {
    await expect(
      createArray(new Map(), { shape: [2], dtype: "int8", zarrFormat: 2, dimensionNames: ["x"] }),
    ).rejects.toThrow(MetadataError);
  });
});
