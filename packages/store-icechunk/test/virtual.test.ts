import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { zstdCompress } from "@z/compression/zstd";
import {
  decodeObjectId,
  fileSource,
  httpSource,
  IcechunkFormatError,
  openRepository,
  VirtualChunkError,
  VirtualChunkModifiedError,
} from "@z/store-icechunk";
import { startTestHttpServer, type TestHttpServer, tempDir } from "@z/test-utils";
import { createArray, HttpStore, openArray } from "@z/zarr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type LocationCompression,
  manifestPayload,
  metadataFile,
  type VirtualRefSpec,
} from "./build-manifest.js";
import { icechunk, mapStorage, officialZarrStore } from "./official.js";

/*
 * Virtual chunks: a repository written by the official implementation whose array's manifest is
 * replaced by one of virtual references (the official JavaScript API cannot write them) to
 * files served by a real HTTP server on 127.0.0.1 and to local files.
 */

const served = tempDir("z-icechunk-virtual-http-");
const local = tempDir("z-icechunk-virtual-file-");
let server: TestHttpServer;

const VALUES = Float64Array.from({ length: 40 }, (_, i) => i * 1.5 - 7);
const chunkBytes = (c: number) => new Uint8Array(VALUES.buffer, c * 80, 80);

/** a.bin: chunks 0 and 1 after padding; b.bin: chunk 2; c.bin (local): chunk 3. */
function writeTargets(fill = 0xee): void {
  const a = new Uint8Array(16 + 80 + 8 + 80).fill(fill);
  a.set(chunkBytes(0), 16);
  a.set(chunkBytes(1), 104);
  writeFileSync(path.join(served.dir, "a.bin"), a);
  writeFileSync(path.join(served.dir, "b.bin"), chunkBytes(2));
  writeFileSync(path.join(local.dir, "c.bin"), chunkBytes(3));
}

async function officialRepoWithVirtualArray(
  specVersion: 1 | 2,
  compression: 0 | 1,
  locations?: LocationCompression,
) {
  const files = new Map<string, Uint8Array>();
  const ic = icechunk();
  const repo = await ic.Repository.create(mapStorage(files), null, specVersion);
  const session = await repo.writableSession("main");
  const store = officialZarrStore(session.store);
  const arr = await createArray(store, {
    path: "virt",
    shape: [40],
    chunks: [10],
    dtype: "float64",
    compressors: [],
  } as never);
  await arr.set(null, { data: VALUES.map((v) => v + 1), shape: [40], stride: [1] } as never);
  const nodeId: string = await session.getNodeId("/virt");
  await session.commit("virtual array");
  const manifestKeys = [...files.keys()].filter((k) => k.startsWith("manifests/"));
  expect(manifestKeys).toHaveLength(1);
  const manifestId = manifestKeys[0].slice("manifests/".length);
  const aEtag = (await fetch(`${server.url}a.bin`)).headers.get("etag") ?? "";
  const cSeconds = Math.ceil(statSync(path.join(local.dir, "c.bin")).mtimeMs / 1000);
  const refs: VirtualRefSpec[] = [
    { index: [0], location: `${server.url}a.bin`, offset: 16, length: 80, etag: aEtag },
    {
      index: [1],
      location: `${server.url}a.bin`,
      offset: 104,
      length: 80,
      lastModified: Math.ceil(Date.now() / 1000),
    },
    { index: [2], location: `${server.url}b.bin`, offset: 0, length: 80 },
    {
      index: [3],
      location: pathToFileURL(path.join(local.dir, "c.bin")).href,
      offset: 0,
      length: 80,
      lastModified: cSeconds,
    },
  ];
  const payload = manifestPayload(
    decodeObjectId(manifestId, 12) as Uint8Array,
    decodeObjectId(nodeId, 8) as Uint8Array,
    refs,
    locations,
  );
  files.set(
    `manifests/${manifestId}`,
    metadataFile(2, specVersion, compression, compression ? await zstdCompress(payload) : payload),
  );
  return files;
}

beforeAll(async () => {
  writeTargets();
  server = await startTestHttpServer({ root: served.dir, conditionalReads: true });
}, 60_000);
afterAll(async () => {
  await server.stop();
});

const sources = () => ({
  [server.url]: httpSource(),
  [`${pathToFileURL(local.dir).href}/`]: fileSource(),
});

