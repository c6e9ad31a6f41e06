import { mkdirSync } from "node:fs";
import {
  ContainsArrayError,
  consolidateMetadata,
  createGroup,
  empty,
  emptyLike,
  full,
  fullLike,
  ones,
  onesLike,
  openConsolidated,
  openGroup,
  type ZarrArray,
  type ZarrGroup,
  zeros,
  zerosLike,
} from "@z/array";
import type { Listable, Readable, Writable } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { MemoryStore } from "@z/store-memory";
import { startTestHttpServer, tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The group's zeros, ones, full, empty and *Like methods (zarr-python's Group.zeros(name=...)
 * and friends) create what the top-level functions create at the same path.
 */

const sandbox = tempDir("z-array-group-shorthands-");
afterAll(sandbox.remove);

type Store = Readable & Writable & Listable;
let folders = 0;
const stores: [string, () => Store][] = [
  ["MemoryStore", () => new MemoryStore()],
  ["FsStore", () => new FsStore(`${sandbox.dir}/s${folders++}.zarr`, { fsync: false })],
];

/** The metadata documents of the array at `path`, as text. */
async function documents(store: Store, path: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const key of store.listPrefix(`${path}/`)) {
    const bytes = await store.get(key);
    if (bytes) out[key] = new TextDecoder().decode(bytes);
  }
  return out;
}

async function values(array: ZarrArray): Promise<unknown[]> {
  return Array.from((await array.get()).data as ArrayLike<unknown>);
}

describe.each(stores)("group creation shorthands on %s", (_, makeStore) => {
  describe.each([2, 3] as const)("v%s", (zarrFormat) => {
    const layout = { shape: [3, 2], chunks: [2, 2], dtype: "int16" } as const;

    it("zeros, ones, full and empty create what the top-level functions create", async () => {
      const store = makeStore();
      const reference = makeStore();
      const root = await createGroup(store, { zarrFormat });
      const raw = await root.createGroup("raw");
      await createGroup(reference, { zarrFormat });
      await createGroup(reference, { path: "raw", zarrFormat });
      const common = { ...layout, zarrFormat };
      const made: [string, ZarrArray, unknown][] = [
        ["z", await raw.zeros("z", layout), 0],
        ["o", await raw.ones("o", layout), 1],
        ["f", await raw.full("f", { ...layout, fillValue: 7 }), 7],
        ["e", await raw.empty("e", layout), 0],
      ];
      await zeros(reference, { ...common, path: "raw/z" });
      await ones(reference, { ...common, path: "raw/o" });
      await full(reference, { ...common, path: "raw/f", fillValue: 7 });
      await empty(reference, { ...common, path: "raw/e" });
      for (const [name, array, fill] of made) {
        expect(array.path).toBe(`raw/${name}`);
        expect(array.zarrFormat).toBe(zarrFormat);
        expect(await documents(store, `raw/${name}`)).toEqual(
          await documents(reference, `raw/${name}`),
        );
        expect(await values(array)).toEqual(Array(6).fill(fill));
      }
      // The default data type is NumPy's, as the top-level functions have it.
      expect((await raw.zeros("d", { shape: [2] })).dtype).toBe("float64");
      expect((await raw.members()).map(([name]) => name)).toEqual(["d", "e", "f", "o", "z"]);
    });

    it("the *Like methods create what the top-level ones create, in the group's format", async () => {
      const store = makeStore();
      const reference = makeStore();
      const root = await createGroup(store, { zarrFormat });
      await createGroup(reference, { zarrFormat });
      const source = await root.createArray("source", {
        ...layout,
        fillValue: 3,
        attributes: { units: "m" },
      });
      const made: [string, ZarrArray, unknown][] = [
        ["zl", await root.zerosLike("zl", source), 0],
        ["ol", await root.onesLike("ol", source), 1],
        ["fl", await root.fullLike("fl", source, { fillValue: 9 }), 9],
        ["el", await root.emptyLike("el", source), 3],
      ];
      await zerosLike(reference, source, { path: "zl" });
      await onesLike(reference, source, { path: "ol" });
      await fullLike(reference, source, { path: "fl", fillValue: 9 });
      await emptyLike(reference, source, { path: "el" });
      for (const [name, array, fill] of made) {
        expect(await documents(store, name)).toEqual(await documents(reference, name));
        expect(array.shape).toEqual([3, 2]);
        expect(array.chunks).toEqual([2, 2]);
        expect(array.attrs).toEqual({});
        expect(await values(array)).toEqual(Array(6).fill(fill));
      }
      // A source of the other format, or an in-memory shape, gives an array of the group's.
      const other = await zeros(new MemoryStore(), {
        shape: [4],
        dtype: "uint8",
        zarrFormat: zarrFormat === 2 ? 3 : 2,
      });
      const converted = await root.onesLike("converted", other);
      expect(converted.zarrFormat).toBe(zarrFormat);
      expect(converted.dtype).toBe("uint8");
      expect(await values(converted)).toEqual([1, 1, 1, 1]);
      const fromShape = await root.zerosLike("fromShape", { shape: [2], data: new Int32Array(2) });
      expect([fromShape.dtype, fromShape.shape]).toEqual(["int32", [2]]);
    });

    it("refuse a taken name unless overwrite, and keep consolidated metadata listing them", async () => {
      const store = makeStore();
      const root = await createGroup(store, { zarrFormat });
      await root.zeros("a", { shape: [2] });
      await consolidateMetadata(store);
      const listed = await openConsolidated(store);
      await expect(listed.ones("a", { shape: [2] })).rejects.toThrow(ContainsArrayError);
      const replaced = await listed.ones("a", { shape: [2], dtype: "int8", overwrite: true });
      expect(await values(replaced)).toEqual([1, 1]);
      await listed.fullLike("b/c", replaced, { fillValue: 5 });
      const names = (g: ZarrGroup) => g.members({ maxDepth: null });
      expect((await names(listed)).map(([name]) => name)).toEqual(["a", "b", "b/c"]);
      const fresh = await openConsolidated(store);
      expect((await names(fresh)).map(([name]) => name)).toEqual(["a", "b", "b/c"]);
      expect(await values((await fresh.get("b/c")) as ZarrArray)).toEqual([5, 5]);
      expect(((await fresh.get("a")) as ZarrArray).dtype).toBe("int8");
    });
  });
});

describe("group creation shorthands over HTTP", () => {
  it("create through a writable HttpStore and read back", async () => {
    const dir = `${sandbox.dir}/http`;
    mkdirSync(dir, { recursive: true });
    await createGroup(new FsStore(`${dir}/g.zarr`, { fsync: false }));
    const server = await startTestHttpServer({ root: dir, writable: true });
    try {
      const root = await openGroup(new HttpStore(`${server.url}g.zarr`, { writable: true }), {
        consolidated: false,
      });
      const made = await root.full("f", { shape: [3], dtype: "int32", fillValue: 4 });
      await root.zerosLike("z", made);
      const back = await openGroup(new FsStore(`${dir}/g.zarr`));
      expect(await values((await back.get("f")) as ZarrArray)).toEqual([4, 4, 4]);
      expect(await values((await back.get("z")) as ZarrArray)).toEqual([0, 0, 0]);
      expect(await values((await root.get("z")) as ZarrArray)).toEqual([0, 0, 0]);
    } finally {
      await server.stop();
    }
  });
});
