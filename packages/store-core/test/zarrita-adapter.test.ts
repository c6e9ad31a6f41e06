import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fromZarritaStore, type Readable } from "@z/store-core";
import { describeStoreContract } from "@z/store-core/testing";
import { startTestHttpServer, type TestHttpServer, tempDir } from "@z/test-utils";
import { openArray } from "@z/zarr";
import FileSystemStore from "@zarrita/storage/fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as zarrita from "zarrita";

/*
 * zarrita's own stores (FetchStore against a real HTTP server, FileSystemStore on a folder),
 * wrapped by fromZarritaStore, against the store contract and with an array zarrita wrote.
 */

const sandbox = tempDir("z-zarrita-adapter-");
let server: TestHttpServer;
let count = 0;

beforeAll(async () => {
  server = await startTestHttpServer({ root: sandbox.dir });
});
afterAll(async () => {
  await server.stop();
  sandbox.remove();
});

/** Writes the entries into a fresh folder under the sandbox; returns its name. */
function folderWith(entries: ReadonlyMap<string, Uint8Array>): string {
  const name = `s${count++}`;
  for (const [key, value] of entries) {
    const file = path.join(sandbox.dir, name, ...key.split("/"));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, value);
  }
  mkdirSync(path.join(sandbox.dir, name), { recursive: true });
  return name;
}

describeStoreContract(
  "fromZarritaStore(zarrita FetchStore)",
  (entries): Readable =>
    fromZarritaStore(new zarrita.FetchStore(`${server.url}${folderWith(entries)}`)),
  {
    writable: false,
    listable: false,
    freshReadBuffers: true,
    expectedFailures: [
      // zarrita's FetchStore throws "Unexpected response status 416" for a range that starts
      // past the end of a value, where @z stores give the bytes that exist (none).
      "byte ranges are clipped to the value, never an out-of-bounds error",
      // FetchStore puts keys into URLs unencoded: "%2e%2e/x" becomes "../x" and "a b" a space.
      "unusual but valid keys are stored as they are",
    ],
    skip: [
      // Draws ranges past a value's end, which FetchStore answers with a thrown 416 (above).
      "random reads and listings of random contents match MapStore",
    ],
  },
);

describeStoreContract(
  "fromZarritaStore(zarrita FileSystemStore)",
  (entries): Readable =>
    fromZarritaStore(new FileSystemStore(path.join(sandbox.dir, folderWith(entries)))),
  {
    writable: false,
    listable: false,
    freshReadBuffers: true,
    expectedFailures: [
      // zarrita's FileSystemStore.getRange allocates the length asked for and pads a short
      // read with zeros, and reads a suffix longer than the file from a negative position.
      "byte ranges are clipped to the value, never an out-of-bounds error",
      "empty values read back as empty, not as missing",
      // Its get of a key that is a folder ("a" when "a/b" exists) throws EISDIR, not undefined.
      "get of a missing key resolves to undefined",
      "has tells whether a key exists",
      // getSize reads the value, and so meets the same EISDIR.
      "getSize is the value's length, undefined for a missing key",
    ],
    skip: [
      // Draws the reads above (padded ranges, folder keys) at random.
      "random reads and listings of random contents match MapStore",
    ],
  },
);

/**
 * A zarrita-style store over a Map that keeps zarrita's documented range semantics exactly
 * (ranges clipped to the value), so the contract checks the adapter alone.
 */
function zarritaMapStore(entries: ReadonlyMap<string, Uint8Array>) {
  const values = new Map([...entries].map(([key, value]) => [`/${key}`, value.slice()]));
  return {
    get: async (key: string) => values.get(key)?.slice(),
    getRange: async (
      key: string,
      range: { offset: number; length: number } | { suffixLength: number },
    ) => {
      const value = values.get(key);
      if (value === undefined) return undefined;
      if ("suffixLength" in range)
        return value.slice(Math.max(0, value.length - range.suffixLength));
      return value.slice(range.offset, range.offset + range.length);
    },
  };
}

describeStoreContract(
  "fromZarritaStore(a zarrita-style Map store)",
  (entries): Readable => fromZarritaStore(zarritaMapStore(entries)),
  { writable: false, listable: false, freshReadBuffers: true, propertyRuns: 100 },
);

describe("fromZarritaStore", () => {
  it("an array zarrita wrote reads through zarrita's FetchStore", async () => {
    const name = folderWith(new Map());
    const root = path.join(sandbox.dir, name);
    const writer = zarrita.root(new FileSystemStore(root));
    const arr = await zarrita.create(writer.resolve("a"), {
      shape: [4, 3],
      chunkShape: [2, 2],
      dtype: "int32",
      fillValue: 0,
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    });
    await zarrita.set(arr, null, {
      data: Int32Array.from({ length: 12 }, (_, i) => i * 7 - 5),
      shape: [4, 3],
      stride: [3, 1],
    });
    const store = fromZarritaStore(new zarrita.FetchStore(`${server.url}${name}`));
    const ours = await openArray(store, { path: "a" });
    const { data } = await ours.get(null);
    expect(Array.from(data as Int32Array)).toEqual(Array.from({ length: 12 }, (_, i) => i * 7 - 5));
  });

  it("stores without getRange are read whole and sliced; synchronous stores work", async () => {
    const values = new Map([["/k", new Uint8Array([1, 2, 3, 4, 5])]]);
    const store = fromZarritaStore({ get: (key) => values.get(key) });
    expect(await store.get("k", { range: { offset: 1, length: 2 } })).toEqual(
      new Uint8Array([2, 3]),
    );
    expect(await store.get("k", { range: { suffix: 2 } })).toEqual(new Uint8Array([4, 5]));
    expect(await store.get("missing")).toBeUndefined();
    expect(await store.has?.("k")).toBe(true);
  });

  it("an answer longer than the range (Range ignored) is cut to the range", async () => {
    const whole = new Uint8Array([9, 8, 7, 6, 5]);
    const store = fromZarritaStore({ get: () => whole, getRange: () => whole });
    expect(await store.get("k", { range: { offset: 1, length: 3 } })).toEqual(
      new Uint8Array([8, 7, 6]),
    );
    expect(await store.get("k", { range: { suffix: 2 } })).toEqual(new Uint8Array([6, 5]));
  });

  it("keys are validated before they reach the wrapped store", async () => {
    const seen: string[] = [];
    const store = fromZarritaStore({ get: (key) => void seen.push(key) });
    await expect(store.get("../x")).rejects.toThrow(/'\.\.' segments/);
    await expect(store.get("/abs")).rejects.toThrow(/must not start with/);
    expect(seen).toEqual([]);
  });
});
