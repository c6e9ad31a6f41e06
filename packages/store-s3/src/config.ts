import { nameErrorClass } from "@z/errors";
import { StoreError, validateKey } from "@z/store-core";
import {
  type BearerTokenOption,
  type CredentialsOption,
  processEnv,
  type S3StoreOptions,
} from "./options.js";
import type { S3Credentials, SigningScope } from "./sigv4.js";

declare module "@z/errors" {
  interface ZarrErrorMap {
    S3ConfigError: S3ConfigError;
  }
}

/**
 * An S3 or GCS location or option that cannot work: a malformed `s3://` URL, a missing bucket,
 * half of a key pair.
 * @category Errors
 */
export class S3ConfigError extends StoreError {
  static {
    nameErrorClass(S3ConfigError, "S3ConfigError");
  }
}

/** How requests are authorised. */
export type S3Auth =
  | { kind: "anonymous" }
  | { kind: "bearer"; token: () => Promise<string> }
  | { kind: "sigv4"; credentials: () => Promise<S3Credentials>; scope: SigningScope };

/** What an S3Store needs, every default filled in. */
export interface S3Config {
  /** `https://bucket.host/` or `https://host/bucket/`: where ListObjectsV2 and DeleteObjects go. */
  bucketUrl: string;
  /** The key prefix of the store inside the bucket: `""` or ending in `/`. */
  prefix: string;
  /** The URL of the store's root: `bucketUrl` plus the prefix, percent-encoded. */
  rootUrl: string;
  auth: S3Auth;
  writable: boolean;
  conditionalWrites: boolean;
}

