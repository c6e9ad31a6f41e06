import { mkdirSync, writeFileSync } from "node:fs";
import {
  consolidateMetadata,
  createGroup,
  openConsolidated,
  openGroup,
  UnreadableNode,
  ZarrArray,
  type ZarrGroup,
} from "@z/array";
import { MetadataError } from "@z/metadata";
import {
  type Listable,
  type Readable,
  UnsupportedOperationError,
  type Writable,
} from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { MemoryStore } from "@z/store-memory";
import { startTestHttpServer, tempDir } from "@z/test-utils";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

/** members({maxDepth}) and size({maxDepth}), zarr-python's members(max_depth) and nmembers. */

const sandbox = tempDir("z-array-group-depth-");
afterAll(sandbox.remove);

type Store = Readable & Writable & Listable;
let folders = 0;
const stores: [string, () => Store][] = [
  ["MemoryStore", () => new MemoryStore()],
  ["FsStore", () => new FsStore(`${sandbox.dir}/d${folders++}.zarr`, { fsync: false })],
];

/** Creates the nodes of `paths` (arrays where the flag says so), in path order. */
async function build(
  store: Store,
  zarrFormat: 2 | 3,
  nodes: [string, boolean][],
): Promise<ZarrGroup> {
  const root = await createGroup(store, { zarrFormat });
  for (const [path, array] of nodes) {
    if (array) await root.createArray(path, { shape: [1], dtype: "int8" });
    else await root.requireGroup(path);
  }
  return root;
}

const names = async (group: ZarrGroup, maxDepth?: number | null) =>
  (await group.members({ maxDepth })).map(([name]) => name);

describe.each(stores)("members({maxDepth}) on %s", (_, makeStore) => {
  describe.each([2, 3] as const)("v%s", (zarrFormat) => {
    it("lists each level below, parents before children, and counts them", async () => {
      const root = await build(makeStore(), zarrFormat, [
        ["a/b/c/x", true],
        ["a/y", true],
        ["m", true],
        ["z", false],
      ]);
      expect(await names(root)).toEqual(["a", "m", "z"]);
      expect(await names(root, 0)).toEqual(["a", "m", "z"]);
      expect(await names(root, 1)).toEqual(["a", "a/b", "a/y", "m", "z"]);
      expect(await names(root, 2)).toEqual(["a", "a/b", "a/b/c", "a/y", "m", "z"]);
      const all = ["a", "a/b", "a/b/c", "a/b/c/x", "a/y", "m", "z"];
      expect(await names(root, null)).toEqual(all);
      expect(await names(root, Number.POSITIVE_INFINITY)).toEqual(all);
      expect(await root.size()).toBe(3);
      expect(await root.size({ maxDepth: 1 })).toBe(5);
      expect(await root.size({ maxDepth: null })).toBe(7);
      const [, x] = (await root.members({ maxDepth: null }))[3];
      expect(x).toBeInstanceOf(ZarrArray);
      expect((x as ZarrArray).path).toBe("a/b/c/x");
    });

    it("refuses a maxDepth that is not a non-negative integer, Infinity or null", async () => {
      const root = await build(makeStore(), zarrFormat, [["a", false]]);
      for (const bad of [-1, 1.5, Number.NaN, "1" as unknown as number]) {
        await expect(root.members({ maxDepth: bad })).rejects.toThrow(MetadataError);
        await expect(root.size({ maxDepth: bad })).rejects.toThrow(/maxDepth option/);
      }
    });

    it("lists a member that cannot be opened as an UnreadableNode and goes on", async () => {
      const store = makeStore();
      const root = await build(store, zarrFormat, [
        ["a/b", false],
        ["a/c", true],
      ]);
      const key = zarrFormat === 3 ? "a/b/zarr.json" : "a/b/.zgroup";
      await store.set(key, new TextEncoder().encode("{not json"));
      const listed = await root.members({ maxDepth: null });
      expect(listed.map(([name]) => name)).toEqual(["a", "a/b", "a/c"]);
      expect(listed[1][1]).toBeInstanceOf(UnreadableNode);
    });

    it("agrees with a model of random trees at every depth", async () => {
      const segment = fc.constantFrom("a", "b", "c");
      const node = fc.tuple(
        fc.array(segment, { minLength: 1, maxLength: 4 }).map((p) => p.join("/")),
        fc.boolean(),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(node, { maxLength: 8 }), async (nodes) => {
          const store = makeStore();
          const root = await createGroup(store, { zarrFormat });
          const model = new Map<string, boolean>();
          for (const [path, array] of nodes) {
            const parts = path.split("/");
            const blocked = parts.some((_, i) => model.get(parts.slice(0, i + 1).join("/")));
            if (blocked || model.has(path)) continue;
            for (let i = 1; i < parts.length; i++) model.set(parts.slice(0, i).join("/"), false);
            model.set(path, array);
            if (array) await root.createArray(path, { shape: [1], dtype: "int8" });
            else await root.createGroup(path);
          }
          const paths = [...model.keys()].sort();
          for (const depth of [0, 1, 2, 3, null]) {
            const want = paths.filter((p) => depth === null || p.split("/").length <= depth + 1);
            expect(await names(root, depth)).toEqual(want);
            expect(await root.size({ maxDepth: depth })).toBe(want.length);
          }
        }),
        { numRuns: makeStore().constructor === MemoryStore ? 40 : 6 },
      );
    }, 60_000);
  });
});

describe.each([2, 3] as const)("members({maxDepth}) over HTTP, v%s", (zarrFormat) => {
  it("lists the whole tree from the consolidated metadata with no further request", async () => {
    const dir = `${sandbox.dir}/http${zarrFormat}`;
    mkdirSync(dir, { recursive: true });
    const disk = new FsStore(`${dir}/tree.zarr`, { fsync: false });
    await build(disk, zarrFormat, [
      ["a/b/x", true],
      ["m", true],
    ]);
    await consolidateMetadata(disk);
    writeFileSync(`${dir}/plain.txt`, "not a hierarchy");
    const server = await startTestHttpServer({ root: dir });
    try {
      const store = new HttpStore(`${server.url}tree.zarr`);
      const root = await openConsolidated(store);
      server.reset();
      expect(await names(root, null)).toEqual(["a", "a/b", "a/b/x", "m"]);
      expect(await names(root, 1)).toEqual(["a", "a/b", "m"]);
      expect(await root.size({ maxDepth: null })).toBe(4);
      expect(server.requests).toEqual([]);
      // Without consolidated metadata there is nothing to list from.
      const plain = await openGroup(store, { consolidated: false });
      await expect(plain.members({ maxDepth: 1 })).rejects.toThrow(UnsupportedOperationError);
    } finally {
      await server.stop();
    }
  });
});
