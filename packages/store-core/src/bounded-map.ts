import { StoreError, throwIfAborted } from "./errors.js";

/** How many requests the store API's many-key calls keep in flight by default (zarr-python's). */
export const DEFAULT_CONCURRENCY = 10;

/**
 * Maps `items` through `fn` with at most `limit` calls pending at once, keeping the order of
 * `items` in the result. The first failure rejects the whole map and starts no further calls;
 * calls already started run to their end, unobserved.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<R>,
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<R[]> {
  const limit = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new StoreError(`Invalid option: concurrency must be a positive integer, got ${limit}`);
  }
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      throwIfAborted(options.signal);
      const index = next++;
      try {
        results[index] = await fn(items[index], index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
