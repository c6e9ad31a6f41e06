import { locateError } from "@z/errors";
import { getLogger } from "@z/log";
import { MetadataError, type NamedConfig } from "@z/metadata";
import { type Chunk, product } from "@z/ndarray";
import type { ByteRangeSource } from "./byte-source.js";
import { BytesCodec } from "./core/bytes.js";
import { DecodeError } from "./errors.js";
import type {
  PartialArrayToBytes,
  PartialDecoder,
  PartialIoOptions,
  SubchunkWrite,
} from "./partial.js";
import { wholeChunkDecoder, wholeChunkEncode } from "./partial-fallback.js";
import { resolveCodec } from "./registry.js";
import type {
  ArrayToArrayCodec,
  ArrayToBytesCodec,
  BytesDecodeOptions,
  BytesToBytesCodec,
  ChunkDecodeOptions,
  ChunkSpec,
  Codec,
} from "./types.js";

/** Options of a codec pipeline. */
export interface PipelineOptions {
  /**
   * The most bytes a decoder may produce when the exact decoded size is not known in advance
   * (variable-length data). Default 1 GiB.
   */
  maxDecodedBytes?: number;
}

/** The `codec` logger: one debug line per chunk encoded or decoded. */
const codecLog = getLogger("codec");

/** The default bound on decoded bytes of unknown size. */
export const DEFAULT_MAX_DECODED_BYTES = 1 << 30;

/** A codec of a pipeline together with the spec of the chunks it receives on encode. */
export interface Stage<C> {
  /** The codec. */
  codec: C;
  /** The spec of the chunks that enter this codec on encode. */
  spec: ChunkSpec;
}

/**
 * A chunk's codec chain, as v3 defines it: array-to-array codecs, exactly one array-to-bytes
 * codec, then bytes-to-bytes codecs. Decoding runs the chain backwards and bounds every
 * decoder by the size the chunk must have.
 * @category Codecs
 */
export class CodecPipeline {
  private readonly sizes: (number | undefined)[];

  private constructor(
    readonly arrayToArray: readonly Stage<ArrayToArrayCodec>[],
    readonly arrayToBytes: Stage<ArrayToBytesCodec>,
    readonly bytesToBytes: readonly BytesToBytesCodec[],
    private readonly maxDecodedBytes: number,
    /** The spec of the chunks the pipeline encodes and decodes. */
    readonly spec: ChunkSpec,
    /** The Zarr format of the array (worker pools rebuild the pipeline with it). */
    readonly zarrFormat: 2 | 3,
  ) {
    // sizes[k] is the size of the bytes entering bytes-to-bytes codec k on encode.
    this.sizes = [arrayToBytes.codec.encodedSize?.(arrayToBytes.spec)];
    for (const codec of bytesToBytes) {
      const previous = this.sizes[this.sizes.length - 1];
      this.sizes.push(previous === undefined ? undefined : codec.encodedSize?.(previous));
    }
  }

  /**
   * Builds the pipeline a codec list describes for chunks of `spec`.
   * @param where names the metadata document in errors
   * @throws UnknownCodecError, CodecConfigError, MetadataError (codecs in the wrong order)
   */
  static create(
    entries: readonly NamedConfig[],
    spec: ChunkSpec,
    zarrFormat: 2 | 3,
    options: PipelineOptions = {},
    where = "codecs",
  ): CodecPipeline {
    const arrayToArray: Stage<ArrayToArrayCodec>[] = [];
    let arrayToBytes: Stage<ArrayToBytesCodec> | undefined;
    const bytesToBytes: BytesToBytesCodec[] = [];
    let current = spec;
    for (const entry of entries) {
      const codec = resolveCodec(entry, { spec: current, zarrFormat }, where);
      if (codec === undefined) continue;
      if (codec.kind === "array_to_array") {
        if (arrayToBytes) throw orderError(where, codec, "comes after the array-to-bytes codec");
        arrayToArray.push({ codec, spec: current });
        current = codec.encodedSpec(current);
      } else if (codec.kind === "array_to_bytes") {
        if (arrayToBytes) {
          throw new MetadataError(
            `${where}: more than one array-to-bytes codec ("${arrayToBytes.codec.name}" and "${codec.name}")`,
          );
        }
        arrayToBytes = { codec, spec: current };
      } else {
        if (!arrayToBytes) throw orderError(where, codec, "comes before the array-to-bytes codec");
        bytesToBytes.push(codec);
      }
    }
    if (!arrayToBytes) {
      throw new MetadataError(
        `${where}: no array-to-bytes codec (such as "bytes"); exactly one is required`,
      );
    }
    return new CodecPipeline(
      arrayToArray,
      arrayToBytes,
      bytesToBytes,
      options.maxDecodedBytes ?? DEFAULT_MAX_DECODED_BYTES,
      spec,
      zarrFormat,
    );
  }

