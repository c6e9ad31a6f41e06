import { createRequire } from "node:module";

/*
 * The official Icechunk implementation (its WebAssembly build, @earthmover/icechunk-wasm32-wasi)
 * writing repositories into a Map through `Storage.newCustom`, so the tests read with our
 * package exactly what the official writer left in storage.
 */

type Any = any;

const require = createRequire(import.meta.url);

/** The official module, loaded on first use (its wasm takes a moment to compile). */
export function icechunk(): Any {
  return require("@earthmover/icechunk-wasm32-wasi");
}

let etagCounter = 0;

/** A storage backend over a Map: conditional writes by ETag, as object stores do them. */
export function mapStorage(files: Map<string, Uint8Array>): Any {
  const etags = new Map<string, string>();
  const created = new Map<string, Date>();
  const notFound = (path: string) => new Error(`ObjectNotFound: ${path}`);
  const put = (path: string, data: Uint8Array) => {
    files.set(path, new Uint8Array(data));
    const etag = `"e${++etagCounter}"`;
    etags.set(path, etag);
    created.set(path, new Date());
    return { kind: "updated", newVersion: { etag } };
  };
  // Files another writer put in the Map get an ETag on first read, as object stores give one.
  const etagOf = (path: string) => {
    if (!etags.has(path)) etags.set(path, `"e${++etagCounter}"`);
    return etags.get(path);
  };
  const matches = (path: string, previous: { etag?: string; generation?: string } | undefined) => {
    if (previous === undefined || previous === null) return true;
    if (previous.etag == null && previous.generation == null) return !files.has(path);
    return etags.get(path) === previous.etag;
  };
  return icechunk().Storage.newCustom({
    canWrite: async () => true,
    getObjectRange: async (
      _e: unknown,
      a: { path: string; rangeStart?: number; rangeEnd?: number },
    ) => {
      const data = files.get(a.path);
      if (!data) throw notFound(a.path);
      const slice = data.subarray(a.rangeStart ?? 0, a.rangeEnd ?? data.length);
      return { data: Buffer.from(slice), version: { etag: etagOf(a.path) } };
    },
    putObject: async (
      _e: unknown,
      a: { path: string; data: Uint8Array; previousVersion?: Any },
    ) => {
      if (!matches(a.path, a.previousVersion)) return { kind: "not_on_latest_version" };
      return put(a.path, a.data);
    },
    copyObject: async (_e: unknown, a: { from: string; to: string; version?: Any }) => {
      const data = files.get(a.from);
      if (!data) throw notFound(a.from);
      return put(a.to, data);
    },
    listObjects: async (_e: unknown, prefix: string) =>
      [...files.keys()]
        .filter((k) => k.startsWith(prefix))
        .map((k) => ({
          id: k.slice(prefix.length),
          createdAt: created.get(k) ?? new Date(),
          sizeBytes: files.get(k)?.length ?? 0,
        })),
    deleteBatch: async (
      _e: unknown,
      a: { prefix: string; batch: { id: string; size: number }[] },
    ) => {
      let deletedBytes = 0;
      for (const item of a.batch) {
        const key = a.prefix + item.id;
        deletedBytes += files.get(key)?.length ?? 0;
        files.delete(key);
      }
      return { deletedObjects: a.batch.length, deletedBytes };
    },
    getObjectLastModified: async (_e: unknown, path: string) => {
      if (!files.has(path)) throw notFound(path);
      return created.get(path) ?? new Date();
    },
    getObjectConditional: async (_e: unknown, a: { path: string; previousVersion?: Any }) => {
      const data = files.get(a.path);
      if (!data) throw notFound(a.path);
      const etag = etagOf(a.path);
      if (a.previousVersion?.etag !== undefined && a.previousVersion.etag === etag)
        return { kind: "on_latest_version" };
      return { kind: "modified", data: Buffer.from(data), newVersion: { etag } };
    },
  });
}

/**
 * An @z store over an official session's store, so `createArray` and `Array.set` from @z/zarr
 * write through the official implementation.
 */
export function officialZarrStore(store: Any) {
  return {
    async get(key: string, options?: { range?: Any }) {
      const range = options?.range;
      const value =
        range === undefined
          ? await store.get(key)
          : "suffix" in range
            ? await store.getRange(key, { suffixLength: range.suffix })
            : await store.getRange(key, { offset: range.offset, length: range.length });
      return value == null ? undefined : new Uint8Array(value);
    },
    async set(key: string, value: Uint8Array) {
      await store.set(key, Buffer.from(value));
    },
    async delete(key: string) {
      await store.delete(key);
    },
    async *list() {
      yield* await store.list();
    },
    async *listPrefix(prefix: string) {
      yield* await store.listPrefix(prefix);
    },
    async listDir(prefix: string) {
      const entries: string[] = await store.listDir(prefix);
      const keys: string[] = [];
      const prefixes: string[] = [];
      for (const e of entries) {
        if (e.endsWith("/")) prefixes.push(prefix + e);
        else keys.push(prefix + e);
      }
      return { keys, prefixes };
    },
  };
}
