import { nameErrorClass } from "@z/errors";
import type { NamedConfig } from "@z/metadata";
import type { Chunk, TypedArray } from "@z/ndarray";
import { isTypedArray, product } from "@z/ndarray";
import { CodecError } from "../errors.js";
import { CodecPipeline } from "../pipeline.js";
import type { ChunkSpec } from "../types.js";
import {
  type ChunkDecodePool,
  defaultWorkerCount,
  type PlaceTarget,
  type PoolDecodeOptions,
} from "./decode-pool.js";
import {
  type DecodeReply,
  type DecodeRequest,
  type EncodeRequest,
  errorFromJson,
  type PlaceRequest,
} from "./protocol.js";
import { decodableInWorker, specToMessage } from "./spec-message.js";

declare module "@z/errors" {
  interface ZarrErrorMap {
    WorkerPoolClosedError: WorkerPoolClosedError;
    WorkerFailedError: WorkerFailedError;
  }
}

/** One worker as the pool drives it: Web Worker and worker_threads both fit. */
export interface PoolWorker {
  /** Posts a request, moving the listed buffers. */
  postMessage(message: DecodeRequest | EncodeRequest, transfer: ArrayBuffer[]): void;
  /** Stops the worker. */
  terminate(): unknown;
  /**
   * Hears whether the worker has a decode to finish: a Node worker keeps the process alive only
   * then (an idle pool must not hold it open, a pending read must).
   */
  busy?(busy: boolean): void;
}

/**
 * Starts one worker that answers decode requests, calling `onReply` with each reply and
 * `onFailure` when the worker itself fails (its script did not load, it crashed).
 */
export type PoolWorkerFactory = (
  onReply: (reply: DecodeReply) => void,
  onFailure: (error: Error) => void,
) => PoolWorker;

/** Options of a worker pool. */
export interface WorkerPoolOptions {
  /** How many workers at most (started on demand). Default: {@link defaultWorkerCount}. */
  size?: number;
  /**
   * Chunks that decode to fewer bytes than this are decoded inline on the calling thread:
   * posting them to a worker costs more than decoding them. Default 64 KiB; 0 sends every chunk.
   */
  inlineBelow?: number;
  /**
   * How many decodes may wait for a free worker; further callers wait for room before their
   * bytes are queued, so memory stays bounded. Default four per worker.
   */
  maxQueued?: number;
  /**
   * While every worker is busy and decodes are waiting, decode the next chunk on the calling
   * thread rather than queue it, so that thread's core works too. Default false: while the
   * calling thread decodes, it cannot hand the workers their next chunks or copy finished ones
   * into the output: Node reads of blosc chunks measured 8-28% slower with it on, zstd reads no
   * faster, and both held more memory (bench/README.md). A browser's calling thread is the
   * page's UI thread besides.
   */
  inlineWhenBusy?: boolean;
}

/** What the pool has been doing, for tests and monitoring. */
export interface WorkerPoolStats {
  /** Workers started and alive. */
  workers: number;
  /** Decodes running in a worker now. */
  running: number;
  /** Decodes waiting for a worker. */
  queued: number;
  /** Decodes ever posted to a worker. */
  dispatched: number;
  /** Decodes ever done inline (small chunks, containers that are not TypedArrays). */
  inline: number;
}

/** The error a pool's pending decodes reject with when it is closed. */
export class WorkerPoolClosedError extends CodecError {
  static {
    nameErrorClass(WorkerPoolClosedError, "WorkerPoolClosedError");
  }
}

/**
 * The error a decode rejects with when its worker could not start (a missing or broken worker
 * module, workers not allowed here) or failed while decoding (it crashed or exited).
 */
export class WorkerFailedError extends CodecError {
  static {
    nameErrorClass(WorkerFailedError, "WorkerFailedError");
  }
}

interface Job {
  request: DecodeRequest | EncodeRequest;
  spec: ChunkSpec;
  resolve: (result: Chunk | Uint8Array | undefined) => void;
  reject: (error: unknown) => void;
  signal?: AbortSignal;
}

