// Bundled by workers-shared-browser.test.ts and run in Chromium, on a page served cross-origin
// isolated and on one served without: reads arrays through a Web Worker pool and inline and
// compares both with a reference built from the written values; writes arrays through the pool
// and inline and compares the stored bytes. The pool's workers are wrapped to count the
// requests and replies that cross to them, so the test sees which path a read took.
import { createArray } from "@z/array";
import { createWorkerPool, type WorkerPool } from "@z/codecs/workers";
import { type Slice, slice } from "@z/indexing";
import type { TypedArray } from "@z/ndarray";
import type { WebWorkerPoolOptions } from "../../src/workers/web-pool.js";

/** One axis of a selection: an index (the axis drops out) or a slice and the indices it takes. */
export type AxisCase =
  | { index: number }
  | { start: number; stop: number | null; step: number; indices: number[] };

/** One array to write and read back with one selection. */
export interface ReadCase {
  shape: number[];
  chunks: number[];
  dtype: "float32" | "int64" | "complex64" | "bool" | "uint8";
  /** Only the first `writtenRows` rows are written; the rest read as the fill value. */
  writtenRows: number;
  fOrder: boolean;
  compressor: { name: string; configuration: Record<string, unknown> };
  axes: AxisCase[];
  seed: number;
}

/** One array written whole and then in part, through the pool or inline. */
export interface WriteCase {
  dtype: "float32" | "int64" | "complex64" | "uint16";
  compressor: { name: string; configuration: Record<string, unknown> };
  sharded: boolean;
  /** Write from a TypedArray over a SharedArrayBuffer (isolated pages only). */
  sharedSource: boolean;
  seed: number;
}

/** Messages that crossed to and from the workers. */
interface Traffic {
  /** Decode requests whose worker copies into a shared result. */
  place: number;
  /** Decode requests whose chunk comes back. */
  decode: number;
  /** Encode requests. */
  encode: number;
  /** Replies that the parts are in the shared result. */
  placed: number;
}

const traffic: Traffic = { place: 0, decode: 0, encode: 0, placed: 0 };

function since(before: Traffic): Traffic {
  return {
    place: traffic.place - before.place,
    decode: traffic.decode - before.decode,
    encode: traffic.encode - before.encode,
    placed: traffic.placed - before.placed,
  };
}

type Handler<E> = ((event: E) => void) | null;

/** The package's worker module in a Web Worker, with its messages counted. */
class CountingWorker {
  private readonly worker = new Worker(
    new URL("../../src/workers/browser-worker.ts", import.meta.url),
    { type: "module", name: "zarr-codecs" },
  );

  postMessage(message: Record<string, unknown>, transfer: ArrayBuffer[]): void {
    if (message.encode) traffic.encode++;
    else if (message.place) traffic.place++;
    else traffic.decode++;
    this.worker.postMessage(message, transfer);
  }

  terminate(): void {
    this.worker.terminate();
  }

  set onmessage(handler: Handler<{ data: never }>) {
    this.worker.onmessage = handler
      ? (event: MessageEvent) => {
          if (event.data && "placed" in event.data) traffic.placed++;
          handler(event as unknown as { data: never });
        }
      : null;
  }

  set onerror(handler: Handler<ErrorEvent>) {
    this.worker.onerror = handler;
  }

  set onmessageerror(handler: Handler<MessageEvent>) {
    this.worker.onmessageerror = handler;
  }
}

let pool: WorkerPool | undefined;

/** Every chunk goes to a worker, however small. */
function thePool(): WorkerPool {
  const options: WebWorkerPoolOptions = {
    size: 2,
    inlineBelow: 0,
    createWorker: () => new CountingWorker() as never,
  };
  // The bundle gets the browser variant of `@z/codecs/workers`; the type checker, which
  // resolves the package as Node does, the worker_threads one, whose options differ.
  pool ??= createWorkerPool(options as never);
  return pool;
}

const FILL: Record<
  ReadCase["dtype"],
  { fillValue: number | bigint | boolean; bytes: ArrayBufferView }
