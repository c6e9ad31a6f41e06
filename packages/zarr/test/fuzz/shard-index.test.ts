import { type ArrayOptions, crc32c, createArray, MemoryStore, openArray, slice } from "@z/zarr";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { applyByteMutations, type ByteMutation, byteMutation, bytesText } from "./lib/bytes.js";
import { fuzz, InvariantError } from "./lib/harness.js";

// Hostile shard indexes: entries past the end, overlapping, pointing into the index, 2^64-2,
// half-empty, overflowing offset + size; the index checksum recomputed (so the entries reach
// the code that trusts them) or left stale. Reads must succeed or throw a typed error.

const U64_MAX = 2n ** 64n - 1n;

interface ShardSetup {
  label: string;
  options: ArrayOptions;
  values: unknown;
  /** Inner chunks per shard, where the index is, and whether it ends in a crc32c. */
  chunksPerShard: number;
  location: "start" | "end";
  crc: boolean;
}

const bytesLE = { name: "bytes", configuration: { endian: "little" } };
const crc = { name: "crc32c" };
const shorts = Int16Array.from({ length: 40 }, (_, i) => i * 3 - 50);
const words = ["", "a", "é", "日本語", "🚀", "zz"];

const SETUPS: ShardSetup[] = [
  {
    label: "int16 gzip, index at the end",
    options: {
      shape: [40],
      dtype: "int16",
      chunks: [4],
      shards: [16],
      compressors: [{ name: "gzip", configuration: { level: 1 } }],
    },
    values: shorts,
    chunksPerShard: 4,
    location: "end",
    crc: true,
  },
  {
    label: "float32 raw, index at the start",
    options: {
      shape: [40],
      dtype: "float32",
      chunks: [8],
      shards: [16],
      shardIndexLocation: "start",
      compressors: null,
    },
    values: Float32Array.from({ length: 40 }, (_, i) => i / 3),
    chunksPerShard: 2,
    location: "start",
    crc: true,
  },
  {
    label: "strings",
    options: { shape: [40], dtype: "string", chunks: [4], shards: [16], compressors: null },
    values: Array.from({ length: 40 }, (_, i) => words[i % words.length]),
    chunksPerShard: 4,
    location: "end",
    crc: true,
  },
  {
    label: "2-d int32 zstd",
    options: {
      shape: [8, 8],
      dtype: "int32",
      chunks: [2, 2],
      shards: [4, 4],
      compressors: [{ name: "zstd", configuration: { level: 1, checksum: false } }],
    },
    values: Int32Array.from({ length: 64 }, (_, i) => i * 1001),
    chunksPerShard: 4,
    location: "end",
    crc: true,
  },
  {
    label: "index without checksum",
    options: {
      shape: [40],
      dtype: "int16",
      chunks: [16],
      codecs: [
        {
          name: "sharding_indexed",
          configuration: {
            chunk_shape: [4],
            codecs: [bytesLE],
            index_codecs: [bytesLE],
            index_location: "end",
          },
        },
      ],
    },
    values: shorts,
    chunksPerShard: 4,
    location: "end",
    crc: false,
  },
  {
    label: "nested sharding",
    options: {
      shape: [40],
      dtype: "int16",
      chunks: [16],
      codecs: [
        {
          name: "sharding_indexed",
          configuration: {
            chunk_shape: [8],
            codecs: [
              {
                name: "sharding_indexed",
                configuration: {
                  chunk_shape: [4],
                  codecs: [bytesLE],
                  index_codecs: [bytesLE, crc],
                },
              },
            ],
            index_codecs: [bytesLE, crc],
          },
        },
      ],
    },
    values: shorts,
    chunksPerShard: 2,
    location: "end",
    crc: true,
  },
];

type Entry =
  | {
      kind:
        | "empty"
        | "max-2"
        | "zero"
        | "intoIndex"
        | "pastEnd"
        | "straddleEnd"
        | "overflow"
        | "huge"
        | "halfEmpty";
    }
  | { kind: "copy"; from: number }
  | { kind: "shift"; by: number }
  | { kind: "raw"; offset: bigint; nbytes: bigint };

const entry: fc.Arbitrary<Entry> = fc.oneof(
  fc.record({
    kind: fc.constantFrom(
      "empty" as const,
      "max-2" as const,
      "zero" as const,
      "intoIndex" as const,
      "pastEnd" as const,
      "straddleEnd" as const,
      "overflow" as const,
      "huge" as const,
      "halfEmpty" as const,
    ),
  }),
  fc.record({ kind: fc.constant("copy" as const), from: fc.nat() }),
  fc.record({ kind: fc.constant("shift" as const), by: fc.integer({ min: -8, max: 8 }) }),
  fc.record({
    kind: fc.constant("raw" as const),
    offset: fc.bigInt({ min: 0n, max: U64_MAX }),
    nbytes: fc.oneof(fc.bigInt({ min: 0n, max: 64n }), fc.bigInt({ min: 0n, max: U64_MAX })),
  }),
);

interface ShardCase {
  setup: number;
  shard: number;
  edits: { at: number; entry: Entry }[];
  /** Recompute the index checksum so the entries are believed (mostly), or leave it stale. */
  fixChecksum: boolean;
  /** Damage the data region too. */
  data: ByteMutation[];
}

const shardCase: fc.Arbitrary<ShardCase> = fc.record({
  setup: fc.nat({ max: SETUPS.length - 1 }),
  shard: fc.nat(),
  edits: fc.array(fc.record({ at: fc.nat(), entry }), { minLength: 1, maxLength: 4 }),
  fixChecksum: fc.oneof(
    { weight: 9, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constant(false) },
  ),
  data: fc.oneof(
    { weight: 4, arbitrary: fc.constant<ByteMutation[]>([]) },
    { weight: 1, arbitrary: fc.array(byteMutation, { maxLength: 2 }) },
  ),
});

