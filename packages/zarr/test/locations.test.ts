import { pathToFileURL } from "node:url";
import { fixturePath, haveFixtures, startTestHttpServer, tempDir } from "@z/test-utils";
import {
  createArray,
  FsStore,
  open,
  openArray,
  openGroup,
  registerStore,
  resolveStore,
  S3ConfigError,
  S3Store,
  StoreError,
  ZipStore,
} from "@z/zarr";
import { describe, expect, it } from "vitest";

describe("opening by location string", () => {
  it("a path and a file: URL open the filesystem", async () => {
    const { dir, remove } = tempDir("z-locations-");
    try {
      const arr = await createArray(dir, {
        path: "a",
        shape: [3],
        chunks: [3],
        dtype: "int8",
        compressors: null,
      });
      await arr.set(null, [1, 2, 3]);
      expect(Array.from((await openArray(dir, { path: "a" })).shape)).toEqual([3]);
      const viaUrl = await openArray(pathToFileURL(dir).href, { path: "a" });
      expect(Array.from((await viaUrl.get()).data)).toEqual([1, 2, 3]);
      expect(await resolveStore(dir)).toBeInstanceOf(FsStore);
    } finally {
      remove();
    }
  });

  it.skipIf(!haveFixtures("locations"))("zip files, http folders and zips over http", async () => {
    const zip = fixturePath("zarrita", "v3", "data.zipped_from_within.zarr.zip");
    const local = await openGroup(zip);
    expect(local.store).toBeInstanceOf(ZipStore);
    const server = await startTestHttpServer({ root: fixturePath("zarrita", "v3") });
    try {
      const remote = await openArray(`${server.url}data.zarr`, { path: "1d.chunked.i2" });
      expect(remote.shape).toEqual([4]);
      const zipped = await openArray(`${server.url}data.zipped_from_within.zarr.zip`, {
        path: "1d.chunked.i2",
      });
      expect(Array.from((await zipped.get()).data)).toEqual(Array.from((await remote.get()).data));
      const forced = await openArray(`zip:${server.url}data.zipped_from_within.zarr.zip`, {
        path: "1d.chunked.i2",
      });
      expect(forced.store).toBeInstanceOf(ZipStore);
    } finally {
      await server.stop();
    }
  });

  it("unknown schemes say what is registered; new ones can be added", async () => {
    await expect(open("hdfs://cluster/data.zarr")).rejects.toThrow(StoreError);
    await expect(open("hdfs://cluster/data.zarr")).rejects.toThrow(
      /No store is registered for "hdfs:" locations.*https:/,
    );
    const memory = new Map<string, Uint8Array>();
    registerStore("mem", () => memory);
    await createArray("mem:anything", { shape: [1], dtype: "uint8", compressors: null });
    expect(memory.has("zarr.json")).toBe(true);
  });
});

describe("bucket locations", () => {
  it("s3:// and gs:// open an S3Store configured by the location and the environment", async () => {
    const s3 = await resolveStore("s3://my-bucket/path/data.zarr");
    expect(s3).toBeInstanceOf(S3Store);
    expect((s3 as S3Store).prefix).toBe("path/data.zarr/");
    const gs = await resolveStore("gs://my-bucket/data.zarr");
    expect((gs as S3Store).url).toMatch(/\/my-bucket\/data\.zarr\/$/);
    await expect(resolveStore("s3://")).rejects.toThrow(S3ConfigError);
  });
});
