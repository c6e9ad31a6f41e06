import { cpSync, readFileSync } from "node:fs";
import path from "node:path";
import { consolidateMetadata, openConsolidated, openGroup, ZarrArray, ZarrGroup } from "@z/array";
import { type JsonObject, METADATA_KEYS } from "@z/metadata";
import { LoggingStore, type Readable, type Writable } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { MemoryStore } from "@z/store-memory";
import {
  expectedArrays,
  expectedValues,
  fixturePath,
  haveFixtures,
  scratchFolders,
  startTestHttpServer,
} from "@z/test-utils";
import { describe, expect, it } from "vitest";

/*
 * zarr-python 3 keeps a group's consolidated metadata inline in its zarr.json
 * (`"consolidated_metadata": {"kind": "inline", "must_understand": false, "metadata": {...}}`).
 * Reading: opening the group uses it first, and nothing it lists costs another metadata read,
 * from any store. Writing: consolidateMetadata writes exactly what zarr-python 3 wrote.
 */

const HAVE = haveFixtures("inline consolidated metadata (zarr-python 3)");
const scratch = scratchFolders("z-inline-consolidated-");
/** zarr-python 3.1's consolidated group with a nested group, in the zarrita fixtures. */
const FOLDER = HAVE ? fixturePath("zarrita", "v3", "data.zarr", "consolidated") : "";
const NODES = ["1d.chunked.i2", "2d.contiguous.i2", "nested", "nested/1d.i2"];

/** The values zarr-python 3.1.6 read from the fixture's arrays, by path below the group. */
function expectedByPath(): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const entry of expectedArrays()) {
    if (
      entry.storeRoot.endsWith(path.join("v3", "data.zarr")) &&
      entry.path.startsWith("consolidated/")
    )
      out.set(entry.path.slice("consolidated/".length), expectedValues(entry));
  }
  return out;
}

async function everyNode(group: ZarrGroup): Promise<Map<string, ZarrArray | ZarrGroup>> {
  const out = new Map<string, ZarrArray | ZarrGroup>();
  for (const [, node] of await group.members()) {
    if (node instanceof ZarrArray || node instanceof ZarrGroup) out.set(node.path, node);
    if (node instanceof ZarrGroup) for (const [p, n] of await everyNode(node)) out.set(p, n);
  }
  return out;
}

/** Opens, lists and reads the whole hierarchy; returns the metadata keys it read. */
async function readsOnlyTheRoot(store: Readable, root: string): Promise<string[]> {
  const logged = new LoggingStore(store);
  const group = await openConsolidated(logged, { path: root });
  expect(group.attrs).toEqual({ answer: 42 });
  const nodes = await everyNode(group);
  const relative = (p: string) => (root === "" ? p : p.slice(root.length + 1));
  expect([...nodes.keys()].map(relative).sort()).toEqual(NODES);
  expect((nodes.get(root === "" ? "nested" : `${root}/nested`) as ZarrGroup).attrs).toEqual({
    description: "A nested group",
  });
  const metadataReads = logged.requests
    .map((r) => r.key)
    .filter((key) => key.endsWith(METADATA_KEYS.zarrJson));
  const expected = expectedByPath();
  expect(expected.size).toBe(3);
  for (const [p, values] of expected) {
    const array = nodes.get(root === "" ? p : `${root}/${p}`) as ZarrArray;
    expect(Array.from((await array.get()).data as Int16Array)).toEqual(values);
  }
  return metadataReads;
}

/** The fixture's files (documents and chunks) in a MemoryStore. */
async function inMemory(): Promise<MemoryStore> {
  const store = new MemoryStore();
  const fs = new FsStore(FOLDER, { readOnly: true });
  for await (const key of fs.list()) await store.set(key, (await fs.get(key)) as Uint8Array);
  return store;
}

describe.skipIf(!HAVE)("reading zarr-python 3's inline consolidated metadata", () => {
  it("FsStore: one metadata read opens, lists and describes the hierarchy", async () => {
    const reads = await readsOnlyTheRoot(new FsStore(FOLDER, { readOnly: true }), "");
    expect(reads).toEqual(["zarr.json"]);
  });

  it("MemoryStore: the same", async () => {
    expect(await readsOnlyTheRoot(await inMemory(), "")).toEqual(["zarr.json"]);
  });

  it("HttpStore: the server sees one metadata request, then chunks only", async () => {
    const server = await startTestHttpServer({ root: path.dirname(FOLDER) });
    try {
      const reads = await readsOnlyTheRoot(new HttpStore(server.url), "consolidated");
      expect(reads).toEqual(["consolidated/zarr.json"]);
      const paths = server.requests.map((r) => r.path);
      expect(paths.filter((p) => p.endsWith("zarr.json"))).toEqual(["consolidated/zarr.json"]);
      expect(paths.slice(1).every((p) => /\/c(\/\d+)+$/.test(p))).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it("a nested group whose own zarr.json has none still lists from the root's", async () => {
    // zarr-python writes "consolidated_metadata": null in nested/zarr.json; the root's entry for it
    // is what the walk uses, so nested members come without reading nested/zarr.json.
    const own = JSON.parse(readFileSync(path.join(FOLDER, "nested", "zarr.json"), "utf8"));
    expect(own.consolidated_metadata).toBeNull();
    const logged = new LoggingStore(new FsStore(FOLDER, { readOnly: true }));
    const root = await openGroup(logged);
    const nested = (await root.get("nested")) as ZarrGroup;
    expect(await nested.childNames()).toEqual(["1d.i2"]);
    expect(logged.requests.map((r) => r.key)).toEqual(["zarr.json"]);
  });
});

/** The fixture with the consolidated metadata taken out of its root document. */
async function unconsolidated(store: Readable & Writable): Promise<JsonObject> {
  const doc = JSON.parse(readFileSync(path.join(FOLDER, "zarr.json"), "utf8"));
  const written = doc.consolidated_metadata;
  doc.consolidated_metadata = null;
  await store.set("zarr.json", new TextEncoder().encode(JSON.stringify(doc)));
  return written;
}

describe.skipIf(!HAVE)("consolidateMetadata writes what zarr-python 3 wrote", () => {
  for (const [what, make] of [
    [
      "FsStore",
      () => {
        const dir = path.join(scratch(), "c.zarr");
        cpSync(FOLDER, dir, { recursive: true });
        return new FsStore(dir);
      },
    ],
    ["MemoryStore", inMemory],
  ] as const) {
    it(`${what}: the inline consolidated_metadata equals zarr-python 3's, and opening uses it`, async () => {
      const store = await make();
      const theirs = await unconsolidated(store);
      await consolidateMetadata(store);
      const ours = JSON.parse(new TextDecoder().decode(await store.get("zarr.json")));
      expect(ours.consolidated_metadata).toEqual(theirs);
      expect(Object.keys(ours.consolidated_metadata)).toEqual([
        "kind",
        "must_understand",
        "metadata",
      ]);
      expect(Object.keys(ours.consolidated_metadata.metadata)).toEqual(NODES);
      expect(ours.attributes).toEqual({ answer: 42 });
      const logged = new LoggingStore(store);
      await (await openConsolidated(logged)).tree();
      expect(logged.requests.map((r) => r.key)).toEqual(["zarr.json"]);
    });
  }
});
