import { HttpStore, type HttpStoreOptions } from "@z/zarr";
import type { AbsolutePath, RangeQuery } from "./store.js";

/** Options of {@link FetchStore}, as zarrita's. */
export interface FetchStoreOptions {
  /** Request options merged into every request (headers, credentials, mode, cache, ...). */
  overrides?: RequestInit;
  /**
   * Read suffix ranges with `Range: bytes=-n` (true) rather than a HEAD for the size and a
   * normal range (false, the default, for servers that refuse suffix ranges).
   */
  useSuffixRequest?: boolean;
  /** The function that sends each request (default the global `fetch`). */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * A read-only store over HTTP (zarrita's `FetchStore`), served by `@z/store-http`'s
 * `HttpStore`: keys resolve against `url`, a missing key (404, 403 for some object stores) reads
 * as undefined, ranges are `Range` requests, and failed requests are retried.
 * @example
 * ```ts
 * const store = new FetchStore("https://example.org/data.zarr");
 * const arr = await open(store, { kind: "array" });
 * ```
 * @category Stores
 */
export class FetchStore {
  /** The root URL. */
  readonly url: string | URL;
  readonly #options: FetchStoreOptions;
  #store: HttpStore | undefined;

  constructor(url: string | URL, options: FetchStoreOptions = {}) {
    this.url = url;
    this.#options = options;
  }

  // Made on first use, as zarrita checks the URL only when it reads: a store can be made (and
  // wrapped) before its URL is final.
  get #http(): HttpStore {
    if (this.#store !== undefined) return this.#store;
    const options = this.#options;
    const { headers, method, body, signal, ...fetchOptions } = options.overrides ?? {};
    const send = options.fetch;
    const headerRecord: Record<string, string> = {};
    if (headers !== undefined) new Headers(headers).forEach((v, k) => void (headerRecord[k] = v));
    const http: HttpStoreOptions = {
      headers: headers === undefined ? undefined : headerRecord,
      fetchOptions,
      suffixRanges: options.useSuffixRequest ? "auto" : "never",
    };
    if (send) http.fetch = (input, init) => send(new Request(input, init));
    this.#store = new HttpStore(this.url, http);
    return this.#store;
  }

  /** Reads a whole value; undefined when it is missing. */
  async get(
    key: AbsolutePath,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array | undefined> {
    return this.#http.get(key.slice(1), { signal: options?.signal });
  }

  /** Reads a range of a value; undefined when it is missing. */
  async getRange(
    key: AbsolutePath,
    range: RangeQuery,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array | undefined> {
    const stackRange =
      "suffixLength" in range
        ? { suffix: range.suffixLength }
        : { offset: range.offset, length: range.length };
    return this.#http.get(key.slice(1), { range: stackRange, signal: options?.signal });
  }
}
