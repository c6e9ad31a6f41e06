// Node variant of "#native": the compressors Node ships (zlib, and zstd from Node 22.15), called
// through their asynchronous API so the work runs on libuv's thread pool, several chunks at once,
// off the main thread. Found by feature detection: Node 20 has no zstd, and gets the WASM one.
import * as zlib from "node:zlib";
import { DecompressionError } from "../errors.js";
import { messageOf } from "../message-of.js";

/** Below this many input bytes a synchronous call costs less than the trip to the thread pool. */
const INLINE_INPUT = 8 << 10;
/** zlib's smallest output chunk (Z_MIN_CHUNK). */
const MIN_CHUNK = 64;
/** Below this size Node hands out slices of its shared pool, which must not escape. */
const POOLED = 4096;

type Options = zlib.ZlibOptions & { params?: Record<number, number>; pledgedSrcSize?: number };
type AsyncCall = (
  data: Uint8Array,
  options: Options,
  done: (e: Error | null, out: Buffer) => void,
) => void;
type SyncCall = (data: Uint8Array, options: Options) => Buffer;

/** node:zlib's zstd functions and constants (Node >= 22.15), typed here for older @types/node. */
interface ZstdApi {
  zstdCompress: AsyncCall;
  zstdCompressSync: SyncCall;
  zstdDecompress: AsyncCall;
  zstdDecompressSync: SyncCall;
  constants: { ZSTD_c_compressionLevel: number; ZSTD_c_checksumFlag: number };
}

/** One node:zlib operation, with its synchronous twin for small inputs. */
interface Operation {
  run: AsyncCall;
  runSync: SyncCall;
}

/**
 * Runs `op` on `data`: synchronously for small inputs, on the thread pool otherwise. The result
 * is a plain Uint8Array and never a view of Node's shared pool (a transfer to a worker would
 * detach the pool).
 */
