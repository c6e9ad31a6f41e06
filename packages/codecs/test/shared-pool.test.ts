// The pool reads use when they name none: which codec chains go to Node's shared pool, what
// `setDefaultDecodePool` changes, and, on the built packages, that a script reading blosc
// chunks decodes them in the shared pool and then exits by itself (idle workers hold no process).
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { setDefaultDecodePool } from "@z/codecs";
import { implicitDecodePool } from "@z/codecs/internal";
import { createWorkerPool } from "@z/codecs/workers";
import { zstdIsNative } from "@z/compression/zstd";
import type { NamedConfig } from "@z/metadata";
import { repositoryRoot, tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { worthDecodingOffThread } from "../src/platform/shared-pool.node.js";

const named = (...names: string[]): NamedConfig[] =>
  names.map((name) => ({ name, configuration: {}, mustUnderstand: true }));

describe("which chunks the shared pool takes", () => {
  it("takes codecs that work on the calling thread, not those node:zlib runs on its own threads", () => {
    expect(worthDecodingOffThread(named("bytes", "blosc"))).toBe(true);
    expect(worthDecodingOffThread(named("numcodecs.blosc"))).toBe(true);
    expect(worthDecodingOffThread(named("bytes", "numcodecs.lz4"))).toBe(true);
    expect(worthDecodingOffThread(named("numcodecs.delta", "numcodecs.zlib"))).toBe(true);
    expect(worthDecodingOffThread(named("bytes"))).toBe(false);
    expect(worthDecodingOffThread(named("transpose", "bytes", "gzip", "crc32c"))).toBe(false);
    expect(worthDecodingOffThread(named("numcodecs.zlib"))).toBe(false);
    // zstd runs in node:zlib from Node 22.15; before, it is WebAssembly on the calling thread.
    const wasmZstd = !zstdIsNative();
    expect(worthDecodingOffThread(named("bytes", "zstd"))).toBe(wasmZstd);
    expect(worthDecodingOffThread(named("numcodecs.zstd"))).toBe(wasmZstd);
  });

  it("setDefaultDecodePool: a pool serves every chain, false none, undefined the platform's way", () => {
    const pool = createWorkerPool({ size: 1 });
    try {
      setDefaultDecodePool(pool);
      expect(implicitDecodePool(named("bytes"))).toBe(pool);
      expect(implicitDecodePool(named("bytes", "blosc"))).toBe(pool);
      setDefaultDecodePool(false);
      expect(implicitDecodePool(named("bytes", "blosc"))).toBeUndefined();
      setDefaultDecodePool(undefined);
      // The TypeScript sources have no built worker module beside them: no shared pool here.
      expect(implicitDecodePool(named("bytes", "blosc"))).toBeUndefined();
      expect(() => setDefaultDecodePool({} as never)).toThrow(TypeError);
    } finally {
      setDefaultDecodePool(undefined);
      pool.close();
    }
  });
});

const entry = path.join(repositoryRoot, "packages/zarr/dist/node.js");
const internal = path.join(repositoryRoot, "packages/codecs/dist/internal.js");
const built = existsSync(entry) && existsSync(internal);
if (!built)
  console.warn("[shared pool] SKIPPED: build the packages first (pnpm build; pnpm test does)");

describe.skipIf(!built)("the shared pool of the built packages", () => {
  const { dir, remove } = tempDir("z-shared-pool-");
  afterAll(remove);

  it("encodes a blosc write and decodes a read that name no pool, gives the inline result, and lets the process end", () => {
    const script = path.join(dir, "read.mjs");
    writeFileSync(
      script,
      `import { createArray, FsStore, openArray } from ${JSON.stringify(pathToFileURL(entry).href)};
import { implicitDecodePool } from ${JSON.stringify(pathToFileURL(internal).href)};
const store = new FsStore(${JSON.stringify(path.join(dir, "a.zarr"))});
const codecs = [{ name: "bytes" }, { name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 } }];
const arr = await createArray(store, { shape: [64, 256, 256], chunks: [16, 128, 128], dtype: "float32", codecs });
const values = Float32Array.from({ length: 64 * 256 * 256 }, (_, i) => Math.sin(i / 77) * 1000 + (i % 13));
await arr.set(null, { data: values, shape: [64, 256, 256] });
const again = await openArray(store);
const [pooled, inline] = [await again.get(), await again.get(null, { workers: false })];
const same = pooled.data.every((v, i) => Object.is(v, values[i])) && inline.data.every((v, i) => Object.is(v, values[i]));
const shared = pooled.data.buffer instanceof SharedArrayBuffer;
console.log(JSON.stringify({ same, shared, stats: implicitDecodePool(codecs).stats() }));
`,
    );
    const run = spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 60_000 });
    expect(run.error, "the script must end by itself").toBeUndefined();
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const { same, shared, stats } = JSON.parse(run.stdout.trim().split("\n").at(-1) as string);
    expect(same).toBe(true);
    // The workers copied the chunks into the result themselves.
    expect(shared).toBe(true);
    expect(stats.workers).toBe(1);
    expect(stats.dispatched).toBeGreaterThan(0);
    // The [4, 2, 2] chunks, encoded by the write and decoded by the first read.
    expect(stats.dispatched + stats.inline).toBe(32);
  }, 90_000);
});
