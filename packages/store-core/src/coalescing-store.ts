import { throwIfAborted } from "./errors.js";
import { ForwardingStore } from "./forwarding-store.js";
import { type ByteRange, validateRange } from "./range.js";
import { getRangesOf } from "./ranges-of.js";
import type { GetOptions, Readable } from "./store.js";

/** Options of a {@link CoalescingStore}. */
export interface CoalescingStoreOptions {
  /**
   * Ranges of one value whose gap is at most this many bytes are read by one request (default
   * 16 KiB). Reading a gap costs its bytes; a request costs a round trip: over HTTP a round trip
   * is worth tens to hundreds of KiB, on a local disk a few KiB.
   */
  gap?: number;
  /**
   * Also merge the ranges of separate `get` calls for the same key (and the same signal) made in
   * the same microtask, as `Promise.all(ranges.map((range) => store.get(key, {range})))` does
   * (default true). Whole-value and suffix reads are never delayed.
   */
  batchGets?: boolean;
}

/** One request a {@link coalesceRanges} plan issues, and the input ranges it serves. */
export interface CoalescedRange {
  /** The range to request. */
  range: ByteRange;
  /** Indexes of the input ranges this request serves. */
  members: number[];
}

/** Counts of a {@link CoalescingStore}: ranges asked for, and requests made to the inner store. */
export interface CoalescingStats {
  ranges: number;
  requests: number;
}

/**
 * Plans the requests for reading `ranges` of one value: bounded and open-ended ranges whose gap
 * is at most `gap` bytes merge into one request; suffix ranges (whose position is unknown until
 * the size is) are requested alone. Overlapping ranges merge whatever the gap.
 */
export function coalesceRanges(ranges: readonly ByteRange[], gap: number): CoalescedRange[] {
  const plan: CoalescedRange[] = [];
  const positioned: { start: number; end: number; index: number }[] = [];
  ranges.forEach((range, index) => {
    if ("suffix" in range) plan.push({ range, members: [index] });
    else {
      const end = "length" in range ? range.offset + range.length : Number.POSITIVE_INFINITY;
      positioned.push({ start: range.offset, end, index });
    }
  });
  positioned.sort((a, b) => a.start - b.start || a.index - b.index);
  let group: { start: number; end: number; members: number[] } | undefined;
  const flush = () => {
    if (group === undefined) return;
    const { start, end, members } = group;
    const range =
      members.length === 1
        ? ranges[members[0]]
        : end === Number.POSITIVE_INFINITY
          ? { offset: start }
          : { offset: start, length: end - start };
    plan.push({ range, members });
  };
  for (const item of positioned) {
    if (group !== undefined && item.start <= group.end + gap) {
      group.end = Math.max(group.end, item.end);
      group.members.push(item.index);
      continue;
    }
    flush();
    group = { start: item.start, end: item.end, members: [item.index] };
  }
  flush();
  return plan;
}

/** The part of a merged read that one of its ranges asked for, clipped like a store clips. */
function slicePart(merged: Uint8Array, mergedOffset: number, range: ByteRange): Uint8Array {
  if ("suffix" in range) return merged;
  const start = Math.min(range.offset - mergedOffset, merged.length);
  const end = "length" in range ? Math.min(start + range.length, merged.length) : merged.length;
  return merged.subarray(start, Math.max(start, end));
}