describe.each([
  [1, 0],
  [2, 1],
] as const)(
  "virtual chunks in a spec version %i repository (payload compression %i)",
  (specVersion, compression) => {
    let files: Map<string, Uint8Array>;
    beforeAll(async () => {
      writeTargets();
      files = await officialRepoWithVirtualArray(specVersion, compression);
    }, 60_000);

    it("reads chunks over HTTP and from local files, each from its byte range", async () => {
      writeTargets();
      const repo = await openRepository(files, { virtualChunks: sources() });
      const session = await repo.readonlySession({ branch: "main" });
      const arr = await openArray(session.store, { path: "virt" });
      expect(Array.from((await arr.get(null)).data as Float64Array)).toEqual(Array.from(VALUES));
      expect(await session.store.chunkRef("virt/c/2")).toMatchObject({
        kind: "virtual",
        offset: 0,
        length: 80,
      });
    });

    it("refuses URLs no source was given for", async () => {
      const repo = await openRepository(files, { virtualChunks: { [server.url]: httpSource() } });
      const session = await repo.readonlySession({ branch: "main" });
      expect(await session.store.get("virt/c/2")).toEqual(chunkBytes(2));
      await expect(session.store.get("virt/c/3")).rejects.toThrow(VirtualChunkError);
      await expect(session.store.get("virt/c/3")).rejects.toThrow(/no virtual chunk source/);
    });

    it("fails with VirtualChunkModifiedError when a target's ETag or modification time changed", async () => {
      const repo = await openRepository(files, { virtualChunks: sources() });
      const session = await repo.readonlySession({ branch: "main" });
      writeTargets(0xab); // same length, new padding: a new ETag for a.bin
      await expect(session.store.get("virt/c/0")).rejects.toThrow(VirtualChunkModifiedError);
      const future = new Date(Date.now() + 3_600_000);
      utimesSync(path.join(served.dir, "a.bin"), future, future);
      utimesSync(path.join(local.dir, "c.bin"), future, future);
      await expect(session.store.get("virt/c/1")).rejects.toThrow(VirtualChunkModifiedError);
      await expect(session.store.get("virt/c/3")).rejects.toThrow(VirtualChunkModifiedError);
      expect(await session.store.get("virt/c/2")).toEqual(chunkBytes(2));
      writeTargets();
    });

    it("names a missing or short target", async () => {
      const repo = await openRepository(files, { virtualChunks: sources() });
      const session = await repo.readonlySession({ branch: "main" });
      writeFileSync(path.join(served.dir, "b.bin"), new Uint8Array(10));
      await expect(session.store.get("virt/c/2")).rejects.toThrow(VirtualChunkError);
      writeTargets();
    });
  },
);

describe("dictionary-compressed virtual chunk locations (spec version 2)", () => {
  const work = tempDir("z-icechunk-locations-");
  afterAll(work.remove);

  /** Locations compressed as Icechunk does: one zstd frame each, with a trained dictionary. */
  function zstdToolCompression(): LocationCompression {
    const samples = path.join(work.dir, "samples");
    mkdirSync(samples, { recursive: true });
    for (let i = 0; i < 400; i++)
      writeFileSync(path.join(samples, `${i}`), `${server.url}run-${i % 13}/part-${i}.bin`);
    const dictPath = path.join(work.dir, "locations.dict");
    const trained = spawnSync(
      "zstd",
      ["-q", "--train", "-r", samples, "-o", dictPath, "--maxdict=2048"],
      {
        encoding: "utf8",
      },
    );
    expect(trained.status, trained.stderr).toBe(0);
    return {
      dictionary: new Uint8Array(readFileSync(dictPath)),
      compress: (location) => {
        // From a file, so the frame declares its content size as Icechunk's frames do.
        const input = path.join(work.dir, "location");
        writeFileSync(input, location);
        const out = spawnSync("zstd", ["-q", "-c", "-3", "-D", dictPath, input]);
        expect(out.status, String(out.stderr)).toBe(0);
        return new Uint8Array(out.stdout);
      },
    };
  }

  /** Serves the repository's files over HTTP and opens it from there. */
  async function openOverHttp(files: Map<string, Uint8Array>, name: string) {
    for (const [key, bytes] of files) {
      const file = path.join(served.dir, name, key);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, bytes);
    }
    const repo = await openRepository(new HttpStore(`${server.url}${name}/`), {
      virtualChunks: sources(),
    });
    return repo.readonlySession({ branch: "main" });
  }

  it("decodes each location with the manifest's dictionary and reads the chunks over HTTP", async () => {
    writeTargets();
    const files = await officialRepoWithVirtualArray(2, 1, zstdToolCompression());
    const session = await openOverHttp(files, "compressed-repo");
    const arr = await openArray(session.store, { path: "virt" });
    expect(Array.from((await arr.get(null)).data as Float64Array)).toEqual(Array.from(VALUES));
    expect(await session.store.chunkRef("virt/c/2")).toMatchObject({
      kind: "virtual",
      location: `${server.url}b.bin`,
      offset: 0,
      length: 80,
    });
    expect(await session.store.chunkRef("virt/c/3")).toMatchObject({
      location: pathToFileURL(path.join(local.dir, "c.bin")).href,
    });
  });

  it("refuses locations that do not decode with the dictionary, and a missing dictionary", async () => {
    const good = zstdToolCompression();
    const corrupt = await officialRepoWithVirtualArray(2, 1, {
      dictionary: good.dictionary,
      compress: (location) => {
        const frame = good.compress(location);
        frame[frame.length - 1] ^= 0xff;
        return frame;
      },
    });
    const other = await officialRepoWithVirtualArray(2, 1, {
      ...good,
      dictionary: new TextEncoder().encode("raw content that is not the dictionary".repeat(4)),
    });
    for (const files of [corrupt, other]) {
      const session = await openOverHttp(files, "bad-locations");
      const failure = session.store.get("virt/c/0");
      await expect(failure).rejects.toThrow(IcechunkFormatError);
      await expect(session.store.get("virt/c/0")).rejects.toThrow(
        /a compressed virtual chunk location does not decode/,
      );
    }
    const undeclared = await officialRepoWithVirtualArray(2, 1, { compress: good.compress });
    const session = await openOverHttp(undeclared, "no-dictionary");
    await expect(session.store.get("virt/c/0")).rejects.toThrow(/no location dictionary/);
  });
});
