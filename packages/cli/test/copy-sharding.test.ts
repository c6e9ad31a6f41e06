import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { havePython, repositoryRoot, runCli, runPython, scratchFolders } from "@z/test-utils";
import {
  copyArrayElements,
  crc32c,
  createArray,
  FsStore,
  LoggingStore,
  MemoryStore,
  openArray,
  type ZarrArray,
} from "@z/zarr";
import { describe, expect, it } from "vitest";
import * as zarrita from "zarrita";
import { zarritaFolder } from "./support/zarrita-folder.js";

const scratch = scratchFolders("z-copy-shard-");

/**
 * A sharded source written by hand, as zarr-python 3 writes them: inner chunks encoded with
 * the plain `bytes` codec, stored in Morton (Z) order rather than C order, an index of uint64
 * LE (offset, nbytes) pairs in C order with a crc32c, some inner chunks empty, one shard absent,
 * edge shards reaching past the array.
 */
const SHAPE = [10, 12];
const SHARD = [8, 8];
const INNER = [2, 2];
const FILL = -1;
/** Inner chunks (global inner-grid coordinates) left empty in the shards that exist. */
const EMPTY = new Set(["0,1", "2,2", "3,0", "1,5"]);
/** Shards not written at all. */
const ABSENT = new Set(["1,0"]);

const innerEmpty = (i: number, j: number) =>
  EMPTY.has(`${i},${j}`) || ABSENT.has(`${Math.floor(i / 4)},${Math.floor(j / 4)}`);
/** The reference model: what every element must read as. */
const expectedAt = (r: number, c: number) =>
  innerEmpty(Math.floor(r / INNER[0]), Math.floor(c / INNER[1])) ? FILL : r * 100 + c + 1;
const EXPECTED = Array.from({ length: SHAPE[0] * SHAPE[1] }, (_, k) =>
  expectedAt(Math.floor(k / SHAPE[1]), k % SHAPE[1]),
);

/** Morton order of a 4 x 4 grid: the bits of the two coordinates interleaved. */
function mortonOrder(n: number): [number, number][] {
  const cells: [number, number, number][] = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let z = 0;
      for (let bit = 0; bit < 4; bit++)
        z |= (((i >> bit) & 1) << (2 * bit + 1)) | (((j >> bit) & 1) << (2 * bit));
      cells.push([z, i, j]);
    }
  return cells.sort((a, b) => a[0] - b[0]).map(([, i, j]) => [i, j]);
}

