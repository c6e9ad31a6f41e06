import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  consolidateMetadata,
  copyNode,
  createHierarchy,
  empty,
  emptyLike,
  fromArray,
  full,
  fullLike,
  ones,
  onesLike,
  openArray,
  openConsolidated,
  openGroup,
  type ZarrArray,
  zeros,
  zerosLike,
} from "@z/array";
import {
  LoggingStore,
  NotFoundError,
  registerStore,
  StoreError,
  UnsupportedOperationError,
} from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { MemoryStore } from "@z/store-memory";
import { scratchFolders, startTestHttpServer } from "@z/test-utils";
import { describe, expect, it } from "vitest";
// The umbrella registers the locations users pass: plain paths and file: URLs (FsStore), http(s).
import "@z/zarr";

/*
 * Every function of @z/array that takes a store takes a location string too, resolved by the
 * same registered schemes as open(): a plain path, a file: URL, an http(s) URL, or a scheme of
 * the user's own (here "memtest:", a MemoryStore).
 */

const scratch = scratchFolders("z-locations-");
const memory = new Map<string, MemoryStore>();
registerStore("memtest", (location) => {
  const name = location.slice("memtest:".length);
  if (!memory.has(name)) memory.set(name, new MemoryStore());
  return memory.get(name) as MemoryStore;
});

/** A small hierarchy at a location, written through the location. */
async function writeTree(location: string): Promise<void> {
  await createHierarchy(location, {
    "": { kind: "group", attributes: { title: "located" } },
    "a/x": { kind: "array", shape: [4], chunks: [2], dtype: "int16" },
    b: { kind: "group" },
  });
  const x = await openArray(location, { path: "a/x" });
  await x.set(null, Int16Array.of(1, 2, 3, 4));
}

const flat = async (array: ZarrArray) => Array.from((await array.get()).data as Int16Array);

describe("consolidateMetadata and openConsolidated take a location", () => {
  const kinds = [
    ["a plain path (FsStore)", () => path.join(scratch(), "tree.zarr")],
    ["a file: URL (FsStore)", () => pathToFileURL(path.join(scratch(), "tree.zarr")).href],
    ["a registered scheme (MemoryStore)", () => `memtest:tree-${Math.random()}`],
  ] as const;
  for (const [what, make] of kinds) {
    it(what, async () => {
      const location = make();
      await writeTree(location);
      await expect(openConsolidated(location)).rejects.toThrow(NotFoundError);
      const written = await consolidateMetadata(location);
      expect(await written.childNames()).toEqual(["a", "b"]);
      const root = await openConsolidated(location);
      expect(root.attrs).toEqual({ title: "located" });
      expect(await flat((await root.get("a/x")) as ZarrArray)).toEqual([1, 2, 3, 4]);
    });
  }

  it("the plain path lands where FsStore puts it, and one read opens the hierarchy", async () => {
    const dir = path.join(scratch(), "tree.zarr");
    await writeTree(dir);
    await consolidateMetadata(dir);
    expect(existsSync(path.join(dir, "zarr.json"))).toBe(true);
    const logged = new LoggingStore(new FsStore(dir, { readOnly: true }));
    const root = await openConsolidated(logged);
    await root.tree();
    expect(logged.requests.map((r) => r.key)).toEqual(["zarr.json"]);
  });

  it("an unknown scheme is a StoreError that names it", async () => {
    await expect(consolidateMetadata("nosuchscheme:x")).rejects.toThrow(StoreError);
    await expect(consolidateMetadata("nosuchscheme:x")).rejects.toThrow(/"nosuchscheme:"/);
  });
});

describe("NumPy-style creation takes a location", () => {
  for (const [what, make] of [
    ["a plain path (FsStore)", () => path.join(scratch(), "made.zarr")],
    ["a registered scheme (MemoryStore)", () => `memtest:made-${Math.random()}`],
  ] as const) {
    it(what, async () => {
      const location = make();
      const base = { shape: [3], chunks: [2], dtype: "int16" };
      const made = [
        await zeros(location, { ...base, path: "zeros" }),
        await ones(location, { ...base, path: "ones" }),
        await full(location, { ...base, path: "full", fillValue: 7 }),
        await empty(location, { ...base, path: "empty", fillValue: 5 }),
      ];
      const source = made[1];
      made.push(
        await zerosLike(location, source, { path: "zl" }),
        await onesLike(location, source, { path: "ol" }),
        await fullLike(location, source, { path: "fl", fillValue: 9 }),
        await emptyLike(location, source, { path: "el" }),
        await fromArray(location, Int16Array.of(4, 5, 6), { path: "from" }),
        await fromArray(location, source, { path: "copied" }),
      );
      const reopened = await Promise.all(made.map((a) => openArray(location, { path: a.path })));
      expect(await Promise.all(reopened.map(flat))).toEqual([
        [0, 0, 0],
        [1, 1, 1],
        [7, 7, 7],
        [5, 5, 5],
        [0, 0, 0],
        [1, 1, 1],
        [9, 9, 9],
        [1, 1, 1],
        [4, 5, 6],
        [1, 1, 1],
      ]);
    });
  }
});

describe("read locations over HTTP", () => {
  it("openConsolidated, and copyNode from an http URL to a plain path", async () => {
    const dir = scratch();
    await writeTree(path.join(dir, "tree.zarr"));
    await consolidateMetadata(path.join(dir, "tree.zarr"));
    const server = await startTestHttpServer({ root: dir });
    try {
      const url = `${server.url}tree.zarr`;
      const root = await openConsolidated(url);
      expect(root.store).toBeInstanceOf(HttpStore);
      await root.tree();
      expect(server.requests.map((r) => r.path)).toEqual(["tree.zarr/zarr.json"]);
      const target = path.join(dir, "copy.zarr");
      await copyNode(root, target);
      const copied = await openGroup(target);
      expect(copied.attrs).toEqual({ title: "located" });
      expect(await flat((await copied.get("a/x")) as ZarrArray)).toEqual([1, 2, 3, 4]);
      // HTTP cannot list keys, so there is nothing to consolidate from there.
      await expect(consolidateMetadata(url)).rejects.toThrow(UnsupportedOperationError);
    } finally {
      await server.stop();
    }
  });
});
