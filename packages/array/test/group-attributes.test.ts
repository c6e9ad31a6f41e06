import { mkdirSync } from "node:fs";
import {
  consolidateMetadata,
  createGroup,
  openArray,
  openConsolidated,
  openGroup,
  type ZarrArray,
  type ZarrGroup,
} from "@z/array";
import type { Listable, Readable, Writable } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { MemoryStore } from "@z/store-memory";
import { startTestHttpServer, tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";

/**
 * updateAttributes changes groups and arrays alike in place (the object's attrs and metadata
 * show the stored attributes once the call resolves) and resolves to the same object.
 */

const sandbox = tempDir("z-array-group-attrs-");
afterAll(sandbox.remove);

type Store = Readable & Writable & Listable;
let folders = 0;
const stores: [string, () => Store][] = [
  ["MemoryStore", () => new MemoryStore()],
  ["FsStore", () => new FsStore(`${sandbox.dir}/a${folders++}.zarr`, { fsync: false })],
];

describe.each(stores)("updateAttributes in place on %s", (_, makeStore) => {
  describe.each([2, 3] as const)("v%s", (zarrFormat) => {
    it("groups and arrays alike: same object, attrs and metadata current, chainable", async () => {
      const store = makeStore();
      const root = await createGroup(store, { zarrFormat, attributes: { title: "t" } });
      const group = (await root.createGroup("g")) as ZarrGroup;
      const array = await root.createArray("x", { shape: [2], dtype: "int8" });
      for (const node of [root, group, array] as (ZarrGroup | ZarrArray)[]) {
        const before = node.metadata;
        const returned = await node.updateAttributes({ a: 1 });
        expect(returned).toBe(node);
        expect(node.attrs).toMatchObject({ a: 1 });
        expect(node.metadata.attributes).toMatchObject({ a: 1 });
        // Replaced, not mutated: a snapshot taken before stays as it was.
        expect(before.attributes).not.toHaveProperty("a");
        const chained = await (await node.updateAttributes({ b: 2 })).updateAttributes({ c: 3 });
        expect(chained).toBe(node);
        expect(node.attrs).toMatchObject({ a: 1, b: 2, c: 3 });
        await node.updateAttributes({ only: true }, { replace: true });
        expect(node.attrs).toEqual({ only: true });
      }
      expect((await openGroup(store)).attrs).toEqual({ only: true });
      expect((await openGroup(store, { path: "g" })).attrs).toEqual({ only: true });
      expect((await openArray(store, { path: "x" })).attrs).toEqual({ only: true });
    });

    it("keeps what another object stored meanwhile, and shows it", async () => {
      const store = makeStore();
      const root = await createGroup(store, { zarrFormat });
      const first = (await root.createGroup("g")) as ZarrGroup;
      const second = (await root.get("g")) as ZarrGroup;
      await second.updateAttributes({ theirs: 1 });
      await first.updateAttributes({ mine: 2 });
      expect(first.attrs).toEqual({ theirs: 1, mine: 2 });
    });

    it("a group listed in consolidated metadata is updated there and in place", async () => {
      const store = makeStore();
      const root = await createGroup(store, { zarrFormat });
      await root.createGroup("g");
      await consolidateMetadata(store);
      const listed = await openConsolidated(store);
      const g = (await listed.get("g")) as ZarrGroup;
      await g.updateAttributes({ k: "v" });
      await listed.updateAttributes({ top: true });
      expect(g.attrs).toEqual({ k: "v" });
      expect(listed.attrs).toEqual({ top: true });
      const fresh = await openConsolidated(store);
      expect(fresh.attrs).toEqual({ top: true });
      expect(((await fresh.get("g")) as ZarrGroup).attrs).toEqual({ k: "v" });
      // The consolidated metadata the group holds survived its own update.
      expect(fresh.consolidated?.paths()).toEqual(["g"]);
    });
  });
});

describe("updateAttributes over HTTP", () => {
  it("a group over a writable HttpStore", async () => {
    const dir = `${sandbox.dir}/http`;
    mkdirSync(dir, { recursive: true });
    await createGroup(new FsStore(`${dir}/g.zarr`, { fsync: false }), { zarrFormat: 2 });
    const server = await startTestHttpServer({ root: dir, writable: true });
    try {
      const store = new HttpStore(`${server.url}g.zarr`, { writable: true });
      const group = await openGroup(store, { consolidated: false });
      expect(await group.updateAttributes({ over: "http" })).toBe(group);
      expect(group.attrs).toEqual({ over: "http" });
      expect((await openGroup(store, { consolidated: false })).attrs).toEqual({ over: "http" });
    } finally {
      await server.stop();
    }
  });
});
