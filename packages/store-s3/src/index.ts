/**
 * A Zarr store for S3 and S3-compatible object stores (AWS, Ceph RGW, MinIO, R2, GCS's XML API):
 * SigV4 signing on WebCrypto, bearer tokens, anonymous access, ranged reads, ListObjectsV2
 * listing, batched deletes, retries and conditional writes. Runs in Node.js and browsers.
 * @packageDocumentation
 */
export { parseBucketLocation, S3ConfigError } from "./config.js";
export type { BearerTokenOption, CredentialsOption, S3StoreOptions } from "./options.js";
export * from "./s3-store.js";
export type { S3Credentials } from "./sigv4.js";
