import type { ByteRange, Readable } from "@z/store-core";
import { HttpStore, type HttpStoreOptions } from "@z/store-http";
import { readLocalFile } from "./local-file.js";

/** A store and key that hold a reference's target. */
export interface ReferenceTarget {
  /** The store holding the target. */
  store: Readable;
  /** The target's key in that store. */
  key: string;
}

/**
 * Maps a reference URL to the store and key that hold it (an `s3://bucket/file.nc` to an S3
 * store and `file.nc`), or undefined to leave the URL to the built-in handling (http(s) URLs
 * and, in Node, local paths and `file:` URLs).
 */
export type TargetResolver = (
  url: string,
) => ReferenceTarget | undefined | Promise<ReferenceTarget | undefined>;

/** Reads a target, or a range of it; undefined when it does not exist. */
export type ByteSource = (
  range: ByteRange | undefined,
  signal: AbortSignal | undefined,
) => Promise<Uint8Array | undefined>;

/** Where a URL's bytes come from: a store (resolver or HTTP) or a local file. */
export class TargetResolution {
  readonly #resolve: TargetResolver | undefined;
  readonly #baseUrl: string | undefined;
  readonly #http: HttpStoreOptions;
  readonly #localFiles: boolean;
  /** One HttpStore per folder URL, so its limits and learnt server quirks are shared. */
  readonly #httpStores = new Map<string, HttpStore>();

  constructor(options: {
    resolve?: TargetResolver;
    baseUrl?: string;
    http?: HttpStoreOptions;
    /** Whether local paths and `file:` URLs may be read. */
    localFiles: boolean;
  }) {
    this.#resolve = options.resolve;
    this.#baseUrl = options.baseUrl;
    this.#http = options.http ?? {};
    this.#localFiles = options.localFiles;
  }

  /** The URL with a relative one resolved against the base URL. */
  absolute(url: string): string {
    if (this.#baseUrl === undefined || /^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(url) || url.startsWith("/"))
      return url;
    return new URL(url, this.#baseUrl).href;
  }

  /** The byte source of a URL, or why there is none. */
  async source(rawUrl: string): Promise<ByteSource | { refused: string }> {
    const url = this.absolute(rawUrl);
    const target = await this.#resolve?.(url);
    if (target) return (range, signal) => target.store.get(target.key, { range, signal });
    if (/^https?:\/\//i.test(url)) {
      const { store, key } = this.#httpTarget(url);
      return (range, signal) => store.get(key, { range, signal });
    }
    const path = localPath(url);
    if (path === undefined)
      return {
        refused: "no store reads this URL's scheme: pass a resolve option that maps it to a store",
      };
    if (!this.#localFiles) {
      return {
        refused:
          "local files are not read for a reference document from the network (a document could " +
          "name any file of this machine); pass localFiles: true if it is trusted",
      };
    }
    return (range, signal) => readLocalFile(path, range, signal);
  }

  #httpTarget(url: string): ReferenceTarget {
    const parsed = new URL(url);
    const slash = parsed.pathname.lastIndexOf("/");
    const key = decodeURIComponent(parsed.pathname.slice(slash + 1));
    parsed.pathname = parsed.pathname.slice(0, slash + 1);
    parsed.hash = "";
    let store = this.#httpStores.get(parsed.href);
    if (!store) {
      store = new HttpStore(parsed.href, this.#http);
      this.#httpStores.set(parsed.href, store);
    }
    return { store, key };
  }
}

/** The local path of a `file:` URL or a plain path; undefined for other schemes. */
function localPath(url: string): string | undefined {
  if (/^file:/i.test(url)) return decodeURIComponent(new URL(url).pathname);
  // A Windows drive letter ("C:\...") is a path, not a scheme.
  if (/^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(url) && !/^[a-zA-Z]:[\\/]/.test(url)) return undefined;
  return url;
}
