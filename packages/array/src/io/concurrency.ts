import { throwIfAborted } from "@z/store-core";

/**
 * The number of chunks read or written, and of metadata documents read, at once when a call
 * names none (8 unless changed). A live binding: {@link setDefaultConcurrency} and
 * `config.set({ concurrency })` change it for the whole process.
 */
export let DEFAULT_CONCURRENCY = 8;

/**
 * Sets {@link DEFAULT_CONCURRENCY} for the whole process (calls that name a `concurrency` keep
 * theirs); returns the value set before. `config.set({ concurrency })` does the same.
 * @throws RangeError for a value that is not an integer >= 1
 */
export function setDefaultConcurrency(count: number): number {
  if (!Number.isSafeInteger(count) || count < 1)
    throw new RangeError(`The default concurrency must be an integer >= 1, got ${count}`);
  const previous = DEFAULT_CONCURRENCY;
  DEFAULT_CONCURRENCY = count;
  return previous;
}

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