/** The bucket and prefix of `s3://bucket/prefix` or `gs://bucket/prefix`. */
export function parseBucketLocation(location: string): {
  scheme: "s3" | "gs";
  bucket: string;
  prefix: string;
} {
  const match = /^(s3|gs):\/\/([^/?#]+)\/?([^?#]*)$/i.exec(location);
  if (!match) {
    throw new S3ConfigError(
      `Not a bucket location: ${JSON.stringify(location)} (expected s3://bucket/path or gs://bucket/path)`,
    );
  }
  return {
    scheme: match[1]!.toLowerCase() as "s3" | "gs",
    bucket: match[2]!,
    prefix: match[3]!.replace(/\/+$/, ""),
  };
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9._-]{1,221}[a-z0-9]$/i;

function asFunction<T>(value: T | (() => T | Promise<T>)): () => Promise<T> {
  return typeof value === "function"
    ? async () => (value as () => T | Promise<T>)()
    : async () => value;
}

/** Credentials from the options, else from a key pair in the environment; undefined if none. */
function credentialsFrom(
  option: CredentialsOption | undefined,
  env: Record<string, string | undefined>,
  names: { id: string; secret: string; token?: string },
): (() => Promise<S3Credentials>) | undefined {
  if (option !== undefined) return asFunction(option);
  const accessKeyId = env[names.id];
  const secretAccessKey = env[names.secret];
  if (!accessKeyId && !secretAccessKey) return undefined;
  if (!accessKeyId || !secretAccessKey) {
    throw new S3ConfigError(
      `${accessKeyId ? names.secret : names.id} is not set while ${accessKeyId ? names.id : names.secret} is: set both, or neither for anonymous access`,
    );
  }
  const sessionToken = names.token ? env[names.token] || undefined : undefined;
  return async () => ({ accessKeyId, secretAccessKey, sessionToken });
}

/** Whether an endpoint is one of AWS's own (where virtual-hosted addressing is the rule). */
function isAwsEndpoint(url: URL): boolean {
  return /(^|\.)amazonaws\.com(\.cn)?$/i.test(url.hostname);
}

function endpointUrl(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `http://${endpoint}`);
  } catch {
    throw new S3ConfigError(`The endpoint ${JSON.stringify(endpoint)} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new S3ConfigError(`The endpoint ${JSON.stringify(endpoint)} is not an http(s) URL`);
  return url;
}

/**
 * Fills in an S3Store's configuration from a location (`s3://…`, `gs://…`; optional), the
 * options and the environment. `gs://` goes to `https://storage.googleapis.com` (or
 * `STORAGE_EMULATOR_HOST`), region `auto`, path-style, with `GOOGLE_OAUTH_TOKEN` as a bearer
 * token or the HMAC key pair `GOOGLE_ACCESS_KEY_ID` / `GOOGLE_SECRET_ACCESS_KEY`.
 */
export function resolveS3Config(location: string | undefined, options: S3StoreOptions): S3Config {
  const env = options.env ?? processEnv();
  const parsed = location === undefined ? undefined : parseBucketLocation(location);
  const gcs = parsed?.scheme === "gs";
  const bucket = options.bucket ?? parsed?.bucket;
  if (!bucket)
    throw new S3ConfigError("No bucket: pass an s3://bucket/path location or options.bucket");
  if (!BUCKET_NAME.test(bucket) || bucket.includes(".."))
    throw new S3ConfigError(`Invalid bucket name ${JSON.stringify(bucket)}`);
  const rawPrefix = (options.prefix ?? parsed?.prefix ?? "").replace(/^\/+|\/+$/g, "");
  if (rawPrefix !== "") {
    try {
      validateKey(rawPrefix);
    } catch (error) {
      throw new S3ConfigError(
        `Invalid path ${JSON.stringify(rawPrefix)} in bucket ${bucket}: ${(error as Error).message}`,
      );
    }
  }
  const prefix = rawPrefix === "" ? "" : `${rawPrefix}/`;

  const region =
    options.region ?? (gcs ? "auto" : env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1");
  const endpoint = endpointUrl(
    options.endpoint ??
      (gcs
        ? env.STORAGE_EMULATOR_HOST || "https://storage.googleapis.com"
        : env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || `https://s3.${region}.amazonaws.com`),
  );
  const forcePath = /^(1|true)$/i.test(env.AWS_S3_FORCE_PATH_STYLE ?? "");
  const addressing =
    options.addressing ??
    (!gcs && !forcePath && isAwsEndpoint(endpoint) && !bucket.includes(".") ? "virtual" : "path");
  if (addressing === "virtual" && /^(\[.*\]|[\d.]+)$/.test(endpoint.hostname)) {
    throw new S3ConfigError(
      `Virtual-hosted addressing needs a host name, not the address ${endpoint.hostname}: use addressing "path"`,
    );
  }
  const base = endpoint.href.replace(/\/+$/, "");
  const bucketUrl =
    addressing === "virtual"
      ? `${endpoint.protocol}//${bucket}.${endpoint.host}${endpoint.pathname.replace(/\/+$/, "")}/`
      : `${base}/${encodeURIComponent(bucket)}/`;
  const rootUrl = bucketUrl + prefix.split("/").map(encodeURIComponent).join("/");

  const bearer: BearerTokenOption | undefined =
    options.bearerToken ?? (gcs ? env.GOOGLE_OAUTH_TOKEN || undefined : undefined);
  let auth: S3Auth;
  if (bearer !== undefined) auth = { kind: "bearer", token: asFunction(bearer) };
  else if (options.credentials === "anonymous") auth = { kind: "anonymous" };
  else {
    const credentials = credentialsFrom(
      options.credentials,
      env,
      gcs
        ? { id: "GOOGLE_ACCESS_KEY_ID", secret: "GOOGLE_SECRET_ACCESS_KEY" }
        : { id: "AWS_ACCESS_KEY_ID", secret: "AWS_SECRET_ACCESS_KEY", token: "AWS_SESSION_TOKEN" },
    );
    auth = credentials
      ? { kind: "sigv4", credentials, scope: { region, service: options.service ?? "s3" } }
      : { kind: "anonymous" };
  }
  const writable = options.writable ?? true;
  return {
    bucketUrl,
    prefix,
    rootUrl,
    auth,
    writable,
    conditionalWrites: writable && (options.conditionalWrites ?? !gcs),
  };
}
