import { readFileSync } from "node:fs";
import {
  ConsolidatedMetadata,
  consolidateMetadata,
  createArray,
  createGroup,
  createHierarchy,
  open,
  openGroup,
  ZarrArray,
  ZarrGroup,
} from "@z/array";
import { MetadataError } from "@z/metadata";
import {
  LoggingStore,
  MapStore,
  NotFoundError,
  ReadOnlyError,
  ReadOnlyStore,
  UnsupportedOperationError,
} from "@z/store-core";
import { fixturePath, haveFixtures } from "@z/test-utils";
import { describe, expect, it } from "vitest";
import { decodeJsonText } from "./helpers.js";

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** A small hierarchy of each format: root attrs, a group with an array, an array at the top. */
async function sample(zarrFormat: 2 | 3) {
  const map = new Map<string, Uint8Array>();
  await createHierarchy(
    map,
    {
      "": { kind: "group", attributes: { title: "sample" } },
      "obs/temp": {
        kind: "array",
        shape: [6],
        chunks: [4],
        dtype: "float32",
        attributes: { units: "K" },
      },
      "obs/deep/flag": { kind: "array", shape: [3], chunks: [3], dtype: "bool" },
      counts: { kind: "array", shape: [2, 3], chunks: [2, 2], dtype: "int16", fillValue: -1 },
    },
    { zarrFormat },
  );
  const temp = await (await openGroup(map)).get("obs/temp");
  await (temp as ZarrArray).set(null, Float32Array.of(1, 2, 3, 4, 5, 6));
  return map;
}

function logged(map: Map<string, Uint8Array>) {
  return new LoggingStore(new MapStore(map));
}

describe("consolidated metadata: writing", () => {
  it("writes v3 inline consolidated_metadata as zarr-python does", async () => {
    const map = await sample(3);
    await consolidateMetadata(map);
    const root = decodeJsonText(map.get("zarr.json"));
    expect(root.attributes).toEqual({ title: "sample" });
    const consolidated = root.consolidated_metadata as Record<string, unknown>;
    expect(consolidated.kind).toBe("inline");
    expect(consolidated.must_understand).toBe(false);
    const metadata = consolidated.metadata as Record<string, Record<string, unknown>>;
    expect(Object.keys(metadata)).toEqual([
      "counts",
      "obs",
      "obs/deep",
      "obs/deep/flag",
      "obs/temp",
    ]);
    // Arrays are their own zarr.json documents, verbatim; groups say their children are listed flat.
    for (const path of ["counts", "obs/deep/flag", "obs/temp"])
      expect(metadata[path]).toEqual(decodeJsonText(map.get(`${path}/zarr.json`)));
    expect(metadata.obs).toEqual({
      ...decodeJsonText(map.get("obs/zarr.json")),
      consolidated_metadata: { kind: "inline", must_understand: false, metadata: {} },
    });
  });

  it("writes v2 .zmetadata with every metadata document, keys sorted, as zarr-python 2 does", async () => {
    const map = await sample(2);
    await consolidateMetadata(map);
    const text = new TextDecoder().decode(map.get(".zmetadata"));
    const doc = JSON.parse(text);
    expect(Object.keys(doc)).toEqual(["metadata", "zarr_consolidated_format"]);
    expect(doc.zarr_consolidated_format).toBe(1);
    const documents = [...map.keys()].filter((k) => /(^|\/)\.z(array|group|attrs)$/.test(k)).sort();
    expect(Object.keys(doc.metadata)).toEqual(documents);
    for (const key of documents) expect(doc.metadata[key]).toEqual(decodeJsonText(map.get(key)));
    expect(text).toBe(`${JSON.stringify(doc, null, 4)}`);
  });

  it("leaves out nodes of the other format and documents below arrays", async () => {
    const map = await sample(3);
    map.set("counts/stray/zarr.json", encode({ zarr_format: 3, node_type: "group" }));
    map.set("v2thing/.zgroup", encode({ zarr_format: 2 }));
    const group = await consolidateMetadata(map);
    expect(group.consolidated?.paths()).toEqual([
      "counts",
      "obs",
      "obs/deep",
      "obs/deep/flag",
      "obs/temp",
    ]);
  });

  it("refuses arrays, read-only stores, stores that cannot list, and malformed node documents", async () => {
    const map = await sample(3);
    await expect(consolidateMetadata(map, { path: "counts" })).rejects.toThrow(NotFoundError);
    await expect(consolidateMetadata(new ReadOnlyStore(new MapStore(map)))).rejects.toThrow(
      ReadOnlyError,
    );
    const getOnly = {
      get: (key: string) => Promise.resolve(map.get(key)),
      set: async () => {},
      delete: async () => {},
      deletePrefix: async () => {},
    };
    await expect(consolidateMetadata(getOnly)).rejects.toThrow(UnsupportedOperationError);
    map.set("obs/zarr.json", encode({ zarr_format: 3, node_type: "tree" }));
    await expect(consolidateMetadata(map)).rejects.toThrow(
      /\/obs\/zarr.json is not a v3 array or group document/,
    );
  });
});

