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

/** The most bytes a List Blobs or service answer may have (a 5000-blob page is a few MB). */
export const MAX_SERVICE_ANSWER_BYTES = 64 * 2 ** 20;

/**
 * The text of a service answer, read only up to `max` bytes: a server sending more is an
 * `HttpError`, not an unbounded allocation.
 */
export async function readBoundedText(
  response: Response,
  method: string,
  url: string,
  max = MAX_SERVICE_ANSWER_BYTES,
): Promise<string> {
  const tooLong = () =>
    new HttpError(method, url, response.status, `the answer is longer than ${max} bytes`);
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > max) {
    await response.body?.cancel();
    throw tooLong();
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      await reader.cancel();
      throw tooLong();
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return new TextDecoder().decode(bytes);
}
