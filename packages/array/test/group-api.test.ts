import {
  ContainsArrayError,
  ContainsGroupError,
  createGroup,
  DataTypeMismatchError,
  openGroup,
  ShapeMismatchError,
  ZarrArray,
  ZarrGroup,
} from "@z/array";
import type { Readable, Writable } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { MemoryStore } from "@z/store-memory";
import { tempDir } from "@z/test-utils";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The zarr-python style group API: size, has, async iteration, requireGroup, requireArray and
 * visit, against a store in memory and one on disk, in both formats.
 */

const sandbox = tempDir("z-array-group-api-");
afterAll(sandbox.remove);

let folders = 0;
const stores: [string, () => Readable & Writable][] = [
  ["MemoryStore", () => new MemoryStore()],
  ["FsStore", () => new FsStore(`${sandbox.dir}/g${folders++}.zarr`, { fsync: false })],
];

/** root: a (group: b (group: deep array), x array), m array, z (empty group). */
async function sample(store: Readable & Writable, zarrFormat: 2 | 3): Promise<ZarrGroup> {
  const root = await createGroup(store, { zarrFormat });
  await root.createArray("m", { shape: [2], dtype: "int8" });
  await root.createGroup("z");
  await root.createArray("a/x", { shape: [3, 4], dtype: "float32" });
  await root.createArray("a/b/deep", { shape: [1], dtype: "uint16" });
  return root;
}

describe.each(stores)("group API on %s", (_, makeStore) => {
  describe.each([2, 3] as const)("v%s", (zarrFormat) => {
    it("size() counts the direct members only", async () => {
      const root = await sample(makeStore(), zarrFormat);
      expect(await root.size()).toBe(3);
      expect(await ((await root.get("a")) as ZarrGroup).size()).toBe(2);
      expect(await ((await root.get("z")) as ZarrGroup).size()).toBe(0);
      await root.createGroup("n");
      expect(await root.size()).toBe(4);
    });

    it("has() finds direct members and relative paths, not missing ones", async () => {
      const root = await sample(makeStore(), zarrFormat);
      for (const name of ["m", "z", "a", "a/x", "a/b", "a/b/deep", "", "/a/x"])
        expect(await root.has(name)).toBe(true);
      for (const name of ["q", "a/q", "q/x", "m/0", "a/b/deep/more"])
        expect(await root.has(name)).toBe(false);
      const a = (await root.get("a")) as ZarrGroup;
      expect(await a.has("b/deep")).toBe(true);
      expect(await a.has("m")).toBe(false);
    });

    it("iterates the direct members in name order, each opened", async () => {
      const root = await sample(makeStore(), zarrFormat);
      const seen: [string, string, string][] = [];
      for await (const [name, node] of root)
        seen.push([name, node instanceof ZarrArray ? "array" : "group", node.path]);
      expect(seen).toEqual([
        ["a", "group", "a"],
        ["m", "array", "m"],
        ["z", "group", "z"],
      ]);
      const inner: string[] = [];
      for await (const [name, node] of (await root.get("a")) as ZarrGroup) {
        inner.push(name);
        if (name === "x") expect((node as ZarrArray).shape).toEqual([3, 4]);
      }
      expect(inner).toEqual(["b", "x"]);
      for await (const _entry of (await root.get("z")) as ZarrGroup)
        throw new Error("an empty group has no members");
    });

    it("requireGroup() creates a missing group (and the groups on the way), opens an existing one", async () => {
      const store = makeStore();
      const root = await sample(store, zarrFormat);
      const made = await root.requireGroup("new/inner", { attributes: { v: 1 } });
      expect(made).toBeInstanceOf(ZarrGroup);
      expect(made.path).toBe("new/inner");
      expect(made.zarrFormat).toBe(zarrFormat);
      expect(await root.has("new")).toBe(true);
      const again = await root.requireGroup("new/inner", { attributes: { v: 2 } });
      expect(again.attrs).toEqual({ v: 1 });
      const reopened = await openGroup(store);
      expect(((await reopened.requireGroup("a")) as ZarrGroup).path).toBe("a");
      expect(await reopened.size()).toBe(4);
    });

    it("requireGroup() refuses an array with a ContainsArrayError naming it", async () => {
      const root = await sample(makeStore(), zarrFormat);
      const error = await root.requireGroup("a/x").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ContainsArrayError);
      expect((error as ContainsArrayError).path).toBe("a/x");
      expect((error as Error).message).toContain('"/a/x"');
    });

    it("requireArray() creates a missing array, opens a matching one", async () => {
      const root = await sample(makeStore(), zarrFormat);
      const made = await root.requireArray("a/b/fresh", { shape: [5], dtype: "int32" });
      expect(made.path).toBe("a/b/fresh");
      await made.set([null], new Int32Array([1, 2, 3, 4, 5]));
      const opened = await root.requireArray("a/b/fresh", { shape: [5], dtype: "int32" });
      expect(Array.from((await opened.get()).data)).toEqual([1, 2, 3, 4, 5]);
      // Another name of the same data type matches.
      const x = await root.requireArray("a/x", { shape: [3, 4], dtype: "<f4" });
      expect(x.dtype).toBe("float32");
      const created = await root.requireArray("brand/new", { shape: [2, 2], dtype: "float64" });
      expect(created.shape).toEqual([2, 2]);
      expect(await root.has("brand")).toBe(true);
    });

    it("requireArray() names what differs: the shape, the data type, a group there", async () => {
      const root = await sample(makeStore(), zarrFormat);
      const shape = await root
        .requireArray("a/x", { shape: [3, 5], dtype: "float32" })
        .catch((e: unknown) => e);
      expect(shape).toBeInstanceOf(ShapeMismatchError);
      expect(shape).toMatchObject({ path: "a/x", expected: [3, 5], actual: [3, 4] });
      expect((shape as Error).message).toContain("[3, 4]");
      const rank = await root
        .requireArray("a/x", { shape: [3], dtype: "float32" })
        .catch((e: unknown) => e);
      expect(rank).toBeInstanceOf(ShapeMismatchError);
      const dtype = await root
        .requireArray("a/x", { shape: [3, 4], dtype: "int32" })
        .catch((e: unknown) => e);
      expect(dtype).toBeInstanceOf(DataTypeMismatchError);
      expect(dtype).toMatchObject({ path: "a/x", expected: "int32", actual: "float32" });
      const group = await root
        .requireArray("a/b", { shape: [1], dtype: "int8" })
        .catch((e: unknown) => e);
      expect(group).toBeInstanceOf(ContainsGroupError);
      expect((group as ContainsGroupError).path).toBe("a/b");
    });

    it("visit() walks the subtree depth-first in name order with relative paths", async () => {
      const root = await sample(makeStore(), zarrFormat);
      const walked: string[] = [];
      const result = await root.visit((path, node) => {
        walked.push(`${path}:${node instanceof ZarrArray ? "array" : "group"}`);
      });
      expect(result).toBeUndefined();
      expect(walked).toEqual([
        "a:group",
        "a/b:group",
        "a/b/deep:array",
        "a/x:array",
        "m:array",
        "z:group",
      ]);
      const below: string[] = [];
      await ((await root.get("a")) as ZarrGroup).visit(async (path, node) => {
        below.push(`${path}=${node.path}`);
      });
      expect(below).toEqual(["b=a/b", "b/deep=a/b/deep", "x=a/x"]);
    });

    it("visit() stops at the first value other than undefined and returns it", async () => {
      const root = await sample(makeStore(), zarrFormat);
      const walked: string[] = [];
      const found = await root.visit((path, node) => {
        walked.push(path);
        return node instanceof ZarrArray ? node : undefined;
      });
      expect(found?.path).toBe("a/b/deep");
      expect(walked).toEqual(["a", "a/b", "a/b/deep"]);
      for (const falsy of [null, 0, false, ""]) {
        let calls = 0;
        const value = await root.visit(() => {
          calls++;
          return falsy;
        });
        expect(value).toBe(falsy);
        expect(calls).toBe(1);
      }
    });
  });
});

