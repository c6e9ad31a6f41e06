import { DecompressionError } from "../errors.js";
import { messageOf } from "../message-of.js";
import { isXz, type LzmaLayout, lzma2Layout, xzLayout } from "./layout.js";
import { loadLzma } from "./library.js";

/** The containers of LZMA data: `.xz` streams, `.lzma` (alone) files and raw LZMA2. */
export type LzmaFormat = "xz" | "lzma" | "lzma2";

const FORMAT_NAMES: Record<LzmaFormat, string> = { xz: ".xz", lzma: ".lzma", lzma2: "raw LZMA2" };

/**
 * Compresses `data` as `.xz` (without an integrity check; readers accept that), `.lzma` or raw
 * LZMA2 with @napi-rs/lzma. Its 1.4 encoder (the last whose native build supports Node 20)
 * stores `.xz` and raw LZMA2 data in uncompressed LZMA2 chunks: valid for every reader, but not
 * smaller; only `.lzma` output is compressed.
 * @throws Error (the loader's) when @napi-rs/lzma cannot be loaded
 */
export async function lzmaCompress(data: Uint8Array, format: LzmaFormat): Promise<Uint8Array> {
  const lib = await loadLzma();
  const out =
    format === "lzma"
      ? await lib.lzma.compress(data)
      : format === "lzma2"
        ? await lib.lzma2.compress(data)
        : await lib.xz.compress(data);
  return new Uint8Array(out);
}

/** Options of {@link lzmaDecompress}. */
export interface LzmaDecompressOptions {
  /** The most bytes the data may decode to. */
  maxSize: number;
  /** The exact decoded size, when known. */
  expectedSize?: number;
}

/**
 * Decompresses `.xz`, `.lzma` or raw LZMA2 data (`"auto"`: `.xz` when it starts like one, else
 * `.lzma`) into at most `maxSize` bytes. The data's structure is walked first (stream and block
 * headers, LZMA2 chunk headers, each stating how much it decodes to), so data that would decode
 * beyond the bound, or that is truncated, fails before the decoder runs. `.xz` data with a
 * SHA-256 check is not supported by the decoder (CRC-32 and CRC-64 are verified).
 * @throws DecompressionError for malformed, corrupt or oversized data
 * @throws Error (the loader's) when @napi-rs/lzma cannot be loaded
 */
export async function lzmaDecompress(
  data: Uint8Array,
  format: LzmaFormat | "auto",
  options: LzmaDecompressOptions,
): Promise<Uint8Array> {
  const { maxSize, expectedSize } = options;
  const limit = expectedSize === undefined ? maxSize : Math.min(expectedSize, maxSize);
  const actual: LzmaFormat = format === "auto" ? (isXz(data) ? "xz" : "lzma") : format;
  const name = FORMAT_NAMES[actual];
  const layout: LzmaLayout =
    actual === "xz"
      ? xzLayout(data, limit)
      : actual === "lzma2"
        ? lzma2Layout(data, limit)
        : aloneLayout(data);
  if ("error" in layout) throw new DecompressionError(name, layout.error);
  if (layout.size > limit) throw DecompressionError.tooLarge(name, limit);
  if (expectedSize !== undefined && layout.size >= 0 && layout.size !== expectedSize) {
    throw new DecompressionError(
      name,
      `it decodes to ${layout.size} bytes; ${expectedSize} were expected`,
    );
  }
  const lib = await loadLzma();
  let out: Uint8Array;
  try {
    if (actual === "xz") out = await lib.xz.decompress(data);
    else if (actual === "lzma2") out = await lib.lzma2.decompress(data);
    else out = await lib.lzma.decompress(data);
  } catch (error) {
    throw new DecompressionError(name, messageOf(error), { cause: error });
  }
  if (out.length > limit) throw DecompressionError.tooLarge(name, limit);
  if (layout.size >= 0 && out.length !== layout.size)
    throw new DecompressionError(
      name,
      `decoded ${out.length} bytes where the data states ${layout.size}`,
    );
  if (expectedSize !== undefined && out.length !== expectedSize) {
    throw new DecompressionError(
      name,
      `it decodes to ${out.length} bytes; ${expectedSize} were expected`,
    );
  }
  // A copy: the native build's buffers live outside V8's heap, and Node 22+ refuses to transfer
  // them to another thread.
  return Uint8Array.from(out);
}

/**
 * The size an `.lzma` (alone) file states in its header, or -1 when it states none (Python
 * writes -1 and an end marker); such data can only be measured by decoding it, and its result
 * is checked against the bound afterwards.
 */
export function aloneLayout(bytes: Uint8Array): LzmaLayout {
  if (bytes.length < 13) return { error: "shorter than an .lzma header" };
  const view = new DataView(bytes.buffer, bytes.byteOffset, 13);
  const low = view.getUint32(5, true);
  const high = view.getUint32(9, true);
  if (low === 0xffffffff && high === 0xffffffff) return { size: -1 };
  return { size: high * 2 ** 32 + low };
}
