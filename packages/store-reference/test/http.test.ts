import { writeFileSync } from "node:fs";
import path from "node:path";
import { ReferenceStore, ReferenceTargetError } from "@z/store-reference";
import { startTestHttpServer, type TestHttpServer, tempDir } from "@z/test-utils";
import { openArray, slice } from "@z/zarr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * Plain binary blobs served over HTTP by a real server on 127.0.0.1, referenced by a version 1
 * document (templates and a generator), next to chunks held inline as base64.
 */

const sandbox = tempDir("z-ref-http-");
let server: TestHttpServer;

/** 4 chunks of 4 float32 values, little-endian, with 8 bytes of padding before each chunk. */
const VALUES = Float32Array.from({ length: 16 }, (_, i) => i * 0.25 - 1);
const CHUNK_BYTES = 16;
const STRIDE = CHUNK_BYTES + 8;

beforeAll(async () => {
  const blob = new Uint8Array(4 * STRIDE).fill(0xee);
  const raw = new Uint8Array(VALUES.buffer);
  for (let c = 0; c < 4; c++)
    blob.set(raw.subarray(c * CHUNK_BYTES, (c + 1) * CHUNK_BYTES), c * STRIDE + 8);
  writeFileSync(path.join(sandbox.dir, "blob with space.bin"), blob);
  server = await startTestHttpServer({ root: sandbox.dir });
});
afterAll(async () => {
  await server.stop();
  sandbox.remove();
});

const zarray = (shape: number[], chunks: number[], dtype: string) =>
  JSON.stringify({
    zarr_format: 2,
    shape,
    chunks,
    dtype,
    compressor: null,
    filters: null,
    fill_value: 0,
    order: "C",
  });

describe("references to HTTP blobs and inline data", () => {
  it("a generator over a templated URL reads every chunk by range", async () => {
    const doc = {
      version: 1,
      templates: { u: server.url, name: "blob%20with%20space.bin" },
      gen: [
        {
          key: "x/{{i}}",
          url: "{{u}}{{name}}",
          offset: "{{ i * 24 + 8 }}",
          length: "16",
          dimensions: { i: { start: 0, stop: 4, step: 1 } },
        },
      ],
      refs: {
        ".zgroup": '{"zarr_format": 2}',
        "x/.zarray": zarray([16], [4], "<f4"),
      },
    };
    const store = new ReferenceStore(doc);
    server.reset();
    const array = await openArray(store, { path: "x" });
    const { data } = await array.get(null);
    expect(Array.from(data as Float32Array)).toEqual(Array.from(VALUES));
    // Each chunk came as one range of the blob, none of the padding.
    const ranged = server.requests.filter((r) => r.path === "blob with space.bin");
    const expectedRanges = [0, 1, 2, 3].map(
      (c) => `bytes=${c * STRIDE + 8}-${c * STRIDE + 8 + CHUNK_BYTES - 1}`,
    );
    expect(ranged.map((r) => r.headers.range).sort()).toEqual(expectedRanges.sort());
    const part = await array.get([slice(5, 7)]);
    expect(Array.from(part.data as Float32Array)).toEqual([VALUES[5], VALUES[6]]);
  });

  it("a range inside a reference is a range of its target", async () => {
    const store = new ReferenceStore({ k: [`${server.url}blob%20with%20space.bin`, 8, 16] });
    const raw = new Uint8Array(VALUES.buffer, 0, 16);
    expect(await store.get("k", { range: { offset: 4, length: 8 } })).toEqual(raw.slice(4, 12));
    expect(await store.get("k", { range: { suffix: 3 } })).toEqual(raw.slice(13));
    expect(await store.get("k", { range: { offset: 10 } })).toEqual(raw.slice(10));
    expect(await store.getRanges("k", [{ offset: 0, length: 2 }, { suffix: 2 }])).toEqual([
      raw.slice(0, 2),
      raw.slice(14),
    ]);
  });

  it("a document read over HTTP resolves relative targets on its server, and reads no local file", async () => {
    const local = path.join(sandbox.dir, "blob with space.bin");
    writeFileSync(
      path.join(sandbox.dir, "refs.json"),
      JSON.stringify({ near: ["blob%20with%20space.bin", 8, 4], local: [local, 8, 4] }),
    );
    const raw = new Uint8Array(VALUES.buffer, 0, 4);
    const store = await ReferenceStore.fromUrl(`${server.url}refs.json`);
    expect(await store.get("near")).toEqual(raw);
    const refused = await store.get("local").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ReferenceTargetError);
    expect((refused as Error).message).toMatch(/localFiles: true/);
    const trusted = await ReferenceStore.fromUrl(`${server.url}refs.json`, { localFiles: true });
    expect(await trusted.get("local")).toEqual(raw);
  });

  it("chunks held inline as base64 mix with referenced ones", async () => {
    const ints = new Int16Array([7, -8, 9, -10, 11, -12]);
    const chunk = (from: number) =>
      `base64:${Buffer.from(ints.buffer, from * 2, 6).toString("base64")}`;
    const store = new ReferenceStore({
      version: 1,
      refs: {
        "y/.zarray": zarray([6], [3], "<i2"),
        "y/0": chunk(0),
        "y/1": chunk(3),
      },
    });
    const { data } = await (await openArray(store, { path: "y" })).get(null);
    expect(Array.from(data as Int16Array)).toEqual(Array.from(ints));
  });
});
