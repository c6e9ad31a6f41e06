import {
  AbortError,
  type ByteRange,
  ConflictError,
  checkRangesRead,
  checkRead,
  type GetOptions,
  type Readable,
  ReadOnlyError,
  readEachRange,
  type SetOptions,
  StoreBase,
  StoreError,
  sliceRange,
  throwIfAborted,
  UnsupportedOperationError,
  type VersionedValue,
  validateKey,
  validatePrefix,
  type Writable,
} from "@z/store-core";
import {
  type BodyContext,
  declaredLength,
  discardBody,
  errorExcerpt,
  readBody,
  readBodySlice,
} from "./body.js";
import { conditionFailure, conditionHeaders, isConditional, versionOf } from "./conditional.js";
import { HttpError } from "./http-error.js";
import { KnownSizes } from "./known-sizes.js";
import { Limiter } from "./limiter.js";
import type { HttpStoreOptions, ResolvedHttpStoreOptions } from "./options.js";
import { resolveHttpOptions } from "./options-resolve.js";
import { type ContentRange, isEmptyRange, parseContentRange, rangeHeader } from "./range-header.js";
import { redactUrl } from "./redact-url.js";
import { backoffDelay } from "./retry.js";
import { attemptSignal, retryAfterDelay, sleep } from "./retry-internal.js";
import { keyUrl, splitBaseUrl } from "./url.js";

/** What a ranged GET came back with when the server would not serve a suffix range. */
const SUFFIX_REFUSED = Symbol("suffix refused");

/** Statuses with which servers refuse a range form they do not implement. */
const REFUSAL_STATUSES = new Set([400, 405, 416, 501]);

interface Outgoing {
  headers?: Record<string, string>;
  body?: Uint8Array;
}

/**
 * A Zarr store over HTTP(S), built on `fetch`, for Node.js and browsers. Key `a/c/0` is the URL
 * `<base>/a/c/0` (each key segment percent-encoded). Reads use `Range` requests (`bytes=a-b`,
 * `bytes=a-`, `bytes=-n`, with a HEAD-based fallback where suffix ranges are refused); 404 (or
 * any of `missingStatuses`) reads as missing; 5xx answers and network errors are retried with
 * exponential backoff and jitter, 4xx never; at most `concurrency` requests run at once.
 * Bodies are bounded: a ranged read by its length, others by `maxBodyBytes` (default 1 GiB),
 * every body by its Content-Length, error bodies to 4 KiB; `timeout` limits each request.
 * Writes (PUT, DELETE) are off unless `writable: true`. Plain HTTP has no listing, so the store
 * is not listable: open hierarchies through consolidated metadata, or by known paths.
 *
 * @example
 * ```ts
 * const store = new HttpStore("https://example.com/data.zarr", {
 *   headers: async () => ({ Authorization: `Bearer ${await token()}` }),
 * });
 * const bytes = await store.get("temperature/c/0/0", { range: { offset: 0, length: 1024 } });
 * ```
 * @category Stores
 */
export class HttpStore extends StoreBase implements Readable, Writable {
  /** The base URL, ending in `/` (query string removed; it is still sent with every request). */
  readonly url: string;
  readonly #query: string;
  readonly #options: ResolvedHttpStoreOptions;
  readonly #limiter: Limiter;
  /** Set once the server refused a suffix range: later suffix reads go HEAD + range at once. */
  #suffixRefused = false;
  /** Sizes seen in answers: suffix reads of these keys go as explicit (CORS-safelisted) ranges. */
  readonly #sizes = new KnownSizes();
  readonly #warned = new Set<string>();