> = {
  float32: { fillValue: 7, bytes: new Float32Array([7]) },
  int64: { fillValue: -(2n ** 63n), bytes: new BigInt64Array([-(2n ** 63n)]) },
  complex64: { fillValue: 7, bytes: new Float32Array([7, 0]) },
  bool: { fillValue: true, bytes: new Uint8Array([1]) },
  uint8: { fillValue: 7, bytes: new Uint8Array([7]) },
};

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** Fills every slot of a container with values that depend on the slot and the seed. */
function fillValues(data: TypedArray, dtype: string, seed: number): void {
  for (let i = 0; i < data.length; i++) {
    const v = ((i + seed) * 2654435761) % 251;
    if (data instanceof BigInt64Array) data[i] = BigInt(v) * 3n ** 30n - 125n;
    else if (dtype === "bool") data[i] = v & 1;
    else (data as Float32Array)[i] = v - 120;
  }
}

function bufferKind(data: unknown): string {
  const buffer = (data as ArrayBufferView).buffer;
  return Object.prototype.toString.call(buffer).slice(8, -1);
}

/** The first byte at which two views differ, or -1 (a length difference counts). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/**
 * The selection's expected bytes, from the written values alone: element by element in C
 * order, the written element or the fill value.
 */
function reference(c: ReadCase, written: Uint8Array, itemSize: number): Uint8Array {
  const lists = c.axes.map((a) => ("index" in a ? [a.index] : a.indices));
  const total = lists.reduce((n, l) => n * l.length, 1);
  const out = new Uint8Array(total * itemSize);
  const fill = bytesOf(FILL[c.dtype].bytes);
  const strides = c.shape.map((_, d) => c.shape.slice(d + 1).reduce((a, b) => a * b, 1));
  const at = lists.map(() => 0);
  for (let k = 0; k < total; k++) {
    const coords = lists.map((l, d) => l[at[d]]);
    const offset = coords.reduce((s, x, d) => s + x * strides[d], 0) * itemSize;
    const source = coords[0] < c.writtenRows ? written.subarray(offset, offset + itemSize) : fill;
    out.set(source, k * itemSize);
    for (let d = lists.length - 1; d >= 0; d--) {
      if (++at[d] < lists[d].length) break;
      at[d] = 0;
    }
  }
  return out;
}

function selectionOf(c: ReadCase): (number | Slice)[] {
  return c.axes.map((a) => ("index" in a ? a.index : slice(a.start, a.stop, a.step)));
}

/** What one read case found: where each read differs from the reference, and its paths. */
export interface ReadOutcome {
  isolated: boolean;
  shape: { reference: number[]; inline: number[]; pooled: number[]; unshared: number[] };
  /** First differing byte against the reference, -1 when equal. */
  differs: { inline: number; pooled: number; unshared: number };
  /** The buffer class under each result. */
  buffer: { inline: string; pooled: string; unshared: string };
  /** The container class of each result. */
  container: { inline: string; pooled: string; unshared: string };
  traffic: { pooled: Traffic; unshared: Traffic };
  /**
   * How many of the chunks the selection touches are in the store: a chunk that holds only the
   * fill value is not stored, however it was written.
   */
  storedChunks: number;
}

/** How many of the chunks the selection touches the store holds. */
function storedChunks(c: ReadCase, store: Map<string, Uint8Array>): number {
  const perAxis = c.axes.map((a, d) => {
    const indices = "index" in a ? [a.index] : a.indices;
    return [...new Set(indices.map((i) => Math.floor(i / c.chunks[d])))];
  });
  let keys = [[] as number[]];
  for (const options of perAxis) keys = keys.flatMap((k) => options.map((o) => [...k, o]));
  // Version 2 keys join the chunk indices with dots, version 3 keys are `c/i/j`.
  return keys.filter((k) => store.has(c.fOrder ? k.join(".") : `c/${k.join("/")}`)).length;
}