describe("consolidated metadata: reading", () => {
  for (const zarrFormat of [2, 3] as const) {
    it(`v${zarrFormat}: opening and listing the whole hierarchy costs one read`, async () => {
      const map = await sample(zarrFormat);
      await consolidateMetadata(map);
      const store = logged(map);
      const root = await openGroup(store, { zarrFormat });
      const members = await root.members();
      expect(members.map(([name]) => name)).toEqual(["counts", "obs"]);
      expect((await root.arrays()).map(([n]) => n)).toEqual(["counts"]);
      const obs = (await root.groups())[0][1];
      expect(await obs.childNames()).toEqual(["deep", "temp"]);
      const temp = (await root.get("obs/temp")) as ZarrArray;
      expect(temp.attrs).toEqual({ units: "K" });
      expect((await obs.get("deep/flag")).toString()).toContain("/obs/deep/flag");
      const tree = await root.tree();
      expect(store.requests.map((r) => r.key)).toEqual([
        zarrFormat === 3 ? "zarr.json" : ".zmetadata",
      ]);
      // The same hierarchy listed from the store draws the same tree.
      expect(await (await openGroup(map, { consolidated: false })).tree()).toBe(tree);
      expect(Array.from((await temp.get()).data)).toEqual([1, 2, 3, 4, 5, 6]);
    });
  }

  it("v2 without zarrFormat: the zarr.json probe, then .zmetadata", async () => {
    const map = await sample(2);
    await consolidateMetadata(map);
    const store = logged(map);
    const root = await openGroup(store);
    await root.tree();
    expect(store.requests.map((r) => r.key)).toEqual(["zarr.json", ".zmetadata"]);
  });

  it("consolidated: false ignores it, true requires it", async () => {
    const map = await sample(3);
    const plain = await openGroup(map);
    expect(plain.consolidated).toBeUndefined();
    await expect(openGroup(map, { consolidated: true })).rejects.toThrow(
      /consolidated metadata.*consolidateMetadata/,
    );
    await consolidateMetadata(map);
    const store = logged(map);
    const ignoring = await openGroup(store, { consolidated: false });
    expect(ignoring.consolidated).toBeUndefined();
    await ignoring.members();
    expect(store.requests.some((r) => r.method === "listDir")).toBe(true);
    expect((await openGroup(map, { consolidated: true })).consolidated?.size).toBe(5);
  });

  it("opens a name the consolidated metadata does not list from the store", async () => {
    const map = await sample(3);
    await consolidateMetadata(map);
    // Written behind the consolidated metadata's back (by another writer).
    const other = new Map(map);
    await createArray(other, { path: "late", shape: [1], dtype: "uint8" });
    for (const [k, v] of other) if (k.startsWith("late/")) map.set(k, v);
    const root = await openGroup(map);
    expect(await root.childNames()).not.toContain("late");
    expect(await root.get("late")).toBeInstanceOf(ZarrArray);
  });

  it.skipIf(!haveFixtures("consolidated (zarr-metadata)"))(
    "reads zarr-python's consolidated metadata test documents",
    async () => {
      const fixture = (format: string, name: string) =>
        readFileSync(fixturePath("zarr-metadata", format, "consolidated", name));
      const v3 = new Map<string, Uint8Array>();
      v3.set(
        "zarr.json",
        encode({
          zarr_format: 3,
          node_type: "group",
          consolidated_metadata: JSON.parse(String(fixture("v3", "with_array_and_group.json"))),
        }),
      );
      const g3 = await openGroup(v3);
      expect(await g3.childNames()).toEqual(["child_array", "child_group"]);
      const child = (await g3.get("child_array")) as ZarrArray;
      expect(child.shape).toEqual([10]);
      expect(child.dtype).toBe("int32");
      expect(await g3.get("child_group")).toBeInstanceOf(ZarrGroup);

      const v2 = new Map<string, Uint8Array>([
        [".zmetadata", fixture("v2", "with_array_and_group.json")],
      ]);
      const store = logged(v2);
      const g2 = await openGroup(store, { zarrFormat: 2 });
      expect(g2.attrs).toEqual({ description: "root group attrs" });
      const data = (await g2.get("data")) as ZarrArray;
      expect(data.attrs).toEqual({ units: "meters" });
      expect(data.shape).toEqual([100]);
      expect(store.requests).toHaveLength(1);

      const minimal = new Map<string, Uint8Array>([
        [".zmetadata", fixture("v2", "minimal.json")],
        [".zgroup", encode({ zarr_format: 2 })],
      ]);
      expect(await (await openGroup(minimal)).childNames()).toEqual([]);
      const minimal3 = new Map([
        [
          "zarr.json",
          encode({
            zarr_format: 3,
            node_type: "group",
            consolidated_metadata: JSON.parse(String(fixture("v3", "minimal.json"))),
          }),
        ],
      ]);
      expect((await openGroup(minimal3)).consolidated?.size).toBe(0);
    },
  );

  it("reads nested (not flattened) consolidated groups too", async () => {
    const array = {
      zarr_format: 3,
      node_type: "array",
      shape: [2],
      data_type: "uint8",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
      chunk_key_encoding: { name: "default" },
      fill_value: 0,
      codecs: [{ name: "bytes" }],
    };
    const map = new Map([
      [
        "zarr.json",
        encode({
          zarr_format: 3,
          node_type: "group",
          consolidated_metadata: {
            kind: "inline",
            must_understand: false,
            metadata: {
              a: {
                zarr_format: 3,
                node_type: "group",
                consolidated_metadata: { kind: "inline", metadata: { x: array } },
              },
            },
          },
        }),
      ],
    ]);
    const root = await openGroup(map);
    expect(root.consolidated?.paths()).toEqual(["a", "a/x"]);
    expect(((await root.get("a/x")) as ZarrArray).shape).toEqual([2]);
  });
});

