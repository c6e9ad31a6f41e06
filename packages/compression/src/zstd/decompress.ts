import { concat } from "../concat.js";
import { DecompressionError } from "../errors.js";
import { messageOf } from "../message-of.js";
import { loadZstdDecoder } from "../wasm.js";
import { withContentSize, type ZstdFrame, zstdLayout } from "./frame.js";
import { nativeZstd } from "./native.js";

/** Options of {@link zstdDecompress}. */
export interface ZstdDecompressOptions {
  /** The most bytes the data may decode to. */
  maxSize: number;
  /** The exact decoded size, when known. */
  expectedSize?: number;
  /**
   * The dictionary the data was compressed with: zstd's dictionary format (`zstd --train`,
   * `ZDICT_trainFromBuffer`) or raw content. Data with a dictionary is decoded by libzstd's
   * decompressor compiled to WebAssembly, loaded on the first such call. Passing the same
   * `Uint8Array` again reuses the parsed dictionary (do not change its bytes in between).
   */
  dictionary?: Uint8Array;
}

/**
 * Decompresses zstd data (every frame; skippable frames are skipped) into at most `maxSize`
 * bytes: node:zlib's native libzstd on libuv's thread pool where Node has it and the native path
 * is allowed (see `useCompressionPaths`), else zstddec (libzstd's decoder compiled to
 * WebAssembly, loaded on first use). Both give the same bytes and reject the same truncated or
 * wrongly sized data. They are different libzstd releases, so a corrupted block in a frame without
 * a checksum may fail on one and decode to other bytes of the right size on the other; the
 * frame checksum is what catches corruption.
 *
 * It first walks the frame and block headers: a declared content size beyond the bound fails
 * at once, and truncated or malformed frames never reach libzstd. A frame that does not declare
 * its size gets its header rewritten to declare `expectedSize` when that is given, so libzstd
 * itself refuses to write more or less; otherwise it is decoded only when its block headers prove
 * it fits (a compressed block yields at most 128 KiB, or the window size). With a `dictionary`,
 * the same checks run and the frames go to the dictionary decoder instead.
 * @throws DecompressionError for corrupt, truncated or oversized data
 */
export async function zstdDecompress(
  data: Uint8Array,
  options: ZstdDecompressOptions,
): Promise<Uint8Array> {
  const { maxSize, expectedSize } = options;
  const limit = expectedSize === undefined ? maxSize : Math.min(expectedSize, maxSize);
  const layout = zstdLayout(data);
  if ("error" in layout) throw zstdError(layout.error);
  const { frames } = layout;
  const declared = frames.reduce((sum, f) => sum + (f.contentSize ?? 0), 0);
  if (declared > limit) {
    throw new DecompressionError(
      "zstd",
      `the data declares ${declared} bytes of content, more than the ${limit} allowed`,
      { limit },
    );
  }
  const [only] = frames;
  const { dictionary } = options;
  const native = dictionary === undefined ? nativeZstd() : undefined;
  if (native && frames.length === 1 && only.contentSize !== undefined && only.contentSize > 0) {
    let out: Uint8Array;
    try {
      out = await native.decompress(data.subarray(only.start, only.end), only.contentSize);
    } catch (error) {
      throw zstdError(messageOf(error), error);
    }
    if (out.length !== only.contentSize) throw wrongSize(only.contentSize, out.length);
    return out;
  }
  const inputs = planFrames(data, frames, limit, expectedSize !== undefined);
  const decodeFrame =
    dictionary === undefined
      ? await loadZstdDecoder()
      : await (await import("./dictionary-module.js")).loadZstdDictionaryDecoder(dictionary);
  const parts: Uint8Array[] = [];
  let total = 0;
  for (const { frame, capacity, exact } of inputs) {
    // libzstd's errors come back as a negative size, i.e. fewer bytes than the frame holds.
    const part = capacity === 0 ? new Uint8Array(0) : decodeFrame(frame, capacity);
    if (exact ? part.length !== capacity : part.length === 0)
      throw wrongSize(exact ? capacity : "some", part.length);
    total += part.length;
    if (total > limit) throw DecompressionError.tooLarge("zstd", limit);
    parts.push(part);
  }
  return concat(parts);
}

function zstdError(problem: string, cause?: unknown): DecompressionError {
  return new DecompressionError("zstd", problem, cause === undefined ? {} : { cause });
}

function wrongSize(size: number | string, decoded: number): DecompressionError {
  return zstdError(`a frame that should decode to ${size} bytes decoded to ${decoded}`);
}

/** One frame to hand to libzstd, with the output size it must have (`exact`) or may reach. */
interface FrameInput {
  frame: Uint8Array;
  capacity: number;
  exact: boolean;
}

/**
 * The frames to hand to libzstd, one at a time, each with its output capacity: its declared
 * content size (which it must decode to exactly), or for a frame without one, the exact size
 * when the total size is known (the frame is given that content size, so libzstd holds it to
 * it), else the bound its block headers give, decoded only when that bound fits the limit.
 */
function planFrames(
  data: Uint8Array,
  frames: ZstdFrame[],
  limit: number,
  exact: boolean,
): FrameInput[] {
  const known = frames.reduce((sum, f) => sum + (f.contentSize ?? 0), 0);
  const unsized = frames.filter((f) => f.contentSize === undefined);
  const unknownBound = unsized.reduce((sum, f) => sum + f.blockBound, 0);
  const patch = exact && unsized.length === 1;
  if (!patch && known + unknownBound > limit) {
    throw new DecompressionError(
      "zstd",
      `a frame does not declare its content size and its blocks could decode to ${unknownBound} bytes, ` +
        `more than the ${limit - known} allowed for it; refusing to decode it`,
      { limit },
    );
  }
  return frames.map((f) => {
    if (f.contentSize !== undefined)
      return { frame: data.subarray(f.start, f.end), capacity: f.contentSize, exact: true };
    if (patch) {
      const size = limit - known;
      return { frame: withContentSize(data, f, size), capacity: size, exact: true };
    }
    return { frame: data.subarray(f.start, f.end), capacity: f.blockBound, exact: false };
  });
}
