import {
  type ByteRange,
  checkRangesRead,
  type DirListing,
  folderPrefix,
  type GetOptions,
  type Listable,
  type Readable,
  ReadOnlyError,
  readEachRange,
  type SetOptions,
  StoreBase,
  throwIfAborted,
  type VersionedValue,
  validateKey,
  validatePrefix,
  type Writable,
} from "@z/store-core";
import { HttpError, HttpStore } from "@z/store-http";
import { BucketClient, isRetryableStatus } from "./bucket-client.js";
import { resolveS3Config, type S3Config } from "./config.js";
import { DELETE_BATCH, deleteBatch } from "./delete-objects.js";
import { listPages } from "./list-objects.js";
import type { S3StoreOptions } from "./options.js";
import { signingFetch } from "./signing-fetch.js";

/** A 206 answer whose Content-Range is not the range asked for (HttpStore checks every one). */
function isWrongPartialAnswer(error: unknown): boolean {
  return error instanceof HttpError && error.status === 206;
}

/** Whether a bucket key can be a store key (console "folder/" markers and `a//b` cannot). */
function isStoreKey(key: string): boolean {
  try {
    validateKey(key);
    return true;
  } catch {
    return false;
  }
}

/**
 * The options with `ifMatch` unquoted: S3 sends ETags quoted, AWS and MinIO compare `If-Match`
 * with or without the quotes, but Ceph RGW compares it with the bare ETag it stores.
 */
function withBareEtag(options: SetOptions | undefined): SetOptions | undefined {
  const etag = options?.ifMatch;
  if (etag === undefined || !/^".*"$/.test(etag)) return options;
  return { ...options, ifMatch: etag.slice(1, -1) };
}

/**
 * A Zarr store in an S3 bucket or any S3-compatible service (AWS, Ceph RGW, MinIO, R2, GCS's XML
 * API), on `fetch` and WebCrypto, for Node.js and browsers. Store key `a/c/0` is the object
 * `<prefix>/a/c/0`. Requests are signed with SigV4 (keys from the options or `AWS_*`
 * variables), carry an OAuth bearer token (GCS), or go unsigned (public buckets).
 *
 * Reads are those of {@link HttpStore} (ranges, bounded bodies, retries with backoff on 5xx and
 * 503 SlowDown, a concurrency limit); listing is ListObjectsV2 with pagination (`listDir` with
 * the `/` delimiter); `deletePrefix` lists and deletes in DeleteObjects batches of 1000 (one by
 * one where the service has no DeleteObjects). With `conditionalWrites` (default on `s3://`),
 * `getVersioned` returns the ETag and `set(key, value, {ifMatch | ifNoneMatch: "*"})` sends
 * `If-Match` / `If-None-Match: *`, so writers on many machines cannot lose each other's updates.
 *
 * @example
 * ```ts
 * // Keys from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, region from AWS_REGION.
 * const store = new S3Store("s3://my-bucket/path/to/data.zarr");
 * // Any S3-compatible service, path-style, explicit keys:
 * const minio = new S3Store("s3://bucket/data.zarr", {
 *   endpoint: "http://127.0.0.1:9000",
 *   credentials: { accessKeyId: "minio", secretAccessKey: "minio123" },
 * });
 * // A public bucket:
 * const open = new S3Store("s3://noaa-goes16/data.zarr", { credentials: "anonymous" });
 * ```
 * @category Stores
 */
export class S3Store extends StoreBase implements Readable, Writable, Listable {
  /** The URL of the store's root (`<bucket URL>/<prefix>/`). */
  readonly url: string;
  /** The URL of the bucket, where listings and batch deletes go. */
  readonly bucketUrl: string;
  /** The key prefix of the store inside its bucket: `""` or ending in `/`. */
  readonly prefix: string;
  /** Every read returns a new buffer. */
  readonly freshReads = true;
  readonly #config: S3Config;
  readonly #http: HttpStore;
  readonly #bucket: BucketClient;
  readonly #onWarning: (message: string) => void;
  readonly #pageSize: number | undefined;
  /** Set once the service answered a suffix range with other bytes than the value's end. */
  #suffixWrong = false;
  /** Set once the service refused DeleteObjects: deletes go one by one from then on. */
  #noBatchDelete = false;

