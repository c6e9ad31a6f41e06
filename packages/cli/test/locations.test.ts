import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  expectedArrays,
  fixturePath,
  haveFixtures,
  havePython,
  runCli,
  runPython,
  startTestHttpServer,
  type TestHttpServer,
  tempDir,
} from "@z/test-utils";
import { createArray, FsStore, slice } from "@z/zarr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = runCli;

const present = haveFixtures("zarr CLI on zip files and URLs");
const sandbox = tempDir("z-cli-locations-");
let server: TestHttpServer;
beforeAll(async () => {
  server = await startTestHttpServer({ root: present ? fixturePath("zarrita") : sandbox.dir });
});
afterAll(async () => {
  await server.stop();
  sandbox.remove();
});

/** What zarr-python read from a zarrita fixture array. */
function expected(version: string, arrayPath: string) {
  const entry = expectedArrays().find(
    (e) => e.label === `zarrita/${version}/data.zarr/${arrayPath}`,
  );
  if (!entry) throw new Error(`no expected values for ${arrayPath}`);
  return entry;
}

describe.skipIf(!present)("zarr info, tree and get on .zip files and http(s) URLs", () => {
  const locations = () => [
    [
      "a .zip zipped from the parent folder",
      fixturePath("zarrita", "v3", "data.zipped_from_parent.zarr.zip"),
    ],
    ["a .zip zipped from within", fixturePath("zarrita", "v3", "data.zipped_from_within.zarr.zip")],
    ["the URL of a .zip", `${server.url}v3/data.uncompressed.zarr.zip`],
    ["the URL of a folder", `${server.url}v3/data.zarr`],
  ];

  it("get reads the values zarr-python read, from each kind of location", async () => {
    for (const [what, location] of locations()) {
      for (const arrayPath of [
        "2d.chunked.i2",
        "3d.chunked.mixed.i2.C",
        "1d.contiguous.compressed.sharded.i4",
      ]) {
        const { code, stdout, stderr } = await run("get", location, "--path", arrayPath, "--json");
        expect(stderr, `${what}: ${arrayPath}`).toBe("");
        expect(code).toBe(0);
        const result = JSON.parse(stdout);
        expect(result.shape, `${what}: ${arrayPath}`).toEqual(expected("v3", arrayPath).shape);
        expect(result.values, `${what}: ${arrayPath}`).toEqual(expected("v3", arrayPath).values);
      }
    }
  });

  it("info describes an array in a zip and behind a URL", async () => {
    for (const [what, location] of locations()) {
      const { code, stdout } = await run("info", location, "--path", "2d.chunked.i2");
      expect(code, what).toBe(0);
      expect(stdout, what).toMatch(/Shape\s+: \(2, 2\)/);
      expect(stdout, what).toMatch(/Data type\s+: int16/);
    }
  });

  it("tree lists a zip's hierarchy (listing comes from the central directory)", async () => {
    for (const location of [locations()[0][1], locations()[2][1]]) {
      const { code, stdout, stderr } = await run("tree", location);
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(stdout).toMatch(/my group with spaces/);
      expect(stdout).toMatch(/3d\.chunked\.mixed\.i2\.C/);
      expect(stdout.split("\n").length).toBeGreaterThan(45);
    }
  });

  it("tree over plain HTTP works through consolidated metadata (v2 .zmetadata)", async () => {
    const { code, stdout, stderr } = await run("tree", `${server.url}v2/data.zarr`);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(/1d\.contiguous\.zlib\.i2/);
    expect(server.requests.every((r) => r.method === "GET" || r.method === "HEAD")).toBe(true);
  });

  it("reports a missing zip, an unreachable node over HTTP, and read-only URLs", async () => {
    const missing = await run("info", path.join(sandbox.dir, "nope.zip"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No such directory or zip file/);
    const node = await run("get", `${server.url}v3/data.zarr`, "--path", "no/such/array", "--json");
    expect(node.code).toBe(1);
    expect(node.stderr).toMatch(/NotFoundError/);
    const write = await run(
      "copy",
      fixturePath("zarrita", "v3", "data.zarr"),
      `${server.url}v3/copy`,
      "--path",
      "2d.chunked.i2",
    );
    expect(write.code).toBe(2);
    expect(write.stderr).toMatch(/HTTP locations are read-only/);
  });
});

describe("zarr copy into a new .zip", () => {
  async function source(dir: string, zarrFormat: 2 | 3) {
    const store = new FsStore(dir);
    const arr = await createArray(store, {
      path: "grid",
      shape: [5, 7],
      chunks: [2, 3],
      dtype: "int32",
      zarrFormat,
      fillValue: 0,
    });
    await arr.set([slice(0, 4), null], {
      data: Int32Array.from({ length: 28 }, (_, i) => i * 3 - 20),
      shape: [4, 7],
    });
    return arr;
  }

  it("writes a zip of stored entries that reads back equal, and refuses an existing file", async () => {
    const dir = path.join(sandbox.dir, "copy-src");
    await source(dir, 3);
    const zip = path.join(sandbox.dir, "copy.zip");
    const copied = await run("copy", dir, zip);
    expect(copied.stderr).toMatch(/copied 2 nodes/);
    expect(copied.code).toBe(0);
    const fromDir = JSON.parse((await run("get", dir, "--path", "grid", "--json")).stdout);
    const fromZip = JSON.parse((await run("get", zip, "--path", "grid", "--json")).stdout);
    expect(fromZip).toEqual(fromDir);
    expect(fromZip.values.slice(0, 3)).toEqual([-20, -17, -14]);

    const again = await run("copy", dir, zip);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists/);

    if (havePython("zarr copy into a zip, checked by Python's zipfile", ["zipfile"])) {
      const out = runPython(
        `import zipfile\nz = zipfile.ZipFile(${JSON.stringify(zip)})\nprint(z.testzip(), {i.compress_type for i in z.infolist()}, "grid/zarr.json" in z.namelist())`,
      );
      expect(out.trim()).toBe("None {0} True");
    }
  });

  it.skipIf(!havePython("zarr copy into a zip, read by zarr-python 2"))(
    "a v2 copy in a zip reads in zarr-python 2's ZipStore",
    async () => {
      const dir = path.join(sandbox.dir, "copy-src-v2");
      await source(dir, 2);
      const zip = path.join(sandbox.dir, "copy-v2.zip");
      expect((await run("copy", dir, zip)).code).toBe(0);
      const out = runPython(
        `import zarr, json\nstore = zarr.ZipStore(${JSON.stringify(zip)}, mode="r")\nprint(json.dumps(zarr.open_array(store, path="grid", mode="r")[:].ravel().tolist()))`,
      );
      const ours = JSON.parse((await run("get", dir, "--path", "grid", "--json")).stdout);
      expect(JSON.parse(out)).toEqual(ours.values);
    },
  );

  it("a failed copy leaves no half-written zip behind", async () => {
    const dir = path.join(sandbox.dir, "copy-broken");
    await source(dir, 3);
    // A chunk that cannot be decoded makes the copy fail midway (a new compressor makes it
    // decode chunks; an unchanged layout is copied as stored bytes).
    writeFileSync(path.join(dir, "grid", "c", "1", "1"), Uint8Array.of(1, 2, 3));
    const zip = path.join(sandbox.dir, "broken.zip");
    const result = await run("copy", dir, zip, "--compressor", "gzip");
    expect(result.code).toBe(1);
    expect(existsSync(zip)).toBe(false);
  });
});
