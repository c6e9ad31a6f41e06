import { gunzipBounded, unzlibBounded } from "#inflate";

/** Options of {@link gzipDecompress} and {@link zlibDecompress}. */
export interface InflateOptions {
  /** The most bytes the data may decode to. */
  maxSize: number;
  /** The exact decoded size, when known: the output is then allocated once at this size. */
  expectedSize?: number;
}

/**
 * Decompresses gzip data (every member, as Python's gzip module reads it, CRC-32 checked) into
 * at most `maxSize` bytes: node:zlib on libuv's thread pool in Node; in browsers fflate when the
 * size is known, else pako (loaded on first use).
 * @throws DecompressionError for corrupt, truncated or oversized data
 */
export function gzipDecompress(
  data: Uint8Array,
  options: InflateOptions,
): Uint8Array | Promise<Uint8Array> {
  return gunzipBounded(data, limitOf(options), options.expectedSize !== undefined);
}

/**
 * Decompresses a zlib stream (RFC 1950, Adler-32 checked; what Python's `zlib.decompress` reads)
 * into at most `maxSize` bytes, on the same engines as {@link gzipDecompress}.
 * @throws DecompressionError for corrupt, truncated or oversized data
 */
export function zlibDecompress(
  data: Uint8Array,
  options: InflateOptions,
): Uint8Array | Promise<Uint8Array> {
  return unzlibBounded(data, limitOf(options), options.expectedSize !== undefined);
}

function limitOf({ maxSize, expectedSize }: InflateOptions): number {
  return expectedSize === undefined ? maxSize : Math.min(expectedSize, maxSize);
}