function writeHandShardedSource(root: string): void {
  const dir = path.join(root, "grid");
  mkdirSync(path.join(dir, "c"), { recursive: true });
  writeFileSync(
    path.join(root, "zarr.json"),
    JSON.stringify({ zarr_format: 3, node_type: "group", attributes: {} }),
  );
  writeFileSync(
    path.join(dir, "zarr.json"),
    JSON.stringify({
      zarr_format: 3,
      node_type: "array",
      shape: SHAPE,
      data_type: "int32",
      chunk_grid: { name: "regular", configuration: { chunk_shape: SHARD } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: FILL,
      codecs: [
        {
          name: "sharding_indexed",
          configuration: {
            chunk_shape: INNER,
            codecs: [{ name: "bytes", configuration: { endian: "little" } }],
            index_codecs: [
              { name: "bytes", configuration: { endian: "little" } },
              { name: "crc32c" },
            ],
            index_location: "end",
          },
        },
      ],
      attributes: { made: "by hand" },
    }),
  );
  const perShard = SHARD[0] / INNER[0];
  for (let si = 0; si < 2; si++)
    for (let sj = 0; sj < 2; sj++) {
      if (ABSENT.has(`${si},${sj}`)) continue;
      const index = new BigUint64Array(perShard * perShard * 2).fill(2n ** 64n - 1n);
      const parts: Uint8Array[] = [];
      let offset = 0;
      for (const [i, j] of mortonOrder(perShard)) {
        const gi = si * perShard + i;
        const gj = sj * perShard + j;
        // Inner chunks wholly outside the array, and the chosen empty ones, are not stored.
        if (innerEmpty(gi, gj) || gi * INNER[0] >= SHAPE[0] || gj * INNER[1] >= SHAPE[1]) continue;
        const values = new Int32Array(INNER[0] * INNER[1]);
        for (let a = 0; a < INNER[0]; a++)
          for (let b = 0; b < INNER[1]; b++) {
            const r = gi * INNER[0] + a;
            const c = gj * INNER[1] + b;
            // Edge chunks are stored whole; outside the array they hold anything.
            values[a * INNER[1] + b] = r < SHAPE[0] && c < SHAPE[1] ? expectedAt(r, c) : 12345;
          }
        const bytes = new Uint8Array(values.buffer);
        index[2 * (i * perShard + j)] = BigInt(offset);
        index[2 * (i * perShard + j) + 1] = BigInt(bytes.length);
        parts.push(bytes);
        offset += bytes.length;
      }
      const indexBytes = new Uint8Array(index.buffer);
      const checksum = new Uint8Array(4);
      new DataView(checksum.buffer).setUint32(0, crc32c(indexBytes), true);
      mkdirSync(path.join(dir, "c", String(si)), { recursive: true });
      writeFileSync(
        path.join(dir, "c", String(si), String(sj)),
        Buffer.concat([...parts, indexBytes, checksum]),
      );
    }
}

async function zarritaValues(root: string, at: string): Promise<number[]> {
  const array = await zarrita.open.v3(zarrita.root(zarritaFolder(root)).resolve(at), {
    kind: "array",
  });
  const { data, shape, stride } = await zarrita.get(array);
  const out: number[] = [];
  for (let r = 0; r < shape[0]; r++)
    for (let c = 0; c < shape[1]; c++)
      out.push(Number((data as Int32Array)[r * stride[0] + c * stride[1]]));
  return out;
}

async function ours(root: string, at = "grid"): Promise<{ array: ZarrArray; values: number[] }> {
  const array = await openArray(new FsStore(root), { path: at });
  return { array, values: Array.from((await array.get()).data as Int32Array) };
}

async function copy(source: string, ...args: string[]): Promise<string> {
  const destination = scratch();
  const result = await runCli("copy", source, destination, ...args);
  expect(result.stderr).toMatch(/^copied /);
  expect(result.code).toBe(0);
  return destination;
}

describe("zarr copy of a hand-built sharded array (Morton order, empty and absent chunks)", () => {
  it("the source reads as the model, through us and through zarrita", async () => {
    const source = scratch();
    writeHandShardedSource(source);
    expect((await ours(source)).values).toEqual(EXPECTED);
    expect(await zarritaValues(source, "grid")).toEqual(EXPECTED);
  });

  it("v3 to v3 keeps the sharding; zarrita reads the copy", async () => {
    const source = scratch();
    writeHandShardedSource(source);
    for (const args of [[], ["--compressor", "gzip"]]) {
      const destination = await copy(source, ...args);
      const { array, values } = await ours(destination);
      expect(values).toEqual(EXPECTED);
      expect(array.shards).toEqual(SHARD);
      expect(array.chunks).toEqual(INNER);
      expect(array.attrs).toEqual({ made: "by hand" });
      expect(await zarritaValues(destination, "grid")).toEqual(EXPECTED);
      const codecs = JSON.parse(readFileSync(path.join(destination, "grid", "zarr.json"), "utf8"))
        .codecs[0].configuration;
      expect(codecs.index_location).toBe("end");
      expect(codecs.codecs.map((c: { name: string }) => c.name)).toEqual(
        args.length ? ["bytes", "gzip"] : ["bytes"],
      );
    }
  });

  it("--chunks re-chunks inside shards rounded to a multiple; zarrita reads the copy", async () => {
    const source = scratch();
    writeHandShardedSource(source);
    const destination = await copy(source, "--chunks", "3,5");
    const { array, values } = await ours(destination);
    expect(values).toEqual(EXPECTED);
    expect(array.chunks).toEqual([3, 5]);
    expect(array.shards).toEqual([9, 10]);
    expect(await zarritaValues(destination, "grid")).toEqual(EXPECTED);
  });

  it.skipIf(!havePython("zarr copy sharded to v2"))(
    "to v2 the inner chunks become chunks; zarr-python 2 reads them",
    async () => {
      const source = scratch();
      writeHandShardedSource(source);
      const destination = await copy(source, "--format", "2");
      const { array, values } = await ours(destination);
      expect(array.zarrFormat).toBe(2);
      expect(array.chunks).toEqual(INNER);
      expect(values).toEqual(EXPECTED);
      const read = runPython(
        `import json, zarr\na = zarr.open_array(${JSON.stringify(path.join(destination, "grid"))}, mode="r")\nprint(json.dumps([int(x) for x in a[...].ravel()]))`,
      );
      expect(JSON.parse(read)).toEqual(EXPECTED);
    },
  );

  it("writes each destination shard exactly once and never reads it back", async () => {
    const sourceDir = scratch();
    writeHandShardedSource(sourceDir);
    const source = await openArray(new FsStore(sourceDir), { path: "grid" });
    for (const [chunks, shards] of [
      [INNER, SHARD],
      [
        [1, 3],
        [4, 6],
      ],
    ]) {
      const log = new LoggingStore(new MemoryStore());
      const target = await createArray(log as never, {
        shape: SHAPE,
        dtype: "int32",
        chunks,
        shards,
        fillValue: FILL,
        compressors: [{ name: "gzip", configuration: { level: 1 } }],
      });
      log.clear();
      await copyArrayElements(source, target, { concurrency: 8 });
      const sets = log.requests.filter((r) => r.method === "set").map((r) => r.key);
      expect(new Set(sets).size).toBe(sets.length);
      expect(log.requests.filter((r) => r.method === "get" || r.method === "getRanges")).toEqual(
        [],
      );
      expect(Array.from((await target.get()).data as Int32Array)).toEqual(EXPECTED);
    }
  });
});

describe("zarr copy of nested shards", () => {
  it("keeps the nesting v3 to v3, takes it apart for v2 and for --chunks", async () => {
    const source = scratch();
    const array = await createArray(new FsStore(source), {
      path: "nested",
      shape: [8, 8],
      chunks: [8, 8],
      dtype: "uint16",
      fillValue: 7,
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
                  codecs: [
                    { name: "bytes", configuration: { endian: "little" } },
                    { name: "zstd" },
                  ],
                },
              },
            ],
          },
        },
      ],
    });
    // Some innermost chunks keep the fill value, after others that do not.
    const values = Uint16Array.from({ length: 64 }, (_, k) => (k % 8 >= 6 && k < 32 ? 7 : k + 100));
    await array.set(null, { data: values, shape: [8, 8] });
    const expected = Array.from(values);
    expect(Array.from((await array.get()).data as Uint16Array)).toEqual(expected);

    for (const [args, check] of [
      [[], (a: ZarrArray) => expect(a.metadata.codecs[0].configuration.codecs).toHaveLength(1)],
      [
        ["--compressor", "gzip"],
        (a: ZarrArray) =>
          expect(JSON.stringify(a.metadata.codecs)).toMatch(
            /"sharding_indexed".*"sharding_indexed".*"gzip"/,
          ),
      ],
      [
        ["--chunks", "2,4"],
        (a: ZarrArray) =>
          expect([a.chunks, a.shards]).toEqual([
            [2, 4],
            [8, 8],
          ]),
      ],
      [["--format", "2"], (a: ZarrArray) => expect([a.zarrFormat, a.chunks]).toEqual([2, [2, 2]])],
    ] as const) {
      const destination = await copy(source, ...args);
      const { array: copied, values: got } = await ours(destination, "nested");
      check(copied);
      expect(got, args.join(" ")).toEqual(expected);
    }
  });
});

const bin = path.join(repositoryRoot, "packages/cli/dist/bin.js");
describe.skipIf(!existsSync(bin))("zarr copy through the built binary", () => {
  it("copies the hand-built shards to v3 (re-chunked) and v2 in a real process", async () => {
    const source = scratch();
    writeHandShardedSource(source);
    for (const args of [
      ["--chunks", "3,5", "--json"],
      ["--format", "2", "--json"],
    ]) {
      const destination = scratch();
      const out = execFileSync(process.execPath, [bin, "copy", source, destination, ...args], {
        encoding: "utf8",
      });
      expect(JSON.parse(out)).toMatchObject({ arrays: 1, groups: 1 });
      expect((await ours(destination)).values).toEqual(EXPECTED);
      if (args[0] === "--chunks")
        expect(await zarritaValues(destination, "grid")).toEqual(EXPECTED);
    }
  });
});
