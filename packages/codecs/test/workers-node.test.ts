// The worker_threads pool: every codec decodes to the same values in a worker as inline, the
// array read path uses it, and aborting stops queued work. Node cannot run the TypeScript
// worker module itself, so the test bundles it first (bundleNodeWorker, as a build would).
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createArray, openArray } from "@z/array";
import {
  type ChunkSpec,
  CodecError,
  CodecPipeline,
  loadCodecsFor,
  registerCodec,
  registeredCodecs,
  setDefaultDecodePool,
} from "@z/codecs";
import { chunkValues } from "@z/codecs/testing";
import {
  createWorkerPool,
  defaultWorkerCount,
  setDefaultWorkerCount,
  WorkerFailedError,
  type WorkerPool,
} from "@z/codecs/workers";
import { slice } from "@z/indexing";
import { type JsonValue, type NamedConfig, resolveDataTypeV3 } from "@z/metadata";
import type { TypedArray } from "@z/ndarray";
import { FsStore } from "@z/store-fs";
import { bundleNodeWorker, havePython, nodeWorkerDir, runPython } from "@z/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WorkerCase, workerCases } from "./workers-cases.js";

const outDir = nodeWorkerDir("z-node-worker-test");

const BZ2_SCRIPT =
  "import base64, bz2, sys; sys.stdout.write(base64.b64encode(bz2.compress(base64.b64decode(sys.stdin.read()), 1)).decode())";

const specOf = (c: WorkerCase): ChunkSpec => {
  const dataType = resolveDataTypeV3(c.dtype);
  return { shape: c.shape, dataType, fillValue: dataType.parseFill(c.fillValue, 3) };
};
const bytesOf = (c: WorkerCase) => new Uint8Array(Buffer.from(c.base64, "base64"));