/** What one signal's abort must stop: its queued or running jobs, and callers waiting for room. */
interface SignalWatch {
  jobs: Set<Job>;
  waiters: Set<() => void>;
  onAbort: () => void;
}

interface Slot {
  worker: PoolWorker;
  job?: Job;
}

/**
 * A pool of workers that decode chunks (see {@link ChunkDecodePool}): a bounded queue, workers
 * started on demand up to `size`, buffers transferred rather than copied, abort of queued work,
 * and small chunks decoded inline. The platform halves (`createWorkerPool` for browsers and for
 * Node) only say how a worker starts.
 * @category Workers
 */
export class WorkerPool implements ChunkDecodePool {
  /** The most workers this pool runs. */
  readonly size: number;
  /** Chunks decoding to fewer bytes than this stay on the calling thread. */
  readonly inlineBelow: number;
  /** The most decodes that wait for a worker. */
  readonly maxQueued: number;
  /** Whether the calling thread decodes while every worker is busy. */
  readonly inlineWhenBusy: boolean;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly roomWaiters: (() => void)[] = [];
  /**
   * The unsettled jobs of each signal: one abort listener per signal, however many chunks a
   * read has in flight (a listener per job trips Node's leak warning on large reads).
   */
  private readonly bySignal = new Map<AbortSignal, SignalWatch>();
  private nextId = 1;
  private dispatched = 0;
  private inline = 0;
  private closed = false;

  constructor(
    private readonly startWorker: PoolWorkerFactory,
    options: WorkerPoolOptions = {},
  ) {
    this.size = options.size ?? defaultWorkerCount();
    if (!Number.isInteger(this.size) || this.size < 1)
      throw new RangeError(`A worker pool's size must be an integer >= 1, got ${this.size}`);
    this.inlineBelow = options.inlineBelow ?? 64 * 1024;
    this.maxQueued = options.maxQueued ?? 4 * this.size;
    this.inlineWhenBusy = options.inlineWhenBusy ?? false;
    if (!Number.isInteger(this.maxQueued) || this.maxQueued < 1)
      throw new RangeError(`maxQueued must be an integer >= 1, got ${this.maxQueued}`);
  }

  async decode(
    bytes: Uint8Array,
    codecs: readonly NamedConfig[],
    spec: ChunkSpec,
    options: PoolDecodeOptions,
  ): Promise<Chunk> {
    return (await this.submit(bytes, codecs, spec, options)) as Chunk;
  }

  /**
   * Decodes like {@link decode}, then has the worker copy the chunk's parts into `target.out`,
   * a view of a SharedArrayBuffer: resolves to undefined once they are there. A chunk the pool
   * keeps on the calling thread (a small one, or while the caller helps) resolves to the
   * decoded chunk instead, for the caller to copy.
   * @throws TypeError when `target.out` is not in shared memory
   */
  async decodeInto(
    bytes: Uint8Array,
    codecs: readonly NamedConfig[],
    spec: ChunkSpec,
    target: PlaceTarget,
    options: PoolDecodeOptions,
  ): Promise<Chunk | undefined> {
    if (!isShared(target.out))
      throw new TypeError("decodeInto needs a result in a SharedArrayBuffer");
    const place = { out: target.out, regions: [...target.regions], lanes: target.lanes };
    return this.submit(bytes, codecs, spec, options, place);
  }

  private async submit(
    bytes: Uint8Array,
    codecs: readonly NamedConfig[],
    spec: ChunkSpec,
    options: PoolDecodeOptions,
    place?: PlaceRequest,
  ): Promise<Chunk | undefined> {
    if (this.staysInline(spec, options, decodableInWorker(spec))) {
      if (options.inline) return options.inline(bytes);
      return inlinePipeline(codecs, spec, options.zarrFormat).decode(bytes);
    }
    // Only await when the queue is full: a decode with room is queued (and abortable) at once.
    if (this.queue.length >= this.maxQueued) await this.waitForRoom(options.signal);
    const request: DecodeRequest = {
      id: this.nextId++,
      bytes: movable(bytes, options.transfer),
      codecs: [...codecs],
      spec: specToMessage(spec),
      zarrFormat: options.zarrFormat,
    };
    if (place) request.place = place;
    return (await this.enqueue(request, spec, options.signal)) as Chunk | undefined;
  }

