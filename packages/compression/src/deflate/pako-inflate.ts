import { Inflate } from "pako";
import { concat } from "../concat.js";
import { DecompressionError } from "../errors.js";

/**
 * pako's inflate of a gzip (every member) or zlib stream into at most `limit` bytes, streamed
 * so that it stops at the limit.
 * @throws DecompressionError for corrupt, truncated or oversized data
 */
export function pakoInflate(data: Uint8Array, limit: number, format: "gzip" | "zlib"): Uint8Array {
  const inflator = new Inflate({
    windowBits: format === "gzip" ? 16 + 15 : 15,
    chunkSize: Math.min(limit + 1, Math.max(1 << 16, data.length * 4)),
  });
  const chunks: Uint8Array[] = [];
  let total = 0;
  inflator.onData = (chunk) => {
    const bytes = chunk as Uint8Array;
    total += bytes.length;
    if (total > limit) throw DecompressionError.tooLarge(format, limit);
    chunks.push(bytes);
  };
  inflator.push(data, true);
  if (inflator.err || !(inflator as unknown as { ended: boolean }).ended) {
    throw new DecompressionError(format, inflator.msg || "the stream ends early (truncated data)");
  }
  return concat(chunks);
}
