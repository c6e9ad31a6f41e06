import { AbortError } from "@z/store-core";
import { backoffDelay, HttpError } from "@z/store-http";
import type { AzureBlobStoreOptions } from "./options.js";

/** Waits `ms` milliseconds, or rejects with AbortError when the signal aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(new AbortError(signal.reason));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * One service request outside the key space (List Blobs), retried as the store's key requests
 * are: 5xx answers (but 501 and 505) and network errors, with full-jitter backoff, at most
 * `retries` times. Resolves to the last answer, whatever its status.
 */
export async function requestWithRetries(
  fetchImpl: typeof fetch,
  url: string,
  method: string,
  options: AzureBlobStoreOptions,
  request: { signal?: AbortSignal; headers?: Record<string, string> },
): Promise<Response> {
  const { signal, headers } = request;
  const retries = options.retries ?? 3;
  const retryDelay = options.retryDelay ?? 200;
  const maxRetryDelay = options.maxRetryDelay ?? 10_000;
  const retryStatus =
    options.retryStatus ??
    ((status: number) => status >= 500 && status <= 599 && status !== 501 && status !== 505);
  for (let attempt = 0; ; attempt++) {
    let failure: { status: number; detail: string; cause?: unknown };
    try {
      const response = await fetchImpl(url, { ...options.fetchOptions, method, headers, signal });
      if (!retryStatus(response.status)) return response;
      await response.body?.cancel();
      failure = { status: response.status, detail: `${response.status} ${response.statusText}` };
    } catch (error) {
      if (signal?.aborted) throw new AbortError(signal.reason);
      failure = { status: 0, detail: `network error: ${(error as Error).message}`, cause: error };
    }
    if (attempt >= retries) {
      throw new HttpError(
        method,
        url,
        failure.status,
        `${failure.detail} (gave up after ${attempt + 1} attempts)`,
        {
          cause: failure.cause,
        },
      );
    }
    const delayMs = backoffDelay(attempt, retryDelay, maxRetryDelay);
    options.onRetry?.({
      method,
      url: url.split("?")[0],
      attempt: attempt + 1,
      delayMs,
      status: failure.status || undefined,
      error: failure.cause,
    });
    await sleep(delayMs, signal);
  }
}