describe("consolidated metadata: kept up to date", () => {
  for (const zarrFormat of [2, 3] as const) {
    it(`v${zarrFormat}: createArray, createGroup and createHierarchy add what they create`, async () => {
      const map = await sample(zarrFormat);
      await consolidateMetadata(map);
      await createArray(map, { path: "new/deeper/x", shape: [4], dtype: "int8", zarrFormat });
      await createGroup(map, { path: "obs/extra", zarrFormat });
      const store = logged(map);
      const root = await openGroup(store, { zarrFormat });
      expect(root.consolidated?.paths()).toEqual([
        "counts",
        "new",
        "new/deeper",
        "new/deeper/x",
        "obs",
        "obs/deep",
        "obs/deep/flag",
        "obs/extra",
        "obs/temp",
      ]);
      expect(((await root.get("new/deeper/x")) as ZarrArray).dtype).toBe("int8");
      expect(store.requests).toHaveLength(1);
      // What the refreshed document lists is what a new consolidation finds.
      const again = await consolidateMetadata(map);
      expect(again.consolidated?.toJson()).toEqual(root.consolidated?.toJson());
    });
  }

  it("overwriting a subtree drops its old entries", async () => {
    const map = await sample(3);
    await consolidateMetadata(map);
    await createArray(map, { path: "obs", shape: [2], dtype: "uint8", overwrite: true });
    const root = await openGroup(map);
    expect(root.consolidated?.paths()).toEqual(["counts", "obs"]);
    expect((await root.get("obs")).constructor).toBe(ZarrArray);
  });

  it("a group opened with consolidated metadata lists what is created through it, without reads", async () => {
    const map = await sample(3);
    await consolidateMetadata(map);
    const root = await openGroup(map);
    const obs = (await root.get("obs")) as ZarrGroup;
    await obs.createGroup("more/levels");
    await root.createArray("top", { shape: [1], dtype: "uint8" });
    const store = logged(map);
    const watched = new ZarrGroup(store, obs.path, obs.metadata, {
      consolidated: obs.consolidated,
    });
    expect(await watched.childNames()).toEqual(["deep", "more", "temp"]);
    expect(await root.childNames()).toEqual(["counts", "obs", "top"]);
    expect(store.requests).toHaveLength(0);
  });

  for (const zarrFormat of [2, 3] as const) {
    it(`v${zarrFormat}: updating the root's attributes keeps its consolidated metadata`, async () => {
      const map = await sample(zarrFormat);
      await consolidateMetadata(map);
      const root = await openGroup(map);
      const updated = await root.updateAttributes({ more: 1 });
      expect(updated.consolidated?.size).toBe(5);
      const store = logged(map);
      const reopened = await openGroup(store, { zarrFormat });
      expect(reopened.attrs).toEqual({ title: "sample", more: 1 });
      expect(reopened.consolidated?.size).toBe(5);
      expect(store.requests).toHaveLength(1);
    });
  }

  it("is a snapshot: a resize after consolidation is not in it until consolidateMetadata runs again", async () => {
    const map = await sample(3);
    await consolidateMetadata(map);
    const counts = (await open(map, { path: "counts" })) as ZarrArray;
    await counts.resize([4, 3]);
    expect(((await (await openGroup(map)).get("counts")) as ZarrArray).shape).toEqual([2, 3]);
    expect(
      ((await (await openGroup(map, { consolidated: false })).get("counts")) as ZarrArray).shape,
    ).toEqual([4, 3]);
    await consolidateMetadata(map);
    expect(((await (await openGroup(map)).get("counts")) as ZarrArray).shape).toEqual([4, 3]);
  });
});

