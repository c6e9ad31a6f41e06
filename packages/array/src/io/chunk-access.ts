import type { ChunkDecodePool } from "@z/codecs";
import type { ChunkLayout, ChunkPart, WriteSource } from "@z/indexing";
import type { Chunk, TypedArray } from "@z/ndarray";

/** Progress of a read or write: chunks done out of chunks touched. */
export interface Progress {
  /** Chunks finished. */
  done: number;
  /** Chunks the operation touches. */
  total: number;
}

/** Options of chunk-level reads and writes. */
export interface AccessOptions {
  /** Abort the operation; chunks already in flight finish, no new ones start. */
  signal?: AbortSignal;
  /** How many chunks (or shards) to read or write at once. */
  concurrency?: number;
  /**
   * Where reads decode chunks and writes encode them: a worker pool (`createWorkerPool` from
   * `@z/codecs/workers`), or `false` for the calling thread. Default: the pool
   * `setDefaultDecodePool` set, if any, else the platform's shared pool for codecs worth it.
   */
  workers?: ChunkDecodePool | false;
  /**
   * The read's result when it lies in shared memory (a TypedArray over a SharedArrayBuffer):
   * workers may then copy chunk parts into it themselves, and `readParts` reports those parts
   * as placed. Set by the read, not by callers of the public API.
   */
  placeInto?: { out: TypedArray; lanes: number };
}

/**
 * How reads and writes reach an array's chunks. Selections are projected onto `chunkShape`
 * (for a sharded array, its inner chunks); the access decides how chunks are fetched and
 * stored: one key per chunk, or grouped by shard with ranged reads.
 */
export interface ChunkAccess {
  /**
   * The chunk shape selections are projected onto, or per-axis chunk boundaries when chunks
   * differ in shape (a `rectilinear` grid).
   */
  readonly chunkShape: ChunkLayout;
  /**
   * Fetches and decodes the chunks of `parts` (a bounded number at a time) and hands each to
   * `visit`, with `undefined` for a chunk that was never written. The chunk is `visit`'s to
   * read only while it runs: its memory may be reused for the next chunk. A part a worker
   * already copied into `options.placeInto` is visited with `placed` true and no chunk.
   */
  readParts(
    parts: Iterable<ChunkPart>,
    visit: (part: ChunkPart, chunk: Chunk | undefined, placed?: boolean) => void,
    options: AccessOptions,
  ): Promise<void>;
  /**
   * Writes `source` into the chunks of `parts`: chunks a part covers entirely are replaced
   * without being read, the others are read, modified and written back; chunks left equal to
   * the fill value are deleted. `done` is called after each chunk.
   */
  writeParts(
    parts: Iterable<ChunkPart>,
    source: WriteSource,
    options: AccessOptions,
    done: () => void,
  ): Promise<void>;
  /**
   * Optional: whether a read with these options can have workers copy chunk parts into a
   * result in shared memory (see {@link AccessOptions.placeInto}).
   */
  placesInWorkers?(options: AccessOptions): boolean;
  /**
   * Reads one whole chunk, with whether its memory is the caller's to keep (a codec made it, or
   * the store returns fresh buffers) or shared with the store (to be copied); `undefined` when
   * the chunk was never written. Optional: accesses without it go through `readParts`.
   */
  readWhole?(
    coords: readonly number[],
    options: AccessOptions,
  ): Promise<{ chunk: Chunk; owned: boolean } | undefined>;
}
