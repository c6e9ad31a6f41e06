import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { openArray, type ZarrArray } from "@z/array";
import {
  buildShard,
  cIndex,
  cOrder,
  mortonOrder,
  permutation,
  type ShardLayout,
  seededRandom,
} from "@z/codecs/testing";
import { slice } from "@z/indexing";
import { MapStore, type Readable } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { bytesSource, MemoryArchive, ZipStore } from "@z/store-zip";
import { scratchFolders, startTestHttpServer, type TestHttpServer } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Reference } from "./reference.js";

/*
 * Shards written by hand, not by our encoder, laid out as other writers do: inner chunks in
 * Morton order (zarr-python 3), in a random order with unused bytes between them, with empty
 * inner chunks anywhere; index at the start or the end, with or without a crc32c. Each is read
 * with every selection mode from memory, a folder, a real HTTP server and a zip archive, through
 * both read paths: inner chunk by inner chunk (plain sharding), and whole-shard decode (a gzip
 * after `sharding_indexed`, and the inner level of nested sharding).
 */

const SHAPE = [9, 13];
const SHARD = [8, 8];
const INNER = [2, 2];
/** The middle level of nested sharding: 4x4 chunks, each a shard of 2x2 inner chunks. */
const MIDDLE = [4, 4];
const FILL = -7;
const JUNK = 424242;

type CodecSetup = "bytes" | "inner gzip" | "gzip after sharding" | "nested" | "nested + gzip";
type Order = "morton" | "random with gaps" | "reverse with gaps";

interface Case {
  codecs: CodecSetup;
  order: Order;
  indexLocation: "start" | "end";
  checksum: boolean;
  seed: number;
}

const value = (flat: number) => ((flat * 37) % 1000) + 1;

function indexCodecs(checksum: boolean) {
  const list: object[] = [{ name: "bytes", configuration: { endian: "little" } }];
  if (checksum) list.push({ name: "crc32c" });
  return list;
}

