import {
  ContainsArrayError,
  ContainsGroupError,
  createArray,
  createGroup,
  NotEmptyError,
  open,
  openArray,
  openGroup,
  type ZarrArray,
  ZarrGroup,
} from "@z/array";
import { slice } from "@z/indexing";
import { MetadataError } from "@z/metadata";
import {
  isListable,
  NotFoundError,
  type Readable,
  ReadOnlyError,
  ReadOnlyStore,
  type Writable,
} from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { MemoryStore } from "@z/store-memory";
import { startTestHttpServer, type TestHttpServer } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { memoryAndFsStores } from "./store-kinds.js";

/*
 * zarr-python's open modes: "r" read only (every write through the node, and the nodes opened
 * from it, fails with ReadOnlyError), "r+" must exist, "a" opens or creates, "w" replaces,
 * "w-" creates only where nothing is stored.
 */

const { stores, dir: sandboxDir } = memoryAndFsStores("z-open-modes-");

/** Every key of a listable store, sorted: what a refused write must leave as it was. */
async function keysOf(store: Readable): Promise<string[]> {
  if (!isListable(store)) throw new Error("test stores list");
  const keys: string[] = [];
  for await (const key of store.list()) keys.push(key);
  return keys.sort();
}

async function ints(arr: ZarrArray): Promise<number[]> {
  return Array.from((await arr.get()).data as Int32Array);
}

