import path from "node:path";
import {
  consolidateMetadata,
  copyNode,
  createArray,
  openArray,
  openGroup,
  registeredStorageTransformers,
  registerStorageTransformer,
  UnknownStorageTransformerError,
  UnreadableNode,
  type ZarrArray,
} from "@z/array";
import { type LogSink, resetLogLevels, setLogger, setLogLevel } from "@z/log";
import { type JsonObject, UnsupportedExtensionError } from "@z/metadata";
import type { GetOptions, Listable, Readable, SetOptions, Writable } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { MemoryStore } from "@z/store-memory";
import { scratchFolders, startTestHttpServer } from "@z/test-utils";
import { afterEach, describe, expect, it } from "vitest";

/*
 * v3 storage transformers: a registered one stands between the array and its store for chunk
 * I/O (reads, writes, the listing a resize makes); an unregistered one that readers must
 * understand stops the array from opening with a typed error naming it and the array; one
 * marked must_understand: false is skipped with a warning on the array logger.
 */

type Store = Readable & Writable & Listable;

/** Stores an array's chunk `a/c/0/1` as `a/<folder>/c/0/1`: the keys the array sees stay as they are. */
class FolderStore implements Readable {
  constructor(
    private readonly inner: Store,
    private readonly path: string,
    private readonly folder: string,
  ) {}
  private physical(key: string): string {
    const head = this.path === "" ? "" : `${this.path}/`;
    return `${head}${this.folder}/${key.slice(head.length)}`;
  }
  get(key: string, options?: GetOptions) {
    return this.inner.get(this.physical(key), options);
  }
  set(key: string, value: Uint8Array, options?: SetOptions) {
    return this.inner.set(this.physical(key), value, options);
  }
  delete(key: string) {
    return this.inner.delete(this.physical(key));
  }
  deletePrefix(prefix: string) {
    return this.inner.deletePrefix(this.physical(prefix));
  }
  async *list() {
    yield* this.listPrefix("");
  }
  async *listPrefix(prefix: string) {
    const head = this.path === "" ? "" : `${this.path}/`;
    const physical = `${head}${this.folder}/`;
    for await (const key of this.inner.listPrefix(physical)) {
      const logical = `${head}${key.slice(physical.length)}`;
      if (logical.startsWith(prefix)) yield logical;
    }
  }
  listDir(prefix: string) {
    return this.inner.listDir(prefix);
  }
}

registerStorageTransformer("test.folder", (store, { path, configuration }) => {
  const folder = configuration.folder;
  if (typeof folder !== "string") throw new TypeError("test.folder needs a folder");
  return new FolderStore(store as Store, path, folder);
});

const scratch = scratchFolders("z-storage-transformers-");

afterEach(() => {
  setLogger(undefined);
  resetLogLevels();
});

/** Creates an array at `a`, then lists `transformers` in its zarr.json, as another writer would. */
async function arrayWith(store: Store, transformers: JsonObject[]): Promise<void> {
  await createArray(store, {
    path: "a",
    shape: [4, 4],
    chunks: [2, 2],
    dtype: "uint16",
    compressors: null,
  });
  const doc = JSON.parse(new TextDecoder().decode(await store.get("a/zarr.json")));
  doc.storage_transformers = transformers;
  await store.set("a/zarr.json", new TextEncoder().encode(JSON.stringify(doc)));
}

async function keysOf(store: Store): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list()) keys.push(key);
  return keys.sort();
}

const values = Uint16Array.from({ length: 16 }, (_, i) => i * 11);
const flat = async (array: ZarrArray) => Array.from((await array.get()).data as Uint16Array);

async function throughTransformer(store: Store): Promise<void> {
  await arrayWith(store, [{ name: "test.folder", configuration: { folder: "_t" } }]);
  const array = await openArray(store, { path: "a" });
  await array.set(null, values);
  expect(await keysOf(store)).toEqual([
    "a/_t/c/0/0",
    "a/_t/c/0/1",
    "a/_t/c/1/0",
    "a/_t/c/1/1",
    "a/zarr.json",
    "zarr.json",
  ]);
  expect(await flat(await openArray(store, { path: "a" }))).toEqual(Array.from(values));
  expect(await array.nchunksInitialized()).toBe(4);
  // A resize finds the chunks to delete through the transformer's listing.
  await array.resize([2, 2]);
  expect(await keysOf(store)).toEqual(["a/_t/c/0/0", "a/zarr.json", "zarr.json"]);
  // The metadata keeps the transformer when it is written back.
  await array.updateAttributes({ kept: true });
  const doc = JSON.parse(new TextDecoder().decode(await store.get("a/zarr.json")));
  expect(doc.storage_transformers).toEqual([
    { name: "test.folder", configuration: { folder: "_t" } },
  ]);
}

