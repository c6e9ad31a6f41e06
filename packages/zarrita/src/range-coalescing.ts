import {
  CoalescingStore,
  fromZarritaStore,
  type GetOptions,
  type Readable as StackReadable,
  StoreError,
} from "@z/zarr";
import { UnsupportedError } from "./errors.js";
import { defineStoreExtension } from "./extensions.js";
import type { AbsolutePath, Readable } from "./store.js";

/** What {@link withRangeCoalescing} reports after each batch of range reads of one value. */
export interface FlushReport {
  /** The value's path. */
  path: AbsolutePath;
  /** Requests made to the wrapped store. */
  groupCount: number;
  /** Range reads asked for. */
  requestCount: number;
  /** Bytes the requests fetched. */
  bytesFetched: number;
}

/** Options of {@link withRangeCoalescing}. */
export interface RangeCoalescingOptions {
  /**
   * Ranges of one value read in the same microtask whose gap is at most this many bytes are
   * read by one request (default 32 KiB, as zarrita).
   */
  coalesceSize?: number;
  /** Called after each batch of range reads of one value (a throw is logged and ignored). */
  onFlush?: (report: FlushReport) => void;
}

/** One batch of range reads of one value: the reads asked for, and what they cost. */
interface Batch {
  report: FlushReport;
  reads: Promise<unknown>[];
  /** Settles once every read of the batch has and the report is out. */
  done?: Promise<void>;
}

/**
 * The wrapped store as the merging store reads it: an answer shorter than the range asked for
 * fails every read it serves, and each request is counted in its value's batch.
 */
class CountingSource implements StackReadable {
  constructor(
    private readonly inner: StackReadable,
    private readonly batches: Map<string, Batch>,
  ) {}

  async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    const batch = this.batches.get(key);
    if (batch) batch.report.groupCount++;
    const bytes = await this.inner.get(key, options);
    const range = options?.range;
    if (bytes !== undefined && range !== undefined && "length" in range) {
      if (bytes.length < range.length) {
        const wanted = `${range.length} bytes at ${range.offset}`;
        throw new StoreError(`Short read of /${key}: asked for ${wanted}, got ${bytes.length}`, {
          key,
        });
      }
    }
    if (batch && bytes) batch.report.bytesFetched += bytes.length;
    return bytes;
  }
}

/**
 * A store that merges the byte-range reads of one value made together (the shard index and
 * chunk reads of a sharded array) into fewer requests (zarrita's `withRangeCoalescing`), with
 * `@z/store-core`'s `CoalescingStore` doing the merging. Suffix reads and whole reads pass
 * through.
 * @throws UnsupportedError when the store cannot read ranges
 * @example
 * ```ts
 * const store = withRangeCoalescing(new FetchStore(url), { coalesceSize: 64 * 1024 });
 * ```
 * @category Stores
 */
export const withRangeCoalescing = defineStoreExtension(
  (inner: Readable, options: RangeCoalescingOptions | undefined) => {
    const getRange = inner.getRange?.bind(inner);
    if (!getRange) {
      throw new UnsupportedError("`zarr.withRangeCoalescing` requires a store with getRange");
    }
    const batches = new Map<string, Batch>();
    const source = new CountingSource(fromZarritaStore(inner), batches);
    const merged = new CoalescingStore(source, { gap: options?.coalesceSize ?? 32 * 1024 });
    const onFlush = options?.onFlush;

    /** The batch of reads of `key` made in this microtask, reported once they all settle. */
    function batchOf(key: string, path: AbsolutePath): Batch {
      let batch = batches.get(key);
      if (batch === undefined) {
        const report = { path, groupCount: 0, requestCount: 0, bytesFetched: 0 };
        const opened: Batch = { report, reads: [] };
        batches.set(key, opened);
        // The merging store sends its requests at the end of this microtask; the batch closes
        // right after, and reports when its reads are done.
        queueMicrotask(() => {
          batches.delete(key);
          opened.done = Promise.allSettled(opened.reads).then(() => {
            if (report.groupCount > 0) emit(report);
          });
        });
        batch = opened;
      }
      return batch;
    }

    function emit(report: FlushReport): void {
      try {
        onFlush?.(report);
      } catch (err) {
        console.warn("withRangeCoalescing: onFlush threw, ignoring it:", err);
      }
    }

    return {
      async getRange(
        path: AbsolutePath,
        range: Parameters<typeof getRange>[1],
        opts?: { signal?: AbortSignal },
      ): Promise<Uint8Array | undefined> {
        if ("suffixLength" in range) return getRange(path, range, opts);
        const key = path.slice(1);
        // The read first: the merging store then sends its requests (at the end of this
        // microtask) before the batch closes, so they are counted in it.
        const read = merged.get(key, {
          range: { offset: range.offset, length: range.length },
          signal: opts?.signal,
        });
        const batch = batchOf(key, path);
        batch.report.requestCount++;
        batch.reads.push(read);
        // Answer once the batch has reported, so a caller sees the report of its reads.
        try {
          return await read;
        } finally {
          await batch.done;
        }
      },
    };
  },
);
