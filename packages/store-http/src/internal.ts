/**
 * Internals of `@z/store-http` shared with the stores built on it (S3, Azure, references). Not
 * part of the public API: names here change without a major version.
 * @packageDocumentation
 */
export * from "./retry-internal.js";
