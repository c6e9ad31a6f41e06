import type { DataType, JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
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
