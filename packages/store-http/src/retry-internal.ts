// The retry delays and attempt signals: private to the @z packages. retry.ts holds the public side, which the
// package entry re-exports whole.
import { AbortError } from "@z/store-core";
import type { AttemptSignal } from "./retry.js";

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
