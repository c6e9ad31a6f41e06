/**
 * A fetch-based Zarr store for Node.js and browsers: byte-range and suffix reads, retries with
 * backoff, a concurrency limit, custom headers and fetch, optional PUT/DELETE writes.
 * @packageDocumentation
 */
export * from "./http-error.js";
export * from "./http-store.js";
export * from "./options.js";
export * from "./retry.js";
