import {
  ContainsArrayError,
  ContainsGroupError,
  consolidateMetadata,
  copyNode,
  createArray,
  createGroup,
  createHierarchy,
  type NodeSpec,
  open,
  openArray,
  openGroup,
  planNodeCopy,
  UnreadableNode,
  ZarrArray,
  type ZarrGroup,
} from "@z/array";
import { type JsonObject, MetadataError } from "@z/metadata";
import { isZarrError } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { havePython, runPython, tempDir } from "@z/test-utils";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

/** A hierarchy as plain data: every node's kind, attributes, shape, chunks and values by path. */
interface Snapshot {
  [path: string]: {
    kind: "array" | "group";
    attributes: JsonObject;
    shape?: number[];
    values?: number[];
  };
}

/** Reads a hierarchy through the public API, the reference a copy is compared with. */
async function snapshot(root: ZarrArray | ZarrGroup): Promise<Snapshot> {
  const out: Snapshot = {};
  const visit = async (node: ZarrArray | ZarrGroup, rel: string): Promise<void> => {
    if (node instanceof ZarrArray) {
      const { data } = await node.get();
      out[rel] = {
        kind: "array",
        attributes: node.attrs,
        shape: node.shape,
        values: Array.from(data as ArrayLike<number>),
      };
      return;
    }
    out[rel] = { kind: "group", attributes: node.attrs };
    for (const [name, child] of await node.members()) {
      if (child instanceof UnreadableNode) throw child.error;
      await visit(child, rel === "" ? name : `${rel}/${name}`);
    }
  };
  await visit(root, "");
  return out;
}

/** A random small hierarchy: node specs by path, each array with its values. */
const hierarchy = fc
  .uniqueArray(
    fc.record({
      path: fc
        .array(fc.constantFrom("a", "b", "c"), { minLength: 1, maxLength: 3 })
        .map((s) => s.join("/")),
      kind: fc.constantFrom("array", "group"),
      attributes: fc.dictionary(
        fc.constantFrom("units", "title", "n"),
        fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -9, max: 9 })),
        { maxKeys: 2 },
      ),
      shape: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 2 }),
      chunk: fc.integer({ min: 1, max: 3 }),
      dtype: fc.constantFrom("int16", "float64", "uint8"),
      seed: fc.integer({ min: 0, max: 100 }),
    }),
    { selector: (n) => n.path, maxLength: 5 },
  )
  // No node inside an array: a path whose proper prefix is an array is dropped.
  .map((nodes) =>
    nodes.filter((n) => !nodes.some((m) => m.kind === "array" && n.path.startsWith(`${m.path}/`))),
  );

type Spec = {
  path: string;
  kind: string;
  attributes: JsonObject;
  shape: number[];
  chunk: number;
  dtype: string;
  seed: number;
};

async function build(format: 2 | 3, nodes: Spec[]): Promise<Map<string, Uint8Array>> {
  const store = new Map<string, Uint8Array>();
  const specs: Record<string, NodeSpec> = {
    "": { kind: "group", attributes: { root: true } },
  };
  for (const n of nodes) {
    specs[n.path] =
      n.kind === "group"
        ? { kind: "group", attributes: n.attributes }
        : {
            kind: "array",
            shape: n.shape,
            chunks: n.shape.map(() => n.chunk),
            dtype: n.dtype,
            attributes: n.attributes,
          };
  }
  const created = await createHierarchy(store, specs, { zarrFormat: format });
  for (const n of nodes) {
    const array = created.get(n.path);
    if (!(array instanceof ZarrArray) || array.size === 0) continue;
    const data = Array.from({ length: array.size }, (_, i) => (i * 7 + n.seed) % 100);
    await array.set(null, { data, shape: array.shape });
  }
  return store;
}

