/** What a headers function is told about the request it adds headers to. */
export interface HttpRequestInfo {
  /** `GET`, `HEAD`, `PUT` or `DELETE`. */
  method: string;
  /** The URL about to be requested. */
  url: string;
  /** The store key. */
  key: string;
}

/** Headers for every request: fixed, or computed per request (auth tokens that expire). */
export type HeadersOption =
  | Record<string, string>
  | [string, string][]
  | Headers
  | ((
      request: HttpRequestInfo,
    ) => Record<string, string> | Headers | Promise<Record<string, string> | Headers>);

/** What {@link HttpStoreOptions.onRetry} is told before each retry. */
export interface RetryInfo {
  method: string;
  /** The URL, query string removed. */
  url: string;
  /** 1 for the first retry. */
  attempt: number;
  /** How long the store waits before this retry, in milliseconds. */
  delayMs: number;
  /** The status that caused the retry; undefined for a network error. */
  status?: number;
  /** The network error that caused the retry. */
  error?: unknown;
}

/** Options of an {@link HttpStore}. */
export interface HttpStoreOptions {
  /** The fetch implementation (default the global `fetch`). */
  fetch?: typeof fetch;
  /** Headers sent with every request, or a function returning them per request. */
  headers?: HeadersOption;
  /**
   * Maps a key to the URL to request, for presigned URLs or layouts where keys are not plain
   * paths below the base URL; receives the default URL.
   */
  resolveUrl?: (key: string, defaultUrl: string) => string | Promise<string>;
  /** Extra `fetch` options (`credentials`, `mode`, `cache`, `redirect`...). */
  fetchOptions?: Omit<RequestInit, "method" | "headers" | "body" | "signal">;
  /** Statuses that mean "no such key" (default `[404]`; S3 without list rights: `[403, 404]`). */
  missingStatuses?: readonly number[];
  /** How many times a request is retried after a 5xx status or a network error (default 3). */
  retries?: number;
  /** The backoff base, in milliseconds: retry n waits up to `retryDelay * 2^n` (default 200). */
  retryDelay?: number;
  /** The longest wait before a retry, in milliseconds (default 10 000). */
  maxRetryDelay?: number;
  /**
   * Which failed statuses are retried (default: 5xx except 501 Not Implemented and 505 HTTP
   * Version Not Supported, which do not go away). 4xx are final unless you include them (429).
   */
  retryStatus?: (status: number) => boolean;
  /** Called before each retry (logging, metrics). */
  onRetry?: (info: RetryInfo) => void;
  /** At most this many requests in flight at once (default 16). */
  concurrency?: number;
  /**
   * Allow `set`, `setIfNotExists` (`If-None-Match: *`) and `delete` as PUT and DELETE requests
   * (default false: they reject with ReadOnlyError).
   */
  writable?: boolean;
  /**
   * The server honours `If-Match` (PUT and DELETE) and `If-None-Match: *` (PUT) atomically and
   * answers GETs with strong ETags, answering 412 when a condition fails (S3, GCS, Azure, R2 and
   * most WebDAV servers do): the store then offers `getVersioned` and `conditionalWrites`, so
   * writers on several machines cannot lose each other's chunk updates (default false: only
   * writers in one process are kept apart). Needs `writable`.
   */
  conditionalWrites?: boolean;
  /**
   * Whether the server honours suffix ranges (`bytes=-n`): `"auto"` (default) tries them and,
   * on the first refusal, switches this store to a HEAD for the size plus a normal range.
   */
  suffixRanges?: "auto" | "never";
  /** Receives the store's warnings (default `console.warn`); each warning is given once. */
  onWarning?: (message: string) => void;
  /**
   * The largest body a read accepts when the store cannot know the size in advance (a whole
   * value, a range to the end, a server that ignores Range), in bytes (default 1 GiB). A
   * Content-Length above it fails before the body is read; a body without Content-Length is
   * cancelled once it grows past it. Ranged reads are limited by the range's own length.
   */
  maxBodyBytes?: number;
  /**
   * The longest one request may take, headers and body, in milliseconds (default: no limit).
   * A request that runs out of time is aborted and counts as a network error (retried).
   */
  timeout?: number;
}

/** The options with their defaults filled in. */
export interface ResolvedHttpStoreOptions {
  fetch: typeof fetch;
  headers: HeadersOption | undefined;
  resolveUrl: ((key: string, defaultUrl: string) => string | Promise<string>) | undefined;
  fetchOptions: Omit<RequestInit, "method" | "headers" | "body" | "signal">;
  missingStatuses: ReadonlySet<number>;
  retries: number;
  retryDelay: number;
  maxRetryDelay: number;
  retryStatus: (status: number) => boolean;
  onRetry: ((info: RetryInfo) => void) | undefined;
  concurrency: number;
  writable: boolean;
  conditionalWrites: boolean;
  suffixRanges: "auto" | "never";
  onWarning: (message: string) => void;
  maxBodyBytes: number;
  timeout: number | undefined;
}

/** The default {@link HttpStoreOptions.maxBodyBytes}: 1 GiB. */
export const DEFAULT_MAX_BODY_BYTES = 2 ** 30;
