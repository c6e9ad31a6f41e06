import {
  radosgwMissing,
  runCli,
  scratchFolders,
  startRadosgw,
  startS3rver,
  type TestS3Server,
} from "@z/test-utils";
import { createArray, createGroup, FsStore, open, openArray, slice, ZarrArray } from "@z/zarr";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/*
 * End to end through s3:// locations, configured by the environment as users configure them:
 * a sharded v3 hierarchy is copied local -> s3:// -> local with `zarr copy`, read with
 * `zarr get`, `zarr info` and `zarr tree`, and opened with `open("s3://…")`.
 */

const scratch = scratchFolders("z-cli-s3-");
const SHAPE = [12, 10];
const values = Array.from({ length: 120 }, (_, i) => (i % 7 === 0 ? -1 : i * 1.5));

/** A local v3 hierarchy: a group, a sharded float64 array with some empty chunks, a v3 int array. */
async function writeSource(dir: string): Promise<void> {
  const store = new FsStore(dir);
  await createGroup(store, { attributes: { title: "s3 e2e" } });
  const grid = await createArray(store, {
    path: "g/grid",
    shape: SHAPE,
    chunks: [2, 5],
    shards: [4, 10],
    dtype: "float64",
    fillValue: -1,
  });
  await grid.set([null, null], { data: Float64Array.from(values), shape: SHAPE });
  await grid.set([slice(4, 8), null], -1); // a whole shard of fill values: not stored
  const small = await createArray(store, {
    path: "counts",
    shape: [5],
    chunks: [2],
    dtype: "int32",
  });
  await small.set([null], { data: Int32Array.from([5, 4, 3, 2, 1]), shape: [5] });
}

const expectedGrid = values.map((v, i) =>
  Math.floor(i / 10) >= 4 && Math.floor(i / 10) < 8 ? -1 : v,
);

async function getJson(
  location: string,
  path: string,
): Promise<{ values: unknown[]; shape: number[] }> {
  const { code, stdout, stderr } = await runCli("get", location, "--path", path, "--json");
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout);
}

function endToEnd(name: string, start: () => Promise<TestS3Server>) {
  describe(name, () => {
    let server: TestS3Server;
    const saved: Record<string, string | undefined> = {};
    const env: Record<string, string> = {};

    beforeAll(async () => {
      server = await start();
      await server.createBucket("e2e");
      Object.assign(env, {
        AWS_ENDPOINT_URL: server.endpoint,
        AWS_ACCESS_KEY_ID: server.accessKeyId,
        AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
        AWS_REGION: "us-east-1",
      });
      for (const [k, v] of Object.entries(env)) {
        saved[k] = process.env[k];
        process.env[k] = v;
      }
    }, 180_000);
    afterAll(async () => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      await server?.stop();
    });

    test("zarr copy local -> s3:// -> local keeps every value; zarr get/info/tree read s3://", async () => {
      const source = scratch();
      await writeSource(source);
      const remote = `s3://e2e/${name.replace(/\W/g, "")}/data.zarr`;
      const up = await runCli("copy", source, remote);
      expect(up.code, up.stderr).toBe(0);

      const grid = await getJson(remote, "g/grid");
      expect(grid.shape).toEqual(SHAPE);
      expect(grid.values).toEqual(expectedGrid);
      expect((await getJson(remote, "counts")).values).toEqual([5, 4, 3, 2, 1]);

      const info = await runCli("info", remote, "--path", "g/grid", "--json");
      expect(info.code, info.stderr).toBe(0);
      expect(JSON.stringify(JSON.parse(info.stdout))).toContain("sharding_indexed");
      const tree = await runCli("tree", remote);
      expect(tree.code, tree.stderr).toBe(0);
      expect(tree.stdout).toContain("grid");
      expect(tree.stdout).toContain("counts");

      // Through the umbrella's location registry.
      const node = await open(remote, { path: "g/grid" });
      expect(node).toBeInstanceOf(ZarrArray);
      const arr = await openArray(remote, { path: "g/grid" });
      expect(Array.from((await arr.get([0, null])).data as Float64Array)).toEqual(
        expectedGrid.slice(0, 10),
      );

      const back = scratch();
      const down = await runCli("copy", remote, back);
      expect(down.code, down.stderr).toBe(0);
      expect((await getJson(back, "g/grid")).values).toEqual(expectedGrid);
      expect((await getJson(back, "counts")).values).toEqual([5, 4, 3, 2, 1]);
    });

    test("a missing hierarchy in a bucket is an error that names the location", async () => {
      const { code, stderr } = await runCli("info", "s3://e2e/nothing/here.zarr");
      expect(code).not.toBe(0);
      expect(stderr).toMatch(/nothing\/here\.zarr|No (node|array|group)/);
    });
  });
}

endToEnd("s3rver", startS3rver);
const missing = radosgwMissing();
if (missing === undefined) endToEnd("radosgw", startRadosgw);
else describe.skip(`radosgw (skipped: ${missing})`, () => test("needs Ceph", () => {}));