  /** The codecs in encode order. */
  get codecs(): Codec[] {
    return [
      ...this.arrayToArray.map((s) => s.codec),
      this.arrayToBytes.codec,
      ...this.bytesToBytes,
    ];
  }

  /** The metadata entries of the codecs. */
  toJson(): NamedConfig[] {
    return this.codecs.map((codec) => codec.toJson());
  }

  /** The exact encoded size of every chunk, when the chain makes it fixed (no compression). */
  get encodedSize(): number | undefined {
    return this.sizes[this.sizes.length - 1];
  }

  /**
   * The array-to-bytes codec's partial I/O when the pipeline can use it: only when no codec
   * comes before it (they transform whole chunks) and none after it (a compressor over a whole
   * shard needs the whole shard).
   */
  private get partial(): PartialArrayToBytes | undefined {
    if (this.arrayToArray.length > 0 || this.bytesToBytes.length > 0) return undefined;
    return this.arrayToBytes.codec.partial;
  }

  /**
   * Whether {@link partialDecoder} and {@link partialEncode} read and write sub-chunks on their
   * own (a sharding codec with nothing after it); otherwise they read and write whole chunks.
   */
  get supportsPartialIo(): boolean {
    return this.partial !== undefined;
  }

  /**
   * Whether partial decodes with these options can have workers copy sub-chunks' parts into a
   * shared result ({@link PartialIoOptions.place}): the sharding codec's inner chunks, when they
   * decode in a worker pool.
   */
  subchunksPlaceable(options: PartialIoOptions = {}): boolean {
    return this.partial?.placesSubchunks?.(options) ?? false;
  }

  /**
   * The shape of the sub-chunks partial reads and writes work on: the innermost chunks of
   * (possibly nested) shards, or the whole chunk when the pipeline has no partial I/O.
   */
  get subchunkShape(): readonly number[] {
    return this.partial?.subchunkShape ?? this.spec.shape;
  }

  /**
   * A decoder of some sub-chunks of the chunk stored in `source` (undefined when the source
   * does not exist). Without partial I/O, it reads and decodes the whole chunk up front.
   * @throws DecodeError, ChecksumError
   */
  async partialDecoder(
    source: ByteRangeSource,
    options: PartialIoOptions = {},
  ): Promise<PartialDecoder | undefined> {
    const partial = this.partial;
    if (!partial) return wholeChunkDecoder(this, source, options);
    const codec = this.arrayToBytes.codec;
    const decoder = await naming(codec, () => partial.partialDecoder(source, options));
    if (decoder === undefined) return undefined;
    // Its errors name the codec too, however late they come.
    return {
      get heldBytes() {
        return decoder.heldBytes;
      },
      decodeSubchunks: (coords, decodeOptions) =>
        naming(codec, () => decoder.decodeSubchunks(coords, decodeOptions)),
    };
  }

  /**
   * The new stored bytes of a chunk after `writes` to some of its sub-chunks (undefined: all
   * fill value, delete it). Without partial I/O, the whole chunk is decoded, changed and encoded.
   * @throws DecodeError, ChecksumError for a corrupt `current`
   */
  partialEncode(
    current: Uint8Array | undefined,
    writes: readonly SubchunkWrite[],
    options: PartialIoOptions = {},
  ): Promise<Uint8Array | undefined> {
    const partial = this.partial;
    return partial
      ? naming(this.arrayToBytes.codec, () => partial.partialEncode(current, writes, options))
      : wholeChunkEncode(this, current, writes, options);
  }

  /** Encodes a chunk (any strides) into the bytes to store. */
  async encode(chunk: Chunk): Promise<Uint8Array> {
    const start = codecLog.enabled("debug") ? performance.now() : -1;
    for (const { codec, spec } of this.arrayToArray)
      chunk = await naming(codec, () => codec.encode(chunk, spec));
    const { codec, spec } = this.arrayToBytes;
    let bytes = await naming(codec, () => codec.encode(chunk, spec));
    for (const codec of this.bytesToBytes) bytes = await naming(codec, () => codec.encode(bytes));
    if (start >= 0) this.log("encoded", chunk.shape, bytes.length, start);
    return bytes;
  }

  /**
   * Whether {@link decode} uses its options' `elements` and `into`: the pipeline is the `bytes`
   * codec and bytes-to-bytes codecs, so the decoded bytes are the chunk's elements in C order.
   */
  get takesDecodeHints(): boolean {
    return this.arrayToArray.length === 0 && this.arrayToBytes.codec instanceof BytesCodec;
  }

  /**
   * Whether `options.elements` can spare {@link decode} work: it takes decode hints and the
   * codec that decodes the chunk's bytes decodes ranges (blosc). Otherwise computing them is
   * wasted.
   */
  get usesElementHints(): boolean {
    return this.takesDecodeHints && this.bytesToBytes[0]?.decodesRanges === true;
  }