/** Writes an array as `c` says, then reads `c.axes` inline, through the pool, and unshared. */
async function readCase(c: ReadCase): Promise<ReadOutcome> {
  const store = new Map<string, Uint8Array>();
  const arr = await createArray(store, {
    shape: c.shape,
    chunks: c.chunks,
    dtype: c.dtype,
    fillValue: FILL[c.dtype].fillValue as never,
    zarrFormat: c.fOrder ? 2 : 3,
    ...(c.fOrder ? { order: "F" as const } : {}),
    compressors: [c.compressor as never],
  });
  const n = c.shape.reduce((a, b) => a * b, 1);
  const values = arr.dataType.create(n) as TypedArray;
  fillValues(values, c.dtype, c.seed);
  const per = n / c.shape[0];
  const written = values.subarray(0, c.writtenRows * per * (values.length / n)) as TypedArray;
  if (c.writtenRows > 0)
    await arr.set(c.writtenRows === c.shape[0] ? null : [slice(0, c.writtenRows)], {
      data: written as never,
      shape: [c.writtenRows, ...c.shape.slice(1)],
    });
  const selection = selectionOf(c) as never;
  const workers = thePool();
  const inline = await arr.get(selection, { workers: false });
  let before = { ...traffic };
  const pooled = await arr.get(selection, { workers });
  const pooledTraffic = since(before);
  before = { ...traffic };
  const unshared = await arr.get(selection, { workers, sharedMemory: false });
  const unsharedTraffic = since(before);
  const itemSize = arr.dataType.itemSize;
  const expected = reference(c, bytesOf(values), itemSize);
  const lists = c.axes.filter((a) => !("index" in a)) as { indices: number[] }[];
  return {
    isolated: globalThis.crossOriginIsolated,
    shape: {
      reference: lists.map((a) => a.indices.length),
      inline: inline.shape,
      pooled: pooled.shape,
      unshared: unshared.shape,
    },
    differs: {
      inline: firstDifference(bytesOf(inline.data as TypedArray), expected),
      pooled: firstDifference(bytesOf(pooled.data as TypedArray), expected),
      unshared: firstDifference(bytesOf(unshared.data as TypedArray), expected),
    },
    buffer: {
      inline: bufferKind(inline.data),
      pooled: bufferKind(pooled.data),
      unshared: bufferKind(unshared.data),
    },
    container: {
      inline: inline.data.constructor.name,
      pooled: pooled.data.constructor.name,
      unshared: unshared.data.constructor.name,
    },
    traffic: { pooled: pooledTraffic, unshared: unsharedTraffic },
    storedChunks: storedChunks(c, store),
  };
}

/**
 * A read into a caller's `out` over a SharedArrayBuffer: the workers fill it in place; one in
 * ordinary memory is filled on this thread.
 */
async function readIntoShared() {
  const store = new Map<string, Uint8Array>();
  const arr = await createArray(store, {
    shape: [96, 120],
    chunks: [32, 50],
    dtype: "float32",
    compressors: [{ name: "zstd", configuration: { level: 1 } }],
  });
  const values = Float32Array.from({ length: 96 * 120 }, (_, i) => Math.cos(i / 7) * i);
  await arr.set(null, { data: values, shape: [96, 120] });
  const selection = [slice(20, 80), slice(null, null, -3)] as never;
  const inline = await arr.get(selection, { workers: false });
  const workers = thePool();
  const out = new Float32Array(new SharedArrayBuffer(60 * 40 * 4));
  let before = { ...traffic };
  const shared = await arr.get(selection, { workers, out });
  const sharedTraffic = since(before);
  const plain = new Float32Array(60 * 40);
  before = { ...traffic };
  await arr.get(selection, { workers, out: plain });
  const plainTraffic = since(before);
  return {
    same: shared.data === out,
    differs: {
      shared: firstDifference(bytesOf(out), bytesOf(inline.data as TypedArray)),
      plain: firstDifference(bytesOf(plain), bytesOf(inline.data as TypedArray)),
    },
    traffic: { shared: sharedTraffic, plain: plainTraffic },
  };
}