for (const [storeName, makeStore] of stores) {
  for (const zarrFormat of [2, 3] as const) {
    describe(`${storeName}, v${zarrFormat}`, () => {
      async function filled() {
        const store = makeStore();
        const root = await createGroup(store, { zarrFormat });
        const arr = await root.createArray("a", { shape: [6], chunks: [2], dtype: "int32" });
        await arr.set(null, 3);
        await arr.updateAttributes({ k: 1 });
        return store;
      }

      it('"r": every write through the array fails with ReadOnlyError and changes nothing', async () => {
        const store = await filled();
        const before = await keysOf(store);
        const arr = await openArray(store, { path: "a", mode: "r" });
        expect(arr.readOnly).toBe(true);
        expect(await ints(arr)).toEqual([3, 3, 3, 3, 3, 3]);
        const writes: [string, () => Promise<unknown>][] = [
          ["set", () => arr.set([slice(0, 2)], 9)],
          ["setOrthogonal", () => arr.setOrthogonal([[0, 5]], 9)],
          ["setCoordinates", () => arr.setCoordinates([[1]], 9)],
          ["setBlocks", () => arr.setBlocks([0], 9)],
          ["resize", () => arr.resize([2])],
          ["append", () => arr.append({ data: new Int32Array(2), shape: [2] })],
          ["updateAttributes", () => arr.updateAttributes({ k: 2 })],
        ];
        for (const [name, write] of writes) {
          const error = await write().then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error, name).toBeInstanceOf(ReadOnlyError);
          expect((error as ReadOnlyError).key, name).toBe("/a");
        }
        expect(await keysOf(store)).toEqual(before);
        // The mode belongs to that object: the store and other objects stay writable.
        const writer = await openArray(store, { path: "a" });
        expect(writer.readOnly).toBe(false);
        await writer.set([0], 7);
        expect((await ints(arr))[0]).toBe(7);
      });

      it('"r": a group refuses attribute updates and children, and its children are read-only', async () => {
        const store = await filled();
        const before = await keysOf(store);
        const root = await openGroup(store, { mode: "r" });
        expect(root.readOnly).toBe(true);
        for (const [name, change] of [
          ["updateAttributes", () => root.updateAttributes({ t: 1 })],
          ["delete", () => root.delete("a")],
          ["move", () => root.move("a", "b")],
          ["zeros", () => root.zeros("z", { shape: [2] })],
        ] as const) {
          const error = await change().then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error, name).toBeInstanceOf(ReadOnlyError);
        }
        await expect(root.createArray("b", { shape: [2], dtype: "int8" })).rejects.toThrow(
          ReadOnlyError,
        );
        await expect(root.createGroup("g")).rejects.toThrow(ReadOnlyError);
        await expect(root.requireGroup("g2")).rejects.toThrow(ReadOnlyError);
        const child = await root.get("a");
        expect(child).not.toBeInstanceOf(ZarrGroup);
        const arr = child as ZarrArray;
        expect(arr.readOnly).toBe(true);
        await expect(arr.set([0], 1)).rejects.toThrow(ReadOnlyError);
        const [[, member]] = await root.members();
        await expect((member as ZarrArray).resize([1])).rejects.toThrow(ReadOnlyError);
        // Deletes go through the node's store, which refuses them.
        const nodeStore = root.store as Readable & Writable;
        await expect(nodeStore.delete("a/zarr.json")).rejects.toThrow(ReadOnlyError);
        await expect(nodeStore.deletePrefix("a/")).rejects.toThrow(ReadOnlyError);
        expect(await keysOf(store)).toEqual(before);
        // open() without kind gives the same read-only group.
        const node = await open(store, { mode: "r" });
        expect(node).toBeInstanceOf(ZarrGroup);
        await expect((node as ZarrGroup).createGroup("x")).rejects.toThrow(ReadOnlyError);
      });

      it('"r" and "r+" open only what exists', async () => {
        const store = await filled();
        for (const mode of ["r", "r+"] as const) {
          await expect(openArray(store, { path: "nope", mode })).rejects.toThrow(NotFoundError);
          await expect(openGroup(store, { path: "nope", mode })).rejects.toThrow(NotFoundError);
          await expect(open(store, { path: "nope", mode })).rejects.toThrow(NotFoundError);
        }
        const arr = await openArray(store, { path: "a", mode: "r+" });
        expect(arr.readOnly).toBe(false);
        expect((await openGroup(store, { mode: "r+" })).readOnly).toBe(false);
        await arr.set([1], 4);
        expect(await ints(arr)).toEqual([3, 4, 3, 3, 3, 3]);
      });

      it('"r+", "a", "w" and "w-" refuse a store that cannot be written', async () => {
        const store = new ReadOnlyStore(await filled());
        for (const mode of ["r+", "a", "w", "w-"] as const) {
          await expect(openArray(store, { path: "a", mode })).rejects.toThrow(ReadOnlyError);
          await expect(openGroup(store, { mode })).rejects.toThrow(/open it with mode "r"/);
        }
        expect((await openArray(store, { path: "a", mode: "r" })).readOnly).toBe(true);
        // Without a mode, a read-only store opens read-only, as zarr-python's default.
        expect((await openArray(store, { path: "a" })).readOnly).toBe(true);
      });

      it('"a" opens what exists and creates what is missing', async () => {
        const store = await filled();
        // The creation options other than dtype (which it checks) do not apply to what exists.
        const arr = await openArray(store, { path: "a", mode: "a", shape: [1], dtype: "int32" });
        expect(arr.shape).toEqual([6]);
        await expect(
          openArray(store, { path: "a", mode: "a", shape: [1], dtype: "int8" }),
        ).rejects.toThrow(/has data type int32, not int8/);
        expect(await ints(arr)).toEqual([3, 3, 3, 3, 3, 3]);
        const made = await openArray(store, {
          path: "log",
          mode: "a",
          shape: [4],
          chunks: [2],
          dtype: "int32",
          fillValue: 5,
          zarrFormat,
        });
        expect(made.zarrFormat).toBe(zarrFormat);
        expect(await ints(made)).toEqual([5, 5, 5, 5]);
        // Without a shape and a dtype there is nothing to create it from.
        await expect(openArray(store, { path: "other", mode: "a" })).rejects.toThrow(
          /creates it only from a shape and a dtype/,
        );
        const group = await openGroup(store, {
          path: "sub",
          mode: "a",
          attributes: { x: 1 },
          zarrFormat,
        });
        expect(group.attrs).toEqual({ x: 1 });
        expect(group.zarrFormat).toBe(zarrFormat);
        const again = await openGroup(store, {
          path: "sub",
          mode: "a",
          attributes: { x: 2 },
          zarrFormat,
        });
        expect(again.attrs).toEqual({ x: 1 });
        expect(await open(store, { path: "other2", mode: "a", zarrFormat })).toBeInstanceOf(
          ZarrGroup,
        );
        expect((await openGroup(store)).zarrFormat).toBe(zarrFormat);
        const names = (await (await openGroup(store)).members()).map(([name]) => name);
        expect(names).toEqual(["a", "log", "other2", "sub"]);
      });

      it('"w" replaces the node and everything stored under the path', async () => {
        const store = await filled();
        await store.set(zarrFormat === 3 ? "a/c/99" : "a/99", new Uint8Array([1]));
        const arr = await openArray(store, {
          path: "a",
          mode: "w",
          shape: [3],
          dtype: "int32",
          zarrFormat,
        });
        expect(arr.attrs).toEqual({});
        expect(await ints(arr)).toEqual([0, 0, 0]);
        const metadataKeys = zarrFormat === 3 ? ["a/zarr.json"] : ["a/.zarray"];
        // The old chunks, attributes and the stray chunk are gone.
        expect((await keysOf(store)).filter((k) => k.startsWith("a/"))).toEqual(metadataKeys);
        // Stray keys where no node is are deleted too.
        await store.set("stray/x", new Uint8Array([1]));
        const group = await openGroup(store, { path: "stray", mode: "w", zarrFormat });
        expect(group.path).toBe("stray");
        expect((await keysOf(store)).filter((k) => k.startsWith("stray/x"))).toEqual([]);
        // At the root, the whole store is replaced.
        const root = await open(store, { mode: "w", zarrFormat });
        expect(root).toBeInstanceOf(ZarrGroup);
        expect(await (root as ZarrGroup).childNames()).toEqual([]);
      });

      it('"w-" creates only where nothing is stored', async () => {
        const store = await filled();
        await expect(
          openArray(store, { path: "a", mode: "w-", shape: [2], dtype: "int8" }),
        ).rejects.toThrow(ContainsArrayError);
        await expect(openGroup(store, { mode: "w-" })).rejects.toThrow(ContainsGroupError);
        await store.set("junk/file", new Uint8Array([1]));
        const error = await openGroup(store, { path: "junk", mode: "w-" }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NotEmptyError);
        expect(error).toMatchObject({ path: "junk", key: "junk/file" });
        const made = await openArray(store, {
          path: "fresh",
          mode: "w-",
          shape: [2],
          dtype: "int8",
          zarrFormat,
        });
        expect(made.shape).toEqual([2]);
        expect(await open(store, { path: "g", mode: "w-", zarrFormat })).toBeInstanceOf(ZarrGroup);
      });

      it("createArray and createGroup take the mode too", async () => {
        const store = await filled();
        const spec = { path: "a", shape: [2], dtype: "int32", zarrFormat } as const;
        await expect(createArray(store, spec)).rejects.toThrow(ContainsArrayError);
        await expect(createArray(store, { ...spec, mode: "a" })).rejects.toThrow(
          ContainsArrayError,
        );
        await expect(createArray(store, { ...spec, mode: "w-" })).rejects.toThrow(
          ContainsArrayError,
        );
        await expect(createArray(store, { ...spec, mode: "r" })).rejects.toThrow(ReadOnlyError);
        await expect(createArray(store, { ...spec, mode: "w-", overwrite: true })).rejects.toThrow(
          MetadataError,
        );
        const replaced = await createArray(store, { ...spec, mode: "w" });
        expect(await ints(replaced)).toEqual([0, 0]);
        await store.set("junk/file", new Uint8Array([1]));
        await expect(createGroup(store, { path: "junk", mode: "w-", zarrFormat })).rejects.toThrow(
          NotEmptyError,
        );
        const group = await createGroup(store, { path: "junk", mode: "w", zarrFormat });
        expect(await group.childNames()).toEqual([]);
        expect((await keysOf(store)).some((k) => k === "junk/file")).toBe(false);
      });

      it("an unknown mode is a MetadataError naming the choices", async () => {
        const store = await filled();
        // @ts-expect-error: not a mode
        await expect(openArray(store, { path: "a", mode: "x" })).rejects.toThrow(
          /mode option must be "r" or "r\+" or "a" or "w" or "w-"/,
        );
      });
    });
  }
}