interface PendingGet {
  range: ByteRange;
  resolve: (value: Uint8Array | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Merges nearby byte ranges of one value into fewer reads of the wrapped store: `getRanges`
 * reads ranges whose gap is at most `gap` bytes with one `get` and slices the results back, and
 * (unless `batchGets` is false) ranged `get` calls for the same key made in the same microtask
 * are merged the same way. Put it in front of stores where a request costs a round trip (HTTP,
 * zip over HTTP). Parts of one merged read are views of one buffer: treat them as read-only.
 *
 * @example
 * ```ts
 * const store = new CoalescingStore(new HttpStore(url), { gap: 64 * 1024 });
 * await store.getRanges("a/c/0", [{ offset: 0, length: 100 }, { offset: 200, length: 50 }]); // one request
 * ```
 * @category Stores
 */
export class CoalescingStore extends ForwardingStore {
  /** Ranges asked for and requests made so far. */
  readonly stats: CoalescingStats = { ranges: 0, requests: 0 };
  readonly #gap: number;
  readonly #batchGets: boolean;
  /** Ranged gets waiting for the end of the microtask, per key and signal. */
  #pending = new Map<string, Map<AbortSignal | undefined, PendingGet[]>>();
  #flushScheduled = false;

  constructor(inner: Readable, options: CoalescingStoreOptions = {}) {
    super(inner);
    this.#gap = options.gap ?? 16 * 1024;
    if (!Number.isSafeInteger(this.#gap) || this.#gap < 0) {
      throw new RangeError(`gap must be a non-negative integer, got ${options.gap}`);
    }
    this.#batchGets = options.batchGets ?? true;
  }

  // Keys pass through unchecked (the wrapped store checks them); ranges are checked here,
  // since they are merged before the wrapped store sees them.
  override async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    const range = options?.range;
    if (range) validateRange(range);
    throwIfAborted(options?.signal);
    this.stats.ranges++;
    if (!this.#batchGets || range === undefined || "suffix" in range) {
      this.stats.requests++;
      return this.inner.get(key, options);
    }
    return new Promise((resolve, reject) => {
      let bySignal = this.#pending.get(key);
      if (bySignal === undefined) this.#pending.set(key, (bySignal = new Map()));
      let queue = bySignal.get(options?.signal);
      if (queue === undefined) bySignal.set(options?.signal, (queue = []));
      queue.push({ range, resolve, reject });
      if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        queueMicrotask(() => this.#flush());
      }
    });
  }

  async getRanges(
    key: string,
    ranges: readonly ByteRange[],
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array[] | undefined> {
    for (const range of ranges) validateRange(range);
    throwIfAborted(options?.signal);
    this.stats.ranges += ranges.length;
    if (ranges.length === 0) {
      // Nothing to read, but a missing key must still read as missing.
      this.stats.requests++;
      return getRangesOf(this.inner, key, ranges, options);
    }
    return this.#read(key, ranges, options?.signal);
  }

  /** Reads ranges of one value with as few requests as the gap allows. */
  async #read(
    key: string,
    ranges: readonly ByteRange[],
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array[] | undefined> {
    const plan = coalesceRanges(ranges, this.#gap);
    this.stats.requests += plan.length;
    const reads = await Promise.all(
      plan.map(({ range }) => this.inner.get(key, { range, signal })),
    );
    if (reads.some((bytes) => bytes === undefined)) return undefined;
    const parts: Uint8Array[] = new Array(ranges.length);
    plan.forEach(({ range, members }, i) => {
      const merged = reads[i]!;
      const offset = "offset" in range ? range.offset : 0;
      for (const member of members) {
        parts[member] = members.length === 1 ? merged : slicePart(merged, offset, ranges[member]);
      }
    });
    return parts;
  }

  #flush(): void {
    this.#flushScheduled = false;
    const pending = this.#pending;
    this.#pending = new Map();
    for (const [key, bySignal] of pending) {
      for (const [signal, queue] of bySignal) {
        if (queue.length === 1) {
          const [only] = queue;
          this.stats.requests++;
          this.inner.get(key, { range: only.range, signal }).then(only.resolve, only.reject);
          continue;
        }
        this.#read(
          key,
          queue.map((p) => p.range),
          signal,
        ).then(
          (parts) => {
            for (const [i, p] of queue.entries()) p.resolve(parts?.[i]);
          },
          (error) => {
            for (const p of queue) p.reject(error);
          },
        );
      }
    }
  }
}
