/**
 * A fetch-based Zarr store for Node.js and browsers: byte-range and suffix reads, retries with
 * backoff, a concurrency limit, custom headers and fetch, optional PUT/DELETE writes.
 * @packageDocumentation
 */
export { HttpError } from "./http-error.js";
export { HttpStore } from "./http-store.js";
export {
  DEFAULT_MAX_BODY_BYTES,
  type HeadersOption,
  type HttpRequestInfo,
  type HttpStoreOptions,
  type RetryInfo,
} from "./options.js";
export { backoffDelay } from "./retry.js";