describe("visit() against a model of the hierarchy", () => {
  type Tree = { [name: string]: Tree | null };
  const names = fc.constantFrom("a", "b", "c", "B", "a0", "z_1");
  const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
    tree: fc.dictionary(names, fc.oneof({ maxDepth: 2 }, fc.constant(null), tie("tree")), {
      maxKeys: 3,
    }),
  })).tree;

  /** The paths in walk order: a node, then what is below it, names sorted as strings. */
  function model(node: Tree, base = ""): string[] {
    return Object.keys(node)
      .sort()
      .flatMap((name) => {
        const path = base === "" ? name : `${base}/${name}`;
        const child = node[name];
        return [child === null ? path : `${path}/`, ...(child ? model(child, path) : [])];
      });
  }

  it("visits every node once, in the model's order, and size/has agree", async () => {
    await fc.assert(
      fc.asyncProperty(tree, fc.constantFrom(2 as const, 3 as const), async (spec, format) => {
        const root = await createGroup(new MemoryStore(), { zarrFormat: format });
        const build = async (node: Tree, base: string) => {
          for (const [name, child] of Object.entries(node)) {
            const path = base === "" ? name : `${base}/${name}`;
            if (child === null) await root.createArray(path, { shape: [1], dtype: "int8" });
            else {
              await root.createGroup(path);
              await build(child, path);
            }
          }
        };
        await build(spec, "");
        const walked: string[] = [];
        await root.visit((path, node) => {
          walked.push(node instanceof ZarrGroup ? `${path}/` : path);
        });
        expect(walked).toEqual(model(spec));
        expect(await root.size()).toBe(Object.keys(spec).length);
        for (const path of model(spec)) expect(await root.has(path.replace(/\/$/, ""))).toBe(true);
        expect(await root.has("missing")).toBe(false);
      }),
      { numRuns: 40 },
    );
  });
});