/** What one write case found. */
export interface WriteOutcome {
  /** Keys stored by one write and not the other. */
  keys: { pooledOnly: string[]; inlineOnly: string[] };
  /** Keys whose bytes differ. */
  differ: string[];
  /** Keys stored. */
  stored: number;
  traffic: { pooled: Traffic; inline: Traffic };
  /**
   * The pooled write read back against the values written with the patch applied: first
   * differing byte, or -1.
   */
  readBack: number;
}

const WRITE_SHAPE = [50, 60];
/** The partial write's rows and columns (`[slice(3, 9), slice(5, 50, 3)]`). */
const PATCH_ROWS = [3, 4, 5, 6, 7, 8];
const PATCH_COLUMNS = Array.from({ length: 15 }, (_, k) => 5 + 3 * k);

/** Writes one array whole and then in part, through the pool and inline; compares the stores. */
async function writeCase(c: WriteCase): Promise<WriteOutcome> {
  const [rows, columns] = WRITE_SHAPE;
  let expected: TypedArray | undefined;
  const write = async (workers: WorkerPool | false) => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: WRITE_SHAPE,
      ...(c.sharded ? { shards: [32, 40], chunks: [16, 20] } : { chunks: [16, 20] }),
      dtype: c.dtype,
      compressors: [c.compressor as never],
    });
    let data = arr.dataType.create(rows * columns) as TypedArray;
    if (c.sharedSource) {
      const Container = data.constructor as new (
        buffer: SharedArrayBuffer,
        byteOffset: number,
        length: number,
      ) => TypedArray;
      data = new Container(new SharedArrayBuffer(data.byteLength), 0, data.length);
    }
    fillValues(data, c.dtype, c.seed);
    if (!expected) {
      // The values written, then the patch: 1 in every patched element (1 + 0i for complex).
      expected = arr.dataType.create(rows * columns) as TypedArray;
      bytesOf(expected).set(bytesOf(data));
      const lanes = expected.length / (rows * columns);
      for (const r of PATCH_ROWS)
        for (const q of PATCH_COLUMNS) {
          const at = (r * columns + q) * lanes;
          if (expected instanceof BigInt64Array) expected[at] = 1n;
          else {
            expected[at] = 1;
            if (lanes === 2) expected[at + 1] = 0;
          }
        }
    }
    const before = { ...traffic };
    await arr.set(null, { data: data as never, shape: WRITE_SHAPE }, { workers });
    // A partial write: read, modify and write back.
    await arr.set([slice(3, 9), slice(5, 50, 3)], 1 as never, { workers });
    const done = since(before);
    const back = await arr.get(null, { workers: false });
    return { store, traffic: done, back: back.data as TypedArray };
  };
  const pooled = await write(thePool());
  const inline = await write(false);
  const pooledKeys = [...pooled.store.keys()];
  const inlineKeys = [...inline.store.keys()];
  const differ = inlineKeys.filter((key) => {
    const a = pooled.store.get(key);
    const b = inline.store.get(key);
    return a === undefined || b === undefined || firstDifference(a, b) !== -1;
  });
  return {
    keys: {
      pooledOnly: pooledKeys.filter((k) => !inline.store.has(k)),
      inlineOnly: inlineKeys.filter((k) => !pooled.store.has(k)),
    },
    differ,
    stored: inlineKeys.length,
    traffic: { pooled: pooled.traffic, inline: inline.traffic },
    readBack: firstDifference(bytesOf(pooled.back), bytesOf(expected as TypedArray)),
  };
}

/** Whether this page is cross-origin isolated, and whether it has SharedArrayBuffer. */
function isolation() {
  return { isolated: globalThis.crossOriginIsolated, sharedArrayBuffer: typeof SharedArrayBuffer };
}

Object.assign(globalThis, {
  __readCase: readCase,
  __readIntoShared: readIntoShared,
  __writeCase: writeCase,
  __isolation: isolation,
});