  /**
   * Encodes a chunk through `codecs` in a worker: the same bytes as
   * `CodecPipeline.create(codecs, spec, zarrFormat).encode(chunk)`. The chunk's buffer moves to
   * the worker when `options.transfer` says nothing else holds it (it is copied otherwise);
   * small chunks, and containers that are no TypedArrays, encode on the calling thread.
   * @throws CodecError (as the pipeline would), the signal's reason on abort
   */
  async encode(
    chunk: Chunk,
    codecs: readonly NamedConfig[],
    spec: ChunkSpec,
    options: PoolDecodeOptions,
  ): Promise<Uint8Array> {
    const data = chunk.data;
    if (this.staysInline(spec, options, isTypedArray(data)))
      return inlinePipeline(codecs, spec, options.zarrFormat).encode(chunk);
    if (this.queue.length >= this.maxQueued) await this.waitForRoom(options.signal);
    const request: EncodeRequest = {
      id: this.nextId++,
      encode: true,
      data: movable(data as TypedArray, options.transfer),
      shape: [...chunk.shape],
      stride: [...chunk.stride],
      codecs: [...codecs],
      spec: specToMessage(spec),
      zarrFormat: options.zarrFormat,
    };
    return (await this.enqueue(request, spec, options.signal)) as Uint8Array;
  }

  /**
   * Whether a chunk of `spec` is decoded or encoded on the calling thread (counted as such):
   * it is small, cannot cross to a worker, or the caller helps a busy pool.
   * @throws the signal's reason when aborted; WorkerPoolClosedError when the pool is closed
   */
  private staysInline(spec: ChunkSpec, options: PoolDecodeOptions, crosses: boolean): boolean {
    options.signal?.throwIfAborted();
    if (this.closed) throw new WorkerPoolClosedError("The codec worker pool is closed");
    const decodedBytes = product(spec.shape) * spec.dataType.itemSize;
    if (decodedBytes >= this.inlineBelow && crosses && !this.callerShouldHelp()) return false;
    this.inline++;
    return true;
  }

  /** Queues a request for the next free worker. */
  private enqueue(
    request: DecodeRequest | EncodeRequest,
    spec: ChunkSpec,
    signal: AbortSignal | undefined,
  ): Promise<Chunk | Uint8Array | undefined> {
    return new Promise((resolve, reject) => {
      const job: Job = { request, spec, resolve, reject, signal };
      if (signal) this.watchFor(signal).jobs.add(job);
      this.queue.push(job);
      this.pump();
    });
  }

  /** Whether every worker is busy with decodes waiting behind them, and the caller may help. */
  private callerShouldHelp(): boolean {
    if (!this.inlineWhenBusy || this.queue.length === 0 || this.slots.length < this.size)
      return false;
    return this.slots.every((slot) => slot.job !== undefined);
  }

  /** What the pool is doing now and has done. */
  stats(): WorkerPoolStats {
    return {
      workers: this.slots.length,
      running: this.slots.filter((s) => s.job).length,
      queued: this.queue.length,
      dispatched: this.dispatched,
      inline: this.inline,
    };
  }

  /** Stops every worker; pending decodes reject with {@link WorkerPoolClosedError}. */
  close(): void {
    this.closed = true;
    const error = new WorkerPoolClosedError("The codec worker pool was closed");
    for (const job of this.queue.splice(0)) this.settle(job, error);
    for (const slot of this.slots.splice(0)) {
      if (slot.job) this.settle(slot.job, error);
      slot.worker.terminate();
    }
    for (const wake of this.roomWaiters.splice(0)) wake();
  }