interface Written {
  setup: ShardSetup;
  files: [string, Uint8Array][];
  shardKeys: string[];
}

/** The shard with its index entries replaced. */
function hostileShard(written: Written, input: ShardCase): { key: string; bytes: Uint8Array } {
  const { setup } = written;
  const key = written.shardKeys[input.shard % written.shardKeys.length];
  const original = written.files.find(([k]) => k === key)?.[1] as Uint8Array;
  const indexBytes = setup.chunksPerShard * 16 + (setup.crc ? 4 : 0);
  const indexAt = setup.location === "start" ? 0 : original.length - indexBytes;
  const dataStart = setup.location === "start" ? indexBytes : 0;
  const dataEnd = setup.location === "start" ? original.length : indexAt;
  // Damage the data region first (keeping its length, so the index stays where it is).
  let data = original.slice(dataStart, dataEnd);
  if (input.data.length) {
    const damaged = applyByteMutations(data, input.data);
    data = new Uint8Array(data.length);
    data.set(damaged.subarray(0, data.length));
  }
  const index = original.slice(indexAt, indexAt + indexBytes);
  const view = new DataView(index.buffer);
  const read = (i: number) =>
    [view.getBigUint64(i * 16, true), view.getBigUint64(i * 16 + 8, true)] as const;
  const total = BigInt(original.length);
  for (const { at, entry: e } of input.edits) {
    const i = at % setup.chunksPerShard;
    const [offset, nbytes] = read(i);
    const pair: readonly [bigint, bigint] = (() => {
      switch (e.kind) {
        case "empty":
          return [U64_MAX, U64_MAX];
        case "max-2":
          return [U64_MAX - 1n, U64_MAX - 1n];
        case "zero":
          return [offset, 0n];
        case "intoIndex":
          return [BigInt(indexAt), BigInt(Math.min(indexBytes, 16))];
        case "pastEnd":
          return [total, nbytes || 1n];
        case "straddleEnd":
          return [total - 2n, 8n];
        case "overflow":
          return [U64_MAX - 7n, 16n];
        case "huge":
          return [0n, 2n ** 53n];
        case "halfEmpty":
          return at % 2 ? [U64_MAX, nbytes] : [offset, U64_MAX];
        case "copy":
          return read(e.from % setup.chunksPerShard);
        case "shift":
          return [offset + BigInt(e.by) < 0n ? 0n : offset + BigInt(e.by), nbytes];
        case "raw":
          return [e.offset, e.nbytes];
      }
    })();
    view.setBigUint64(i * 16, pair[0], true);
    view.setBigUint64(i * 16 + 8, pair[1], true);
  }
  if (setup.crc && input.fixChecksum) {
    view.setUint32(indexBytes - 4, crc32c(index.subarray(0, indexBytes - 4)), true);
  }
  const out = original.slice();
  out.set(data, dataStart);
  out.set(index, indexAt);
  return { key, bytes: out };
}

describe("fuzz: hostile shard indexes", () => {
  const written: Written[] = [];
  beforeAll(async () => {
    for (const setup of SETUPS) {
      const store = new MemoryStore();
      const arr = await createArray(store, setup.options);
      await arr.set(null, setup.values as never);
      const files: [string, Uint8Array][] = [];
      for await (const key of store.list()) files.push([key, (await store.get(key)) as Uint8Array]);
      const shardKeys = files.map(([k]) => k).filter((k) => k !== "zarr.json");
      written.push({ setup, files, shardKeys });
    }
  });

  it("the setups read back undamaged, and their indexes are where the fuzzer expects", async () => {
    for (const w of written) {
      const arr = await openArray(new MemoryStore(w.files));
      expect((await arr.get()).shape).toEqual(arr.shape);
      // Rewriting every entry with itself and the checksum recomputed changes nothing.
      const same = hostileShard(w, {
        setup: 0,
        shard: 0,
        edits: [{ at: 0, entry: { kind: "shift", by: 0 } }],
        fixChecksum: true,
        data: [],
      });
      expect(same.bytes, w.setup.label).toEqual(w.files.find(([k]) => k === same.key)?.[1]);
    }
  });

  it("shard-index: hostile index entries", async () => {
    const build = (input: ShardCase) => {
      const w = written[input.setup];
      const { key, bytes } = hostileShard(w, input);
      return {
        key,
        bytes,
        store: new MemoryStore(w.files.map(([k, v]) => [k, k === key ? bytes : v] as const)),
      };
    };
    const summary = await fuzz({
      name: "shard-index",
      arbitrary: shardCase,
      async run(input) {
        const arr = await openArray(build(input).store);
        const all = await arr.get();
        if (JSON.stringify(all.shape) !== JSON.stringify(arr.shape))
          throw new InvariantError("whole read of the wrong shape");
        // Partial reads go through the shard's partial decoder (index first, then ranges).
        await arr.get(arr.shape.map((n) => slice(1, Math.min(n, 3))));
        // A write into a damaged shard reads it first (read-modify-write).
        await arr.set(
          arr.shape.map(() => 0),
          all.data[all.data.length - 1] as never,
        );
      },
      describe: (input) => ({ setup: written[input.setup].setup.label, case: fc.stringify(input) }),
      details(input) {
        const { key, bytes } = build(input);
        return { key, shard: bytesText(bytes) };
      },
    });
    expect(summary.failureCount, summary.report).toBe(0);
  });
});