  constructor(url: string | URL, options: HttpStoreOptions = {}) {
    super();
    const { base, query } = splitBaseUrl(url);
    this.url = base;
    this.#query = query;
    this.#options = resolveHttpOptions(options);
    this.#limiter = new Limiter(this.#options.concurrency);
    if (this.#options.conditionalWrites)
      this.getVersioned = (key, options) => this.#getVersioned(key, options);
    if (this.#options.suffixRanges === "never") this.#suffixRefused = true;
  }

  /** Whether this store found that its server refuses suffix ranges (or was told so). */
  get suffixRangesRefused(): boolean {
    return this.#suffixRefused;
  }

  /** The URL a key is read from (before `resolveUrl`). @throws InvalidKeyError */
  urlOf(key: string): string {
    return keyUrl(this.url, this.#query, validateKey(key));
  }

  // ---- reads ----

  async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    const range = options?.range;
    const signal = options?.signal;
    checkRead(key, range, signal);
    if (range === undefined) {
      return this.#send("GET", key, {}, signal, async (response, url) => {
        if (this.#options.missingStatuses.has(response.status))
          return discardBody(response).then(() => undefined);
        // 204, 206 and other successes are not a whole value: say so rather than guess.
        if (response.status === 200 || response.status === 203)
          return readBody(response, this.#bodyLimit("GET", url));
        throw await this.#failure("GET", url, response);
      });
    }
    return this.#getRange(key, range, signal);
  }

  async getRanges(
    key: string,
    ranges: readonly ByteRange[],
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array[] | undefined> {
    const signal = options?.signal;
    checkRangesRead(key, ranges, signal);
    // One request per range, run under the concurrency limit; a CoalescingStore merges them.
    return readEachRange(
      ranges,
      (range) => this.#getRange(key, range, signal),
      async () => (await this.#size(key, signal)) !== undefined,
    );
  }

  /** Whether a key exists: a HEAD request (a one-byte GET where HEAD is refused). */
  async has(key: string, options?: { signal?: AbortSignal }): Promise<boolean> {
    return (await this.getSize(key, options)) !== undefined;
  }

  /**
   * The size in bytes of a value, or undefined when the key is missing: a HEAD request for its
   * `Content-Length` (a one-byte range GET for its `Content-Range` where HEAD is refused).
   */
  override async getSize(
    key: string,
    options?: { signal?: AbortSignal },
  ): Promise<number | undefined> {
    checkRead(key, undefined, options?.signal);
    return this.#size(key, options?.signal);
  }

  async #size(key: string, signal: AbortSignal | undefined): Promise<number | undefined> {
    const size = await this.#send("HEAD", key, {}, signal, async (response, url) => {
      await discardBody(response);
      if (this.#options.missingStatuses.has(response.status)) return undefined;
      if (response.ok) {
        const length = Number(response.headers.get("content-length") ?? Number.NaN);
        if (!Number.isSafeInteger(length) || length < 0) return SUFFIX_REFUSED;
        this.#sizes.remember(key, length);
        return length;
      }
      if (response.status === 405 || response.status === 501) return SUFFIX_REFUSED;
      throw await this.#failure("HEAD", url, response);
    });
    // No usable HEAD: ask for one byte, whose Content-Range tells the size.
    return size === SUFFIX_REFUSED ? this.#sizeByRange(key, signal) : size;
  }

  async #sizeByRange(key: string, signal: AbortSignal | undefined): Promise<number | undefined> {
    return this.#send(
      "GET",
      key,
      { headers: { Range: "bytes=0-0" } },
      signal,
      async (response, url) => {
        if (this.#options.missingStatuses.has(response.status))
          return discardBody(response).then(() => undefined);
        const contentRange = parseContentRange(response.headers.get("content-range"));
        if (
          (response.status === 206 || response.status === 416) &&
          contentRange?.total !== undefined
        ) {
          await discardBody(response);
          return contentRange.total;
        }
        if (response.status === 200) {
          const declared = declaredLength(response);
          if (declared === undefined)
            return (await readBody(response, this.#bodyLimit("GET", url))).length;
          await discardBody(response);
          return declared;
        }
        if (response.status === 416) return discardBody(response).then(() => 0);
        throw await this.#failure("GET", url, response);
      },
    );
  }

  async #getRange(
    key: string,
    range: ByteRange,
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array | undefined> {
    if (isEmptyRange(range))
      return (await this.#size(key, signal)) !== undefined ? new Uint8Array(0) : undefined;
    if ("suffix" in range) {
      const known = this.#sizes.get(key);
      if (known !== undefined) return this.#suffixOfKnownSize(key, range.suffix, known, signal);
      if (this.#suffixRefused) return this.#suffixBySize(key, range.suffix, signal);
    }
    const headers = { Range: rangeHeader(range) };
    const result = await this.#send("GET", key, { headers }, signal, (response, url) =>
      this.#readRanged(key, response, url, range),
    );
    if (result !== SUFFIX_REFUSED) return result;
    this.#suffixRefused = true;
    this.#warnOnce(
      "suffix",
      `${redactUrl(this.url)}: the server refuses suffix ranges (bytes=-n); suffix reads now cost a HEAD request plus a range request`,
    );
    return this.#suffixBySize(key, (range as { suffix: number }).suffix, signal);
  }

  /**
   * A suffix read of a value whose size an earlier answer told: an explicit range, which browsers
   * send cross-origin without a preflight. If the answer shows the value changed size meanwhile,
   * the read is made again for the new size.
   */
  async #suffixOfKnownSize(
    key: string,
    suffix: number,
    size: number,
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array | undefined> {
    const start = Math.max(0, size - suffix);
    if (start === size) {
      // A suffix of an empty value: only whether it still exists needs asking.
      this.#sizes.forget(key);
      return this.#getRange(key, { suffix }, signal);
    }
    const bytes = await this.#getRange(key, { offset: start, length: size - start }, signal);
    const now = this.#sizes.get(key);
    if (bytes === undefined || now === size || now === undefined) return bytes;
    this.#sizes.forget(key);
    return this.#getRange(key, { suffix }, signal);
  }

  /** A suffix read for servers without suffix ranges: the size by HEAD, then a normal range. */
  async #suffixBySize(
    key: string,
    suffix: number,
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array | undefined> {
    const size = await this.#size(key, signal);
    if (size === undefined) return undefined;
    const start = Math.max(0, size - suffix);
    if (start === size) return new Uint8Array(0);
    return this.#getRange(key, { offset: start, length: size - start }, signal);
  }

  /** Interprets the answer to a ranged GET. */
  async #readRanged(
    key: string,
    response: Response,
    url: string,
    range: ByteRange,
  ): Promise<Uint8Array | undefined | typeof SUFFIX_REFUSED> {
    const { status } = response;
    const isSuffix = "suffix" in range;
    if (this.#options.missingStatuses.has(status))
      return discardBody(response).then(() => undefined);
    if (status === 206) return this.#partial(key, response, url, range);
    if (status === 200) {
      this.#warnOnce(
        "ignored",
        `${redactUrl(this.url)}: the server ignores Range headers; ranged reads download values from their start and slice them`,
      );
      if ("length" in range) {
        // Only the bytes up to the range's end are read; the rest of the transfer is cancelled.
        const end = range.offset + range.length;
        if (end > this.#options.maxBodyBytes) {
          await discardBody(response);
          throw new HttpError(
            "GET",
            url,
            200,
            `the server ignored Range ${rangeHeader(range)}; reaching its end would download ` +
              `${end} bytes, more than maxBodyBytes (${this.#options.maxBodyBytes})`,
          );
        }
        return readBodySlice(response, range.offset, end);
      }
      // A suffix or an open range needs the whole value: bounded by maxBodyBytes.
      return sliceRange(await readBody(response, this.#bodyLimit("GET", url)), range);
    }
    const contentRange = parseContentRange(response.headers.get("content-range"));
    if (status === 416) {
      await discardBody(response);
      // A suffix of a non-empty value is always satisfiable: a 416 is a refusal of the form.
      if (isSuffix) return contentRange?.total === 0 ? new Uint8Array(0) : SUFFIX_REFUSED;
      // The range starts at or past the end of the value: it selects nothing.
      return new Uint8Array(0);
    }
    if (isSuffix && REFUSAL_STATUSES.has(status))
      return discardBody(response).then(() => SUFFIX_REFUSED);
    throw await this.#failure("GET", url, response);
  }

  /**
   * A 206 answer: its Content-Range must be exactly the bytes asked for (clipped to the value's
   * size), and its body exactly the bytes of its Content-Range; the body is never read past the
   * length asked for.
   */
  async #partial(
    key: string,
    response: Response,
    url: string,
    range: ByteRange,
  ): Promise<Uint8Array> {
    const header = response.headers.get("content-range");
    const contentRange = parseContentRange(header);
    const bad = async (why: string) => {
      await discardBody(response);
      return new HttpError(
        "GET",
        url,
        206,
        `unexpected partial content for ${rangeHeader(range)}: ${why}`,
      );
    };
    const asked = "suffix" in range ? range.suffix : "length" in range ? range.length : undefined;
    if (contentRange?.start === undefined) {
      if (header !== null) throw await bad(`malformed Content-Range ${JSON.stringify(header)}`);
      // Without Content-Range, trust a body no longer than asked for.
      const limit =
        asked === undefined
          ? this.#bodyLimit("GET", url)
          : { method: "GET", url, max: asked, limitName: `the ${asked} bytes asked for` };
      return readBody(response, limit);
    }
    const { start, end, total } = contentRange as Required<ContentRange>;
    if (total !== undefined) this.#sizes.remember(key, total);
    const got = `bytes ${start}-${end}/${total ?? "*"}`;
    if (total !== undefined && end >= total) throw await bad(`${got} ends past the value`);
    const askedEnd = "length" in range ? range.offset + range.length : undefined;
    let wantedStart: number;
    let wantedEnd: number | undefined; // exclusive; undefined when the size is unknown
    if ("suffix" in range) {
      wantedStart = total === undefined ? start : Math.max(0, total - range.suffix);
      wantedEnd = total;
    } else {
      wantedStart = range.offset;
      wantedEnd = total === undefined ? undefined : Math.min(askedEnd ?? total, total);
    }
    const sent = end - start + 1;
    if (start !== wantedStart) throw await bad(`got ${got}`);
    if (wantedEnd !== undefined && end + 1 !== wantedEnd) throw await bad(`got ${got}`);
    if (asked !== undefined && sent > asked) throw await bad(`${got} is more than asked for`);
    if (asked === undefined && sent > this.#options.maxBodyBytes) {
      throw await bad(`${got} is more than maxBodyBytes (${this.#options.maxBodyBytes})`);
    }
    const body = await readBody(response, {
      method: "GET",
      url,
      max: sent,
      limitName: `the ${sent} bytes of its Content-Range`,
    });
    if (body.length !== sent) {
      throw new HttpError("GET", url, 206, `${got} but a body of ${body.length} bytes`);
    }
    return body;
  }

  /** The limit of a body whose size the store cannot know in advance. */
  #bodyLimit(method: string, url: string): BodyContext {
    const max = this.#options.maxBodyBytes;
    return { method, url, max, limitName: `maxBodyBytes (${max} bytes)` };
  }

  // ---- writes ----

  /**
   * With the `conditionalWrites` option: reads a whole value with its ETag as version, for
   * `set(key, value, {ifMatch})` (`If-Match`); undefined when the key is missing.
   */
  getVersioned?: (
    key: string,
    options?: { signal?: AbortSignal },
  ) => Promise<VersionedValue | undefined>;

  /** Whether writes were switched on (option `writable`). */
  override get supportsWrites(): boolean {
    return this.#options.writable;
  }

  /** Whether the server was declared to honour `If-Match` / `If-None-Match` (option). */
  get conditionalWrites(): boolean {
    return this.#options.conditionalWrites;
  }

  async #getVersioned(
    key: string,
    options?: { signal?: AbortSignal },
  ): Promise<VersionedValue | undefined> {
    checkRead(key, undefined, options?.signal);
    return this.#send("GET", key, {}, options?.signal, async (response, url) => {
      if (this.#options.missingStatuses.has(response.status))
        return discardBody(response).then(() => undefined);
      if (!response.ok || response.status === 206) throw await this.#failure("GET", url, response);
      const version = versionOf(key, response);
      return { value: await readBody(response, this.#bodyLimit("GET", url)), version };
    });
  }

  async set(key: string, value: Uint8Array, options?: SetOptions): Promise<void> {
    this.#checkWrite(key, options);
    const headers = { "Content-Type": "application/octet-stream", ...conditionHeaders(options) };
    await this.#send(
      "PUT",
      key,
      { body: value, headers },
      options?.signal,
      async (response, url) => {
        const conflict = conditionFailure(key, response.status, options);
        if (conflict) throw await discardBody(response).then(() => conflict);
        if (!response.ok) throw await this.#failure("PUT", url, response);
        await discardBody(response);
      },
    );
  }

  /** Writes only if the key is missing, with `If-None-Match: *` (the server must honour it). */
  async setIfNotExists(key: string, value: Uint8Array, options?: SetOptions): Promise<boolean> {
    this.#checkWrite(key, options);
    const headers = { "Content-Type": "application/octet-stream", "If-None-Match": "*" };
    return this.#send(
      "PUT",
      key,
      { body: value, headers },
      options?.signal,
      async (response, url) => {
        // 412: it exists; 409: S3's answer to a conditional write racing another one.
        if (response.status === 412 || response.status === 409)
          return discardBody(response).then(() => false);
        if (!response.ok) throw await this.#failure("PUT", url, response);
        await discardBody(response);
        return true;
      },
    );
  }

