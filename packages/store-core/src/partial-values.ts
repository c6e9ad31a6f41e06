import { mapBounded } from "./bounded-map.js";
import { UnsupportedOperationError } from "./errors.js";
import type { ByteRange } from "./range.js";
import type { KeyRange, PartialReadOptions, PartialWrite, Readable, Writable } from "./store.js";

const WHOLE: ByteRange = { offset: 0 };

/**
 * Reads byte ranges of several keys from any store (zarr-python's `get_partial_values`): one
 * entry per request, in order, `undefined` where the key does not exist. Uses the store's own
 * `getPartialValues` when it has one; otherwise the requests of one key go to its `getRanges`
 * together (one batched read where the store can) or to one ranged `get` each, with at most
 * `concurrency` (default 10) reads in flight.
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

/** {@link getPartialValuesOf} built from `getRanges` or `get`: the fallback of every store. */
export async function readPartialValues(
  store: Readable,
  requests: readonly KeyRange[],
  options?: PartialReadOptions,
): Promise<(Uint8Array | undefined)[]> {
  const signal = options?.signal;
  const getRanges = store.getRanges;
  if (!getRanges) {
    return mapBounded(requests, ({ key, range }) => store.get(key, { range, signal }), options);
  }
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
      const ranges = indices.map((i) => requests[i].range ?? WHOLE);
      const parts = await getRanges.call(store, key, ranges, { signal });
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
