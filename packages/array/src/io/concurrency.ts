import { throwIfAborted } from "@z/store-core";

/** The default number of chunks read or written at once. */
export const DEFAULT_CONCURRENCY = 8;

/**
 * Runs `task` for every item with at most `limit` tasks in flight, pulling items lazily (so a
 * huge iterable is never materialised). Rejects with the first failure, after the tasks
 * already started have settled, and stops starting new ones when `signal` aborts.
 */
export async function forEachConcurrent<T>(
  items: Iterable<T>,
  limit: number,
  task: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    for (;;) {
      if (failure) return;
      if (signal?.aborted) {
        failure ??= { error: undefined };
        return;
      }
      const next = iterator.next();
      if (next.done) return;
      try {
        await task(next.value);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.floor(limit)) }, worker);
  await Promise.all(workers);
  throwIfAborted(signal);
  if (failure) throw failure.error;
}
