import { AzureBlobStore } from "@z/store-azure";
import {
  type Azurite,
  runCli,
  scratchFolders,
  startAzurite,
  startS3rver,
  type TestS3Server,
} from "@z/test-utils";
import { createArray, createGroup, FsStore, openGroup } from "@z/zarr";
import { afterAll, beforeAll, expect, test } from "vitest";

/*
 * One hierarchy through every kind of store the CLI reaches: `zarr copy` local -> s3:// ->
 * az:// -> local, against a real S3 server (s3rver) and a real Azure emulator (Azurite), both
 * configured by the environment as users configure them. Every hop keeps every value, the
 * attributes and the sharded layout.
 */

const scratch = scratchFolders("z-cli-clouds-");
const environment: Record<string, string> = {};
const saved: Record<string, string | undefined> = {};
let s3: TestS3Server;
let azurite: Azurite;

beforeAll(async () => {
  [s3, azurite] = await Promise.all([startS3rver(), startAzurite()]);
  await s3.createBucket("hops");
  Object.assign(environment, {
    AWS_ENDPOINT_URL: s3.endpoint,
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    AWS_REGION: "us-east-1",
    AZURE_STORAGE_CONNECTION_STRING: azurite.connectionString,
  });
  for (const [name, value] of Object.entries(environment)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  await AzureBlobStore.fromUrl("az://hops").createContainer();
}, 120_000);

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await Promise.all([s3?.stop(), azurite?.stop()]);
});

const SHAPE = [9, 14];
/** Values with a pattern no two elements share, and one row left at the fill value. */
const gridValues = () =>
  Array.from({ length: SHAPE[0] * SHAPE[1] }, (_, i) =>
    Math.floor(i / 14) === 3 ? -2 : i * 0.25 - 7,
  );

/** A local v3 hierarchy: attributes on the root, a sharded zstd float32 array, a small int array. */
async function writeLocal(dir: string): Promise<void> {
  const store = new FsStore(dir);
  await createGroup(store, { attributes: { title: "three stores", hops: ["s3", "az"] } });
  const grid = await createArray(store, {
    path: "images/grid",
    shape: SHAPE,
    chunks: [3, 7],
    shards: [3, 14],
    dtype: "float32",
    fillValue: -2,
    compressors: [{ name: "zstd" }],
    attributes: { units: "K" },
  });
  await grid.set(null, { data: Float32Array.from(gridValues()), shape: SHAPE });
  const labels = await createArray(store, {
    path: "labels",
    shape: [7],
    chunks: [3],
    dtype: "uint8",
  });
  await labels.set(null, { data: Uint8Array.from([7, 6, 5, 4, 3, 2, 1]), shape: [7] });
}

/** `zarr get --json` of one array, parsed. */
async function values(location: string, path: string): Promise<unknown[]> {
  const result = await runCli("get", location, "--path", path, "--json");
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { values: unknown[] }).values;
}

test("zarr copy local -> s3:// -> az:// -> local keeps values, attributes and shards", async () => {
  const source = scratch();
  await writeLocal(source);
  const hops = [source, "s3://hops/one.zarr", "az://hops/two.zarr", `${scratch()}/back.zarr`];
  for (let i = 1; i < hops.length; i++) {
    const copied = await runCli("copy", hops[i - 1], hops[i]);
    expect(copied.code, `${hops[i - 1]} -> ${hops[i]}: ${copied.stderr}`).toBe(0);
    expect(copied.stderr).toMatch(/copied 4 nodes \(2 arrays, 2 groups\)/);
  }
  const expectedGrid = gridValues();
  for (const location of hops) {
    expect(await values(location, "images/grid")).toEqual(expectedGrid);
    expect(await values(location, "labels")).toEqual([7, 6, 5, 4, 3, 2, 1]);
  }
  const back = await openGroup(hops[3]);
  expect(back.attrs).toEqual({ title: "three stores", hops: ["s3", "az"] });
  const info = await runCli("info", hops[2], "--path", "images/grid", "--json");
  expect(info.code, info.stderr).toBe(0);
  expect(info.stdout).toContain("sharding_indexed");
  // Shards, not inner chunks, are the stored objects on Azure.
  const keys: string[] = [];
  for await (const key of AzureBlobStore.fromUrl("az://hops/two.zarr").list()) keys.push(key);
  expect(keys.filter((key) => key.startsWith("images/grid/c/")).sort()).toEqual([
    "images/grid/c/0/0",
    "images/grid/c/1/0",
    "images/grid/c/2/0",
  ]);
}, 120_000);
