import { execFileSync } from "node:child_process";
import { fixturePath, haveFixtures, havePython, SYSTEM_PYTHON, tempDir } from "@z/test-utils";
import {
  consolidateMetadata,
  createHierarchy,
  FsStore,
  LoggingStore,
  openArray,
  openGroup,
  slice,
  ZarrArray,
  ZarrGroup,
} from "@z/zarr";
import { afterEach, describe, expect, it } from "vitest";
import * as zarrita from "zarrita";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

const flat = (chunk: { data: ArrayLike<unknown> }) =>
  Array.from(chunk.data, (v) => (typeof v === "bigint" ? Number(v) : v));

/** Every node below a group, depth first, as `path:kind`. */
async function listAll(group: ZarrGroup): Promise<string[]> {
  const out: string[] = [];
  for (const [, node] of await group.members()) {
    out.push(`${node.path}:${node instanceof ZarrArray ? "array" : "group"}`);
    if (node instanceof ZarrGroup) out.push(...(await listAll(node)));
  }
  return out;
}

describe("zarr-python's consolidated hierarchies open and list with one metadata read", () => {
  it.skipIf(!haveFixtures("consolidated fixtures"))(
    "v3: zarrita/v3/data.zarr/consolidated (inline consolidated_metadata)",
    async () => {
      const location = fixturePath("zarrita", "v3", "data.zarr", "consolidated");
      const store = new LoggingStore(new FsStore(location, { readOnly: true }));
      const root = await openGroup(store);
      const nodes = await listAll(root);
      const tree = await root.tree();
      const nested = (await root.get("nested")) as ZarrGroup;
      const deep = (await root.get("nested/1d.i2")) as ZarrArray;
      expect(store.requests.map((r) => `${r.method} ${r.key}`)).toEqual(["get zarr.json"]);
      expect(root.attrs).toEqual({ answer: 42 });
      expect(nested.attrs).toEqual({ description: "A nested group" });
      expect(nodes).toEqual([
        "1d.chunked.i2:array",
        "2d.contiguous.i2:array",
        "nested:group",
        "nested/1d.i2:array",
      ]);
      const listed = await openGroup(new FsStore(location, { readOnly: true }), {
        consolidated: false,
      });
      expect(await listAll(listed)).toEqual(nodes);
      expect(await listed.tree()).toBe(tree);
      // Chunk reads are all that follows.
      store.clear();
      expect(flat(await deep.get())).toEqual(
        flat(
          await openArray(new FsStore(location, { readOnly: true }), { path: "nested/1d.i2" }).then(
            (a) => a.get(),
          ),
        ),
      );
      expect(store.requests.every((r) => r.key.includes("/c/"))).toBe(true);
    },
  );

  it.skipIf(!haveFixtures("consolidated fixtures"))(
    "v2: zarrita/v2/data.zarr (.zmetadata)",
    async () => {
      const location = fixturePath("zarrita", "v2", "data.zarr");
      const store = new LoggingStore(new FsStore(location, { readOnly: true }));
      const root = await openGroup(store, { zarrFormat: 2 });
      const names = await root.childNames();
      const nodes = await listAll(root);
      const tree = await root.tree();
      expect(store.requests.map((r) => `${r.method} ${r.key}`)).toEqual(["get .zmetadata"]);
      expect(names).toHaveLength(33); // 32 arrays and a group, as the fixtures README says
      expect(nodes).toContain("my group with spaces:group");
      expect(root.attrs).toEqual({ answer: 42 });
      const listed = await openGroup(new FsStore(location, { readOnly: true }), {
        consolidated: false,
      });
      expect(await listAll(listed)).toEqual(nodes);
      expect(await listed.tree()).toBe(tree);
      const viaConsolidated = (await root.get("3d.chunked.mixed.i2.F")) as ZarrArray;
      const direct = await openArray(new FsStore(location, { readOnly: true }), {
        path: "3d.chunked.mixed.i2.F",
      });
      expect(flat(await viaConsolidated.get([slice(null, null, -1), 1]))).toEqual(
        flat(await direct.get([slice(null, null, -1), 1])),
      );
      // Without the format: the zarr.json probe, then .zmetadata; still nothing per node.
      const auto = new LoggingStore(new FsStore(location, { readOnly: true }));
      await (await openGroup(auto)).tree();
      expect(auto.requests.map((r) => r.key)).toEqual(["zarr.json", ".zmetadata"]);
    },
  );
});

