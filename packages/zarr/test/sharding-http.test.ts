import { startTestHttpServer, tempDir } from "@z/test-utils";
import { createArray, FsStore, HttpStore, openArray, type ShardingCodec, slice } from "@z/zarr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

describe("sharded reads over HTTP fetch only what they need", () => {
  const { dir, remove } = tempDir("z-shard-http-");
  let server: Awaited<ReturnType<typeof startTestHttpServer>>;
  const data = Float32Array.from({ length: 64 * 64 }, (_, i) => Math.sin(i / 50) * 100);

  beforeAll(async () => {
    // One 64x64 shard of sixteen 16x16 inner chunks, each zstd-compressed.
    const arr = await createArray(new FsStore(dir), {
      path: "volume",
      shape: [64, 64],
      shards: [64, 64],
      chunks: [16, 16],
      dtype: "float32",
      compressors: [{ name: "zstd", configuration: { level: 3, checksum: false } }],
    });
    await arr.set(null, { data, shape: [64, 64] });
    server = await startTestHttpServer({ root: dir });
  });
  afterAll(async () => {
    await server.stop();
    remove();
  });

  it("one inner chunk with a cold cache: exactly the index and that chunk", async () => {
    const arr = await openArray(new HttpStore(server.url), { path: "volume" });
    const codec = arr.access.runner.pipeline.arrayToBytes.codec as ShardingCodec;
    server.reset();
    const got = await arr.get([slice(16, 32), slice(32, 48)]);
    expect(Array.from(got.data)).toEqual(
      Array.from({ length: 256 }, (_, k) => data[(16 + Math.floor(k / 16)) * 64 + 32 + (k % 16)]),
    );
    const requests = server.requests.filter((r) => r.path === "volume/c/0/0");
    expect(server.requests).toHaveLength(2);
    expect(requests.map((r) => r.range)).toEqual([
      `bytes=-${codec.indexSize}`,
      expect.stringMatching(/^bytes=\d+-\d+$/),
    ]);
    // The inner chunk's bytes according to the index: what the second request must have carried.
    const shard = await new FsStore(dir).get("volume/c/0/0");
    const index = await codec.decodeIndex(shard!.subarray(shard!.length - codec.indexSize));
    const entry = index.entry(codec.innerIndex([1, 2]))!;
    expect(requests[0].bytes).toBe(codec.indexSize);
    expect(requests[1].bytes).toBe(entry.nbytes);
    expect(server.bytesSent).toBe(codec.indexSize + entry.nbytes);
    expect(server.bytesSent).toBeLessThan(shard!.length / 8);
  });

  it("a whole shard: at most two requests", async () => {
    const arr = await openArray(new HttpStore(server.url), { path: "volume" });
    server.reset();
    const got = await arr.get();
    expect(Array.from(got.data)).toEqual(Array.from(data));
    expect(server.requests.length).toBeLessThanOrEqual(2);
    console.log(
      `[sharding over HTTP] whole shard: ${server.requests.length} requests, ${server.bytesSent} bytes`,
    );
  });

  it("a cached index: the next inner chunk costs one request", async () => {
    const arr = await openArray(new HttpStore(server.url), { path: "volume" });
    await arr.get([slice(0, 16), slice(0, 16)]);
    server.reset();
    await arr.get([slice(48, 64), slice(48, 64)]);
    expect(server.requests).toHaveLength(1);
  });
});
