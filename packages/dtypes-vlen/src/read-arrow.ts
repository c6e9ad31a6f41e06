import { type CodecPipeline, DEFAULT_MAX_DECODED_BYTES } from "@z/codecs";
import { locateError } from "@z/errors";
import type { Chunk } from "@z/ndarray";
import { arrowVectorFromBuffers, toArrowVector, type VlenVector } from "./arrow.js";
import { elementCount } from "./codecs/common.js";
import { VlenBytesCodec } from "./codecs/vlen-bytes.js";
import { VlenOffsetsCodec } from "./codecs/vlen-offsets.js";
import { VlenUtf8Codec } from "./codecs/vlen-utf8.js";
import { validateUtf8Items } from "./layout/utf8.js";
import { scanVlen, type VlenScan } from "./layout/vlen.js";

/** What {@link readArrowChunk} needs of an array (a `ZarrArray` has all of it). */
export interface ArrowChunkSource {
  /** Chunk access: raw chunk reads, the codec pipeline and the fill-valued chunk. */
  readonly access: {
    readonly stored: {
      get(
        coords: readonly number[],
        options?: { signal?: AbortSignal },
      ): Promise<Uint8Array | undefined>;
    };
    readonly runner: { readonly pipeline: CodecPipeline; fillChunk(): Chunk };
  };
  /** The decoded chunk at grid coordinates (the general path). */
  getChunk(
    coords: readonly number[],
    options?: { signal?: AbortSignal },
  ): Promise<Chunk | undefined>;
  /** The store key of a chunk, for error messages. */
  chunkKey(coords: readonly number[]): string;
}

/** Options of {@link readArrowChunk}. */
export interface ReadArrowOptions {
  /** Abort the read. */
  signal?: AbortSignal;
  /** Check that text is valid UTF-8 before handing it to Arrow (default true). */
  validateUtf8?: boolean;
  /** The most bytes a decompressor may produce (default 1 GiB). */
  maxDecodedBytes?: number;
}

/** The items of a vlen-layout chunk copied once into Arrow's offsets + data buffers. */
function vlenToBuffers(
  bytes: Uint8Array,
  scan: VlenScan,
): { offsets: Int32Array | BigInt64Array; data: Uint8Array } {
  const large = scan.payloadSize > 0x7fffffff;
  const offsets = large ? new BigInt64Array(scan.count + 1) : new Int32Array(scan.count + 1);
  const data = new Uint8Array(scan.payloadSize);
  let at = 0;
  for (let i = 0; i < scan.count; i++) {
    const start = scan.starts[i];
    const end = scan.ends[i];
    if (large) (offsets as BigInt64Array)[i] = BigInt(at);
    else (offsets as Int32Array)[i] = at;
    const length = end - start;
    if (length > 32) data.set(bytes.subarray(start, end), at);
    else for (let k = 0; k < length; k++) data[at + k] = bytes[start + k];
    at += length;
  }
  if (large) (offsets as BigInt64Array)[scan.count] = BigInt(at);
  else (offsets as Int32Array)[scan.count] = at;
  return { offsets, data };
}

/**
 * Reads one chunk of a string or bytes array as an Arrow vector (Utf8 / Binary, or the Large
 * variants), in C order. A chunk stored with `z.vlen-offsets` becomes a vector whose buffers
 * are views of the decompressed chunk (zero-copy); a `vlen-utf8` / `vlen-bytes` chunk is copied
 * once into Arrow's buffers without making a JavaScript string; anything else (a transpose,
 * sharding) is decoded normally and converted. A missing chunk gives the fill value.
 *
 * ```ts
 * const arr = await openArray(store, { path: "names" });
 * const column = await readArrowChunk(arr, [0]);
 * ```
 * @throws DecodeError naming the chunk's key
 */
export async function readArrowChunk(
  array: ArrowChunkSource,
  coords: readonly number[],
  options: ReadArrowOptions = {},
): Promise<VlenVector> {
  const { pipeline } = array.access.runner;
  const codec = pipeline.arrayToBytes.codec;
  const direct =
    pipeline.arrayToArray.length === 0 &&
    (codec instanceof VlenOffsetsCodec ||
      codec instanceof VlenUtf8Codec ||
      codec instanceof VlenBytesCodec);
  if (!direct) {
    const chunk = (await array.getChunk(coords, options)) ?? array.access.runner.fillChunk();
    return toArrowVector(chunk, {
      kind: pipeline.arrayToBytes.spec.dataType.kind === "bytes" ? "binary" : undefined,
    });
  }
  let bytes = await array.access.stored.get(coords, options);
  const kind =
    codec instanceof VlenBytesCodec ||
    (codec instanceof VlenOffsetsCodec && codec.elements === "binary")
      ? "binary"
      : "utf8";
  if (bytes === undefined) return toArrowVector(array.access.runner.fillChunk(), { kind });
  try {
    for (let k = pipeline.bytesToBytes.length - 1; k >= 0; k--) {
      bytes = await pipeline.bytesToBytes[k].decode(bytes, {
        maxSize: options.maxDecodedBytes ?? DEFAULT_MAX_DECODED_BYTES,
      });
    }
    const spec = pipeline.arrayToBytes.spec;
    if (codec instanceof VlenOffsetsCodec) return await codec.decodeToArrow(bytes, spec, options);
    const scan = scanVlen(bytes, elementCount(spec), codec.name);
    const { offsets, data } = vlenToBuffers(bytes, scan);
    if (kind === "utf8" && options.validateUtf8 !== false) {
      const o =
        offsets instanceof Int32Array
          ? new Uint32Array(offsets.buffer, offsets.byteOffset, offsets.length)
          : Float64Array.from(offsets, Number);
      validateUtf8Items(data, { starts: o, ends: o.subarray(1), count: scan.count }, codec.name);
    }
    return await arrowVectorFromBuffers(kind, offsets, data);
  } catch (error) {
    const key = array.chunkKey(coords);
    throw locateError(error, `chunk /${key}`, { key });
  }
}
