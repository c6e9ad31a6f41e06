import {
  type ByteRange,
  type DirListing,
  folderPrefix,
  type GetOptions,
  type Listable,
  normalizePath,
  type Readable,
  ReadOnlyError,
  type SetOptions,
  StoreBase,
  throwIfAborted,
  type VersionedValue,
  validateKey,
  validatePrefix,
  type Writable,
} from "@z/store-core";
import { HttpError, HttpStore } from "@z/store-http";
import { resolveAccess } from "./credentials.js";
import { AzureConfigError } from "./errors.js";
import { parseBlobList } from "./list-blobs.js";
import { parseAzureLocation } from "./location.js";
import type { AzureBlobStoreOptions } from "./options.js";
import { readBoundedText, requestWithRetries } from "./request.js";
import { azureFetch } from "./signing-fetch.js";

/** Container names the service accepts (plus the special `$root` and `$web`). */
const CONTAINER_NAME = /^(?:\$root|\$web|[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9])$/;

/** How many deletes of a `deletePrefix` are started at once (the HTTP layer limits the rest). */
const DELETE_BATCH = 256;

/**
 * A Zarr store in an Azure Blob Storage container (or a folder of one), for Node.js and
 * browsers: key `a/c/0` is the blob `<path>/a/c/0`. Requests are signed with SharedKey
 * (HMAC-SHA256 through WebCrypto), carry a SAS token, or go anonymous to a public container;
 * credentials come from the options, else from `AZURE_STORAGE_CONNECTION_STRING`. Reads use
 * ranges (`getRanges` for several at once), writes are block-blob PUTs with conditional
 * variants (`If-Match: <etag>`, `If-None-Match: *`) so writers on several machines cannot lose
 * each other's updates, listing pages through List Blobs with its marker and the `/` delimiter,
 * and 5xx answers (503 Server Busy) are retried with backoff.
 *
 * Transport (ranges, retries, body limits, concurrency) is `HttpStore`'s, with a `fetch` that
 * authorises each request.
 * @example
 * ```ts
 * // AZURE_STORAGE_CONNECTION_STRING set in the environment:
 * const store = new AzureBlobStore({ container: "climate", path: "era5.zarr" });
 * const group = await openGroup(store);
 * ```
 * @category Stores
 */
export class AzureBlobStore extends StoreBase implements Readable, Writable, Listable {
  /** The blob service endpoint, without a trailing `/`. */
  readonly endpoint: string;
  /** The container. */
  readonly container: string;
  /** The folder inside the container that is the root (`""` for the container's root). */
  readonly path: string;
  /** Every `get` returns a new buffer (see `Readable.freshReads`). */
  readonly freshReads = true;
  /** `set` honours `ifMatch` / `ifNoneMatch` with the blob's ETag (unless read-only). */
  readonly conditionalWrites: boolean;
  readonly #http: HttpStore;
  readonly #fetch: typeof fetch;
  readonly #options: AzureBlobStoreOptions;
  readonly #readOnly: boolean;
  /** The URL path of the container, the part before a blob's name. */
  readonly #containerPath: string;