  /** Drops a queued job, or detaches a running one (its worker's answer is ignored). */
  private abortJob(job: Job, reason: unknown): void {
    const at = this.queue.indexOf(job);
    if (at >= 0) {
      this.queue.splice(at, 1);
      this.wakeOne();
    } else {
      const slot = this.slots.find((s) => s.job === job);
      // The worker finishes this chunk anyway; its reply finds no job and is dropped.
      if (slot) slot.job = { ...job, resolve: () => {}, reject: () => {}, signal: undefined };
    }
    this.settle(job, reason);
  }

  /** Waits until the queue has room (or the signal aborts, or the pool closes). */
  private async waitForRoom(signal: AbortSignal | undefined): Promise<void> {
    while (this.queue.length >= this.maxQueued) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          if (signal) {
            this.bySignal.get(signal)?.waiters.delete(wake);
            this.release(signal);
          }
          resolve();
        };
        this.roomWaiters.push(wake);
        if (signal) this.watchFor(signal).waiters.add(wake);
      });
      if (signal?.aborted || this.closed) {
        // A wake-up this caller will not use goes to the next one, or it could wait forever.
        if (this.queue.length < this.maxQueued) this.wakeOne();
        signal?.throwIfAborted();
        throw new WorkerPoolClosedError("The codec worker pool is closed");
      }
    }
  }

  /** The watch of a signal, with its one abort listener. */
  private watchFor(signal: AbortSignal): SignalWatch {
    let entry = this.bySignal.get(signal);
    if (!entry) {
      const watch: SignalWatch = { jobs: new Set(), waiters: new Set(), onAbort: () => {} };
      watch.onAbort = () => {
        for (const job of [...watch.jobs]) this.abortJob(job, signal.reason);
        for (const wake of [...watch.waiters]) {
          const at = this.roomWaiters.indexOf(wake);
          if (at >= 0) this.roomWaiters.splice(at, 1);
          wake();
        }
      };
      entry = watch;
      this.bySignal.set(signal, entry);
      signal.addEventListener("abort", entry.onAbort, { once: true });
    }
    return entry;
  }

  /** Drops a signal's listener once nothing is left to stop. */
  private release(signal: AbortSignal): void {
    const entry = this.bySignal.get(signal);
    if (entry && entry.jobs.size === 0 && entry.waiters.size === 0) {
      signal.removeEventListener("abort", entry.onAbort);
      this.bySignal.delete(signal);
    }
  }

  private settle(job: Job, outcome: unknown, ok = false): void {
    if (job.signal) {
      this.bySignal.get(job.signal)?.jobs.delete(job);
      this.release(job.signal);
    }
    if (ok) job.resolve(outcome as Chunk | Uint8Array | undefined);
    else job.reject(outcome);
  }

  /**
   * Fails every queued job, and wakes every caller waiting for room: the queue is empty now, so
   * they queue their chunks and meet the same failure rather than wait forever.
   */
  private failQueued(failure: Error): void {
    for (const job of this.queue.splice(0)) this.settle(job, failure);
    for (const wake of this.roomWaiters.splice(0)) wake();
  }

  private wakeOne(): void {
    this.roomWaiters.shift()?.();
  }

  /** Starts queued jobs on idle workers, starting workers up to `size`. */
  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.size) {
        try {
          slot = this.addSlot();
        } catch (error) {
          // A worker that cannot even be constructed (a bad URL, workers not allowed here).
          const failure = new WorkerFailedError(`Cannot start a codec worker: ${String(error)}`, {
            cause: error,
          });
          if (this.slots.length === 0) this.failQueued(failure);
          return;
        }
      }
      if (!slot) return;
      const job = this.queue.shift() as Job;
      this.wakeOne();
      slot.worker.busy?.(true);
      slot.job = job;
      this.dispatched++;
      const { request } = job;
      const moved = "encode" in request ? request.data.buffer : request.bytes.buffer;
      slot.worker.postMessage(request, moved instanceof ArrayBuffer ? [moved] : []);
    }
  }

  private addSlot(): Slot {
    const slot: Slot = {} as Slot;
    slot.worker = this.startWorker(
      (reply) => this.onReply(slot, reply),
      (error) => this.onFailure(slot, error),
    );
    this.slots.push(slot);
    return slot;
  }

  private onReply(slot: Slot, reply: DecodeReply): void {
    const job = slot.job;
    slot.job = undefined;
    if (this.queue.length === 0) slot.worker.busy?.(false);
    if (job && job.request.id === reply.id) {
      if ("error" in reply) this.settle(job, errorFromJson(reply.error));
      else if ("placed" in reply) this.settle(job, undefined, true);
      else if ("encoded" in reply) this.settle(job, reply.encoded, true);
      else this.settle(job, { data: rewrap(reply.data, job.spec), ...shapeOf(reply) }, true);
    }
    this.pump();
  }

  /** A worker that fails is dropped; its job fails with the worker's error. */
  private onFailure(slot: Slot, error: Error): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return; // already dropped (an exit after an error) or the pool is closed
    this.slots.splice(at, 1);
    slot.worker.terminate();
    const failure = new WorkerFailedError(`A codec worker failed: ${error.message}`, {
      cause: error,
    });
    if (slot.job) this.settle(slot.job, failure);
    // With no worker left that could start, queued jobs would wait forever: fail them too.
    if (this.slots.length === 0) this.failQueued(failure);
    this.pump();
  }
}

