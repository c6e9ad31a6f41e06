import {
  ContainsArrayError,
  ContainsGroupError,
  consolidateMetadata,
  createGroup,
  NodeError,
  openConsolidated,
  openGroup,
  type ZarrArray,
  ZarrGroup,
} from "@z/array";
import {
  type Listable,
  NotFoundError,
  type Readable,
  ReadOnlyError,
  ReadOnlyStore,
  UnsupportedOperationError,
  type Writable,
} from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { MemoryStore } from "@z/store-memory";
import { startTestHttpServer, tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";

/**
 * ZarrGroup.move and ZarrGroup.delete: keys renamed byte for byte, refusals before any write,
 * missing parents created, consolidated metadata kept in step, failures that lose nothing.
 */

const sandbox = tempDir("z-array-group-move-");
afterAll(sandbox.remove);

type Store = Readable & Writable & Listable;
let folders = 0;
const stores: [string, () => Store][] = [
  ["MemoryStore", () => new MemoryStore()],
  ["FsStore", () => new FsStore(`${sandbox.dir}/m${folders++}.zarr`, { fsync: false })],
];

async function snapshot(store: Store): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const key of store.list()) {
    const bytes = await store.get(key);
    out.set(key, Buffer.from(bytes ?? new Uint8Array()).toString("hex"));
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** root: a (group, attrs: x array with data, b (group: deep array)), m array. */
async function sample(store: Store, zarrFormat: 2 | 3): Promise<ZarrGroup> {
  const root = await createGroup(store, { zarrFormat });
  const m = await root.createArray("m", { shape: [3], chunks: [2], dtype: "int8" });
  await m.set(null, { data: Int8Array.of(1, 2, 3), shape: [3] });
  const a = await root.createGroup("a", { attributes: { title: "a" } });
  const x = await a.createArray("x", { shape: [2, 3], chunks: [1, 2], dtype: "float32" });
  await x.set(null, { data: Float32Array.of(1, 2, 3, 4, 5, 6), shape: [2, 3] });
  await x.updateAttributes({ units: "K" });
  const deep = await root.createArray("a/b/deep", { shape: [4], chunks: [4], dtype: "uint16" });
  await deep.set(null, { data: Uint16Array.of(7, 8, 9, 10), shape: [4] });
  return root;
}

/** The snapshot with the keys under `from` renamed to `to`. */
function renamed(before: Map<string, string>, from: string, to: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of before)
    out.set(key.startsWith(`${from}/`) ? `${to}/${key.slice(from.length + 1)}` : key, value);
  return out;
}

async function values(node: ZarrArray | ZarrGroup): Promise<number[]> {
  return Array.from((await (node as ZarrArray).get()).data as ArrayLike<number>);
}

const parentDocs = (format: 2 | 3, path: string) =>
  format === 3 ? [`${path}/zarr.json`] : [`${path}/.zgroup`];