  /**
   * @param location `s3://bucket/path` or `gs://bucket/path`; or leave it out and pass
   *   `bucket` (and `prefix`) in the options
   */
  constructor(location: string | S3StoreOptions, options: S3StoreOptions = {}) {
    super();
    const opts = typeof location === "string" ? options : location;
    this.#config = resolveS3Config(typeof location === "string" ? location : undefined, opts);
    this.url = this.#config.rootUrl;
    this.bucketUrl = this.#config.bucketUrl;
    this.prefix = this.#config.prefix;
    const fetch = signingFetch(this.#config.auth, opts.fetch ?? globalThis.fetch);
    this.#pageSize = opts.listPageSize;
    this.#onWarning = opts.onWarning ?? ((message) => console.warn(message));
    this.#http = new HttpStore(this.url, {
      fetch,
      fetchOptions: opts.fetchOptions,
      retries: opts.retries,
      retryDelay: opts.retryDelay,
      maxRetryDelay: opts.maxRetryDelay,
      retryStatus: isRetryableStatus,
      onRetry: opts.onRetry,
      concurrency: opts.concurrency,
      maxBodyBytes: opts.maxBodyBytes,
      timeout: opts.timeout,
      onWarning: this.#onWarning,
      suffixRanges: opts.suffixRanges,
      missingStatuses: opts.missingStatuses,
      writable: this.#config.writable,
      conditionalWrites: this.#config.conditionalWrites,
    });
    this.#bucket = new BucketClient(this.bucketUrl, fetch, {
      retries: opts.retries ?? 3,
      retryDelay: opts.retryDelay ?? 200,
      maxRetryDelay: opts.maxRetryDelay ?? 10_000,
      onRetry: opts.onRetry,
    });
    if (this.#config.conditionalWrites) {
      this.getVersioned = (key, o) => this.#http.getVersioned!(key, o);
      this.setIfNotExists = (key, value, o) => this.#http.setIfNotExists(key, value, o);
    }
  }

  /** Whether this store sends `If-Match` / `If-None-Match: *` (the `conditionalWrites` option). */
  get conditionalWrites(): boolean {
    return this.#config.conditionalWrites;
  }

  /** Whether writes are allowed (the `writable` option). */
  get writable(): boolean {
    return this.#config.writable;
  }

  /** Whether writes are allowed (the `writable` option), under zarr-python's name. */
  override get supportsWrites(): boolean {
    return this.#config.writable;
  }

  // ---- reads ----

  /**
   * Reads a value or a byte range of it; undefined when the object does not exist. A suffix
   * range goes as `bytes=-n`, except on a service found to answer it with the wrong bytes
   * (s3rver), where it goes as a HEAD for the size plus an explicit range.
   */
  async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    const range = options?.range;
    if (range === undefined || !("suffix" in range)) return this.#http.get(key, options);
    if (this.#suffixWrong) return this.#suffixBySize(key, range.suffix, options?.signal);
    try {
      return await this.#http.get(key, options);
    } catch (error) {
      if (!isWrongPartialAnswer(error)) throw error;
      this.#suffixWrong = true;
      this.#onWarning(
        `${this.bucketUrl}: the service answers suffix ranges (bytes=-n) with the wrong bytes; suffix reads now cost a HEAD request plus a range request`,
      );
      return this.#suffixBySize(key, range.suffix, options?.signal);
    }
  }

  async #suffixBySize(
    key: string,
    suffix: number,
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array | undefined> {
    const size = await this.#http.getSize(key, { signal });
    if (size === undefined) return undefined;
    const start = Math.max(0, size - suffix);
    if (start === size) return new Uint8Array(0);
    return this.#http.get(key, { range: { offset: start, length: size - start }, signal });
  }

  /** Reads several ranges of one object, as concurrent ranged GETs; undefined when it is missing. */
  async getRanges(
    key: string,
    ranges: readonly ByteRange[],
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array[] | undefined> {
    if (!ranges.some((range) => "suffix" in range))
      return this.#http.getRanges(key, ranges, options);
    checkRangesRead(key, ranges, options?.signal);
    return readEachRange(
      ranges,
      (range) => this.get(key, { ...options, range }),
      () => this.has(key, options),
    );
  }

  /** Whether an object exists (HEAD). */
  has(key: string, options?: { signal?: AbortSignal }): Promise<boolean> {
    return this.#http.has(key, options);
  }

  /** An object's size in bytes (HEAD), undefined when it is missing. */
  override getSize(key: string, options?: { signal?: AbortSignal }): Promise<number | undefined> {
    return this.#http.getSize(key, options);
  }

  /**
   * The total size of the objects under `prefix` (`""`, `"a/b"` or `"a/b/"`), from the sizes
   * the listing reports: one request per 1000 objects, no HEAD per object.
   */
  override async getSizePrefix(prefix = "", options?: { signal?: AbortSignal }): Promise<number> {
    const folder = folderPrefix(prefix);
    throwIfAborted(options?.signal);
    let total = 0;
    for await (const page of listPages(this.#bucket, this.prefix + folder, {
      signal: options?.signal,
      pageSize: this.#pageSize,
    })) {
      page.keys.forEach((key, i) => {
        if (isStoreKey(key.slice(this.prefix.length))) total += page.sizes[i]!;
      });
    }
    return total;
  }

  /**
   * With `conditionalWrites`: reads a whole value with its ETag as version, for
   * `set(key, value, {ifMatch: version})`; undefined when the object does not exist.
   */
  getVersioned?: (
    key: string,
    options?: { signal?: AbortSignal },
  ) => Promise<VersionedValue | undefined>;

  // ---- writes ----

  /** Writes an object (PUT), with `If-Match` / `If-None-Match: *` when the options ask. */
  set(key: string, value: Uint8Array, options?: SetOptions): Promise<void> {
    return this.#http.set(key, value, withBareEtag(options));
  }

  /**
   * With `conditionalWrites`: writes only if the object does not exist (`If-None-Match: *`);
   * resolves to whether it wrote.
   */
  setIfNotExists?: (key: string, value: Uint8Array, options?: SetOptions) => Promise<boolean>;

  /** Deletes an object; a missing one is no error. */
  delete(key: string, options?: SetOptions): Promise<void> {
    return this.#http.delete(key, withBareEtag(options));
  }

  /**
   * Deletes every object under `prefix` (`""`: the whole store, never more of the bucket): lists
   * them, then DeleteObjects in batches of 1000 (DELETE one by one where the service refuses
   * DeleteObjects, with a warning).
   */
  async deletePrefix(prefix: string, options?: SetOptions): Promise<void> {
    validatePrefix(prefix);
    const signal = options?.signal;
    throwIfAborted(signal);
    if (!this.#config.writable) throw new ReadOnlyError(prefix, "delete");
    let batch: string[] = [];
    for await (const page of listPages(this.#bucket, this.prefix + prefix, {
      signal,
      pageSize: this.#pageSize,
    })) {
      for (const key of page.keys) {
        batch.push(key);
        if (batch.length === DELETE_BATCH) {
          await this.#deleteKeys(batch, signal);
          batch = [];
        }
      }
    }
    if (batch.length > 0) await this.#deleteKeys(batch, signal);
  }

  async #deleteKeys(bucketKeys: string[], signal: AbortSignal | undefined): Promise<void> {
    if (!this.#noBatchDelete && (await deleteBatch(this.#bucket, bucketKeys, signal))) return;
    if (!this.#noBatchDelete) {
      this.#noBatchDelete = true;
      this.#onWarning(
        `${this.bucketUrl}: the service refuses DeleteObjects; deleting one object per request`,
      );
    }
    const storeKeys = bucketKeys
      .map((key) => key.slice(this.prefix.length))
      .filter((key) => isStoreKey(key));
    await Promise.all(storeKeys.map((key) => this.#http.delete(key, { signal })));
  }

  /**
   * Creates the store's bucket (a PUT of the bucket URL, with the region as location constraint
   * outside us-east-1); a bucket this account already owns is no error. For tests and tools:
   * buckets are usually made once, by an administrator.
   */
  async createBucket(options?: { signal?: AbortSignal }): Promise<void> {
    const auth = this.#config.auth;
    const region = auth.kind === "sigv4" ? auth.scope.region : "us-east-1";
    const body =
      region === "us-east-1" || region === "auto"
        ? undefined
        : new TextEncoder().encode(
            `<CreateBucketConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><LocationConstraint>${region}</LocationConstraint></CreateBucketConfiguration>`,
          );
    const answer = await this.#bucket.request("PUT", {}, { body, signal: options?.signal });
    if (answer.status === 200 || /BucketAlreadyOwnedByYou/.test(answer.text)) return;
    throw this.#bucket.failure("PUT", answer, "creating the bucket");
  }

  // ---- listing ----

  /** Every key of the store. */
  list(): AsyncIterable<string> {
    return this.listPrefix("");
  }

  /** Every key that starts with `prefix` (`""` or ending in `/`), page by page. */
  async *listPrefix(prefix: string): AsyncIterable<string> {
    validatePrefix(prefix);
    for await (const page of listPages(this.#bucket, this.prefix + prefix, {
      pageSize: this.#pageSize,
    })) {
      for (const key of page.keys) {
        const storeKey = key.slice(this.prefix.length);
        if (isStoreKey(storeKey)) yield storeKey;
      }
    }
  }

  /** The keys and sub-prefixes directly under `prefix` (ListObjectsV2 with the `/` delimiter). */
  async listDir(prefix: string): Promise<DirListing> {
    validatePrefix(prefix);
    const keys: string[] = [];
    const prefixes: string[] = [];
    for await (const page of listPages(this.#bucket, this.prefix + prefix, {
      delimiter: "/",
      pageSize: this.#pageSize,
    })) {
      for (const key of page.keys) {
        const storeKey = key.slice(this.prefix.length);
        if (isStoreKey(storeKey)) keys.push(storeKey);
      }
      for (const common of page.prefixes) {
        const storePrefix = common.slice(this.prefix.length);
        if (storePrefix.endsWith("/") && isStoreKey(storePrefix.slice(0, -1)))
          prefixes.push(storePrefix);
      }
    }
    return { keys, prefixes };
  }
}