/** Pipelines for inline decodes of callers that bring none, per spec and codec chain objects. */
const inlinePipelines = new WeakMap<ChunkSpec, WeakMap<readonly NamedConfig[], CodecPipeline>>();

/** The calling thread's pipeline for a spec and chain (built on first use, kept while both live). */
function inlinePipeline(
  codecs: readonly NamedConfig[],
  spec: ChunkSpec,
  zarrFormat: 2 | 3,
): CodecPipeline {
  let bySpec = inlinePipelines.get(spec);
  if (!bySpec) inlinePipelines.set(spec, (bySpec = new WeakMap()));
  let pipeline = bySpec.get(codecs);
  if (!pipeline) {
    pipeline = CodecPipeline.create(codecs, spec, zarrFormat, {}, "codecs of a pooled decode");
    bySpec.set(codecs, pipeline);
  }
  return pipeline;
}

function shapeOf(reply: { shape: number[]; stride: number[] }) {
  return { shape: reply.shape, stride: reply.stride };
}

/**
 * The decoded elements in the container class the data type uses (a worker's reply arrives as
 * a plain TypedArray: structured cloning drops subclasses such as BoolArray or Complex64Array).
 */
function rewrap(data: ArrayBufferView, spec: ChunkSpec): TypedArray {
  const sample = spec.dataType.create(0) as TypedArray;
  const Container = sample.constructor as new (
    buffer: ArrayBufferLike,
    byteOffset: number,
    length: number,
  ) => TypedArray;
  if (data instanceof Container) return data as TypedArray;
  return new Container(data.buffer, data.byteOffset, data.byteLength / sample.BYTES_PER_ELEMENT);
}

/**
 * What of a view goes into a message: the view itself when its buffer may move (the caller's own,
 * whole, `transfer` set) or lies in shared memory (shared, and left unchanged by the caller
 * until the worker answers); else a copy, since someone else still holds it.
 */
function movable<T extends ArrayBufferView & { slice(): T }>(view: T, transfer?: boolean): T {
  const whole = view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
  const own = transfer === true && whole && view.buffer instanceof ArrayBuffer;
  return own || isShared(view) ? view : view.slice();
}

/** Whether a view lies in a SharedArrayBuffer (which a message shares instead of copying). */
function isShared(view: ArrayBufferView): boolean {
  return typeof SharedArrayBuffer === "function" && view.buffer instanceof SharedArrayBuffer;
}