/** zarrita reads from `get(absolutePath)`; this one serves a Map and remembers what reached it. */
function zarritaStore(map: Map<string, Uint8Array>) {
  const seen: string[] = [];
  return {
    seen,
    get: async (key: string) => {
      seen.push(key);
      return map.get(key.replace(/^\//, ""));
    },
  };
}

async function ourHierarchy(zarrFormat: 2 | 3) {
  const map = new Map<string, Uint8Array>();
  await createHierarchy(
    map,
    {
      "": { kind: "group", attributes: { title: "ours" } },
      "a/temps": {
        kind: "array",
        shape: [4, 5],
        chunks: [2, 2],
        dtype: "float32",
        attributes: { units: "K" },
      },
      "a/b/counts": {
        kind: "array",
        shape: [7],
        chunks: [3],
        dtype: "int32",
        compressors: [{ name: "gzip", configuration: { level: 1 } }],
      },
      c: { kind: "group", attributes: { empty: true } },
    },
    { zarrFormat },
  );
  const root = await openGroup(map);
  await ((await root.get("a/temps")) as ZarrArray).set(
    null,
    Float32Array.from({ length: 20 }, (_, i) => i / 4),
  );
  await ((await root.get("a/b/counts")) as ZarrArray).set(
    null,
    Int32Array.of(5, -4, 3, -2, 1, 0, 9),
  );
  await consolidateMetadata(map);
  return map;
}

describe("ours, written consolidated, are read by zarrita's consolidated reader", () => {
  for (const zarrFormat of [2, 3] as const) {
    it(`v${zarrFormat}`, async () => {
      const map = await ourHierarchy(zarrFormat);
      const store = zarritaStore(map);
      const consolidated = await zarrita.withConsolidatedMetadata(store, {
        format: zarrFormat === 3 ? "v3" : "v2",
      });
      const contents = consolidated
        .contents()
        .map((c) => `${c.path}:${c.kind}`)
        .sort();
      expect(contents).toEqual([
        "/:group",
        "/a/b/counts:array",
        "/a/b:group",
        "/a/temps:array",
        "/a:group",
        "/c:group",
      ]);
      const open = zarrFormat === 3 ? zarrita.open.v3 : zarrita.open.v2;
      const rootGroup = await open(zarrita.root(consolidated), { kind: "group" });
      expect(rootGroup.attrs).toEqual({ title: "ours" });
      for (const path of ["a/temps", "a/b/counts"]) {
        const theirs = await open(zarrita.root(consolidated).resolve(path), { kind: "array" });
        const mine = await openArray(map, { path });
        expect(Array.from((await zarrita.get(theirs)).data as ArrayLike<number>)).toEqual(
          flat(await mine.get()),
        );
        expect(theirs.attrs).toEqual(mine.attrs);
      }
      // Only the consolidated document and chunks reached the store: no per-node metadata.
      const metadataReads = store.seen.filter((key) =>
        /(zarr\.json|\.zarray|\.zgroup|\.zmetadata)$/.test(key),
      );
      expect(metadataReads).toEqual([zarrFormat === 3 ? "/zarr.json" : "/.zmetadata"]);
    });
  }
});

describe("zarr-python 2 and our v2 consolidated metadata", () => {
  it.skipIf(!havePython("consolidated v2 with zarr-python 2"))(
    "zarr.open_consolidated reads ours; we read what zarr.consolidate_metadata wrote",
    async () => {
      const { dir, remove } = tempDir("z-consolidated-");
      cleanups.push(remove);
      const ours = await ourHierarchy(2);
      const store = new FsStore(`${dir}/ours.zarr`);
      for (const [key, value] of ours) await store.set(key, value);
      const script = `
import json, sys, zarr
g = zarr.open_consolidated(sys.argv[1] + "/ours.zarr", mode="r")
out = {"attrs": dict(g.attrs), "temps": g["a/temps"][...].ravel().tolist(), "counts": g["a/b/counts"][...].tolist(),
       "units": g["a/temps"].attrs["units"], "groups": sorted(k for k, _ in g.groups()), "c": dict(g["c"].attrs)}
# and a hierarchy of its own, consolidated by zarr-python 2
root = zarr.open_group(sys.argv[1] + "/theirs.zarr", mode="w")
root.attrs["by"] = "zarr-python"
x = root.create_dataset("g1/x", data=list(range(10)), chunks=(4,), dtype="i2")
root.create_group("g2/deeper")
zarr.consolidate_metadata(root.store)
print(json.dumps(out))
`;
      const out = JSON.parse(
        execFileSync(SYSTEM_PYTHON, ["-c", script, dir], { encoding: "utf8" }),
      );
      expect(out).toEqual({
        attrs: { title: "ours" },
        temps: Array.from({ length: 20 }, (_, i) => i / 4),
        counts: [5, -4, 3, -2, 1, 0, 9],
        units: "K",
        groups: ["a", "c"],
        c: { empty: true },
      });
      const logged = new LoggingStore(new FsStore(`${dir}/theirs.zarr`, { readOnly: true }));
      const theirs = await openGroup(logged, { zarrFormat: 2 });
      expect(await listAll(theirs)).toEqual([
        "g1:group",
        "g1/x:array",
        "g2:group",
        "g2/deeper:group",
      ]);
      expect(theirs.attrs).toEqual({ by: "zarr-python" });
      expect(logged.requests.map((r) => r.key)).toEqual([".zmetadata"]);
      expect(flat(await ((await theirs.get("g1/x")) as ZarrArray).get())).toEqual(
        Array.from({ length: 10 }, (_, i) => i),
      );
    },
  );
});