  /**
   * Decodes stored bytes into a chunk of the pipeline's spec (possibly with non-C strides, e.g.
   * after a transpose).
   *
   * With `options.elements`, only those elements of the result are valid (the others are
   * unspecified): the last bytes-to-bytes codec (blosc) may decode only the part of the chunk
   * that holds them. With `options.into`, the decoded bytes go there. Both only when
   * {@link takesDecodeHints}; otherwise the whole chunk is decoded as without them.
   * @throws DecodeError (corrupt, truncated or wrongly sized data), ChecksumError; CodecError for
   *   elements outside the chunk or an `into` of the wrong size
   */
  async decode(bytes: Uint8Array, options: ChunkDecodeOptions = {}): Promise<Chunk> {
    const start = codecLog.enabled("debug") ? performance.now() : -1;
    const stored = bytes.length;
    const hinted = this.takesDecodeHints && (options.elements ?? options.into) !== undefined;
    // The hints' checks load with the first decode that has some (workers, blosc slabs).
    const hints = hinted ? (await loadDecodeHints()).checkedHints(this, options) : {};
    for (let k = this.bytesToBytes.length - 1; k >= 0; k--) {
      const expectedSize = this.sizes[k];
      const codec = this.bytesToBytes[k];
      const input = bytes;
      const decodeOptions: BytesDecodeOptions = {
        expectedSize,
        maxSize: expectedSize ?? this.maxDecodedBytes,
      };
      // Only the last decoder's output is the chunk's bytes, which the hints speak of.
      if (k === 0) Object.assign(decodeOptions, hints);
      bytes = await naming(codec, () => codec.decode(input, decodeOptions));
      if (expectedSize !== undefined && bytes.length !== expectedSize) {
        throw new DecodeError(
          `Codec "${codec.name}" decoded ${bytes.length} bytes; the chunk needs exactly ${expectedSize}`,
          { codec: codec.name },
        );
      }
    }
    const { into } = hints;
    if (into !== undefined && into.length === bytes.length && !sameBytes(bytes, into)) {
      into.set(bytes);
      bytes = into;
    }
    const { codec, spec } = this.arrayToBytes;
    const input = bytes;
    let chunk = await naming(codec, () => codec.decode(input, spec));
    checkShape(chunk, spec, codec.name);
    for (let k = this.arrayToArray.length - 1; k >= 0; k--) {
      const { codec, spec } = this.arrayToArray[k];
      const input = chunk;
      chunk = await naming(codec, () => codec.decode(input, spec));
      checkShape(chunk, spec, codec.name);
    }
    if (start >= 0) this.log("decoded", chunk.shape, stored, start);
    return chunk;
  }

  /** The decoded sizes after each bytes-to-bytes codec, when known ([0]: the chunk's bytes). */
  get decodedSizes(): readonly (number | undefined)[] {
    return this.sizes;
  }

  private log(action: string, shape: readonly number[], bytes: number, start: number): void {
    const ms = performance.now() - start;
    const names = this.codecs.map((codec) => codec.name).join(" → ");
    codecLog.debug(
      `${action} chunk [${shape.join(", ")}] ⇄ ${bytes} B through ${names} in ${ms.toFixed(2)} ms`,
      { action, shape: [...shape], bytes, codecs: names, ms },
    );
  }
}

let decodeHints: Promise<typeof import("./decode-hints.js")> | undefined;

/** The checks of decode hints, loaded once, with the first decode that has some. */
function loadDecodeHints(): Promise<typeof import("./decode-hints.js")> {
  decodeHints ??= import("./decode-hints.js");
  return decodeHints;
}

/** Whether two byte arrays are the same bytes of the same buffer. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.buffer === b.buffer && a.byteOffset === b.byteOffset && a.length === b.length;
}

function orderError(where: string, codec: Codec, problem: string): MetadataError {
  return new MetadataError(
    `${where}: the ${codec.kind.replaceAll("_", "-")} codec "${codec.name}" ${problem}; ` +
      "the order must be array-to-array codecs, one array-to-bytes codec, then bytes-to-bytes codecs",
  );
}

/**
 * Runs one codec's encode or decode; an `@z` error it raises carries the codec's name as
 * `codec` (unless it names one already: a sharding codec's inner codec knows better).
 */
async function naming<T>(codec: Codec, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw locateError(error, "", { codec: codec.name });
  }
}

function checkShape(chunk: Chunk, spec: ChunkSpec, codecName: string): void {
  const ok =
    chunk.shape.length === spec.shape.length && chunk.shape.every((n, i) => n === spec.shape[i]);
  if (!ok) {
    throw new DecodeError(
      `Codec "${codecName}" decoded a chunk of shape [${chunk.shape}] (${product(chunk.shape)} elements); expected [${spec.shape}]`,
      { codec: codecName },
    );
  }
}
