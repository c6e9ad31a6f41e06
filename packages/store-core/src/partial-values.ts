import { mapBounded } from "./bounded-map.js";
import { UnsupportedOperationError } from "./errors.js";
import { type ByteRange, sliceRange } from "./range.js";
import { getRangesOf } from "./ranges-of.js";
import type { KeyRange, PartialReadOptions, PartialWrite, Readable, Writable } from "./store.js";

/**
 * Reads byte ranges of several keys from any store (zarr-python's `get_partial_values`): one
 * entry per request, in order, `undefined` where the key does not exist. Uses the store's own
 * `getPartialValues` when it has one; otherwise the requests of one key go together to its
 * `getRanges` (one batched read where the store can) or to one ranged `get` each, or to one
 * whole read when one of them asks for the whole value, with at most `concurrency` (default
 * 10) keys read at once.
 * @example
 * ```ts
 * const [header, tail] = await getPartialValuesOf(store, [
 *   { key: "a/c/0", range: { offset: 0, length: 16 } },
 *   { key: "b/c/0", range: { suffix: 8 } },
 * ]);
 * ```
 */
export function getPartialValuesOf(
  store: Readable,
  requests: readonly KeyRange[],
  options?: PartialReadOptions,
): Promise<(Uint8Array | undefined)[]> {
  if (store.getPartialValues) return store.getPartialValues(requests, options);
  return readPartialValues(store, requests, options);
}

/**
 * {@link getPartialValuesOf} built from `get` and `getRanges`: the fallback of every store. The
 * requests of one key are served together: by one whole read, sliced, when any of them asks for
 * the whole value; otherwise by the store's `getRanges` (or one ranged `get` each).
 */
export async function readPartialValues(
  store: Readable,
  requests: readonly KeyRange[],
  options?: PartialReadOptions,
): Promise<(Uint8Array | undefined)[]> {
  const signal = options?.signal;
  const byKey = new Map<string, number[]>();
  requests.forEach(({ key }, i) => {
    const indices = byKey.get(key);
    if (indices) indices.push(i);
    else byKey.set(key, [i]);
  });
  const out = new Array<Uint8Array | undefined>(requests.length);
  await mapBounded(
    [...byKey],
    async ([key, indices]) => {
      const ranges = indices.map((i) => requests[i].range);
      if (ranges.some((range) => range === undefined)) {
        const whole = await store.get(key, { signal });
        indices.forEach((request, j) => {
          out[request] = whole && sliceRange(whole, ranges[j]);
        });
        return;
      }
      const parts = await getRangesOf(store, key, ranges as ByteRange[], { signal });
      indices.forEach((request, j) => {
        out[request] = parts?.[j];
      });
    },
    options,
  );
  return out;
}

/**
 * Writes byte ranges of existing values through a store's `setPartialValues` (zarr-python's
 * `set_partial_values`); see `Writable.setPartialValues` for what it does.
 * @throws UnsupportedOperationError when the store cannot write part of a value (its
 *   `supportsPartialWrites` is false): write the whole value with `set` instead
 */
export function setPartialValuesOf(
  store: Readable,
  writes: readonly PartialWrite[],
  options?: { signal?: AbortSignal },
): Promise<void> {
  const write = (store as Partial<Writable>).setPartialValues;
  if (typeof write !== "function") {
    return Promise.reject(
      new UnsupportedOperationError(
        "This store cannot write part of a value (supportsPartialWrites is false); write the whole value with set",
      ),
    );
  }
  return write.call(store, writes, options);
}
