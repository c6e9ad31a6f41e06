import { AbortError } from "@z/store-core";

/**
 * The delay before retry number `attempt` (0 for the first retry): "full jitter" exponential
 * backoff, a random time between 0 and `min(maxDelay, baseDelay * 2^attempt)`, so clients that
 * failed together do not all come back at the same moment.
 */
export function backoffDelay(
  attempt: number,
  baseDelay: number,
  maxDelay: number,
  random: () => number = Math.random,
): number {
  const cap = Math.min(maxDelay, baseDelay * 2 ** attempt);
  return Math.floor(random() * cap);
}

/** The delay a `Retry-After` header asks for, in milliseconds (seconds or an HTTP date). */
export function retryAfterDelay(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms` milliseconds, or rejects with AbortError as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new AbortError(signal.reason));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError(signal!.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