  async delete(key: string, options?: SetOptions): Promise<void> {
    this.#checkWrite(key, options);
    const headers = conditionHeaders(options);
    await this.#send("DELETE", key, { headers }, options?.signal, async (response, url) => {
      const conflict =
        conditionFailure(key, response.status, options) ??
        // With If-Match, a missing key is a failed condition, not a done delete.
        (options?.ifMatch !== undefined && this.#options.missingStatuses.has(response.status)
          ? new ConflictError(key, "the key no longer exists")
          : undefined);
      if (conflict) throw await discardBody(response).then(() => conflict);
      if (!response.ok && !this.#options.missingStatuses.has(response.status)) {
        throw await this.#failure("DELETE", url, response);
      }
      await discardBody(response);
    });
  }

  /** Plain HTTP cannot list keys, so it cannot delete by prefix: always rejects. */
  async deletePrefix(prefix: string, options?: SetOptions): Promise<void> {
    validatePrefix(prefix);
    throwIfAborted(options?.signal);
    if (!this.#options.writable) throw new ReadOnlyError(prefix, "delete");
    throw new UnsupportedOperationError(
      `Cannot delete the prefix ${JSON.stringify(prefix)} over HTTP: plain HTTP cannot list the keys under it`,
    );
  }

  #checkWrite(key: string, options: SetOptions | undefined): void {
    validateKey(key);
    this.#sizes.forget(key);
    throwIfAborted(options?.signal);
    if (!this.#options.writable) throw new ReadOnlyError(key);
    if (isConditional(options) && !this.#options.conditionalWrites) {
      throw new UnsupportedOperationError(
        `Conditional write of ${JSON.stringify(key)}: this HttpStore was not created with conditionalWrites`,
      );
    }
  }

  // ---- transport ----

  async #headersFor(
    method: string,
    url: string,
    key: string,
    extra: Record<string, string> | undefined,
  ): Promise<Headers> {
    const option = this.#options.headers;
    const base = typeof option === "function" ? await option({ method, url, key }) : option;
    const headers = new Headers(base);
    for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
    return headers;
  }

  async #failure(method: string, url: string, response: Response): Promise<HttpError> {
    const excerpt = await errorExcerpt(response);
    const text = `${response.status} ${response.statusText}`.trim();
    return new HttpError(method, url, response.status, excerpt ? `${text}: ${excerpt}` : text);
  }

  /**
   * Sends one request under the concurrency limit, retrying retryable statuses and network
   * errors with backoff (the slot is given back while waiting), and hands the final response to
   * `consume` while the slot is held, so bodies being read count against the limit too.
   */
  async #send<T>(
    method: string,
    key: string,
    outgoing: Outgoing,
    signal: AbortSignal | undefined,
    consume: (response: Response, url: string) => Promise<T>,
  ): Promise<T> {
    const defaultUrl = keyUrl(this.url, this.#query, key);
    const url = this.#options.resolveUrl
      ? await this.#options.resolveUrl(key, defaultUrl)
      : defaultUrl;
    const { retries, retryDelay, maxRetryDelay } = this.#options;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.#attempt(method, url, key, outgoing, signal, consume);
      if (outcome.done) return outcome.value;
      if (attempt >= retries) {
        const { error } = outcome;
        throw new HttpError(
          method,
          url,
          error.status,
          `${error.detail} (gave up after ${attempt + 1} attempts)`,
          {
            cause: outcome.cause,
          },
        );
      }
      const wanted = outcome.retryAfter ?? backoffDelay(attempt, retryDelay, maxRetryDelay);
      const delayMs = Math.min(maxRetryDelay, wanted);
      this.#options.onRetry?.({
        method,
        url: redactUrl(url),
        attempt: attempt + 1,
        delayMs,
        status: outcome.error.status || undefined,
        error: outcome.cause,
      });
      await sleep(delayMs, signal);
    }
  }

  /** One try of a request: its result, or why it failed in a way worth retrying. */
  async #attempt<T>(
    method: string,
    url: string,
    key: string,
    outgoing: Outgoing,
    signal: AbortSignal | undefined,
    consume: (response: Response, url: string) => Promise<T>,
  ): Promise<
    | { done: true; value: T }
    | {
        done: false;
        error: { status: number; detail: string };
        cause?: unknown;
        retryAfter?: number;
      }
  > {
    const release = await this.#limiter.acquire(signal);
    const deadline = attemptSignal(signal, this.#options.timeout);
    const timedOut = (error: unknown) => ({
      done: false as const,
      error: {
        status: 0,
        detail: `timed out: no complete answer within ${this.#options.timeout} ms`,
      },
      cause: error,
    });
    try {
      const headers = await this.#headersFor(method, url, key, outgoing.headers);
      // Called as a plain function: browsers throw "Illegal invocation" when fetch runs with
      // `this` set to anything but the global object (or undefined).
      const fetchImpl = this.#options.fetch;
      let response: Response;
      try {
        response = await fetchImpl(url, {
          ...this.#options.fetchOptions,
          method,
          headers,
          body: outgoing.body as RequestInit["body"],
          signal: deadline.signal,
        });
      } catch (error) {
        if (signal?.aborted) throw new AbortError(signal.reason);
        if (deadline.timedOut()) return timedOut(error);
        return {
          done: false,
          error: { status: 0, detail: `network error: ${describe(error)}` },
          cause: error,
        };
      }
      if (this.#options.retryStatus(response.status)) {
        const retryAfter = retryAfterDelay(response.headers.get("retry-after"));
        const failure = await this.#failure(method, url, response);
        return {
          done: false,
          error: { status: response.status, detail: failure.detail },
          retryAfter,
        };
      }
      try {
        return { done: true, value: await consume(response, url) };
      } catch (error) {
        if (signal?.aborted) throw new AbortError(signal.reason);
        if (deadline.timedOut()) return timedOut(error);
        // A body cut off mid-transfer surfaces as a TypeError from fetch: a network error.
        if (error instanceof StoreError || !(error instanceof TypeError)) throw error;
        return {
          done: false,
          error: { status: 0, detail: `network error: ${describe(error)}` },
          cause: error,
        };
      }
    } finally {
      deadline.dispose();
      release();
    }
  }

  #warnOnce(topic: string, message: string): void {
    if (this.#warned.has(topic)) return;
    this.#warned.add(topic);
    this.#options.onWarning(message);
  }
}

/** A network error's message with its cause (undici puts the useful part there). */
function describe(error: unknown): string {
  const e = error as Error & { cause?: unknown };
  if (e?.cause instanceof Error) return `${e.message} (${e.cause.message})`;
  return e instanceof Error ? e.message : String(error);
}