describe("consolidated metadata: malformed", () => {
  const group = (consolidated: unknown) =>
    new Map([
      [
        "zarr.json",
        encode({ zarr_format: 3, node_type: "group", consolidated_metadata: consolidated }),
      ],
    ]);
  const array = {
    zarr_format: 3,
    node_type: "array",
    shape: [2],
    data_type: "uint8",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
    chunk_key_encoding: { name: "default" },
    fill_value: 0,
    codecs: [{ name: "bytes" }],
  };
  const cases: [string, Map<string, Uint8Array>, RegExp][] = [
    ["not an object", group([1, 2]), /"consolidated_metadata" must be an object or null/],
    [
      "an unknown kind readers must understand",
      group({ kind: "remote", metadata: {} }),
      /unsupported kind "remote".*consolidated: false/,
    ],
    [
      "metadata not an object",
      group({ kind: "inline", must_understand: false, metadata: [] }),
      /"metadata" must be an object of node documents/,
    ],
    [
      "an entry that is not an object",
      group({ kind: "inline", metadata: { a: 3 } }),
      /metadata\["a"\] must be a JSON object/,
    ],
    [
      "an entry with a bad node_type",
      group({ kind: "inline", metadata: { a: { zarr_format: 3, node_type: "tree" } } }),
      /metadata\["a"\]: "node_type" must be "array" or "group", got "tree"/,
    ],
    [
      "an entry of another format",
      group({ kind: "inline", metadata: { a: { zarr_format: 2, node_type: "group" } } }),
      /"zarr_format" must be 3, got 2/,
    ],
    [
      "an entry path with '..'",
      group({ kind: "inline", metadata: { "a/../b": { zarr_format: 3, node_type: "group" } } }),
      /invalid node path "a\/..\/b"/,
    ],
    [
      "a node inside an array",
      group({
        kind: "inline",
        metadata: { a: array, "a/b": { zarr_format: 3, node_type: "group" } },
      }),
      /lists \/a\/b inside the array \/a/,
    ],
    ["v2: not JSON", new Map([[".zmetadata", new TextEncoder().encode("{nope")]]), /\/.zmetadata/],
    [
      "v2: an unknown consolidated format",
      new Map([[".zmetadata", encode({ zarr_consolidated_format: 2, metadata: {} })]]),
      /"zarr_consolidated_format" must be 1, got 2/,
    ],
    [
      "v2: metadata missing",
      new Map([[".zmetadata", encode({ zarr_consolidated_format: 1 })]]),
      /"metadata" must be an object of documents/,
    ],
    [
      "v2: a document that is not an object",
      new Map([
        [
          ".zmetadata",
          encode({
            zarr_consolidated_format: 1,
            metadata: { ".zgroup": { zarr_format: 2 }, "a/.zarray": "x" },
          }),
        ],
      ]),
      /metadata\["a\/.zarray"\] must be a JSON object/,
    ],
    [
      "v2: an array and a group at one path",
      new Map([
        [
          ".zmetadata",
          encode({
            zarr_consolidated_format: 1,
            metadata: {
              ".zgroup": { zarr_format: 2 },
              "a/.zarray": {},
              "a/.zgroup": { zarr_format: 2 },
            },
          }),
        ],
      ]),
      /"\/a" has both .zarray and .zgroup/,
    ],
  ];
  for (const [what, map, message] of cases) {
    it(`refuses ${what} with a MetadataError`, async () => {
      const error = await openGroup(map).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MetadataError);
      expect((error as Error).message).toMatch(message);
    });
  }

  it("ignores an unknown kind marked must_understand: false", async () => {
    const map = group({ kind: "remote", must_understand: false, metadata: {} });
    const root = await openGroup(map);
    expect(root.consolidated).toBeUndefined();
    expect(await root.childNames()).toEqual([]);
  });

  it("a malformed node entry fails only when that node is opened", async () => {
    const map = group({
      kind: "inline",
      metadata: { good: array, bad: { ...array, shape: "wide" } },
    });
    const root = await openGroup(map);
    expect(await root.childNames()).toEqual(["bad", "good"]);
    await expect(root.get("bad")).rejects.toThrow(/consolidated_metadata.metadata\["bad"\]/);
    expect(await root.tree()).toBe(
      [
        "/ (group, v3)",
        `├── bad (cannot open: MetadataError: ${await root.get("bad").catch((e: Error) => e.message)})`,
        "└── good (2,) uint8 chunks=(2,)",
      ].join("\n"),
    );
  });

  it("the structure checks run on a ConsolidatedMetadata built directly too", () => {
    expect(() =>
      ConsolidatedMetadata.fromV3({ kind: "inline", metadata: { "": array } }, "x"),
    ).toThrow(MetadataError);
    expect(ConsolidatedMetadata.fromV3(null, "x")).toBeUndefined();
  });
});
