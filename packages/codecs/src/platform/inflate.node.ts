// Node variant of "#inflate": node:zlib's native inflate, bounded with maxOutputLength.
import { gunzipSync, inflateSync, type ZlibOptions } from "node:zlib";
import { DecodeError } from "../errors.js";

/** zlib's smallest output chunk (Z_MIN_CHUNK). */
const MIN_CHUNK = 64;
/** Below this size Node hands out slices of its shared pool, which must not escape. */
const POOLED = 4096;

/**
 * Decompresses gzip data (every member, as Python's gzip module reads it) into at most `limit`
 * bytes; `exact` says the output must be exactly `limit` bytes long, which lets the whole output
 * land in one buffer.
 * @throws DecodeError for corrupt, truncated or oversized data
 */
export function gunzipBounded(
  data: Uint8Array,
  limit: number,
  exact: boolean,
  label: string,
): Uint8Array {
  return run(gunzipSync, data, limit, exact, label);
}

/**
 * Decompresses a zlib stream (RFC 1950, what Python's `zlib.decompress` reads) into at most
 * `limit` bytes.
 * @throws DecodeError for corrupt, truncated or oversized data
 */
export function unzlibBounded(
  data: Uint8Array,
  limit: number,
  exact: boolean,
  label: string,
): Uint8Array {
  return run(inflateSync, data, limit, exact, label);
}

function run(
  inflate: (data: Uint8Array, options: ZlibOptions) => Buffer,
  data: Uint8Array,
  limit: number,
  exact: boolean,
  label: string,
): Uint8Array {
  // One byte of slack lets an output of exactly `limit` bytes end without Node allocating a
  // second chunk to look for more; an output past `limit` still trips maxOutputLength.
  const chunkSize = exact
    ? Math.max(MIN_CHUNK, limit + 1)
    : Math.max(MIN_CHUNK, Math.min(limit + 1, Math.max(1 << 16, data.length * 4)));
  let out: Buffer;
  try {
    out = inflate(data, { maxOutputLength: Math.max(1, limit), chunkSize });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ERR_BUFFER_TOO_LARGE") {
      throw new DecodeError(
        `${label}: the data decompresses to more than ${limit} bytes, the most this chunk may hold`,
      );
    }
    throw new DecodeError(`${label}: corrupt or truncated data (${(error as Error).message})`, {
      cause: error,
    });
  }
  if (out.length > limit) {
    throw new DecodeError(
      `${label}: the data decompresses to more than ${limit} bytes, the most this chunk may hold`,
    );
  }
  // A plain Uint8Array (Buffer#slice is a view, Uint8Array#slice a copy: callers expect the latter),
  // and never a view of Node's shared pool, which a transfer to a worker would detach.
  if (out.length < POOLED) return Uint8Array.from(out);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}