  constructor(options: AzureBlobStoreOptions) {
    if (!CONTAINER_NAME.test(options.container ?? "")) {
      throw new AzureConfigError(
        `Invalid Azure container name ${JSON.stringify(options.container)}: 3 to 63 lower-case ` +
          "letters, digits and single hyphens, starting and ending with a letter or digit",
      );
    }
    super();
    const access = resolveAccess(options);
    this.endpoint = access.endpoint;
    this.container = options.container;
    this.path = normalizePath(options.path);
    this.#options = options;
    this.#readOnly = options.readOnly ?? false;
    this.conditionalWrites = !this.#readOnly;
    const containerUrl = new URL(`${this.endpoint}/${this.container}`);
    this.#containerPath = containerUrl.pathname;
    // A PUT below the container path is a blob upload (List and container calls are not PUTs).
    const isBlob = (url: URL) => url.pathname.startsWith(`${this.#containerPath}/`);
    this.#fetch = azureFetch(options.fetch ?? globalThis.fetch, access.auth, isBlob);
    const root =
      this.path === "" ? "" : `/${this.path.split("/").map(encodeURIComponent).join("/")}`;
    this.#http = new HttpStore(`${containerUrl.href}${root}/`, {
      ...options,
      fetch: this.#fetch,
      writable: !this.#readOnly,
      conditionalWrites: !this.#readOnly,
      missingStatuses: [404],
      // The Blob service does not take suffix ranges (bytes=-n): ask the size, then a range.
      suffixRanges: "never",
    });
    if (!this.#readOnly) this.getVersioned = (key, opts) => this.#http.getVersioned!(key, opts);
  }

  /**
   * A store for an `az://container/path` location (or `abfs[s]://container@account.dfs…/path`,
   * whose host names the account); the other options as for the constructor.
   * @throws AzureConfigError for a location that names no container
   */
  static fromUrl(
    location: string,
    options: Omit<AzureBlobStoreOptions, "container" | "path"> = {},
  ): AzureBlobStore {
    const { container, path, accountName } = parseAzureLocation(location);
    return new AzureBlobStore({
      ...options,
      container,
      path,
      accountName: options.accountName ?? accountName,
    });
  }

  /**
   * Creates the container if it does not exist (needs an account key or a SAS allowing it);
   * `publicAccess` lets anyone read its blobs (`"blob"`) or also list them (`"container"`).
   * Resolves to whether it created the container.
   */
  async createContainer(
    options: { publicAccess?: "blob" | "container"; signal?: AbortSignal } = {},
  ): Promise<boolean> {
    if (this.#readOnly) throw new ReadOnlyError(this.container, "create the container");
    const url = `${this.endpoint}/${this.container}?restype=container`;
    const headers: Record<string, string> = {};
    if (options.publicAccess) headers["x-ms-blob-public-access"] = options.publicAccess;
    const response = await requestWithRetries(this.#fetch, url, "PUT", this.#options, {
      signal: options.signal,
      headers,
    });
    const text = await readBoundedText(response, "PUT", url);
    if (response.status === 409 && /ContainerAlreadyExists/.test(text)) return false;
    if (!response.ok)
      throw new HttpError("PUT", url, response.status, `Create Container: ${excerpt(text)}`);
    return true;
  }

  // ---- reads ----

  get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    return this.#http.get(key, options);
  }

  getRanges(
    key: string,
    ranges: readonly ByteRange[],
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array[] | undefined> {
    return this.#http.getRanges(key, ranges, options);
  }

  has(key: string, options?: { signal?: AbortSignal }): Promise<boolean> {
    return this.#http.has(key, options);
  }

  /** The size of a blob in bytes (a HEAD request), or undefined when it is missing. */
  override getSize(key: string, options?: { signal?: AbortSignal }): Promise<number | undefined> {
    return this.#http.getSize(key, options);
  }

  /**
   * The total size of the blobs under `prefix` (`""`, `"a/b"` or `"a/b/"`), from the sizes
   * List Blobs reports: one request per 5000 blobs, no HEAD per blob.
   */
  override async getSizePrefix(prefix = ""): Promise<number> {
    const folder = folderPrefix(prefix);
    let total = 0;
    for await (const page of this.#listPages(folder, undefined)) {
      page.names.forEach((name, i) => {
        if (this.#keyOf(name) !== undefined) total += page.sizes[i]!;
      });
    }
    return total;
  }

  /** Whether writes are allowed (not `readOnly`), under zarr-python's name. */
  override get supportsWrites(): boolean {
    return !this.#readOnly;
  }

  /**
   * Reads a whole blob with its ETag as version, for `set(key, value, {ifMatch})`; undefined
   * when it is missing. Absent on read-only stores.
   */
  getVersioned?: (
    key: string,
    options?: { signal?: AbortSignal },
  ) => Promise<VersionedValue | undefined>;

  // ---- writes ----

  set(key: string, value: Uint8Array, options?: SetOptions): Promise<void> {
    return this.#http.set(key, value, options);
  }

  setIfNotExists(key: string, value: Uint8Array, options?: SetOptions): Promise<boolean> {
    return this.#http.setIfNotExists(key, value, options);
  }

  delete(key: string, options?: SetOptions): Promise<void> {
    return this.#http.delete(key, options);
  }

  /** Lists the blobs under the prefix and deletes them, a batch at a time. */
  async deletePrefix(prefix: string, options?: SetOptions): Promise<void> {
    validatePrefix(prefix);
    throwIfAborted(options?.signal);
    if (this.#readOnly) throw new ReadOnlyError(prefix, "delete");
    let batch: string[] = [];
    const flush = async () => {
      const keys = batch;
      batch = [];
      await Promise.all(keys.map((key) => this.#http.delete(key, { signal: options?.signal })));
    };
    // Keys are collected first: deleting while paging could shift the listing's markers.
    const keys: string[] = [];
    for await (const key of this.listPrefix(prefix)) keys.push(key);
    for (const key of keys) {
      batch.push(key);
      if (batch.length >= DELETE_BATCH) await flush();
    }
    await flush();
  }

  // ---- listing ----

  list(): AsyncIterable<string> {
    return this.listPrefix("");
  }

  async *listPrefix(prefix: string): AsyncIterable<string> {
    validatePrefix(prefix);
    for await (const page of this.#listPages(prefix, undefined)) {
      for (const name of page.names) {
        const key = this.#keyOf(name);
        if (key !== undefined) yield key;
      }
    }
  }

  async listDir(prefix: string): Promise<DirListing> {
    validatePrefix(prefix);
    const keys: string[] = [];
    const prefixes: string[] = [];
    for await (const page of this.#listPages(prefix, "/")) {
      for (const name of page.names) {
        const key = this.#keyOf(name);
        if (key !== undefined) keys.push(key);
      }
      for (const name of page.prefixes) {
        const sub = this.#keyOf(name.slice(0, -1));
        if (sub !== undefined) prefixes.push(`${sub}/`);
      }
    }
    return { keys: keys.sort(), prefixes: prefixes.sort() };
  }

  /** The store key of a blob name under the root; undefined for names no key can have. */
  #keyOf(name: string): string | undefined {
    const root = this.path === "" ? "" : `${this.path}/`;
    if (!name.startsWith(root)) return undefined;
    const key = name.slice(root.length);
    try {
      return validateKey(key);
    } catch {
      // Blobs written by other tools ("a//b", "x/./y") cannot be read through store keys.
      return undefined;
    }
  }

  /** The pages of a List Blobs call for a prefix below the root, following `NextMarker`. */
  async *#listPages(prefix: string, delimiter: string | undefined) {
    const root = this.path === "" ? "" : `${this.path}/`;
    let marker: string | undefined;
    do {
      const url = new URL(`${this.endpoint}/${this.container}`);
      url.searchParams.set("restype", "container");
      url.searchParams.set("comp", "list");
      if (root + prefix !== "") url.searchParams.set("prefix", root + prefix);
      if (delimiter !== undefined) url.searchParams.set("delimiter", delimiter);
      url.searchParams.set("maxresults", String(this.#options.listPageSize ?? 5000));
      if (marker !== undefined) url.searchParams.set("marker", marker);
      const response = await requestWithRetries(this.#fetch, url.href, "GET", this.#options, {});
      const text = await readBoundedText(response, "GET", url.href);
      if (response.status === 404 && /ContainerNotFound/.test(text)) return;
      if (!response.ok) {
        throw new HttpError("GET", url.href, response.status, `List Blobs: ${excerpt(text)}`);
      }
      const page = parseBlobList(text);
      yield page;
      marker = page.nextMarker;
    } while (marker !== undefined);
  }
}

/** The start of an error body, for a message. */
function excerpt(text: string): string {
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1]?.split("\n")[0];
  if (code) return message ? `${code}: ${message}` : code;
  return text.slice(0, 300);
}
