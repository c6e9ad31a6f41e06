import { AbortError } from "@z/store-core";

/**
 * Lets at most `max` tasks run at once; the others wait in order of arrival. A waiting task
 * whose signal aborts leaves the queue at once.
 */
export class Limiter {
  #running = 0;
  readonly #waiting: { start: () => void; signal?: AbortSignal; onAbort?: () => void }[] = [];

  constructor(readonly max: number) {
    if (!Number.isSafeInteger(max) || max < 1)
      throw new RangeError(`concurrency must be a positive integer, got ${max}`);
  }

  /** Tasks running now. */
  get running(): number {
    return this.#running;
  }

  /** Waits for a free slot; resolves to the function that gives it back. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw new AbortError(signal.reason);
    if (this.#running < this.max) {
      this.#running++;
      return this.#releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: { start: () => void; signal?: AbortSignal; onAbort?: () => void } = {
        start: () => {
          signal?.removeEventListener("abort", waiter.onAbort!);
          resolve();
        },
        signal,
      };
      waiter.onAbort = () => {
        const index = this.#waiting.indexOf(waiter);
        if (index !== -1) this.#waiting.splice(index, 1);
        reject(new AbortError(signal!.reason));
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.#waiting.push(waiter);
    });
    return this.#releaser();
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      // The slot passes straight to the next waiter, so the count stays as it is.
      if (next) next.start();
      else this.#running--;
    };
  }
}