function metadata(c: Case): object {
  const bytes = { name: "bytes", configuration: { endian: "little" } };
  const gzip = { name: "gzip", configuration: { level: 1 } };
  const sharding = (chunkShape: number[], codecs: object[]) => ({
    name: "sharding_indexed",
    configuration: {
      chunk_shape: chunkShape,
      codecs,
      index_codecs: indexCodecs(c.checksum),
      index_location: c.indexLocation,
    },
  });
  const nested = () => sharding(MIDDLE, [sharding(INNER, [bytes])]);
  const codecs = {
    bytes: [sharding(INNER, [bytes])],
    "inner gzip": [sharding(INNER, [bytes, gzip])],
    "gzip after sharding": [sharding(INNER, [bytes]), gzip],
    nested: [nested()],
    "nested + gzip": [nested(), gzip],
  }[c.codecs];
  return {
    zarr_format: 3,
    node_type: "array",
    shape: SHAPE,
    data_type: "int32",
    chunk_grid: { name: "regular", configuration: { chunk_shape: SHARD } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: FILL,
    codecs,
    attributes: {},
  };
}

/** Which inner chunks hold data (the others are empty), by their origin in the array. */
function presentChunks(seed: number): (origin: readonly number[]) => boolean {
  const random = seededRandom(seed);
  const present = new Map<string, boolean>();
  return (origin) => {
    const key = origin.join(",");
    if (!present.has(key)) present.set(key, random() < 0.65);
    return present.get(key)!;
  };
}

/** The plain `bytes` encoding of the `shape` block at `origin`: int32 LE, junk outside the array. */
function rawChunk(origin: readonly number[], shape: readonly number[]): Uint8Array {
  const out = new Uint8Array(shape[0] * shape[1] * 4);
  const view = new DataView(out.buffer);
  let k = 0;
  for (let r = 0; r < shape[0]; r++) {
    for (let col = 0; col < shape[1]; col++, k++) {
      const [y, x] = [origin[0] + r, origin[1] + col];
      const inside = y < SHAPE[0] && x < SHAPE[1];
      view.setInt32(k * 4, inside ? value(y * SHAPE[1] + x) : JUNK, true);
    }
  }
  return out;
}

function layoutFor(c: Case, count: number, salt: number): ShardLayout {
  const random = seededRandom(c.seed * 1000 + salt);
  const counts = [Math.sqrt(count), Math.sqrt(count)];
  const order =
    c.order === "morton"
      ? mortonOrder(counts)
      : c.order === "reverse with gaps"
        ? cOrder(counts)
            .map((coords) => cIndex(coords, counts))
            .reverse()
        : permutation(count, random);
  const gapSizes = order.map(() => (c.order === "morton" ? 0 : Math.floor(random() * 20)));
  return {
    order,
    gaps: (position) => gapSizes[position],
    indexLocation: c.indexLocation,
    checksum: c.checksum,
  };
}

function isInside(origin: readonly number[]): boolean {
  return origin.every((o, axis) => o < SHAPE[axis]);
}

/**
 * The encoded shard of `chunkShape` pieces at `origin`, built from `piece` (each piece's bytes,
 * or undefined when it is empty), or undefined when every piece is empty.
 */
function shardOf(
  c: Case,
  origin: readonly number[],
  size: readonly number[],
  chunkShape: readonly number[],
  piece: (origin: number[]) => Uint8Array | undefined,
  salt: number,
): Uint8Array | undefined {
  const counts = size.map((n, axis) => n / chunkShape[axis]);
  const chunks = cOrder(counts).map((coords) =>
    piece(coords.map((k, axis) => origin[axis] + k * chunkShape[axis])),
  );
  if (chunks.every((b) => b === undefined)) return undefined;
  return buildShard(chunks, layoutFor(c, chunks.length, salt));
}

/** The stored objects (key -> bytes) of an array laid out as `c` says, and the values to expect. */
function buildArray(c: Case): { objects: Map<string, Uint8Array>; expected: number[] } {
  const present = presentChunks(c.seed);
  const expected = Array.from({ length: SHAPE[0] * SHAPE[1] }, (_, flat) => {
    const origin = [Math.floor(flat / SHAPE[1]), flat % SHAPE[1]].map(
      (i, axis) => i - (i % INNER[axis]),
    );
    return present(origin) ? value(flat) : FILL;
  });
  const innerBytes = (origin: number[]): Uint8Array | undefined => {
    if (!isInside(origin) || !present(origin)) return undefined;
    const raw = rawChunk(origin, INNER);
    return c.codecs === "inner gzip" ? new Uint8Array(gzipSync(raw)) : raw;
  };
  const nested = c.codecs.startsWith("nested");
  const objects = new Map<string, Uint8Array>();
  objects.set("zarr.json", new TextEncoder().encode(JSON.stringify(metadata(c))));
  let salt = 0;
  for (let sy = 0; sy * SHARD[0] < SHAPE[0]; sy++) {
    for (let sx = 0; sx * SHARD[1] < SHAPE[1]; sx++) {
      const origin = [sy * SHARD[0], sx * SHARD[1]];
      const shard = nested
        ? shardOf(
            c,
            origin,
            SHARD,
            MIDDLE,
            (mid) => shardOf(c, mid, MIDDLE, INNER, innerBytes, ++salt),
            ++salt,
          )
        : shardOf(c, origin, SHARD, INNER, innerBytes, ++salt);
      if (!shard) continue;
      const whole = c.codecs.endsWith("gzip after sharding") || c.codecs === "nested + gzip";
      objects.set(`c/${sy}/${sx}`, whole ? new Uint8Array(gzipSync(shard)) : shard);
    }
  }
  return { objects, expected };
}

/** Reads `array` with every selection mode and compares with the reference model. */
async function readEverySelection(array: ZarrArray, expected: number[]): Promise<void> {
  const ref = new Reference(SHAPE, expected);
  const list = (data: ArrayLike<unknown>) => Array.from(data);

  const whole = await array.get();
  expect(whole.shape).toEqual(SHAPE);
  expect(list(whole.data)).toEqual(expected);

  for (const items of [
    [slice(1, 9, 2), slice(null, null, -3)],
    [3, slice(2, 12)],
    [slice(7, 9), slice(6, 10)],
    [8, 12],
  ]) {
    const { positions, shape } = ref.orthogonal(items);
    const got = await array.get(items as never);
    expect(got.shape).toEqual(shape);
    expect(list(got.data)).toEqual(ref.read(positions));
  }

  const columns = Array.from({ length: SHAPE[1] }, (_, i) => i % 3 !== 1);
  const ortho = [[8, 0, 3, 3, 7, -1], columns];
  const o = ref.orthogonal(ortho);
  const gotOrtho = await array.getOrthogonal(ortho as never);
  expect(gotOrtho.shape).toEqual(o.shape);
  expect(list(gotOrtho.data)).toEqual(ref.read(o.positions));

  const points = [
    [0, 8, 4, 4, 1, 8, 7],
    [12, 0, 5, 6, 9, 12, 8],
  ];
  expect(list((await array.getCoordinates(points)).data)).toEqual(
    ref.read(ref.coordinates(points)),
  );

  const mask = Array.from({ length: SHAPE[0] * SHAPE[1] }, (_, i) => i % 5 === 2 || i % 7 === 0);
  expect(list((await array.getMask({ data: mask, shape: SHAPE })).data)).toEqual(
    ref.read(ref.mask(mask)),
  );

  // Blocks are whole shards (the chunk grid).
  for (const [blocks, asSlices] of [
    [
      [1, null],
      [slice(8, 9), null],
    ],
    [
      [0, 1],
      [slice(0, 8), slice(8, 13)],
    ],
    [
      [slice(0, 2), slice(1, 2)],
      [null, slice(8, 13)],
    ],
  ] as const) {
    const { positions, shape } = ref.orthogonal(asSlices);
    const got = await array.getBlocks(blocks as never);
    expect(got.shape).toEqual(shape);
    expect(list(got.data)).toEqual(ref.read(positions));
  }
}

const CODECS: CodecSetup[] = [
  "bytes",
  "inner gzip",
  "gzip after sharding",
  "nested",
  "nested + gzip",
];
const ORDERS: Order[] = ["morton", "random with gaps", "reverse with gaps"];
const CASES: Case[] = CODECS.flatMap((codecs, ci) =>
  ORDERS.flatMap((order, oi) =>
    (["start", "end"] as const).map((indexLocation, li) => ({
      codecs,
      order,
      indexLocation,
      checksum: (ci + oi + li) % 2 === 0,
      seed: 1 + ci * 10 + oi * 3 + li,
    })),
  ),
);
const label = (c: Case) =>
  `${c.codecs}, ${c.order}, index at the ${c.indexLocation}${c.checksum ? " + crc32c" : ""}`;

describe("the hand-built shards are what the tests claim", () => {
  it("Morton order matches zarr-python's (axis 0 takes the lowest bit)", () => {
    expect(mortonOrder([2, 2])).toEqual([0, 2, 1, 3]);
    expect(mortonOrder([2, 2, 2])).toEqual([0, 4, 2, 6, 1, 5, 3, 7]);
    // A shard of 3x2: codes falling outside are skipped.
    expect(mortonOrder([3, 2])).toEqual([0, 2, 1, 3, 4, 5]);
  });

  it("every case has a shard with an empty inner chunk after a present one (in C order)", () => {
    for (const c of CASES) {
      const { expected } = buildArray(c);
      // The shards whose entries a whole-shard decode walks: the outer ones, or the middle ones.
      const block = c.codecs.startsWith("nested") ? MIDDLE : SHARD;
      const counts = block.map((n, axis) => n / INNER[axis]);
      const shardFlags = cOrder([2, 2]).map(([by, bx]) =>
        cOrder(counts).map(([y, x]) => {
          const [row, col] = [by * block[0] + y * INNER[0], bx * block[1] + x * INNER[1]];
          return row < SHAPE[0] && col < SHAPE[1] && expected[row * SHAPE[1] + col] !== FILL;
        }),
      );
      const flags = shardFlags.find((f) => f.some((p, i) => p && f.slice(i + 1).some((g) => !g)));
      expect(flags).toBeDefined();
    }
  });
});

describe("writes into shards laid out by others keep their other inner chunks", () => {
  it.each(CASES.map((c) => [label(c), c] as const))("%s", async (_label, c) => {
    const { objects, expected } = buildArray(c);
    const array = await openArray(new MapStore(objects));
    const ref = new Reference(SHAPE, expected);
    // A region across shards and inner chunks, partly over empty ones.
    const region = [slice(1, 9), slice(5, 11)];
    const { positions } = ref.orthogonal(region);
    await array.set(region, 5);
    ref.write(positions, () => 5);
    expect(Array.from((await array.get()).data)).toEqual(ref.data);
    const fresh = await openArray(new MapStore(objects));
    await readEverySelection(fresh, ref.data as number[]);
  });
});

describe("shards in any order, with gaps, read right from every store and on every path", () => {
  const scratch = scratchFolders("z-shard-layouts-");
  let root: string;
  let server: TestHttpServer;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "z-shard-http-"));
    CASES.forEach((c, i) => {
      const dir = path.join(root, `case${i}`);
      for (const [key, bytes] of buildArray(c).objects) {
        mkdirSync(path.dirname(path.join(dir, key)), { recursive: true });
        writeFileSync(path.join(dir, key), bytes);
      }
    });
    server = await startTestHttpServer({ root });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const stores: { name: string; open: (c: Case, i: number) => Promise<Readable> }[] = [
    { name: "memory", open: async (c) => new MapStore(buildArray(c).objects) },
    {
      name: "FsStore",
      open: async (c) => {
        const dir = scratch();
        for (const [key, bytes] of buildArray(c).objects) {
          mkdirSync(path.dirname(path.join(dir, key)), { recursive: true });
          writeFileSync(path.join(dir, key), bytes);
        }
        return new FsStore(dir, { readOnly: true });
      },
    },
    { name: "HttpStore", open: async (_c, i) => new HttpStore(`${server.url}case${i}/`) },
    {
      name: "zip",
      open: async (c) => {
        const archive = new MemoryArchive();
        const zip = ZipStore.create(archive);
        for (const [key, bytes] of buildArray(c).objects) await zip.set(key, bytes);
        await zip.close();
        return ZipStore.open(bytesSource(archive.bytes().slice()));
      },
    },
  ];

  for (const store of stores) {
    it.each(CASES.map((c, i) => [label(c), c, i] as const))(
      `${store.name}: %s`,
      async (_label, c, i) => {
        const array = await openArray(await store.open(c, i));
        await readEverySelection(array, buildArray(c).expected);
      },
    );
  }
});
