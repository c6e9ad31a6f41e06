import { createArray, openArray, ZarrArray } from "@z/array";
import { ChecksumError, DecodeError, type ShardingCodec } from "@z/codecs";
import { slice } from "@z/indexing";
import { LoggingStore, MapStore } from "@z/store-core";
import { describe, expect, it } from "vitest";
import * as zarrita from "zarrita";

function values(n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => (i * 7919) % 10007);
}

async function sharded(
  options: {
    shape?: number[];
    shards?: number[];
    chunks?: number[];
    location?: "start" | "end";
    compressors?: never;
  } = {},
) {
  const map = new MapStore();
  const store = new LoggingStore(map);
  const shape = options.shape ?? [10, 12];
  const arr = await createArray(store, {
    shape,
    shards: options.shards ?? [4, 6],
    chunks: options.chunks ?? [2, 3],
    dtype: "int32",
    shardIndexLocation: options.location,
    compressors:
      "compressors" in options
        ? options.compressors
        : [{ name: "gzip", configuration: { level: 1 } }],
  });
  return { map, store, arr, shape };
}

describe("sharding: round trips", () => {
  for (const location of ["start", "end"] as const) {
    it(`index at the ${location}: writes, reads back, ragged edges`, async () => {
      const { arr, shape, map } = await sharded({ location });
      const data = values(120);
      await arr.set(null, { data, shape });
      expect(Array.from((await arr.get()).data)).toEqual(Array.from(data));
      expect(arr.shards).toEqual([4, 6]);
      expect(arr.chunks).toEqual([2, 3]);
      // 10x12 in 4x6 shards: a 3x2 grid of shards.
      expect([...map.map.keys()].filter((k) => k.startsWith("c/")).sort()).toEqual([
        "c/0/0",
        "c/0/1",
        "c/1/0",
        "c/1/1",
        "c/2/0",
        "c/2/1",
      ]);
      const sel = await arr.get([slice(9, 2, -3), slice(1, 11, 4)]);
      expect(Array.from(sel.data)).toEqual(
        [9, 6, 3].flatMap((i) => [1, 5, 9].map((j) => data[i * 12 + j])),
      );
      const reopened = await openArray(map);
      expect(
        Array.from(
          (
            await reopened.getOrthogonal([
              [0, 9, 4],
              [11, 0],
            ])
          ).data,
        ),
      ).toEqual([
        data[11],
        data[0],
        data[9 * 12 + 11],
        data[9 * 12],
        data[4 * 12 + 11],
        data[4 * 12],
      ]);
    });
  }

  it("nested sharding round-trips", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [16, 16],
      chunks: [8, 8],
      dtype: "uint16",
      codecs: [
        {
          name: "sharding_indexed",
          configuration: {
            chunk_shape: [4, 4],
            codecs: [
              {
                name: "sharding_indexed",
                configuration: {
                  chunk_shape: [2, 2],
                  codecs: [{ name: "bytes", configuration: { endian: "little" } }],
                },
              },
            ],
          },
        },
      ],
    });
    const data = Uint16Array.from({ length: 256 }, (_, i) => i * 3);
    await arr.set(null, { data, shape: [16, 16] });
    expect(Array.from((await arr.get()).data)).toEqual(Array.from(data));
    expect(Array.from((await arr.get([5, slice(3, 7)])).data)).toEqual(
      [83, 84, 85, 86].map((i) => i * 3),
    );
  });

  it("zarrita reads our sharded arrays (index at the end)", async () => {
    const { arr, map, shape } = await sharded();
    const data = values(120);
    await arr.set(null, { data, shape });
    const location = zarrita.root({
      get: async (key: string) => map.map.get(key.slice(1)),
      getRange: async (
        key: string,
        range: { offset: number; length: number } | { suffixLength: number },
      ) => {
        const value = map.map.get(key.slice(1));
        if (!value) return undefined;
        return "suffixLength" in range
          ? value.subarray(value.length - range.suffixLength)
          : value.subarray(range.offset, range.offset + range.length);
      },
    });
    const theirs = await zarrita.open.v3(location, { kind: "array" });
    const got = await zarrita.get(theirs);
    expect(Array.from(got.data as Int32Array)).toEqual(Array.from(data));
  });
});

