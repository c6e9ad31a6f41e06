import type { ByteRange } from "./range.js";
import type { Readable } from "./store.js";

/** An empty read: answers whether a value exists without transferring any of it. */
const PROBE: ByteRange = { offset: 0, length: 0 };

/**
 * `getRanges` built from one read per range, for stores whose backend reads one range at a
 * time: an empty list asks `exists` (a missing key must still read as missing); otherwise the
 * ranges are read together and a value missing for any of them is missing. It makes no checks:
 * call {@link checkRangesRead} first.
 */
export async function readEachRange(
  ranges: readonly ByteRange[],
  readRange: (range: ByteRange) => Promise<Uint8Array | undefined>,
  exists: () => Promise<boolean>,
): Promise<Uint8Array[] | undefined> {
  if (ranges.length === 0) return (await exists()) ? [] : undefined;
  const parts = await Promise.all(ranges.map(readRange));
  return parts.some((part) => part === undefined) ? undefined : (parts as Uint8Array[]);
}

/**
 * Reads several ranges of one value from any store: with its `getRanges` when it has one,
 * otherwise one ranged `get` per range (an empty list probes with an empty range). The store
 * checks the key and ranges, so wrappers pass them on unchecked.
 */
export function getRangesOf(
  store: Readable,
  key: string,
  ranges: readonly ByteRange[],
  options?: { signal?: AbortSignal },
): Promise<Uint8Array[] | undefined> {
  if (store.getRanges) return store.getRanges(key, ranges, options);
  const signal = options?.signal;
  return readEachRange(
    ranges,
    (range) => store.get(key, { range, signal }),
    async () => (await store.get(key, { range: PROBE, signal })) !== undefined,
  );
}
