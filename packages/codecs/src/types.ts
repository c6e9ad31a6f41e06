import type { DataType, JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk, IndexRange } from "@z/ndarray";
import type { PartialArrayToBytes } from "./partial.js";

/** What a codec knows about the chunks it encodes: their shape, element type and fill value. */
export interface ChunkSpec {
  /** The chunk shape (full chunk shape, also for edge chunks). */
  shape: number[];
  /** The element type. */
  dataType: DataType;
  /** The fill value, a scalar of the data type. */
  fillValue: unknown;
}

/** Members every codec has. */
export interface CodecBase {
  /** The name it is written under in metadata. */
  readonly name: string;
  /** Its metadata entry. */
  toJson(): NamedConfig;
}

/** An array-to-array codec (transpose, numcodecs filters): chunk in, chunk out. */
export interface ArrayToArrayCodec extends CodecBase {
  /** Discriminates the three codec kinds. */
  readonly kind: "array_to_array";
  /** The spec of the chunks this codec produces from chunks of `spec`. */
  encodedSpec(spec: ChunkSpec): ChunkSpec;
  /** Encodes a chunk of `spec`. */
  encode(chunk: Chunk, spec: ChunkSpec): Chunk | Promise<Chunk>;
  /** Decodes a chunk back to `spec` (the decoded side's spec). */
  decode(chunk: Chunk, spec: ChunkSpec): Chunk | Promise<Chunk>;
}

/** The array-to-bytes codec (bytes, sharding, vlen): chunk in, bytes out. */
export interface ArrayToBytesCodec extends CodecBase {
  /** Discriminates the three codec kinds. */
  readonly kind: "array_to_bytes";
  /** Serialises a chunk of `spec`. */
  encode(chunk: Chunk, spec: ChunkSpec): Uint8Array | Promise<Uint8Array>;
  /** Deserialises bytes into a chunk of `spec`. @throws DecodeError */
  decode(bytes: Uint8Array, spec: ChunkSpec): Chunk | Promise<Chunk>;
  /** The exact encoded size of a chunk of `spec`, when it is fixed. */
  encodedSize?(spec: ChunkSpec): number | undefined;
  /**
   * Partial reads and writes of the chunks this codec was built for, when it offers them (the
   * sharding codec does). {@link CodecPipeline} uses them only when no bytes-to-bytes codec
   * follows (a compressor over a whole shard needs the whole shard).
   */
  readonly partial?: PartialArrayToBytes;
}

/** Options of a bytes-to-bytes decode. */
export interface BytesDecodeOptions {
  /**
   * The exact size the decoded bytes must have, when known; otherwise the most they may have.
   * Decoders stop (with a DecodeError) rather than allocate past it.
   */
  expectedSize?: number;
  /** An upper bound when the exact size is not known. */
  maxSize: number;
  /**
   * The byte ranges `[begin, end)` of the decoded bytes the caller will read. A decoder that can
   * produce part of its output (blosc, block by block) may decode only what holds them and leave
   * the other bytes unset; every other decoder ignores it and decodes everything. Only the bytes
   * inside the ranges of the result are then valid.
   */
  ranges?: readonly IndexRange[];
  /**
   * Where to decode: exactly the decoded size, a view of any buffer (a SharedArrayBuffer too)
   * that does not overlap the input. A decoder that can decode in place (blosc) writes there and
   * returns it; the others return their own buffer, so read the result, not `into`.
   */
  into?: Uint8Array;
}

/**
 * Options of a whole-chunk decode (`CodecPipeline.decode`): what the caller will read of
 * the chunk, and where its bytes may go. Both are used only by a pipeline of the `bytes` codec
 * and bytes-to-bytes codecs (see `CodecPipeline.takesDecodeHints`); others ignore them.
 */
export interface ChunkDecodeOptions {
  /**
   * The elements the caller will read, as `[begin, end)` ranges of element indices in the
   * chunk's C order (`regionElementRanges` of `@z/ndarray` computes them from strided regions).
   * A hint: a blosc codec then decodes only the blocks that hold these elements. **Only the
   * hinted elements of the returned chunk are valid; every other element is unspecified** (zero,
   * an old value of `into`, or the stored value). Without it, the whole chunk is decoded.
   */
  elements?: readonly IndexRange[];
  /**
   * A buffer of exactly the chunk's decoded size (elements × item size) for the bytes the
   * `bytes` codec reads: a view of any buffer, a SharedArrayBuffer too, that does not overlap
   * the stored bytes. The returned chunk's data is a view of it when the data type can read the
   * bytes as they are (numeric types in the platform's byte order, with `into`'s offset a multiple
   * of the item size); otherwise the chunk is a copy. Always read the returned chunk.
   */
  into?: Uint8Array;
}

/** A bytes-to-bytes codec (compressors, checksums). */
export interface BytesToBytesCodec extends CodecBase {
  /** Discriminates the three codec kinds. */
  readonly kind: "bytes_to_bytes";
  /** Encodes bytes. */
  encode(bytes: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** Decodes bytes, bounded by `options`. @throws DecodeError, ChecksumError */
  decode(bytes: Uint8Array, options: BytesDecodeOptions): Uint8Array | Promise<Uint8Array>;
  /** The encoded size of `decodedSize` bytes, when it is fixed (checksums add 4 bytes). */
  encodedSize?(decodedSize: number): number | undefined;
  /**
   * Whether `decode` does less work for `options.ranges` (blosc decodes only the blocks they
   * touch): callers compute ranges only for codecs that use them.
   */
  readonly decodesRanges?: boolean;
}

/** Any codec. */
export type Codec = ArrayToArrayCodec | ArrayToBytesCodec | BytesToBytesCodec;

/** What a codec factory receives. */
export interface CodecContext {
  /** The spec of the chunks entering this codec on encode. */
  spec: ChunkSpec;
  /** The Zarr format of the array (some numcodecs configurations differ). */
  zarrFormat: 2 | 3;
}

/** Builds a codec from its metadata configuration. */
export type CodecFactory = (configuration: JsonObject, context: CodecContext) => Codec;