describe("sharding: what a write touches", () => {
  it("writes only the shards in the region and re-encodes only the inner chunks it changes", async () => {
    const { arr, map, store, shape } = await sharded();
    await arr.set(null, { data: values(120), shape });
    const before = new Map(map.map);
    store.clear();
    await arr.set([slice(0, 2), slice(0, 3)], 42);
    const written = store.requests.filter((r) => r.method === "set").map((r) => r.key);
    expect(written).toEqual(["c/0/0"]);
    for (const [key, value] of before) if (key !== "c/0/0") expect(map.map.get(key)).toBe(value);
    // The untouched inner chunks keep their stored bytes (copied, not re-encoded).
    const codec = arr.access.runner.pipeline.arrayToBytes.codec as ShardingCodec;
    const oldIndex = await codec.decodeIndex(before.get("c/0/0")!.subarray(-codec.indexSize));
    const newShard = map.map.get("c/0/0")!;
    const newIndex = await codec.decodeIndex(newShard.subarray(-codec.indexSize));
    for (let i = 1; i < codec.innerCount; i++) {
      const a = oldIndex.entry(i)!;
      const b = newIndex.entry(i)!;
      expect(newShard.subarray(b.offset, b.offset + b.nbytes)).toEqual(
        before.get("c/0/0")!.subarray(a.offset, a.offset + a.nbytes),
      );
    }
  });

  it("leaves out inner chunks equal to the fill value and deletes an empty shard", async () => {
    const { arr, map } = await sharded({ compressors: null as never });
    await arr.set([slice(0, 2), slice(0, 3)], 5);
    const codec = arr.access.runner.pipeline.arrayToBytes.codec as ShardingCodec;
    const shard = map.map.get("c/0/0")!;
    // One inner chunk of 2x3 int32 (24 bytes) plus the index.
    expect(shard.length).toBe(24 + codec.indexSize);
    const index = await codec.decodeIndex(shard.subarray(-codec.indexSize));
    expect(index.entry(0)).toEqual({ offset: 0, nbytes: 24 });
    for (let i = 1; i < codec.innerCount; i++) expect(index.entry(i)).toBeUndefined();
    await arr.set([slice(0, 2), slice(0, 3)], 0);
    expect(map.map.has("c/0/0")).toBe(false);
  });
});

describe("sharding: reads fetch only what they need", () => {
  it("one inner chunk: the index and the chunk; a whole shard: two requests; a cached index: one", async () => {
    const { arr, store, shape, map } = await sharded();
    await arr.set(null, { data: values(120), shape });
    const cold = new ZarrArray(store, "", arr.metadata);
    store.clear();
    await cold.get([slice(4, 6), slice(6, 9)]);
    expect(store.requests.map((r) => [r.method, r.key, r.range])).toEqual([
      [
        "get",
        "c/1/1",
        { suffix: (cold.access.runner.pipeline.arrayToBytes.codec as ShardingCodec).indexSize },
      ],
      [
        "get",
        "c/1/1",
        expect.objectContaining({ offset: expect.any(Number), length: expect.any(Number) }),
      ],
    ]);
    const chunkRequest = store.requests[1];
    const shardSize = map.map.get("c/1/1")!.length;
    expect(chunkRequest.bytes).toBeLessThan(shardSize / 2);
    store.clear();
    await cold.get([slice(6, 8), slice(9, 12)]);
    expect(store.requests.map((r) => [r.method, r.key])).toEqual([["get", "c/1/1"]]);
    const fresh = new ZarrArray(store, "", arr.metadata);
    store.clear();
    await fresh.get([slice(0, 4), slice(0, 6)]);
    expect(store.requests).toHaveLength(2);
  });
});

describe("sharding: bad input", () => {
  it("an index entry past the shard's end, a truncated shard, a corrupt index", async () => {
    const { arr, map, shape } = await sharded({ compressors: null as never });
    await arr.set(null, { data: values(120), shape });
    const codec = arr.access.runner.pipeline.arrayToBytes.codec as ShardingCodec;
    const good = map.map.get("c/0/0")!;
    const fresh = () => new ZarrArray(map, "", arr.metadata);

    // Point inner chunk 0 past the end, with a valid checksum so only the bounds check can catch it.
    const index = await codec.decodeIndex(good.subarray(-codec.indexSize));
    index.set(0, { offset: good.length * 4, nbytes: 24 });
    const bad = good.slice();
    bad.set(await codec.encodeIndex(index), good.length - codec.indexSize);
    map.map.set("c/0/0", bad);
    await expect(fresh().get([0, 0])).rejects.toThrow(/past the end of the shard/);
    await expect(fresh().get()).rejects.toThrow(DecodeError);

    map.map.set("c/0/0", good.subarray(0, 10));
    await expect(fresh().get([0, 0])).rejects.toThrow(/shard \/c\/0\/0.*truncated/);

    const corrupt = good.slice();
    corrupt[corrupt.length - 10] ^= 0xff;
    map.map.set("c/0/0", corrupt);
    await expect(fresh().get([0, 0])).rejects.toThrow(ChecksumError);
  });

  it("inner chunk shapes that do not divide the shard are refused", async () => {
    await expect(
      createArray(new Map(), { shape: [10], shards: [5], chunks: [2], dtype: "int8" }),
    ).rejects.toThrow(/multiple of the chunk shape/);
    await expect(
      createArray(new Map(), {
        shape: [10],
        shards: [4],
        chunks: [2],
        dtype: "int8",
        zarrFormat: 2,
      }),
    ).rejects.toThrow(/Sharding needs Zarr v3/);
  });
});