describe("a registered storage transformer", () => {
  it("MemoryStore: chunks are read and written through it", async () => {
    await throughTransformer(new MemoryStore());
  });

  it("FsStore: the same, and an HttpStore reads through it", async () => {
    const dir = scratch();
    await throughTransformer(new FsStore(path.join(dir, "data.zarr")));
    const server = await startTestHttpServer({ root: dir });
    try {
      const overHttp = await openArray(new HttpStore(`${server.url}data.zarr`), { path: "a" });
      expect(await flat(overHttp)).toEqual([0, 11, 44, 55]);
      expect(server.requests.map((r) => r.path)).toContain("data.zarr/a/_t/c/0/0");
    } finally {
      await server.stop();
    }
  });

  it("copyNode copies raw chunks through the transformers of both sides", async () => {
    const source = new MemoryStore();
    await arrayWith(source, [{ name: "test.folder", configuration: { folder: "_t" } }]);
    await (await openArray(source, { path: "a" })).set(null, values);
    const target = new MemoryStore();
    const copied = await copyNode(await openArray(source, { path: "a" }), target);
    expect(copied.arrays.length).toBe(1);
    expect((await keysOf(target)).filter((k) => k.includes("/c/"))).toEqual([
      "a/_t/c/0/0",
      "a/_t/c/0/1",
      "a/_t/c/1/0",
      "a/_t/c/1/1",
    ]);
    expect(await flat(await openArray(target, { path: "a" }))).toEqual(Array.from(values));
  });

  it("is listed by name, and registering checks its arguments", () => {
    expect(registeredStorageTransformers()).toContain("test.folder");
    expect(() => registerStorageTransformer("", () => new MemoryStore())).toThrow(TypeError);
    expect(() => registerStorageTransformer("x", 5 as never)).toThrow(TypeError);
  });
});

describe("an unregistered storage transformer", () => {
  for (const [what, entry] of [
    ["must_understand absent", { name: "test.unknown" }],
    ["must_understand true", { name: "test.unknown", must_understand: true }],
    ["a bare name", "test.unknown"],
  ] as const) {
    it(`${what}: the array does not open, with a typed error naming it and the array`, async () => {
      const store = new MemoryStore();
      await arrayWith(store, [entry as never]);
      const error = await openArray(store, { path: "a" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnknownStorageTransformerError);
      expect(error).toBeInstanceOf(UnsupportedExtensionError);
      const typed = error as UnknownStorageTransformerError;
      expect(typed.transformer).toBe("test.unknown");
      expect(typed.path).toBe("a");
      expect(typed.message).toMatch(/\/a .*"test\.unknown".*registered: .*test\.folder/);
    });
  }

  it("through consolidated metadata: the group lists it as unreadable, opening it fails", async () => {
    const store = new MemoryStore();
    await arrayWith(store, [{ name: "test.unknown" }]);
    await consolidateMetadata(store);
    const root = await openGroup(store);
    const [[, member]] = await root.members();
    expect(member).toBeInstanceOf(UnreadableNode);
    await expect(root.get("a")).rejects.toThrow(UnknownStorageTransformerError);
  });

  it("must_understand: false: the array opens without it, with one warning on the array logger", async () => {
    const store = new MemoryStore();
    await arrayWith(store, [{ name: "test.optional", must_understand: false }]);
    const warnings: [string, Record<string, unknown> | undefined][] = [];
    const sink: LogSink = {
      debug() {},
      info() {},
      warn: (message, fields) => warnings.push([message, fields]),
    };
    setLogger(sink);
    setLogLevel("array", "warn");
    const array = await openArray(store, { path: "a" });
    await array.set(null, values);
    expect(await flat(await openArray(store, { path: "a" }))).toEqual(Array.from(values));
    expect(await keysOf(store)).toContain("a/c/0/0");
    expect(warnings).toHaveLength(1);
    expect(warnings[0][0]).toMatch(/"test\.optional".*\/a/);
    expect(warnings[0][1]).toMatchObject({ path: "a", transformer: "test.optional" });
  });

  it("a malformed entry is a MetadataError naming the document", async () => {
    const store = new MemoryStore();
    await arrayWith(store, [{ configuration: {} } as never]);
    await expect(openArray(store, { path: "a" })).rejects.toThrow(
      /a\/zarr\.json.*storage_transformers\[0\]/,
    );
  });
});
