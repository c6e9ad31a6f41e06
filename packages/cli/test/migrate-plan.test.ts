import { cpSync, rmSync } from "node:fs";
import path from "node:path";
import {
  fixturePath,
  haveFixtures,
  runCli,
  scratchFolders,
  startTestHttpServer,
} from "@z/test-utils";
import {
  createArray,
  createGroup,
  FsStore,
  isZarrError,
  type Listable,
  MemoryStore,
  openArray,
  openGroup,
  type Readable,
  slice,
  type Writable,
} from "@z/zarr";
import { describe, expect, it } from "vitest";
import { applyMigration, planMigration } from "../src/migrate/migration-plan.js";

const scratch = scratchFolders("z-cli-migrate-plan-");
type FullStore = Readable & Writable & Listable;

/** A v2 hierarchy written by us: a group with attributes, an int16 array (order F) and a subgroup's float32 array. */
async function v2Hierarchy(store: FullStore) {
  await createGroup(store, { zarrFormat: 2, attributes: { title: "t" } });
  const a = await createArray(store, {
    path: "a",
    shape: [3, 4],
    chunks: [2, 3],
    dtype: "<i2",
    zarrFormat: 2,
    order: "F",
  });
  await a.set([null, null], {
    data: Int16Array.from({ length: 12 }, (_, i) => i - 5),
    shape: [3, 4],
  });
  const b = await createArray(store, {
    path: "g/b",
    shape: [5],
    chunks: [2],
    dtype: ">f4",
    zarrFormat: 2,
    fillValue: 1.5,
    attributes: { u: "K" },
  });
  await b.set([slice(0, 3)], { data: Float32Array.of(0.5, 1, 2), shape: [3] });
}

async function keysOf(store: FullStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.listPrefix("")) keys.push(key);
  return keys.sort();
}

const stores: [string, () => FullStore][] = [
  ["MemoryStore", () => new MemoryStore()],
  ["FsStore", () => new FsStore(scratch())],
];

for (const [name, makeStore] of stores) {
  describe(`planMigration and applyMigration on a ${name}`, () => {
    it("plans every node before writing, then writes zarr.json children first; values read back as v3", async () => {
      const store = makeStore();
      await v2Hierarchy(store);
      const before = await keysOf(store);
      const plan = await planMigration(store);
      expect(await keysOf(store)).toEqual(before);
      expect(plan.documents.map((d) => d.key)).toEqual([
        "g/b/zarr.json",
        "g/zarr.json",
        "a/zarr.json",
        "zarr.json",
      ]);
      expect(plan.removals).toEqual([]);
      await applyMigration(store, plan);
      const after = await keysOf(store);
      expect(after).toEqual([...before, ...plan.documents.map((d) => d.key)].sort());
      const a = await openArray(store, { path: "a" });
      expect(a.zarrFormat).toBe(3);
      expect(Array.from((await a.get()).data as Int16Array)).toEqual(
        // C order of the values written (the F order is the chunks' layout, not the values').
        Array.from({ length: 12 }, (_, i) => i - 5),
      );
      const b = await openArray(store, { path: "g/b" });
      expect([b.zarrFormat, b.attrs, Array.from((await b.get()).data as Float32Array)]).toEqual([
        3,
        { u: "K" },
        [0.5, 1, 2, 1.5, 1.5],
      ]);
      expect((await openGroup(store)).attrs).toEqual({ title: "t" });
    });

    it("removes the v2 documents when asked, only after writing", async () => {
      const store = makeStore();
      await v2Hierarchy(store);
      const plan = await planMigration(store, { removeV2Metadata: true });
      expect(plan.removals.sort()).toEqual(
        [".zattrs", ".zgroup", "a/.zarray", "g/.zgroup", "g/b/.zarray", "g/b/.zattrs"].sort(),
      );
      await applyMigration(store, plan);
      expect((await keysOf(store)).filter((k) => /\.z(array|group|attrs)$/.test(k))).toEqual([]);
      expect((await openArray(store, { path: "g/b" })).attrs).toEqual({ u: "K" });
    });

    it("takes back what it wrote when a write fails, restoring a replaced zarr.json", async () => {
      const store = makeStore();
      await v2Hierarchy(store);
      await applyMigration(store, await planMigration(store));
      const rootBefore = await store.get("zarr.json");
      const plan = await planMigration(store, { overwrite: true, removeV2Metadata: true });
      const before = await keysOf(store);
      let writes = 0;
      const failing = Object.create(store) as FullStore;
      failing.set = async (key, value, options) => {
        if (++writes === 3) throw new Error("disk full");
        return store.set(key, value, options);
      };
      await expect(applyMigration(failing, plan)).rejects.toThrow("disk full");
      expect(await keysOf(store)).toEqual(before);
      expect(await store.get("zarr.json")).toEqual(rootBefore);
      // Written again without --overwrite: the zarr.json documents already there stop it.
      const error = await planMigration(store).catch((e) => e);
      expect(isZarrError(error, "MigrationError")).toBe(true);
      expect(error.message).toMatch(
        /^Cannot migrate \/ to Zarr v3: zarr.json already exists \(pass --overwrite to replace it\)$/,
      );
    });
  });
}

describe("zarr migrate on a location it cannot migrate", () => {
  it("an HTTP location cannot be listed (exit 2), a v3 hierarchy is not v2 (exit 1)", async () => {
    const dir = scratch();
    await createGroup(new FsStore(dir), { attributes: {} });
    const server = await startTestHttpServer({ root: dir });
    try {
      const http = await runCli("migrate", server.url, "--dry-run");
      expect(http.code).toBe(2);
      expect(http.stderr).toMatch(
        /Cannot migrate http:\/\/127\.0\.0\.1:\d+\/: its keys cannot be listed/,
      );
    } finally {
      await server.stop();
    }
    const v3 = await runCli("migrate", dir);
    expect(v3.code).toBe(1);
    expect(v3.stderr).toMatch(
      /MigrationError: Cannot migrate \/ to Zarr v3: it is already a Zarr v3 hierarchy/,
    );
  });
});

const present = haveFixtures("zarr migrate on zarrs's v2 arrays");

describe.skipIf(!present)("zarr migrate on the v2 arrays zarrs migrated", () => {
  const root = () => fixturePath("external", "zarrs-head", "zarrs", "tests", "data", "v3");
  const names = [
    "array_blosc",
    "array_blosc_transpose",
    "array_bz2",
    "array_gzip",
    "array_none",
    "array_none_transpose",
    "array_zfpy",
    "array_zstd",
  ];
  it("reads back the values the v2 array holds (blosc, bz2, gzip, zstd, zfpy, transpose)", async () => {
    for (const name of names) {
      const source = path.join(scratch(), "source");
      cpSync(path.join(root(), `${name}.zarr`), source, { recursive: true });
      // The v2 array alone: zarrs's own zarr.json goes.
      rmSync(path.join(source, "zarr.json"));
      const migrated = path.join(scratch(), "migrated");
      cpSync(source, migrated, { recursive: true });
      const result = await runCli("migrate", migrated);
      expect([name, result.code, result.stderr]).toEqual([
        name,
        0,
        expect.stringMatching(/^migrated 1 node/),
      ]);
      const compared = await runCli("compare", source, migrated);
      expect([name, compared.stdout]).toEqual([
        name,
        expect.stringMatching(/are equal \(1 array, 0 groups compared\)\n$/),
      ]);
      expect((await openArray(new FsStore(migrated))).zarrFormat).toBe(3);
    }
  });
});
