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

/** The signal of one request: the caller's, plus the store's per-request timeout. */
export interface AttemptSignal {
  /** Aborts when the caller aborts or the time is up. */
  signal: AbortSignal | undefined;
  /** Whether the timeout (not the caller) aborted the request. */
  timedOut(): boolean;
  /** Stops the timer and forgets the caller's signal. */
  dispose(): void;
}

/**
 * Combines the caller's signal with a timeout of `timeoutMs` (none when undefined), so a server
 * that stalls before or during the body cannot hold a request forever.
 */
export function attemptSignal(
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): AttemptSignal {
  if (timeoutMs === undefined) return { signal, timedOut: () => false, dispose: () => {} };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no complete answer within ${timeoutMs} ms`));
  }, timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut && !signal?.aborted,
    dispose: () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
  };
}