describe("open() is typed by kind", () => {
  it("returns ZarrArray for kind array and ZarrGroup for kind group, no casts", async () => {
    const store = new MemoryStore();
    await createArray(store, { path: "a", shape: [2], dtype: "float32" });
    const arr = await open(store, { path: "a", kind: "array" });
    expectTypeOf(arr).toEqualTypeOf<ZarrArray>();
    expect(arr.shape).toEqual([2]);
    const typed = await open(store, { path: "a", kind: "array", dtype: "float32" });
    expectTypeOf((await typed.get()).data).toEqualTypeOf<Float32Array>();
    const group = await open(store, { kind: "group" });
    expectTypeOf(group).toEqualTypeOf<ZarrGroup>();
    expect(await group.childNames()).toEqual(["a"]);
    const either = await open(store);
    expectTypeOf(either).toEqualTypeOf<ZarrArray | ZarrGroup>();
    await expect(open(store, { path: "a", kind: "group" })).rejects.toThrow(NotFoundError);
  });
});

describe("HttpStore (reads)", () => {
  let server: TestHttpServer;
  let root: string;
  beforeAll(async () => {
    root = `${sandboxDir()}/served`;
    const arr = await createArray(new FsStore(root), { path: "a", shape: [4], dtype: "int32" });
    await arr.set(null, 2);
    server = await startTestHttpServer({ root });
  });
  afterAll(() => server.stop());

  it('"r" and no mode read; modes that write are refused', async () => {
    const http = new HttpStore(server.url);
    const arr = await openArray(http, { path: "a", mode: "r" });
    expect(await ints(arr)).toEqual([2, 2, 2, 2]);
    expect(arr.readOnly).toBe(true);
    await expect(arr.set([0], 1)).rejects.toThrow(ReadOnlyError);
    expect((await openArray(http, { path: "a" })).readOnly).toBe(true);
    expect(await open(http, { mode: "r" })).toBeInstanceOf(ZarrGroup);
    for (const mode of ["r+", "a", "w", "w-"] as const)
      await expect(openArray(http, { path: "a", mode })).rejects.toThrow(ReadOnlyError);
    await expect(openArray(http, { path: "missing", mode: "r" })).rejects.toThrow(NotFoundError);
    expect(server.requests.every((r) => r.method === "GET" || r.method === "HEAD")).toBe(true);
  });
});