describe("copyNode", () => {
  it("copies random hierarchies v2 -> v3 -> v2 (and v3 -> v2 -> v3) with equal values and attributes", async () => {
    await fc.assert(
      fc.asyncProperty(hierarchy, fc.constantFrom(2, 3), async (nodes, format) => {
        const source = await build(format as 2 | 3, nodes);
        const expected = await snapshot(await openGroup(source));
        const other = (5 - format) as 2 | 3;
        const middle = new Map<string, Uint8Array>();
        await copyNode(await openGroup(source), middle, { zarrFormat: other });
        const converted = await openGroup(middle);
        expect(converted.zarrFormat).toBe(other);
        expect(await snapshot(converted)).toEqual(expected);
        const back = new Map<string, Uint8Array>();
        await copyNode(converted, back, { zarrFormat: format as 2 | 3 });
        expect(await snapshot(await openGroup(back))).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it("keeps an array's metadata as it is within a format, stored chunks copied as bytes", async () => {
    const store = new Map<string, Uint8Array>();
    const source = await createArray(store, {
      path: "x",
      shape: [6],
      chunks: [4],
      dtype: "int32",
      attributes: { a: 1 },
      dimensionNames: ["t"],
    });
    await source.set(null, { data: Int32Array.of(1, 2, 3, 4, 5, 6), shape: [6] });
    const target = new Map<string, Uint8Array>();
    const ended: boolean[] = [];
    const copied = await copyNode(source, target, {
      onArrayEnd: (_, result) => ended.push(result.raw),
    });
    expect(ended).toEqual([true]);
    expect(copied.arrays.map((a) => a.path)).toEqual(["x"]);
    expect(target.get("x/zarr.json")).toEqual(store.get("x/zarr.json"));
    expect(target.get("x/c/0")).toEqual(store.get("x/c/0"));
    expect(target.get("x/c/1")).toEqual(store.get("x/c/1"));
  });

  it("recompresses and rechunks through arrayOptions, and puts the copy at another path", async () => {
    const store = new Map<string, Uint8Array>();
    const source = await createArray(store, {
      path: "x",
      shape: [10, 3],
      chunks: [5, 3],
      dtype: "uint16",
    });
    const data = Uint16Array.from({ length: 30 }, (_, i) => i * 3);
    await source.set(null, { data, shape: [10, 3] });
    const progress: number[] = [];
    await copyNode(source, store, {
      path: "copies/x",
      arrayOptions: (array) => ({
        shape: array.shape,
        dtype: array.dtype,
        chunks: [2, 2],
        compressors: [{ name: "gzip", configuration: { level: 1 } }],
      }),
      onProgress: (_, p) => progress.push(p.done),
    });
    const copy = await openArray(store, { path: "copies/x" });
    expect(copy.chunks).toEqual([2, 2]);
    expect(copy.metadata.codecs.map((c) => c.name)).toEqual(["bytes", "gzip"]);
    expect((await copy.get()).data).toEqual(data);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await openGroup(store, { path: "copies" })).zarrFormat).toBe(3);
  });

  it("gives arrayOptions that name no format the copy's format", async () => {
    const store = new Map<string, Uint8Array>();
    await createHierarchy(store, { "g/x": { kind: "array", shape: [4], dtype: "int8" } });
    const target = new Map<string, Uint8Array>();
    await copyNode(await openGroup(store), target, {
      zarrFormat: 2,
      arrayOptions: (array) => ({ shape: array.shape, dtype: array.dtype, chunks: [2] }),
    });
    const copy = await openArray(target, { path: "g/x" });
    expect([copy.zarrFormat, copy.chunks]).toEqual([2, [2]]);
    expect(target.has("g/.zgroup")).toBe(true);
  });

  it("copies sharded and rectilinear arrays, and a sharded one into v2", async () => {
    const store = new Map<string, Uint8Array>();
    const sharded = await createArray(store, {
      path: "s",
      shape: [8, 8],
      chunks: [2, 2],
      shards: [4, 4],
      dtype: "int16",
    });
    const values = Int16Array.from({ length: 64 }, (_, i) => i - 20);
    await sharded.set(null, { data: values, shape: [8, 8] });
    const rectilinear = await createArray(store, {
      path: "r",
      shape: [30, 8],
      chunks: [[10, 20], [[4, 2]]],
      dtype: "int16",
    });
    const rvalues = Int16Array.from({ length: 240 }, (_, i) => i);
    await rectilinear.set(null, { data: rvalues, shape: [30, 8] });

    const v3 = new Map<string, Uint8Array>();
    await copyNode(await openGroup(store), v3);
    expect((await openArray(v3, { path: "s" })).metadata).toEqual(sharded.metadata);
    expect((await (await openArray(v3, { path: "r" })).get()).data).toEqual(rvalues);
    expect((await openArray(v3, { path: "r" })).metadata.chunkGrid.name).toBe("rectilinear");

    const v2 = new Map<string, Uint8Array>();
    await copyNode(sharded, v2, { zarrFormat: 2 });
    const copy = await openArray(v2, { path: "s" });
    expect(copy.zarrFormat).toBe(2);
    expect(copy.chunks).toEqual([2, 2]);
    expect((await copy.get()).data).toEqual(values);
  });

  it("copies a group's direct members only with depth 1, with the attributes given", async () => {
    const store = new Map<string, Uint8Array>();
    await createHierarchy(store, {
      "": { kind: "group", attributes: { top: 1 } },
      "g/h/x": { kind: "array", shape: [2], dtype: "int8", attributes: { deep: true } },
      y: { kind: "array", shape: [2], dtype: "int8", attributes: { keep: 1, drop: 2 } },
    });
    const target = new Map<string, Uint8Array>();
    const copied = await copyNode(await openGroup(store), target, {
      depth: 1,
      attributes: (node) =>
        Object.fromEntries(Object.entries(node.attrs).filter(([key]) => key !== "drop")),
    });
    expect(copied.groups).toEqual(["", "g"]);
    const root = await openGroup(target);
    expect(await root.childNames()).toEqual(["g", "y"]);
    expect(await ((await root.get("g")) as ZarrGroup).childNames()).toEqual([]);
    expect(((await root.get("y")) as ZarrArray).attrs).toEqual({ keep: 1 });
    expect(root.attrs).toEqual({ top: 1 });
  });

  it("refuses a copy onto a node without overwrite, writing nothing", async () => {
    const source = new Map<string, Uint8Array>();
    await createHierarchy(source, { "sub/x": { kind: "array", shape: [3], dtype: "float32" } });
    const target = new Map<string, Uint8Array>();
    await createGroup(target, { path: "sub" });
    const before = new Map(target);
    const error = await copyNode(await openGroup(source, { path: "sub" }), target).catch((e) => e);
    expect(error).toBeInstanceOf(ContainsGroupError);
    expect(target).toEqual(before);
    const overwritten = await copyNode(await openGroup(source, { path: "sub" }), target, {
      overwrite: true,
    });
    expect(overwritten.arrays.map((a) => a.path)).toEqual(["sub/x"]);
  });

  it("refuses to overwrite its own source (or a group above it) in the same store", async () => {
    const store = new Map<string, Uint8Array>();
    const created = await createHierarchy(store, {
      "g/x": { kind: "array", shape: [3], dtype: "int8", fillValue: 7 },
    });
    const group = created.get("g") as ZarrGroup;
    const array = created.get("g/x") as ZarrArray;
    await array.set(null, 1);
    const before = new Map(store);
    for (const [source, path] of [
      [array, "g/x"],
      [array, "g"],
      [array, ""],
      [group, "g"],
    ] as const) {
      const error = await copyNode(source, store, { path, overwrite: true }).catch((e) => e);
      expect(error, `${source.path} onto /${path}`).toBeInstanceOf(
        path === "g/x" ? ContainsArrayError : ContainsGroupError,
      );
      expect(error.message).toContain(`a copy of /${source.path} cannot replace it`);
    }
    expect(store).toEqual(before);
    // Below its source is fine: the source is read as it was planned.
    await copyNode(group, store, { path: "g/inner" });
    expect(
      Array.from((await openArray(store, { path: "g/inner/x" }).then((a) => a.get())).data),
    ).toEqual([1, 1, 1]);
  });

  it("a failing arrayOptions stops the copy before anything is written", async () => {
    const source = new Map<string, Uint8Array>();
    await createHierarchy(source, {
      a: { kind: "array", shape: [3], dtype: "int8" },
      b: { kind: "array", shape: [3, 3], dtype: "int8" },
    });
    const options = {
      arrayOptions: (array: ZarrArray) => {
        if (array.ndim !== 1) throw new MetadataError(`/${array.path} is not 1-d`);
        return { shape: array.shape, dtype: array.dtype };
      },
    };
    const target = new Map<string, Uint8Array>();
    await expect(planNodeCopy(await openGroup(source), options)).rejects.toThrow("/b is not 1-d");
    await expect(copyNode(await openGroup(source), target, options)).rejects.toSatisfy(
      (e: unknown) => isZarrError(e),
    );
    expect(target.size).toBe(0);
  });
});

describe("copyNode keeps consolidated metadata", () => {
  it("writes consolidated metadata for a copied group whose source held some (v3 and v2)", async () => {
    for (const format of [2, 3] as const) {
      const source = new Map<string, Uint8Array>();
      await createHierarchy(
        source,
        {
          "sub/x": { kind: "array", shape: [3], dtype: "float32" },
          "sub/g": { kind: "group", attributes: { k: "v" } },
        },
        { zarrFormat: format },
      );
      await consolidateMetadata(source, { path: "sub" });
      const target = new Map<string, Uint8Array>();
      const copied = await copyNode(await openGroup(source, { path: "sub" }), target, {
        path: "copy",
      });
      expect(copied.consolidated).toEqual(["copy"]);
      const group = await openGroup(target, { path: "copy", consolidated: true });
      expect(group.consolidated?.paths()).toEqual(["g", "x"]);
    }
  });

  it("adds the copies to the consolidated metadata of a destination ancestor", async () => {
    const source = new Map<string, Uint8Array>();
    await createHierarchy(source, { "x/y": { kind: "array", shape: [2], dtype: "uint8" } });
    const target = new Map<string, Uint8Array>();
    await createGroup(target, { attributes: { t: 1 } });
    await consolidateMetadata(target);
    await copyNode(await openGroup(source, { path: "x" }), target, { path: "deep/x" });
    const root = await openGroup(target, { consolidated: true });
    expect(root.consolidated?.paths()).toEqual(["deep", "deep/x", "deep/x/y"]);
    expect(root.attrs).toEqual({ t: 1 });
    const opened = await open(target, { path: "deep/x/y" });
    expect(opened).toBeInstanceOf(ZarrArray);
  });
});

const suite = "zarr-python 2 reads a hierarchy copied into v2";
describe.skipIf(!havePython(suite))(suite, () => {
  const { dir, remove } = tempDir("z-copy-node-");
  afterAll(remove);

  it("reads the values and attributes of a v3 hierarchy copied into v2", async () => {
    const source = new Map<string, Uint8Array>();
    const created = await createHierarchy(source, {
      "": { kind: "group", attributes: { title: "survey" } },
      "raw/t": {
        kind: "array",
        shape: [6, 4],
        chunks: [2, 4],
        shards: [4, 4],
        dtype: "int32",
        attributes: { units: "K" },
      },
    });
    const t = created.get("raw/t") as ZarrArray;
    await t.set(null, { data: Int32Array.from({ length: 24 }, (_, i) => i * i), shape: [6, 4] });
    await consolidateMetadata(source);
    await copyNode(await openGroup(source), new FsStore(dir), { zarrFormat: 2 });
    const read = runPython(
      `
import json, sys, zarr
root = zarr.open_consolidated(sys.argv[1] if len(sys.argv) > 1 else ${JSON.stringify(dir)}, mode="r")
t = root["raw/t"]
print(json.dumps({"title": root.attrs["title"], "units": t.attrs["units"], "chunks": list(t.chunks), "values": t[:].ravel().tolist()}))
`,
    );
    expect(JSON.parse(read)).toEqual({
      title: "survey",
      units: "K",
      chunks: [2, 4],
      values: Array.from({ length: 24 }, (_, i) => i * i),
    });
  });
});
