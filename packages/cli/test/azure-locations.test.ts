import { AzureBlobStore } from "@z/store-azure";
import { type Azurite, runCli, scratchFolders, startAzurite } from "@z/test-utils";
import { createArray, createGroup, FsStore, openGroup, slice } from "@z/zarr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * az:// locations end to end against a real Azurite: a sharded v3 hierarchy written through
 * `az://`, read back by `zarr get`, and `zarr copy` local -> az:// -> local with equal values.
 * Credentials come from AZURE_STORAGE_CONNECTION_STRING, as users set them.
 */

const scratch = scratchFolders("z-cli-azure-");
let azurite: Azurite;
let savedConnection: string | undefined;

beforeAll(async () => {
  azurite = await startAzurite();
  savedConnection = process.env.AZURE_STORAGE_CONNECTION_STRING;
  process.env.AZURE_STORAGE_CONNECTION_STRING = azurite.connectionString;
  await AzureBlobStore.fromUrl("az://e2e").createContainer();
});
afterAll(async () => {
  if (savedConnection === undefined) delete process.env.AZURE_STORAGE_CONNECTION_STRING;
  else process.env.AZURE_STORAGE_CONNECTION_STRING = savedConnection;
  await azurite.stop();
});

const SHAPE = [10, 12];
/** The reference values, C order; elements (1, *) stay at the fill value. */
const expectedValues = () =>
  Array.from({ length: SHAPE[0] * SHAPE[1] }, (_, k) => (Math.floor(k / 12) === 1 ? -1 : k * 0.5));

/** Writes the test hierarchy (a group with a sharded float32 array and an int16 array). */
async function writeHierarchy(location: string | FsStore): Promise<void> {
  await createGroup(location, { attributes: { title: "azure e2e" } });
  const grid = await createArray(location, {
    path: "grid",
    shape: SHAPE,
    shards: [4, 6],
    chunks: [2, 3],
    dtype: "float32",
    fillValue: -1,
    compressors: [{ name: "zstd" }],
  });
  const values = new Float32Array(expectedValues());
  await grid.set([slice(0, 1), null], { data: values.subarray(0, 12), shape: [1, 12] });
  await grid.set([slice(2, 10), null], { data: values.subarray(24), shape: [8, 12] });
  const counts = await createArray(location, {
    path: "sub/counts",
    shape: [5],
    chunks: [2],
    dtype: "int16",
  });
  await counts.set(null, { data: new Int16Array([1, -2, 3, -4, 5]), shape: [5] });
}

/** `zarr get --json` of an array, parsed. */
async function zarrGet(location: string, path: string) {
  const result = await runCli("get", location, "--path", path, "--json");
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as { shape: number[]; values: unknown[]; dtype: unknown };
}

describe("az:// locations with Azurite", () => {
  it("a sharded hierarchy written through az:// reads back with zarr get", async () => {
    await writeHierarchy("az://e2e/written.zarr");
    const keys: string[] = [];
    for await (const key of AzureBlobStore.fromUrl("az://e2e/written.zarr").list()) keys.push(key);
    expect(keys).toContain("grid/c/0/0");
    expect(keys).not.toContain("grid/c/0/0/0"); // shards, not chunks, are the stored objects
    const grid = await zarrGet("az://e2e/written.zarr", "grid");
    expect(grid.shape).toEqual(SHAPE);
    expect(grid.values).toEqual(expectedValues());
    expect((await zarrGet("az://e2e/written.zarr", "sub/counts")).values).toEqual([
      1, -2, 3, -4, 5,
    ]);
    const group = await openGroup("az://e2e/written.zarr");
    expect(group.attrs).toEqual({ title: "azure e2e" });
  });

  it("zarr copy local -> az:// -> local keeps every value", async () => {
    const source = `${scratch()}/source.zarr`;
    await writeHierarchy(new FsStore(source));
    const there = await runCli("copy", source, "az://e2e/copied.zarr");
    expect(there.code).toBe(0);
    expect(there.stderr).toMatch(/copied 4 nodes \(2 arrays, 2 groups\)/);
    const back = `${scratch()}/back.zarr`;
    const home = await runCli("copy", "az://e2e/copied.zarr", back);
    expect(home.code).toBe(0);
    expect(home.stderr).toMatch(/copied 4 nodes/);
    for (const path of ["grid", "sub/counts"]) {
      const original = await zarrGet(source, path);
      expect(await zarrGet("az://e2e/copied.zarr", path)).toEqual(original);
      expect(await zarrGet(back, path)).toEqual(original);
    }
    expect((await zarrGet(back, "grid")).values).toEqual(expectedValues());
    const tree = await runCli("tree", "az://e2e/copied.zarr");
    expect(tree.code).toBe(0);
    expect(tree.stdout).toMatch(/counts/);
  });

  it("a missing container is an error that names it, not a local folder", async () => {
    const source = `${scratch()}/small.zarr`;
    await createGroup(new FsStore(source));
    const result = await runCli("copy", source, "az://no-such-container/x.zarr");
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/ContainerNotFound|404/);
  });
});
