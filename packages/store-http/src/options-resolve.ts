// The options resolver: private to the @z packages. options.ts holds the public side, which the
// package entry re-exports whole.
import type { HttpStoreOptions, ResolvedHttpStoreOptions } from "./options.js";
import { DEFAULT_MAX_BODY_BYTES } from "./options.js";

/** 5xx answers are worth retrying, except those that say the request can never work. */
function defaultRetryStatus(status: number): boolean {
  return status >= 500 && status <= 599 && status !== 501 && status !== 505;
}

function nonNegative(value: number, what: string): number {
  if (!(Number.isFinite(value) && value >= 0))
    throw new RangeError(`${what} must be a non-negative number, got ${value}`);
  return value;
}

function positiveInteger(value: number, what: string): number {
  if (!(Number.isSafeInteger(value) && value > 0))
    throw new RangeError(`${what} must be a positive integer, got ${value}`);
  return value;
}

function positiveNumber(value: number, what: string): number {
  if (!(Number.isFinite(value) && value > 0))
    throw new RangeError(`${what} must be a positive number, got ${value}`);
  return value;
}

/** Fills in the defaults of {@link HttpStoreOptions} and checks the numbers. */
export function resolveHttpOptions(options: HttpStoreOptions): ResolvedHttpStoreOptions {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") {
    throw new TypeError("HttpStore needs fetch: pass options.fetch where there is no global fetch");
  }
  return {
    fetch: fetchImpl,
    headers: options.headers,
    resolveUrl: options.resolveUrl,
    fetchOptions: options.fetchOptions ?? {},
    missingStatuses: new Set(options.missingStatuses ?? [404]),
    retries: Math.floor(nonNegative(options.retries ?? 3, "retries")),
    retryDelay: nonNegative(options.retryDelay ?? 200, "retryDelay"),
    maxRetryDelay: nonNegative(options.maxRetryDelay ?? 10_000, "maxRetryDelay"),
    retryStatus: options.retryStatus ?? defaultRetryStatus,
    onRetry: options.onRetry,
    concurrency: options.concurrency ?? 16,
    writable: options.writable ?? false,
    conditionalWrites: (options.writable ?? false) && (options.conditionalWrites ?? false),
    suffixRanges: options.suffixRanges ?? "auto",
    onWarning: options.onWarning ?? ((message) => console.warn(message)),
    maxBodyBytes: positiveInteger(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, "maxBodyBytes"),
    timeout: options.timeout === undefined ? undefined : positiveNumber(options.timeout, "timeout"),
  };
}