describe("the worker_threads decode pool", () => {
  let workerUrl: URL;
  let cases: WorkerCase[];
  let pool: WorkerPool;

  beforeAll(async () => {
    const python = havePython("codec workers: numcodecs.bz2", ["bz2"]);
    const bz2 = python
      ? (bytes: Uint8Array) =>
          new Uint8Array(
            Buffer.from(runPython(BZ2_SCRIPT, Buffer.from(bytes).toString("base64")), "base64"),
          )
      : undefined;
    cases = await workerCases(bz2);
    workerUrl = await bundleNodeWorker(outDir);
    pool = createWorkerPool({ workerUrl, size: 2, inlineBelow: 0, inlineWhenBusy: false });
  }, 180_000);

  afterAll(() => {
    pool?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it("decodes every codec's chunks in a worker exactly as inline", async () => {
    const covered = new Set(cases.flatMap((c) => c.covers));
    const missing = registeredCodecs().filter((name) => !covered.has(name));
    // bz2 needs Python to write its chunks; everything else must be here.
    expect(missing.filter((name) => name !== "numcodecs.bz2")).toEqual([]);
    for (const c of cases) {
      const spec = specOf(c);
      // The inline reference is built synchronously (the bz2 case's codec was not loaded here).
      await loadCodecsFor(c.codecs as unknown as JsonValue);
      const inline = await CodecPipeline.create(c.codecs, spec, c.zarrFormat).decode(bytesOf(c));
      const worker = await pool.decode(bytesOf(c), c.codecs, spec, {
        zarrFormat: c.zarrFormat,
        transfer: true,
      });
      expect(chunkValues(worker, spec), c.label).toEqual(chunkValues(inline, spec));
      expect(chunkValues(worker, spec), c.label).toEqual(c.expected);
      expect(worker.data.constructor, c.label).toBe(inline.data.constructor);
    }
    expect(pool.stats().dispatched).toBe(cases.length);
  });

  it("any mix of decodes and aborts: each decode gives the inline result or an AbortError", async () => {
    const chains: NamedConfig[][] = [
      [{ name: "bytes", configuration: { endian: "little" }, mustUnderstand: true }],
      [
        { name: "bytes", configuration: { endian: "big" }, mustUnderstand: true },
        { name: "gzip", configuration: { level: 1 }, mustUnderstand: true },
      ],
      [
        { name: "transpose", configuration: { order: [1, 0] }, mustUnderstand: true },
        { name: "bytes", configuration: { endian: "little" }, mustUnderstand: true },
        { name: "zstd", configuration: { level: 1 }, mustUnderstand: true },
      ],
    ];
    const int32 = resolveDataTypeV3("int32");
    // The inline pipelines below are built synchronously.
    await loadCodecsFor(chains as unknown as JsonValue);
    // One worker and a short queue, so decodes also wait for room.
    const small = createWorkerPool({
      workerUrl,
      size: 1,
      inlineBelow: 0,
      maxQueued: 2,
      inlineWhenBusy: false,
    });
    const job = fc.record({
      height: fc.integer({ min: 1, max: 40 }),
      width: fc.integer({ min: 1, max: 40 }),
      seed: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
      chain: fc.integer({ min: 0, max: chains.length - 1 }),
      abort: fc.constantFrom("never", "at once", "later"),
    });
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(job, { minLength: 1, maxLength: 10 }), async (jobs) => {
          const runs = await Promise.all(
            jobs.map(async (j) => {
              const spec: ChunkSpec = { shape: [j.height, j.width], dataType: int32, fillValue: 0 };
              const pipeline = CodecPipeline.create(chains[j.chain], spec, 3);
              const data = Int32Array.from({ length: j.height * j.width }, (_, i) =>
                Math.imul(i + 1, j.seed | 1),
              );
              const stored = await pipeline.encode({
                data,
                shape: spec.shape,
                stride: [j.width, 1],
              });
              const expected = chunkValues(await pipeline.decode(stored.slice()), spec);
              const controller = new AbortController();
              const pending = small.decode(stored, chains[j.chain], spec, {
                zarrFormat: 3,
                signal: controller.signal,
              });
              if (j.abort === "at once") controller.abort();
              if (j.abort === "later") setTimeout(() => controller.abort(), 0);
              const outcome = await pending.then(
                (chunk) => chunkValues(chunk, spec),
                (e: Error) => e.name,
              );
              return { j, outcome, expected };
            }),
          );
          for (const { j, outcome, expected } of runs) {
            if (j.abort === "never") expect(outcome).toEqual(expected);
            else if (j.abort === "at once") expect(outcome).toBe("AbortError");
            // Aborted while it ran or after it finished: either outcome is right.
            else if (outcome !== "AbortError") expect(outcome).toEqual(expected);
          }
          expect(small.stats().queued).toBe(0);
        }),
        { numRuns: 25 },
      );
    } finally {
      small.close();
    }
  });

  it("reports a corrupt chunk with the same error class as inline decoding", async () => {
    const c = cases.find((x) => x.label === "crc32c") as WorkerCase;
    const bytes = bytesOf(c);
    bytes[10] ^= 0xff;
    const spec = specOf(c);
    const inline = await CodecPipeline.create(c.codecs, spec, 3)
      .decode(bytes.slice())
      .catch((e: Error) => e);
    const worker = await pool
      .decode(bytes, c.codecs, spec, { zarrFormat: 3 })
      .catch((e: Error) => e);
    expect(inline).toBeInstanceOf(Error);
    expect(worker.constructor).toBe(inline.constructor);
    expect((worker as Error).message).toBe((inline as Error).message);
  });

  it("aborting drops queued decodes: they reject and never reach a worker", async () => {
    const one = createWorkerPool({
      workerUrl,
      size: 1,
      inlineBelow: 0,
      maxQueued: 50,
      inlineWhenBusy: false,
    });
    try {
      const c = cases.find((x) => x.label === "zstd") as WorkerCase;
      const spec = specOf(c);
      const controller = new AbortController();
      const outcomes = Array.from({ length: 30 }, () =>
        one.decode(bytesOf(c), c.codecs, spec, { zarrFormat: 3, signal: controller.signal }).then(
          () => "done",
          (e: Error) => e.name,
        ),
      );
      expect(one.stats()).toMatchObject({ running: 1, queued: 29, dispatched: 1 });
      controller.abort();
      const settled = await Promise.all(outcomes);
      expect(settled.every((s) => s === "AbortError")).toBe(true);
      expect(one.stats()).toMatchObject({ queued: 0, dispatched: 1 });
      // The pool goes on working.
      const again = await one.decode(bytesOf(c), c.codecs, spec, { zarrFormat: 3 });
      expect(chunkValues(again, spec)).toEqual(c.expected);
    } finally {
      one.close();
    }
  });

  it("arr.get decodes in the pool given per call and gives what an inline read gives", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [300, 200],
      chunks: [128, 128],
      dtype: "float32",
      compressors: [{ name: "zstd", configuration: { level: 1 } }],
    });
    const values = Float32Array.from({ length: 300 * 200 }, (_, i) => Math.sin(i / 100) * i);
    await arr.set(null, { data: values, shape: [300, 200] });
    const back = await openArray(store);
    const before = pool.stats().dispatched;
    const selection = [slice(7, 290, 3), slice(null, null, -1)];
    const viaPool = await back.get(selection, { workers: pool });
    const inline = await back.get(selection, { workers: false });
    expect(pool.stats().dispatched - before).toBe(6);
    expect(viaPool.shape).toEqual(inline.shape);
    expect(viaPool.data).toEqual(inline.data);
    // The store's bytes are copied, not transferred: the store still reads.
    expect((await back.get([0, slice(0, 3)])).data).toEqual(values.subarray(0, 3));
  });

  it("workers copy chunk parts straight into a shared result: any slices, dtypes and fills read as inline", async () => {
    const dtypes = ["float32", "int64", "uint8", "complex64", "bool", "float16", "int16"];
    const axisSelection = (n: number) =>
      fc.oneof(
        fc.integer({ min: 0, max: n - 1 }),
        fc
          .tuple(
            fc.integer({ min: 0, max: n }),
            fc.integer({ min: 0, max: n }),
            fc.integer({ min: 1, max: 4 }),
            fc.boolean(),
          )
          .map(([a, b, step, back]) =>
            back
              ? slice(Math.max(a, b), Math.min(a, b) - 1 < 0 ? null : Math.min(a, b) - 1, -step)
              : slice(Math.min(a, b), Math.max(a, b), step),
          ),
      );
    const cases = fc
      .tuple(fc.integer({ min: 1, max: 3 }), fc.constantFrom(...dtypes), fc.boolean(), fc.boolean())
      .chain(([ndim, dtype, sparse, order]) =>
        fc
          .array(fc.integer({ min: 16, max: 70 }), { minLength: ndim, maxLength: ndim })
          .chain((shape) =>
            fc.record({
              shape: fc.constant(shape),
              chunks: fc.tuple(...shape.map((n) => fc.integer({ min: 8, max: n }))),
              selection: fc.tuple(...shape.map(axisSelection)),
              dtype: fc.constant(dtype),
              sparse: fc.constant(sparse),
              fOrder: fc.constant(order && ndim > 1),
              // Sharded (v3, C order): inner chunks go to the pool and are placed one by one.
              sharded: fc.boolean(),
              // blosc in small blocks: a worker decodes only the blocks its regions touch.
              compressor: fc.constantFrom(
                { name: "zstd", configuration: { level: 1 } },
                {
                  name: "blosc",
                  configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", blocksize: 256 },
                },
              ),
            }),
          ),
      );
    let placedReads = 0;
    // Every chunk goes to a worker, however small.
    const eager = createWorkerPool({ workerUrl, size: 2, inlineBelow: 0 });
    try {
      await fc.assert(
        fc.asyncProperty(cases, async (c) => {
          const store = new Map<string, Uint8Array>();
          const sharded = c.sharded && !c.fOrder;
          const arr = await createArray(store, {
            shape: c.shape,
            chunks: c.chunks,
            ...(sharded ? { shards: c.chunks.map((n) => 2 * n) } : {}),
            dtype: c.dtype,
            fillValue: c.dtype === "bool" ? true : c.dtype === "int64" ? -(2n ** 63n) : 7,
            zarrFormat: c.fOrder ? 2 : 3,
            ...(c.fOrder ? { order: "F" as const } : {}),
            compressors: [c.compressor],
          });
          const n = c.shape.reduce((a, b) => a * b, 1);
          const probe = arr.dataType.create(n) as TypedArray;
          for (let i = 0; i < probe.length; i++) {
            const v = (i * 2654435761) % 251;
            if (probe instanceof BigInt64Array) probe[i] = BigInt(v) - 125n;
            else if (probe instanceof Uint8Array && c.dtype === "bool") probe[i] = v & 1;
            else (probe as Float32Array)[i] = v - 120;
          }
          if (c.sparse) {
            // Only the first half of the rows is written: the rest reads as the fill value.
            const rows = Math.ceil(c.shape[0] / 2);
            const per = probe.length / c.shape[0];
            const half = probe.subarray(0, rows * per);
            await arr.set([slice(0, rows)], {
              data: half as never,
              shape: [rows, ...c.shape.slice(1)],
            });
          } else await arr.set(null, { data: probe as never, shape: c.shape });
          const selection = c.selection as never;
          const inline = (await arr.get(selection, { workers: false })) as {
            data: TypedArray;
            shape: number[];
          };
          const shared = (await arr.get(selection, { workers: eager })) as {
            data: TypedArray;
            shape: number[];
          };
          expect(shared.shape).toEqual(inline.shape);
          expect(
            Buffer.from(
              new Uint8Array(shared.data.buffer, shared.data.byteOffset, shared.data.byteLength),
            ),
          ).toEqual(
            Buffer.from(
              new Uint8Array(inline.data.buffer, inline.data.byteOffset, inline.data.byteLength),
            ),
          );
          expect(shared.data.constructor).toBe(inline.data.constructor);
          if (shared.data.buffer instanceof SharedArrayBuffer) placedReads++;
          const unshared = (await arr.get(selection, { workers: eager, sharedMemory: false })) as {
            data: TypedArray;
          };
          expect(unshared.data.buffer instanceof SharedArrayBuffer).toBe(false);
          expect(unshared.data).toEqual(inline.data);
        }),
        { numRuns: 40 },
      );
      // Most selections touch several chunks: their results are the workers' shared memory.
      expect(placedReads).toBeGreaterThan(10);
    } finally {
      eager.close();
    }
  });

  it("a read of several chunks in a pool returns a shared result the workers filled; `out` in shared memory is filled in place", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [256, 300],
      chunks: [64, 100],
      dtype: "float64",
      compressors: [{ name: "zstd", configuration: { level: 1 } }],
    });
    const values = Float64Array.from({ length: 256 * 300 }, (_, i) => Math.cos(i / 7) * i);
    await arr.set(null, { data: values, shape: [256, 300] });
    const eager = createWorkerPool({ workerUrl, size: 1, inlineBelow: 0 });
    try {
      const before = eager.stats();
      const all = await arr.get(null, { workers: eager });
      expect(all.data.buffer instanceof SharedArrayBuffer).toBe(true);
      expect(all.data).toEqual(values);
      expect(eager.stats().dispatched - before.dispatched).toBe(12);
      const out = new Float64Array(new SharedArrayBuffer(8 * 100 * 300));
      const part = await arr.get([slice(100, 200)], { workers: eager, out });
      expect(part.data).toBe(out);
      expect(out).toEqual(values.subarray(100 * 300, 200 * 300));
      // An `out` in ordinary memory is copied into on this thread, as before.
      const plain = new Float64Array(100 * 300);
      await arr.get([slice(100, 200)], { workers: eager, out: plain });
      expect(plain).toEqual(out);
      // A pool whose workers cannot start fails the read, never hangs it.
      const broken = createWorkerPool({
        workerUrl: new URL("file:///nowhere/worker.mjs"),
        size: 1,
        inlineBelow: 0,
      });
      await expect(arr.get(null, { workers: broken })).rejects.toThrow(/worker/i);
      broken.close();
    } finally {
      eager.close();
    }
  });

  it("an FsStore read in a pool reads stored bytes into shared buffers the workers decode in place", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "z-shared-slots-"));
    let runs = 0;
    const eager = createWorkerPool({ workerUrl, size: 2, inlineBelow: 0 });
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(
            [{ name: "zstd", configuration: { level: 1 } }],
            [{ name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle" } }],
            [],
          ),
          fc.integer({ min: 0, max: 1000 }),
          async (compressors, seed) => {
            const where = path.join(dir, `a${runs++}`);
            const store = new FsStore(where);
            const arr = await createArray(store, {
              shape: [40, 50],
              chunks: [16, 16],
              dtype: "float64",
              compressors,
            });
            // Some chunks hold noise that compresses badly: stored larger than others.
            const values = Float64Array.from({ length: 2000 }, (_, i) =>
              i % 7 === seed % 7 ? Math.random() : Math.floor(i / 9) + seed,
            );
            await arr.set(null, { data: values, shape: [40, 50] });
            const back = await openArray(new FsStore(where));
            const all = await back.get(null, { workers: eager });
            expect((all.data as TypedArray).buffer instanceof SharedArrayBuffer).toBe(true);
            expect(all.data).toEqual(values);
            const part = await back.get([slice(3, 37, 2), slice(null, null, -3)], {
              workers: eager,
            });
            const inline = await back.get([slice(3, 37, 2), slice(null, null, -3)], {
              workers: false,
            });
            expect(part.data).toEqual(inline.data);
          },
        ),
        { numRuns: 12 },
      );
    } finally {
      eager.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes encode in the pool: stored bytes are those an inline write stores, plain and sharded", async () => {
    const eager = createWorkerPool({ workerUrl, size: 2, inlineBelow: 0 });
    const compressors = [
      { name: "zstd", configuration: { level: 2 } },
      { name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "bitshuffle" } },
      { name: "gzip", configuration: { level: 1 } },
    ];
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...compressors),
          fc.constantFrom("float32", "int64", "uint16", "complex64"),
          fc.boolean(),
          fc.integer({ min: 0, max: 2 ** 31 }),
          async (compressor, dtype, sharded, seed) => {
            const layout = sharded ? { shards: [32, 40], chunks: [16, 20] } : { chunks: [16, 20] };
            const write = async (workers: WorkerPool | false) => {
              const store = new Map<string, Uint8Array>();
              const arr = await createArray(store, {
                shape: [50, 60],
                ...layout,
                dtype,
                compressors: [compressor],
              });
              const data = arr.dataType.create(50 * 60) as TypedArray;
              for (let i = 0; i < data.length; i++) {
                const v = ((i + seed) * 2654435761) % 1000;
                if (data instanceof BigInt64Array) data[i] = BigInt(v) * 3n ** 30n;
                else (data as Float32Array)[i] = v;
              }
              const before = eager.stats().dispatched;
              await arr.set(null, { data: data as never, shape: [50, 60] }, { workers });
              // A whole write reads nothing: what the pool did was encoding.
              if (workers) expect(eager.stats().dispatched).toBeGreaterThan(before);
              // A partial write: read, modify and write back, encoded in the pool too.
              await arr.set([slice(3, 9), slice(5, 50, 3)], 1 as never, { workers });
              return store;
            };
            const pooled = await write(eager);
            const inline = await write(false);
            expect([...pooled.keys()].sort()).toEqual([...inline.keys()].sort());
            for (const [key, bytes] of inline) expect(pooled.get(key)).toEqual(bytes);
          },
        ),
        { numRuns: 12 },
      );
    } finally {
      eager.close();
    }
  });

  it("a sharded array's inner chunks decode in the pool", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [200, 300],
      shards: [100, 150],
      chunks: [50, 50],
      dtype: "float64",
      compressors: [{ name: "zstd", configuration: { level: 1 } }],
    });
    const values = Float64Array.from({ length: 200 * 300 }, (_, i) => Math.cos(i / 33) * i);
    await arr.set(null, { data: values, shape: [200, 300] });
    const back = await openArray(store);
    const selection = [slice(10, 190), slice(20, 280, 7)];
    const before = pool.stats().dispatched;
    const viaPool = await back.get(selection, { workers: pool });
    // Rows 10..189 touch inner rows 0..3, columns 20..279 inner columns 0..5: 24 inner chunks.
    expect(pool.stats().dispatched - before).toBe(24);
    expect(viaPool.data).toEqual((await back.get(selection, { workers: false })).data);
    // The workers copied the inner chunks' parts into the result themselves.
    expect((viaPool.data as TypedArray).buffer instanceof SharedArrayBuffer).toBe(true);
  });

  it("the default pool serves reads that name none; `workers: false` opts out", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [256, 256],
      chunks: [128, 128],
      dtype: "uint16",
      compressors: [{ name: "gzip", configuration: { level: 1 } }],
    });
    await arr.set(null, {
      data: Uint16Array.from({ length: 256 * 256 }, (_, i) => i % 65536),
      shape: [256, 256],
    });
    setDefaultDecodePool(pool);
    try {
      const before = pool.stats().dispatched;
      const all = await arr.get();
      expect(pool.stats().dispatched - before).toBe(4);
      await arr.get(null, { workers: false });
      expect(pool.stats().dispatched - before).toBe(4);
      expect(all.data).toEqual(Uint16Array.from({ length: 256 * 256 }, (_, i) => i % 65536));
    } finally {
      setDefaultDecodePool(undefined);
    }
  });

  it("a codec registered only on this thread falls back to inline decoding", async () => {
    registerCodec("test.invert", () => ({
      kind: "bytes_to_bytes",
      name: "test.invert",
      encode: (bytes) => bytes.map((b) => 255 - b),
      decode: (bytes) => bytes.map((b) => 255 - b),
      toJson: () => ({ name: "test.invert", configuration: {}, mustUnderstand: true }),
    }));
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [200, 200],
      chunks: [100, 200],
      dtype: "int32",
      compressors: [{ name: "test.invert" }],
    });
    const values = Int32Array.from({ length: 200 * 200 }, (_, i) => i * 3 - 7);
    await arr.set(null, { data: values, shape: [200, 200] });
    const back = await (await openArray(store)).get(null, { workers: pool });
    expect(back.data).toEqual(values);
  });

  it("a worker that cannot start fails the decode with a CodecError, never a hang", async () => {
    const broken = createWorkerPool({
      workerUrl: pathToFileURL(path.join(outDir, "no-such-worker.mjs")),
      size: 1,
      inlineBelow: 0,
      inlineWhenBusy: false,
    });
    try {
      const c = cases.find((x) => x.label === "gzip") as WorkerCase;
      const outcomes = await Promise.all(
        [1, 2, 3].map(() =>
          broken.decode(bytesOf(c), c.codecs, specOf(c), { zarrFormat: 3 }).catch((e) => e),
        ),
      );
      for (const error of outcomes) {
        expect(error).toBeInstanceOf(WorkerFailedError);
        expect(error).toBeInstanceOf(CodecError);
        expect((error as Error).message).toMatch(/codec worker/);
      }
      expect(broken.stats()).toMatchObject({ queued: 0, running: 0 });
    } finally {
      broken.close();
    }
  });
  it("pools default to cores − 1 workers and leave the calling thread to dispatch", () => {
    const plain = createWorkerPool({ workerUrl });
    try {
      expect(plain.size).toBe(Math.max(1, availableParallelism() - 1));
      expect(plain.inlineWhenBusy).toBe(false);
    } finally {
      plain.close();
    }
    expect(defaultWorkerCount(8)).toBe(7);
    expect(defaultWorkerCount(1)).toBe(1);
    // A count set by the user wins.
    setDefaultWorkerCount(3);
    try {
      expect(defaultWorkerCount(8)).toBe(3);
      const set = createWorkerPool({ workerUrl });
      expect(set.size).toBe(3);
      set.close();
    } finally {
      setDefaultWorkerCount(undefined);
    }
  });
  it("with inlineWhenBusy, the calling thread decodes too while every worker is busy", async () => {
    const helping = createWorkerPool({ workerUrl, size: 1, inlineBelow: 0, inlineWhenBusy: true });
    expect(helping.inlineWhenBusy).toBe(true);
    try {
      const heavy = cases.filter((c) => c.label.startsWith("blosc") || c.label === "gzip");
      expect(heavy.length).toBeGreaterThan(0);
      const jobs = Array.from({ length: 24 }, (_, i) => heavy[i % heavy.length]);
      const results = await Promise.all(
        jobs.map((c) =>
          helping.decode(bytesOf(c), c.codecs, specOf(c), { zarrFormat: c.zarrFormat }),
        ),
      );
      for (const [i, c] of jobs.entries()) {
        const spec = specOf(c);
        const inline = await CodecPipeline.create(c.codecs, spec, c.zarrFormat).decode(bytesOf(c));
        expect(chunkValues(results[i], spec), c.label).toEqual(chunkValues(inline, spec));
      }
      // One worker runs one decode and has one waiting: the rest were decoded here.
      const { dispatched, inline } = helping.stats();
      expect(dispatched).toBeGreaterThanOrEqual(1);
      expect(inline).toBeGreaterThanOrEqual(1);
      expect(dispatched + inline).toBe(jobs.length);
    } finally {
      helping.close();
    }
  });
});