describe.each(stores)("move and delete on %s", (_, makeStore) => {
  describe.each([2, 3] as const)("v%s", (zarrFormat) => {
    it("move() renames every key of a group below it, byte for byte", async () => {
      const store = makeStore();
      const root = await sample(store, zarrFormat);
      const before = await snapshot(store);
      await root.move("a", "renamed");
      expect(await snapshot(store)).toEqual(renamed(before, "a", "renamed"));
      expect(await root.has("a")).toBe(false);
      expect(await values(await root.get("renamed/x"))).toEqual([1, 2, 3, 4, 5, 6]);
      expect(await values(await root.get("renamed/b/deep"))).toEqual([7, 8, 9, 10]);
      expect(((await root.get("renamed")) as ZarrGroup).attrs).toEqual({ title: "a" });
      expect(((await root.get("renamed/x")) as ZarrArray).attrs).toEqual({ units: "K" });
    });

    it("move() renames an array, and a member of a subgroup into another", async () => {
      const store = makeStore();
      const root = await sample(store, zarrFormat);
      const a = (await root.get("a")) as ZarrGroup;
      const before = await snapshot(store);
      await a.move("x", "b/x2");
      expect(await snapshot(store)).toEqual(renamed(before, "a/x", "a/b/x2"));
      expect(await values(await root.get("a/b/x2"))).toEqual([1, 2, 3, 4, 5, 6]);
      expect((await a.members({ maxDepth: null })).map(([name]) => name)).toEqual([
        "b",
        "b/deep",
        "b/x2",
      ]);
    });

    it("move() creates the missing groups on the way to the destination", async () => {
      const store = makeStore();
      const root = await sample(store, zarrFormat);
      const before = await snapshot(store);
      await root.move("m", "p/q/m");
      const expected = renamed(before, "m", "p/q/m");
      const after = await snapshot(store);
      const created = [...after.keys()].filter((key) => !expected.has(key)).sort();
      expect(created).toEqual(
        [...parentDocs(zarrFormat, "p"), ...parentDocs(zarrFormat, "p/q")].sort(),
      );
      for (const [key, value] of expected) expect(after.get(key)).toBe(value);
      expect(await root.get("p/q")).toBeInstanceOf(ZarrGroup);
      expect(await values(await root.get("p/q/m"))).toEqual([1, 2, 3]);
    });

    it("move() refuses a missing source, a taken destination, and a move into itself, writing nothing", async () => {
      const store = makeStore();
      const root = await sample(store, zarrFormat);
      const before = await snapshot(store);
      await expect(root.move("nothing", "x")).rejects.toThrow(NotFoundError);
      await expect(root.move("a/nothing", "x")).rejects.toThrow(/has no member "a\/nothing"/);
      await expect(root.move("a", "m")).rejects.toThrow(ContainsArrayError);
      await expect(root.move("m", "a")).rejects.toThrow(ContainsGroupError);
      await expect(root.move("m", "a/b")).rejects.toThrow(ContainsGroupError);
      await expect(root.move("a", "a/b/c")).rejects.toThrow(NodeError);
      await expect(root.move("a", "a")).rejects.toThrow(/that is the node or below it/);
      await expect(root.move("", "z")).rejects.toThrow(NodeError);
      // An array on the way to the destination cannot hold it.
      await expect(root.move("a", "m/a")).rejects.toThrow(ContainsArrayError);
      expect(await snapshot(store)).toEqual(before);
    });

    it("delete() removes every key below a member, and refuses what is not there", async () => {
      const store = makeStore();
      const root = await sample(store, zarrFormat);
      const before = await snapshot(store);
      await root.delete("a/b");
      const left = new Map([...before].filter(([key]) => !key.startsWith("a/b/")));
      expect(await snapshot(store)).toEqual(left);
      await root.delete("a");
      expect([...(await snapshot(store)).keys()].every((key) => !key.startsWith("a/"))).toBe(true);
      expect((await root.members()).map(([name]) => name)).toEqual(["m"]);
      await expect(root.delete("a")).rejects.toThrow(NotFoundError);
      await expect(root.delete("")).rejects.toThrow(NodeError);
      await root.delete("m");
      expect([...(await snapshot(store)).keys()]).toEqual(
        zarrFormat === 3 ? ["zarr.json"] : [".zgroup"],
      );
    });

    it("move() to a name the source's name prefixes, and back", async () => {
      const store = makeStore();
      const root = await sample(store, zarrFormat);
      const before = await snapshot(store);
      await root.move("a", "ab");
      expect(await snapshot(store)).toEqual(renamed(before, "a", "ab"));
      await root.move("ab", "a");
      expect(await snapshot(store)).toEqual(before);
    });

    it("an aborted move puts back what it wrote", async () => {
      const store = makeStore();
      await sample(store, zarrFormat);
      const before = await snapshot(store);
      const stop = new AbortController();
      let writes = 0;
      const aborting = new Proxy(store, {
        get(target, property) {
          if (property === "set")
            return (key: string, value: Uint8Array, options?: object) => {
              if (++writes === 3) stop.abort();
              return target.set(key, value, options);
            };
          const value = Reflect.get(target, property, target);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      const moving = await openGroup(aborting);
      await expect(moving.move("a", "r", { signal: stop.signal })).rejects.toThrow(/abort/i);
      expect(await snapshot(store)).toEqual(before);
    });

    it("delete() of a name that prefixes a sibling's leaves the sibling", async () => {
      const store = makeStore();
      const root = await createGroup(store, { zarrFormat });
      await root.createArray("ab", { shape: [1], dtype: "int8" });
      await root.createArray("a", { shape: [1], dtype: "int8" });
      await root.delete("a");
      expect((await root.members()).map(([name]) => name)).toEqual(["ab"]);
    });
  });
});

describe.each([2, 3] as const)("consolidated metadata, v%s", (zarrFormat) => {
  /** The paths a fresh consolidated open lists, and those the store holds. */
  async function listings(store: Store): Promise<[string[], string[]]> {
    const consolidated = await openConsolidated(store);
    const fresh = await openGroup(store, { consolidated: false });
    const names = async (g: ZarrGroup) =>
      (await g.members({ maxDepth: null })).map(([name]) => name);
    return [await names(consolidated), await names(fresh)];
  }

  it("move() and delete() keep the root's consolidated metadata equal to the store", async () => {
    const store = new MemoryStore();
    await sample(store, zarrFormat);
    await consolidateMetadata(store);
    const root = await openConsolidated(store);
    await root.move("a", "p/renamed");
    const [listed, stored] = await listings(store);
    expect(listed).toEqual(stored);
    expect(listed).toEqual([
      "m",
      "p",
      "p/renamed",
      "p/renamed/b",
      "p/renamed/b/deep",
      "p/renamed/x",
    ]);
    // The group object moved through sees the change without reading the store again.
    expect((await root.members({ maxDepth: null })).map(([name]) => name)).toEqual(listed);
    const moved = (await (await openConsolidated(store)).get("p/renamed/x")) as ZarrArray;
    expect(moved.attrs).toEqual({ units: "K" });
    await root.delete("p/renamed/b");
    const [afterDelete, storedAfter] = await listings(store);
    expect(afterDelete).toEqual(storedAfter);
    expect(afterDelete).toEqual(["m", "p", "p/renamed", "p/renamed/x"]);
    expect((await root.members({ maxDepth: null })).map(([name]) => name)).toEqual(afterDelete);
  });

  it("a group holding consolidated metadata of its own keeps it when moved, and a holder between is updated", async () => {
    const store = new MemoryStore();
    const root = await sample(store, zarrFormat);
    await consolidateMetadata(store, { path: "a" });
    await consolidateMetadata(store);
    await root.move("a", "z");
    const z = await openConsolidated(store, { path: "z" });
    expect((await z.members({ maxDepth: null })).map(([name]) => name)).toEqual([
      "b",
      "b/deep",
      "x",
    ]);
    const [listed, stored] = await listings(store);
    expect(listed).toEqual(stored);
    // A move below a holder that is not the root: the holder "z" lists the change.
    await z.move("b", "c");
    const again = await openConsolidated(store, { path: "z" });
    expect((await again.members({ maxDepth: null })).map(([name]) => name)).toEqual([
      "c",
      "c/deep",
      "x",
    ]);
    expect(await values(await again.get("c/deep"))).toEqual([7, 8, 9, 10]);
    const [listed2, stored2] = await listings(store);
    expect(listed2).toEqual(stored2);
  });
});

/** A store whose `set` fails after `okWrites` writes, or whose `deletePrefix` fails. */
function failing(inner: MemoryStore, fail: { okWrites?: number; deletePrefix?: boolean }) {
  let writes = 0;
  return new Proxy(inner, {
    get(target, property) {
      if (property === "set")
        return async (key: string, value: Uint8Array, options?: object) => {
          if (fail.okWrites !== undefined && writes++ >= fail.okWrites)
            throw new Error(`disk full at ${key}`);
          return target.set(key, value, options);
        };
      if (property === "deletePrefix" && fail.deletePrefix)
        return async () => {
          throw new Error("connection lost");
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe.each([2, 3] as const)("failures halfway, v%s", (zarrFormat) => {
  it("a move whose writes fail at any point leaves the store as it was", async () => {
    const base = new MemoryStore();
    await sample(base, zarrFormat);
    await consolidateMetadata(base);
    const before = await snapshot(base);
    // Count the writes of a move that succeeds, then fail each one in turn.
    const probe = new MemoryStore();
    for (const [key, value] of before) await probe.set(key, Buffer.from(value, "hex"));
    let total = 0;
    const counting = new Proxy(probe, {
      get(target, property) {
        if (property === "set") {
          return (key: string, value: Uint8Array, options?: object) => {
            total++;
            return target.set(key, value, options);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await (await openGroup(counting)).move("a", "r");
    expect(total).toBeGreaterThan(5);
    for (let okWrites = 0; okWrites < total; okWrites++) {
      const store = new MemoryStore();
      for (const [key, value] of before) await store.set(key, Buffer.from(value, "hex"));
      const root = await openGroup(failing(store, { okWrites }));
      const failure = await root.move("a", "r").catch((error: unknown) => error);
      expect(failure, `failing after ${okWrites} writes`).toBeInstanceOf(Error);
      expect(await snapshot(store), `failing after ${okWrites} writes`).toEqual(before);
    }
  });

  it("a move whose source deletion fails leaves the destination whole; delete() finishes it", async () => {
    const store = new MemoryStore();
    await sample(store, zarrFormat);
    await consolidateMetadata(store);
    const before = await snapshot(store);
    const root = await openGroup(failing(store, { deletePrefix: true }));
    await expect(root.move("a", "r")).rejects.toThrow("connection lost");
    const after = await snapshot(store);
    for (const [key, value] of renamed(before, "a", "r"))
      if (key.startsWith("r/")) expect(after.get(key)).toBe(value);
    // The source is still whole and no longer listed; the destination is listed.
    const listed = await openConsolidated(store);
    expect((await listed.members({ maxDepth: null })).map(([name]) => name)).toEqual([
      "m",
      "r",
      "r/b",
      "r/b/deep",
      "r/x",
    ]);
    await (await openGroup(store)).delete("a");
    const done = await snapshot(store);
    const expected = renamed(before, "a", "r");
    expect([...done.keys()].sort()).toEqual([...expected.keys()].sort());
  });

  it("a delete whose deletion fails unlists the member and can be run again", async () => {
    const store = new MemoryStore();
    await sample(store, zarrFormat);
    await consolidateMetadata(store);
    const root = await openGroup(failing(store, { deletePrefix: true }));
    await expect(root.delete("a")).rejects.toThrow("connection lost");
    const listed = await openConsolidated(store);
    expect((await listed.members({ maxDepth: null })).map(([name]) => name)).toEqual(["m"]);
    await (await openGroup(store)).delete("a");
    expect(await (await openGroup(store, { consolidated: false })).has("a")).toBe(false);
  });
});

describe("stores that cannot write or list", () => {
  it("a read-only store refuses move and delete with ReadOnlyError, before any read", async () => {
    const store = new MemoryStore();
    await sample(store, 3);
    const root = await openGroup(new ReadOnlyStore(store));
    await expect(root.move("a", "b")).rejects.toThrow(ReadOnlyError);
    await expect(root.delete("a")).rejects.toThrow(ReadOnlyError);
    await expect(root.zeros("z", { shape: [1] })).rejects.toThrow(ReadOnlyError);
  });

  it("a store that cannot list refuses move and delete with UnsupportedOperationError, writing nothing", async () => {
    const inner = new MemoryStore();
    await sample(inner, 3);
    const before = await snapshot(inner);
    const unlisted: Readable & Writable = {
      get: (key, options) => inner.get(key, options),
      set: (key, value, options) => inner.set(key, value, options),
      delete: (key, options) => inner.delete(key, options),
      deletePrefix: (prefix, options) => inner.deletePrefix(prefix, options),
    };
    const root = await openGroup(unlisted);
    await expect(root.move("a", "b")).rejects.toThrow(UnsupportedOperationError);
    await expect(root.delete("a")).rejects.toThrow(UnsupportedOperationError);
    await expect(root.delete("a")).rejects.toThrow(/cannot list keys/);
    expect(await snapshot(inner)).toEqual(before);
  });

  it("over a writable HttpStore, which cannot list, move and delete are refused, nothing written", async () => {
    const dir = `${sandbox.dir}/http`;
    const disk = new FsStore(`${dir}/g.zarr`, { fsync: false });
    await sample(disk, 3);
    const before = await snapshot(disk);
    const server = await startTestHttpServer({ root: dir, writable: true });
    try {
      const store = new HttpStore(`${server.url}g.zarr`, { writable: true });
      const root = await openGroup(store, { consolidated: false });
      await expect(root.move("a", "b")).rejects.toThrow(UnsupportedOperationError);
      await expect(root.delete("m")).rejects.toThrow(UnsupportedOperationError);
      // Refused before the missing parent group would be created.
      await expect(root.move("a", "new/b")).rejects.toThrow(UnsupportedOperationError);
      expect(await snapshot(disk)).toEqual(before);
      expect(server.requests.every((r) => r.method === "GET" || r.method === "HEAD")).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
