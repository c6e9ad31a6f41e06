/** A box of an array: per axis, `[start, stop)`. */
export type Box = [number, number][];

/** The boxes of the chunks of an array of `shape` with chunks of `chunks`, in C order. */
export function* chunkBoxes(shape: readonly number[], chunks: readonly number[]): Generator<Box> {
  const counts = shape.map((n, d) => Math.ceil(n / chunks[d]));
  if (counts.some((c) => c === 0)) return;
  const at = new Array<number>(shape.length).fill(0);
  for (;;) {
    yield at.map((i, d): [number, number] => [
      i * chunks[d],
      Math.min(shape[d], (i + 1) * chunks[d]),
    ]);
    let d = shape.length - 1;
    for (; d >= 0; d--) {
      if (++at[d] < counts[d]) break;
      at[d] = 0;
    }
    if (d < 0) return;
  }
}

/** How many chunks an array of `shape` with chunks of `chunks` has. */
export function chunkCount(shape: readonly number[], chunks: readonly number[]): number {
  return shape.reduce((acc, n, d) => acc * Math.ceil(n / chunks[d]), 1);
}

/**
 * Runs `task` on every item, at most `concurrency` at a time, so that no more than that many
 * items' buffers are alive at once; stops starting new ones after the first failure and
 * rejects with it.
 */
export async function forEachBounded<T>(
  items: Iterable<T>,
  concurrency: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let failed = false;
  const worker = async () => {
    for (;;) {
      if (failed) return;
      const next = iterator.next();
      if (next.done) return;
      try {
        await task(next.value);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: concurrency }, worker));
  const rejected = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (rejected) throw rejected.reason;
}
