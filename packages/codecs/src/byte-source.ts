/**
 * Where a partial decoder reads a stored chunk from: a byte range at a time, so it fetches only
 * the bytes it needs (a shard's index, then some of its inner chunks). A store key, a slice of
 * another source (an inner shard inside a shard), or bytes in memory.
 */

/** A byte range of a source: `{offset, length}`, `{offset}` (to the end) or the last `suffix` bytes. */
export type SourceRange =
  | { offset: number; length: number }
  | { offset: number }
  | { suffix: number };

/** Options of a source read. */
export interface SourceReadOptions {
  /** Abort the read. */
  signal?: AbortSignal;
}

/**
 * Stored bytes read by range. A range reaching past the end gives the bytes up to the end
 * (fewer than asked for); readers that need an exact length check the length they get.
 * @category Codecs
 */
export interface ByteRangeSource {
  /** The size in bytes, when known without a read. */
  readonly size?: number;
  /** The bytes of `range`, or undefined when the source does not exist (a missing key). */
  get(range: SourceRange, options?: SourceReadOptions): Promise<Uint8Array | undefined>;
  /**
   * The bytes of several ranges at once (a store may merge near ones into one request), or
   * undefined when the source does not exist. Optional: {@link readSourceRanges} falls back to `get`.
   */
  getRanges?(
    ranges: readonly SourceRange[],
    options?: SourceReadOptions,
  ): Promise<Uint8Array[] | undefined>;
}

/**
 * The bytes of several ranges of a source, through its `getRanges` when it has one; undefined
 * when the source does not exist.
 */
export async function readSourceRanges(
  source: ByteRangeSource,
  ranges: readonly SourceRange[],
  options?: SourceReadOptions,
): Promise<Uint8Array[] | undefined> {
  if (source.getRanges) return source.getRanges(ranges, options);
  const parts = await Promise.all(ranges.map((range) => source.get(range, options)));
  return parts.some((p) => p === undefined) ? undefined : (parts as Uint8Array[]);
}

/** A source over bytes in memory (a whole stored chunk already read). */
export function memorySource(bytes: Uint8Array): ByteRangeSource {
  return {
    size: bytes.length,
    get: async (range) => sliceOf(bytes, range),
    getRanges: async (ranges) => ranges.map((range) => sliceOf(bytes, range)),
  };
}

/**
 * The source of bytes `offset .. offset + length` of `parent` (an inner chunk of a shard): its
 * ranges are translated and clipped to that span, and reads go through the parent, batched.
 */
export function subrangeSource(
  parent: ByteRangeSource,
  offset: number,
  length: number,
): ByteRangeSource {
  const translate = (range: SourceRange): { offset: number; length: number } => {
    const [start, end] = spanOf(range, length);
    return { offset: offset + start, length: end - start };
  };
  return {
    size: length,
    get: (range, options) => parent.get(translate(range), options),
    getRanges: (ranges, options) => readSourceRanges(parent, ranges.map(translate), options),
  };
}

/** `[start, end)` of a range of a value of `size` bytes, clipped to the value. */
function spanOf(range: SourceRange, size: number): [number, number] {
  if ("suffix" in range) return [Math.max(0, size - range.suffix), size];
  const start = Math.min(range.offset, size);
  return [start, "length" in range ? Math.min(size, range.offset + range.length) : size];
}

function sliceOf(bytes: Uint8Array, range: SourceRange): Uint8Array {
  const [start, end] = spanOf(range, bytes.length);
  return bytes.subarray(start, end);
}
