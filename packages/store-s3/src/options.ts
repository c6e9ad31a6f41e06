import type { HttpStoreOptions } from "@z/store-http";
import type { S3Credentials } from "./sigv4.js";

/** Credentials, or a function that returns them per request (temporary credentials that renew). */
export type CredentialsOption = S3Credentials | (() => S3Credentials | Promise<S3Credentials>);

/** An OAuth 2 access token, or a function that returns it per request (tokens expire). */
export type BearerTokenOption = string | (() => string | Promise<string>);

/** Options of an {@link S3Store}. */
export interface S3StoreOptions
  extends Pick<
    HttpStoreOptions,
    | "fetch"
    | "fetchOptions"
    | "retries"
    | "retryDelay"
    | "maxRetryDelay"
    | "onRetry"
    | "concurrency"
    | "maxBodyBytes"
    | "timeout"
    | "onWarning"
    | "suffixRanges"
    | "missingStatuses"
  > {
  /** The bucket (taken from the location when one is given). */
  bucket?: string;
  /** The key prefix of the hierarchy inside the bucket (`path/to/data.zarr`), without `/` at the ends. */
  prefix?: string;
  /**
   * The service's URL (`https://s3.eu-west-1.amazonaws.com`, `http://127.0.0.1:9000`,
   * `https://storage.googleapis.com`). Default: `AWS_ENDPOINT_URL_S3`, then `AWS_ENDPOINT_URL`,
   * then AWS's endpoint of the region.
   */
  endpoint?: string;
  /** The region requests are signed for (default `AWS_REGION`, `AWS_DEFAULT_REGION`, `us-east-1`). */
  region?: string;
  /**
   * `"virtual"`: `https://<bucket>.<endpoint host>/<key>`; `"path"`: `<endpoint>/<bucket>/<key>`.
   * Default: virtual-hosted on AWS's own endpoints (path-style for bucket names with dots, which
   * break TLS there), path-style on any other endpoint (MinIO, Ceph, local servers), or as
   * `AWS_S3_FORCE_PATH_STYLE=true` says.
   */
  addressing?: "virtual" | "path";
  /**
   * The keys to sign with (SigV4), or `"anonymous"` for public buckets (nothing signed).
   * Default: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`; anonymous
   * when they are not set.
   */
  credentials?: CredentialsOption | "anonymous";
  /**
   * Send `Authorization: Bearer <token>` instead of signing (GCS with an OAuth 2 access token).
   * Takes precedence over `credentials`.
   */
  bearerToken?: BearerTokenOption;
  /** The service name in the signature (default `s3`). */
  service?: string;
  /**
   * Allow `set`, `delete` and `deletePrefix` (default true; the service's permissions decide
   * what actually succeeds).
   */
  writable?: boolean;
  /**
   * The service honours `If-Match` and `If-None-Match: *` on PUT atomically (AWS S3 since 2024,
   * Ceph RGW, MinIO, R2), so `getVersioned` and conditional `set` are offered and writers on
   * several machines cannot lose each other's updates to a chunk or shard (default true on
   * `s3://` stores; false on `gs://`, whose XML API uses its own generation headers instead).
   * Set it false for servers that ignore the headers (s3rver), or conditional writes would
   * silently overwrite.
   */
  conditionalWrites?: boolean;
  /** Keys per ListObjectsV2 page (`max-keys`; default the service's, 1000 on S3). */
  listPageSize?: number;
  /** The environment to read defaults from (default `process.env` where there is one). */
  env?: Record<string, string | undefined>;
}

/** The environment of the process, or an empty one (browsers). */
export function processEnv(): Record<string, string | undefined> {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return proc?.env ?? {};
}
