import type { Readable } from "@z/store-core";
import { VirtualChunkError, VirtualChunkModifiedError } from "./errors.js";
import type { VirtualChecksum } from "./format/manifest.js";

/** Options of a virtual chunk read. */
export interface VirtualReadOptions {
  /** The target's recorded ETag or modification time: the read fails if it changed. */
  checksum?: VirtualChecksum;
  /** Abort the read. */
  signal?: AbortSignal;
}

/**
 * Where virtual chunks of some URLs are read from: an HTTP server, local files, or any store
 * (an S3, GCS or Azure store built with the user's credentials).
 */
export interface VirtualChunkSource {
  /**
   * Reads `length` bytes at `offset` of the object at `url`; undefined when the object does
   * not exist. Rejects with `VirtualChunkModifiedError` when a checksum is given and the object
   * changed.
   */
  read(
    url: string,
    range: { offset: number; length: number },
    options: VirtualReadOptions,
  ): Promise<Uint8Array | undefined>;
}

const stripQuotes = (etag: string) => etag.replace(/^W\//, "").replace(/^"|"$/g, "");

/** Options of {@link httpSource}. */
export interface HttpSourceOptions {
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Headers for every request (credentials). */
  headers?: Record<string, string>;
}

/**
 * Virtual chunks over HTTP(S): a `Range` request, with `If-Match` for a recorded ETag and
 * `If-Unmodified-Since` for a recorded modification time (a 412 answer means the object
 * changed), and the answer's own `ETag` / `Last-Modified` checked too where the server sends
 * them.
 * @category Stores
 */
export function httpSource(options: HttpSourceOptions = {}): VirtualChunkSource {
  return {
    async read(url, { offset, length }, { checksum, signal }) {
      const headers: Record<string, string> = { ...options.headers };
      if (length === 0) return new Uint8Array(0);
      headers.range = `bytes=${offset}-${offset + length - 1}`;
      if (checksum && "etag" in checksum) headers["if-match"] = `"${stripQuotes(checksum.etag)}"`;
      if (checksum && "lastModified" in checksum)
        headers["if-unmodified-since"] = new Date(checksum.lastModified * 1000).toUTCString();
      const doFetch = options.fetch ?? globalThis.fetch;
      let response: Response;
      try {
        response = await doFetch(url, { headers, signal });
      } catch (error) {
        if (signal?.aborted) throw error;
        throw new VirtualChunkError(url, `the request failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel();
        return undefined;
      }
      if (response.status === 412) {
        await response.body?.cancel();
        throw new VirtualChunkModifiedError(
          url,
          "the object changed since the reference was written (HTTP 412)",
        );
      }
      if (response.status !== 200 && response.status !== 206) {
        await response.body?.cancel();
        throw new VirtualChunkError(url, `HTTP ${response.status} ${response.statusText}`);
      }
      verifyHeaders(
        url,
        checksum,
        response.headers.get("etag"),
        response.headers.get("last-modified"),
      );
      return readBody(url, response, offset, length);
    },
  };
}

function verifyHeaders(
  url: string,
  checksum: VirtualChecksum | undefined,
  etag: string | null,
  lastModified: string | null,
): void {
  if (checksum === undefined) return;
  if ("etag" in checksum && etag !== null && stripQuotes(etag) !== stripQuotes(checksum.etag))
    throw new VirtualChunkModifiedError(
      url,
      `its ETag is ${etag}, the reference recorded ${checksum.etag}`,
    );
  if ("lastModified" in checksum && lastModified !== null) {
    const seconds = Date.parse(lastModified) / 1000;
    if (seconds > checksum.lastModified)
      throw new VirtualChunkModifiedError(
        url,
        `it was modified at ${lastModified}, after the ${new Date(checksum.lastModified * 1000).toUTCString()} the reference recorded`,
      );
  }
}

/** The requested bytes of a 206 (or of a 200 with the whole object), read no further than needed. */
async function readBody(
  url: string,
  response: Response,
  offset: number,
  length: number,
): Promise<Uint8Array> {
  const skip = response.status === 200 ? offset : 0;
  const out = new Uint8Array(length);
  let seen = 0;
  let filled = 0;
  const reader = response.body?.getReader();
  while (reader && filled < length) {
    const { done, value } = await reader.read();
    if (done) break;
    const from = Math.max(0, skip - seen);
    seen += value.length;
    if (from >= value.length) continue;
    const part = value.subarray(from, from + (length - filled));
    out.set(part, filled);
    filled += part.length;
  }
  await reader?.cancel();
  if (filled !== length)
    throw new VirtualChunkError(
      url,
      `the object ends ${filled} bytes into the ${length}-byte chunk at offset ${offset}`,
    );
  return out;
}

type FsPromises = typeof import("node:fs/promises");

/**
 * Virtual chunks in local files (`file:///data/x.nc`), Node only. A recorded modification
 * time is checked against the file's mtime, a recorded ETag against the one object stores give
 * local files (`<inode>-<mtime µs>-<size>` in hex).
 * @category Stores
 */
export function fileSource(): VirtualChunkSource {
  return {
    async read(url, { offset, length }, { checksum, signal }) {
      signal?.throwIfAborted();
      const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
        .process;
      const fs = proc?.getBuiltinModule?.("node:fs/promises") as FsPromises | undefined;
      if (!fs) throw new VirtualChunkError(url, "local files are read only in Node.js");
      let path: string;
      try {
        path = decodeURIComponent(new URL(url).pathname);
      } catch (error) {
        throw new VirtualChunkError(url, "it is not a valid file: URL", { cause: error });
      }
      let handle: Awaited<ReturnType<FsPromises["open"]>>;
      try {
        handle = await fs.open(path, "r");
      } catch (error) {
        if ((error as { code?: string }).code === "ENOENT") return undefined;
        throw new VirtualChunkError(url, (error as Error).message, { cause: error });
      }
      try {
        const stat = await handle.stat({ bigint: true });
        if (
          checksum &&
          "lastModified" in checksum &&
          stat.mtimeMs > BigInt(checksum.lastModified) * 1000n + 999n
        )
          throw new VirtualChunkModifiedError(
            url,
            `it was modified at ${new Date(Number(stat.mtimeMs)).toISOString()}, after the time the reference recorded`,
          );
        if (checksum && "etag" in checksum) {
          const etag = `${stat.ino.toString(16)}-${(stat.mtimeNs / 1000n).toString(16)}-${stat.size.toString(16)}`;
          if (etag !== stripQuotes(checksum.etag))
            throw new VirtualChunkModifiedError(
              url,
              `its ETag is ${etag}, the reference recorded ${checksum.etag}`,
            );
        }
        if (BigInt(offset + length) > stat.size)
          throw new VirtualChunkError(
            url,
            `the ${stat.size}-byte file ends before the ${length}-byte chunk at offset ${offset}`,
          );
        const out = new Uint8Array(length);
        let filled = 0;
        while (filled < length) {
          const { bytesRead } = await handle.read(out, filled, length - filled, offset + filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        if (filled !== length)
          throw new VirtualChunkError(url, "the file shrank while it was read");
        return out;
      } finally {
        await handle.close();
      }
    },
  };
}

/** Options of {@link storeSource}. */
export interface StoreSourceOptions {
  /** The key of a URL in the store (default: the URL's path without its leading `/`). */
  keyOf?: (url: string) => string;
  /**
   * Checks a recorded checksum, resolving to false when the object changed. Without it, a
   * virtual chunk that records a checksum fails unless `checksums` is `"ignore"`.
   */
  verify?: (key: string, checksum: VirtualChecksum) => Promise<boolean>;
  /** `"ignore"` to read chunks whose checksum cannot be verified. */
  checksums?: "verify" | "ignore";
}

/**
 * Virtual chunks in any store: an S3, GCS or Azure store built with your credentials for
 * `s3://bucket/...`, `gs://...` or `az://...` URLs, mapping each URL to a key.
 * @category Stores
 */
export function storeSource(store: Readable, options: StoreSourceOptions = {}): VirtualChunkSource {
  const keyOf = options.keyOf ?? ((url: string) => new URL(url).pathname.replace(/^\/+/, ""));
  return {
    async read(url, range, { checksum, signal }) {
      const key = keyOf(url);
      if (checksum !== undefined && options.checksums !== "ignore") {
        if (!options.verify)
          throw new VirtualChunkError(
            url,
            'the reference records a checksum and this source cannot verify it (give storeSource a verify function, or checksums: "ignore")',
          );
        if (!(await options.verify(key, checksum)))
          throw new VirtualChunkModifiedError(
            url,
            "the object changed since the reference was written",
          );
      }
      const bytes = await store.get(key, { range, signal });
      if (bytes !== undefined && bytes.length !== range.length)
        throw new VirtualChunkError(
          url,
          `the object ends ${bytes.length} bytes into the ${range.length}-byte chunk at offset ${range.offset}`,
        );
      return bytes;
    },
  };
}
