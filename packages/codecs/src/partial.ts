/**
 * Partial I/O of a chunk: the capability an array-to-bytes codec may offer (the sharding codec
 * does) to read some of a chunk's sub-chunks without decoding the rest, and to rewrite some of
 * them while the others keep their stored bytes. Sub-chunks form a regular grid over the chunk
 * (`subchunkShape`); the array layer projects selections onto that grid.
 */
import type { Chunk, ChunkRegion, TypedArray } from "@z/ndarray";
import type { ByteRangeSource } from "./byte-source.js";
import type { ChunkDecodePool } from "./workers/decode-pool.js";

/** Options of partial decodes and encodes. */
export interface PartialIoOptions {
  /** Abort the reads. */
  signal?: AbortSignal;
  /**
   * Where partial decodes decode whole inner chunks: a worker pool, or `false` for the calling
   * thread. Default: the pool `setDefaultDecodePool` set, if any (or the platform's shared one).
   */
  workers?: ChunkDecodePool | false;
  /**
   * Encodes a whole chunk away from the calling thread (the array's write path passes its
   * worker pool this way); `rebuild` makes the same chunk again, for a fallback after its
   * buffer moved. Default: the pipeline encodes on the calling thread.
   */
  encodeChunk?: (chunk: Chunk, rebuild: () => Chunk) => Promise<Uint8Array>;
  /**
   * A result in shared memory that workers may copy sub-chunks' parts into themselves, with the
   * parts of each requested sub-chunk. A sub-chunk placed so is reported as `null` by
   * {@link PartialDecoder.decodeSubchunks}.
   */
  place?: PlaceSubchunks;
}

/**
 * Where a partial decode's workers may copy sub-chunks' parts: the result (a TypedArray over a
 * SharedArrayBuffer) and, per requested sub-chunk in the order of the request, its parts as
 * strided regions of it (undefined: the sub-chunk is returned, not placed).
 */
export interface PlaceSubchunks {
  /** The result, in shared memory. */
  out: TypedArray;
  /** Container slots per element (2 for interleaved complex). */
  lanes: number;
  /** Per requested sub-chunk, its parts in the result. */
  regions: readonly (readonly ChunkRegion[] | undefined)[];
}

/**
 * Reads sub-chunks of one stored chunk, fetching only the bytes they need. Made by
 * {@link PartialArrayToBytes.partialDecoder}, which reads what every later read needs (a shard's
 * index); callers may keep it for later reads of the same chunk while the chunk is unchanged.
 * @category Codecs
 */
export interface PartialDecoder {
  /** Bytes the decoder keeps in memory (its index), for caches to weigh it. */
  readonly heldBytes: number;
  /**
   * Decodes the sub-chunks at `coords` (each in the chunk's sub-chunk grid), in that order;
   * `undefined` for a sub-chunk that was never written (it reads as the fill value), `null` for
   * one whose parts a worker copied into `options.place`'s result.
   * @throws DecodeError naming the sub-chunk, ChecksumError
   */
  decodeSubchunks(
    coords: readonly (readonly number[])[],
    options?: PartialIoOptions,
  ): Promise<(Chunk | undefined | null)[]>;
}

/** A change to one sub-chunk, for a partial encode. */
export interface SubchunkWrite {
  /** The sub-chunk's coordinates in the chunk's sub-chunk grid. */
  coords: readonly number[];
  /**
   * Whether `write` sets every element that matters (the stored sub-chunk then need not be
   * decoded: `write` gets a fill-valued one).
   */
  covers: boolean;
  /** Writes into a C-order copy of the sub-chunk (its stored values, or the fill value). */
  write(chunk: Chunk): void;
}

/**
 * The partial I/O capability of an array-to-bytes codec, bound to the chunk spec it was built
 * for.
 * @category Codecs
 */
export interface PartialArrayToBytes {
  /** The shape of the sub-chunks partial reads and writes work on (divides the chunk shape). */
  readonly subchunkShape: readonly number[];
  /**
   * A decoder of the chunk stored in `source`, or undefined when the source does not exist.
   * @throws DecodeError when what it reads up front (an index) is corrupt
   */
  partialDecoder(
    source: ByteRangeSource,
    options?: PartialIoOptions,
  ): Promise<PartialDecoder | undefined>;
  /**
   * The new stored bytes of a chunk after `writes` (each sub-chunk at most once), given its
   * stored bytes `current` (undefined: not stored); undefined when the chunk is left all fill
   * value (it should be deleted). Sub-chunks not written keep their stored bytes.
   */
  partialEncode(
    current: Uint8Array | undefined,
    writes: readonly SubchunkWrite[],
    options?: PartialIoOptions,
  ): Promise<Uint8Array | undefined>;
  /**
   * Optional: whether decodes with these options can have workers copy sub-chunks' parts into a
   * shared result ({@link PartialIoOptions.place}) rather than return them.
   */
  placesSubchunks?(options: PartialIoOptions): boolean;
}