function call(op: Operation, data: Uint8Array, options: Options): Promise<Uint8Array> {
  if (data.length < INLINE_INPUT) {
    try {
      return Promise.resolve(unpooled(op.runSync(data, options)));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return new Promise((resolve, reject) => {
    op.run(data, options, (error, out) => (error ? reject(error) : resolve(unpooled(out))));
  });
}

function unpooled(out: Buffer): Uint8Array {
  if (out.length < POOLED) return Uint8Array.from(out);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

const GUNZIP: Operation = { run: zlib.gunzip, runSync: zlib.gunzipSync };
const INFLATE: Operation = { run: zlib.inflate, runSync: zlib.inflateSync };
const GZIP: Operation = { run: zlib.gzip, runSync: zlib.gzipSync };
const DEFLATE: Operation = { run: zlib.deflate, runSync: zlib.deflateSync };

/**
 * Output options for a decoder bounded by `limit` bytes. One byte of slack lets an output of
 * exactly `limit` bytes end in a single buffer without Node allocating a second one to look for
 * more; an output past `limit` still trips maxOutputLength.
 */
function outputOptions(data: Uint8Array, limit: number, exact: boolean): Options {
  const chunkSize = exact
    ? Math.max(MIN_CHUNK, limit + 1)
    : Math.max(MIN_CHUNK, Math.min(limit + 1, Math.max(1 << 16, data.length * 4)));
  return { maxOutputLength: Math.max(1, limit), chunkSize };
}

/** Runs a bounded decoder and turns node:zlib's errors into DecompressionErrors. */
async function decodeBounded(
  op: Operation,
  data: Uint8Array,
  limit: number,
  exact: boolean,
  format: "gzip" | "zlib",
): Promise<Uint8Array> {
  let out: Uint8Array;
  try {
    out = await call(op, data, outputOptions(data, limit, exact));
  } catch (error) {
    throw nativeError(error, format, limit);
  }
  if (out.length > limit) throw DecompressionError.tooLarge(format, limit);
  return out;
}

/** A node:zlib error as a DecompressionError (ERR_BUFFER_TOO_LARGE: past the limit). */
export function nativeError(error: unknown, format: string, limit: number): DecompressionError {
  if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
    return DecompressionError.tooLarge(format, limit);
  return new DecompressionError(format, messageOf(error), { cause: error });
}

/**
 * Decompresses gzip data (every member, as Python's gzip module reads it) into at most `limit`
 * bytes; `exact` says the output must be exactly `limit` bytes long (it then lands in one buffer).
 * @throws DecompressionError for corrupt, truncated or oversized data
 */
export function gunzipBounded(
  data: Uint8Array,
  limit: number,
  exact: boolean,
): Promise<Uint8Array> {
  return decodeBounded(GUNZIP, data, limit, exact, "gzip");
}

/**
 * Decompresses a zlib stream (RFC 1950, what Python's `zlib.decompress` reads) into at most
 * `limit` bytes.
 * @throws DecompressionError for corrupt, truncated or oversized data
 */
export function unzlibBounded(
  data: Uint8Array,
  limit: number,
  exact: boolean,
): Promise<Uint8Array> {
  return decodeBounded(INFLATE, data, limit, exact, "zlib");
}

/** The native compressors of this platform (see {@link nativeCodecs}). */
export interface NativeCodecs {
  /** One gzip member at zlib `level` (-1 to 9). */
  gzip(data: Uint8Array, level: number): Promise<Uint8Array>;
  /** A zlib stream (RFC 1950) at `level` (-1 to 9). */
  deflate(data: Uint8Array, level: number): Promise<Uint8Array>;
  /**
   * Inflates the zlib stream `src` into `dst` (which it must fill exactly, or return fewer
   * bytes), synchronously: for the small streams of a synchronous caller (Blosc blocks).
   * @throws Error for a corrupt stream or one longer than `dst`
   */
  inflateInto(src: Uint8Array, dst: Uint8Array): number;
  /** zstd, when this Node has it (22.15 and later). */
  zstd?: NativeZstd;
}

/** libzstd as node:zlib exposes it. */
export interface NativeZstd {
  /** One frame that declares its content size, at `level` (0: libzstd's default), with or without a content checksum. */
  compress(data: Uint8Array, level: number, checksum: boolean): Promise<Uint8Array>;
  /**
   * Decodes zstd data into at most `limit` bytes.
   * @throws Error (code ERR_BUFFER_TOO_LARGE past the limit) for corrupt or oversized data
   */
  decompress(data: Uint8Array, limit: number): Promise<Uint8Array>;
}

function zstdOf(api: Partial<ZstdApi>): NativeZstd | undefined {
  const { zstdCompress, zstdCompressSync, zstdDecompress, zstdDecompressSync, constants } = api;
  if (!zstdCompress || !zstdCompressSync || !zstdDecompress || !zstdDecompressSync || !constants)
    return undefined;
  const compress: Operation = { run: zstdCompress, runSync: zstdCompressSync };
  const decompress: Operation = { run: zstdDecompress, runSync: zstdDecompressSync };
  const bounded = (limit: number): Options => ({
    maxOutputLength: Math.max(1, limit),
    chunkSize: Math.max(MIN_CHUNK, limit + 1),
  });
  return {
    compress: (data, level, checksum) =>
      call(compress, data, {
        chunkSize: encodeOptions(data.length, level).chunkSize,
        params: {
          [constants.ZSTD_c_compressionLevel]: level,
          [constants.ZSTD_c_checksumFlag]: checksum ? 1 : 0,
        },
        pledgedSrcSize: data.length,
      }),
    decompress: (data, limit) => call(decompress, data, bounded(limit)),
  };
}

/**
 * Options for an encoder of `n` bytes at `level`: an output buffer that holds the worst case
 * (zlib's deflateBound and ZSTD_compressBound are both below n + n/256 + 64), so one trip to the
 * thread pool encodes the whole chunk instead of one trip per 16 KiB of output.
 */
function encodeOptions(n: number, level: number): Options {
  return { level, chunkSize: Math.max(MIN_CHUNK, n + (n >>> 8) + 64) };
}

/**
 * What node:zlib offers here. Its zlib writes valid streams but not the bytes CPython's zlib
 * writes (Node's zlib is a fork); any valid stream is a valid chunk.
 */
export const nativeCodecs: NativeCodecs | undefined = {
  gzip: (data, level) => call(GZIP, data, encodeOptions(data.length, level)),
  deflate: (data, level) => call(DEFLATE, data, encodeOptions(data.length, level)),
  inflateInto(src, dst) {
    const out = zlib.inflateSync(src, {
      maxOutputLength: Math.max(1, dst.length),
      chunkSize: Math.max(MIN_CHUNK, dst.length + 1),
    });
    dst.set(out);
    return out.length;
  },
  zstd: zstdOf(zlib as unknown as Partial<ZstdApi>),
};
