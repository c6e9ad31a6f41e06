import {
  type CodecSpec,
  consolidateMetadata,
  createArray,
  createGroup,
  open,
  openArray,
  openGroup,
} from "@z/array";
import type { ChecksumError, DecodeError } from "@z/codecs";
import { type InvalidKeyError, isZarrError, MapStore } from "@z/store-core";
import { describe, expect, expectTypeOf, it } from "vitest";

/*
 * Errors carry their facts as typed fields: a corrupt chunk names its store key, the codec
 * that refused it and what the library underneath said; a bad key names the key; a node error
 * names the node. `isZarrError(e, name)` narrows to the class with those fields.
 */

/** The error an operation rejects with (fails the test when it resolves). */
async function rejection(operation: Promise<unknown>): Promise<unknown> {
  return operation.then(
    () => expect.unreachable("the operation should have failed"),
    (error: unknown) => error,
  );
}

/** A 1-d int32 array of 8 elements in chunks of 4 with `codecs`, written with 0..7. */
async function writtenArray(codecs: CodecSpec[]) {
  const store = new Map<string, Uint8Array>();
  const arr = await createArray(store, {
    path: "g/arr",
    shape: [8],
    chunks: [4],
    dtype: "int32",
    codecs,
  });
  await arr.set(
    null,
    Int32Array.from({ length: 8 }, (_, i) => i),
  );
  return { arr, store };
}

const bytesCodec = { name: "bytes", configuration: { endian: "little" } };

describe("a corrupt chunk", () => {
  it("is a DecodeError naming the chunk's key, the codec and the zlib error", async () => {
    const { store } = await writtenArray([
      bytesCodec,
      { name: "gzip", configuration: { level: 1 } },
    ]);
    const key = "g/arr/c/1";
    const stored = store.get(key)!;
    // Keep the gzip header, break the deflate stream after it.
    store.set(
      key,
      Uint8Array.from(stored, (b, i) => (i < 10 ? b : b ^ 0x5a)),
    );
    const error = await rejection((await openArray(store, { path: "g/arr" })).get());
    if (!isZarrError(error, "DecodeError")) throw error;
    expectTypeOf(error).toEqualTypeOf<DecodeError>();
    expectTypeOf(error.key).toEqualTypeOf<string | undefined>();
    expect(error.key).toBe(key);
    expect(error.codec).toBe("gzip");
    // The cause is the algorithm's error (which format, what is wrong), and its cause the
    // engine's own (node:zlib's, with its Z_ code).
    expect(isZarrError(error.cause, "DecompressionError")).toBe(true);
    expect((error.cause as { format?: string }).format).toBe("gzip");
    const engine = (error.cause as Error).cause as NodeJS.ErrnoException;
    expect(engine.code).toMatch(/^Z_/);
    expect(error.message).toContain(`chunk /${key}`);
  });

  it("with a wrong crc32c is a ChecksumError, which is a DecodeError, naming key and codec", async () => {
    const { store } = await writtenArray([bytesCodec, { name: "crc32c" }]);
    const key = "g/arr/c/0";
    const stored = store.get(key)!.slice();
    stored[0] ^= 1;
    store.set(key, stored);
    const error = await rejection((await openArray(store, { path: "g/arr" })).get([0]));
    expect(isZarrError(error, "DecodeError")).toBe(true);
    if (!isZarrError(error, "ChecksumError")) throw error;
    expectTypeOf(error).toEqualTypeOf<ChecksumError>();
    expect(error).toMatchObject({ name: "ChecksumError", key, codec: "crc32c" });
    expect(error.message).toContain(`chunk /${key}`);
  });

  it("too short for its codec names the codec that refused it", async () => {
    const { store } = await writtenArray([bytesCodec]);
    const key = "g/arr/c/0";
    store.set(key, store.get(key)!.subarray(0, 5));
    const error = await rejection((await openArray(store, { path: "g/arr" })).get());
    if (!isZarrError(error, "DecodeError")) throw error;
    expect(error).toMatchObject({ key, codec: "bytes" });
  });
});

describe("a corrupt shard", () => {
  it("read in part names the shard's key and the sharding codec", async () => {
    const sharding = {
      name: "sharding_indexed",
      configuration: {
        chunk_shape: [2],
        codecs: [bytesCodec],
        index_codecs: [bytesCodec, { name: "crc32c" }],
        index_location: "end",
      },
    };
    const { store } = await writtenArray([sharding]);
    const key = "g/arr/c/0";
    const stored = store.get(key)!.slice();
    stored[stored.length - 5] ^= 1; // the index's checksum no longer matches
    store.set(key, stored);
    const error = await rejection((await openArray(store, { path: "g/arr" })).get([0]));
    if (!isZarrError(error, "DecodeError")) throw error;
    expect(error.key).toBe(key);
    expect(error.codec).toBe("crc32c"); // the index's own checksum codec
    expect(error.message).toContain(`shard /${key}`);
  });

  it("whose index points past its end names the sharding codec", async () => {
    const sharding = {
      name: "sharding_indexed",
      configuration: { chunk_shape: [2], codecs: [bytesCodec], index_codecs: [bytesCodec] },
    };
    const { store } = await writtenArray([sharding]);
    const key = "g/arr/c/0";
    const stored = store.get(key)!.slice();
    // Two inner chunks: the index is the last 32 bytes; its first offset now lies far past the end.
    new DataView(stored.buffer).setBigUint64(stored.length - 32, 1_000_000n, true);
    store.set(key, stored);
    const error = await rejection((await openArray(store, { path: "g/arr" })).get([0]));
    if (!isZarrError(error, "DecodeError")) throw error;
    expect(error).toMatchObject({ key, codec: "sharding_indexed" });
    expect(error.message).toMatch(/past the end of the shard/);
  });
});

describe("a bad key", () => {
  const hostile = ["a/../b", "a//b", "/abs", "a/./b", "a\\b", "nul\0"];

  it("is an InvalidKeyError carrying the key, from a store", async () => {
    const store = new MapStore();
    for (const key of hostile) {
      const error = await rejection(store.get(key));
      if (!isZarrError(error, "InvalidKeyError")) throw error;
      expectTypeOf(error).toEqualTypeOf<InvalidKeyError>();
      expectTypeOf(error.key).toEqualTypeOf<string>();
      expect(error.key).toBe(key);
      expect(error.reason).not.toBe("");
      expect(error.message).toContain(JSON.stringify(key));
    }
  });

  it("is an InvalidKeyError carrying the node path, from openArray and createArray", async () => {
    const store = new Map<string, Uint8Array>();
    for (const path of ["a/../b", "a/./b", "a\\b"]) {
      for (const attempt of [
        () => openArray(store, { path }),
        () => createArray(store, { path, shape: [1], dtype: "uint8" }),
      ]) {
        const error = await rejection(attempt());
        if (!isZarrError(error, "InvalidKeyError")) throw error;
        expect(error.key).toBe(path);
      }
    }
    expect(store.size).toBe(0);
  });
});

describe("a broken metadata document", () => {
  it("is a MetadataError carrying the document's key and the node's path", async () => {
    const { store } = await writtenArray([bytesCodec]);
    const key = "g/arr/zarr.json";
    const doc = JSON.parse(new TextDecoder().decode(store.get(key)));
    store.set(key, new TextEncoder().encode(JSON.stringify({ ...doc, fill_value: "many" })));
    const error = await rejection(openArray(store, { path: "g/arr" }));
    if (!isZarrError(error, "MetadataError")) throw error;
    expect(error).toMatchObject({ key, path: "g/arr" });
    expect(error.message).toContain(`/${key}`);
  });

  it("that is not JSON is a MetadataError carrying its key", async () => {
    const { store } = await writtenArray([bytesCodec]);
    const key = "g/arr/zarr.json";
    store.set(key, new TextEncoder().encode("{ not json"));
    const error = await rejection(openArray(store, { path: "g/arr" }));
    if (!isZarrError(error, "MetadataError")) throw error;
    expect(error.key).toBe(key);
  });
});

describe("a broken v2 metadata document", () => {
  /** A v2 hierarchy: the group `g` (with attributes) and the array `g/arr` (with attributes). */
  async function v2Hierarchy(): Promise<Map<string, Uint8Array>> {
    const store = new Map<string, Uint8Array>();
    await createGroup(store, { path: "g", zarrFormat: 2, attributes: { a: 1 } });
    await createArray(store, {
      path: "g/arr",
      shape: [4],
      dtype: "int32",
      zarrFormat: 2,
      attributes: { b: 2 },
    });
    return store;
  }
  const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
  const edited = (store: Map<string, Uint8Array>, key: string, change: object) =>
    text({ ...JSON.parse(new TextDecoder().decode(store.get(key))), ...change });

  // Each case breaks one document; the error names it (key) and the node (path).
  const cases: [string, string, string, (store: Map<string, Uint8Array>) => Uint8Array][] = [
    ["a bad shape", "g/arr", "g/arr/.zarray", (s) => edited(s, "g/arr/.zarray", { shape: "x" })],
    ["not JSON", "g/arr", "g/arr/.zarray", () => new TextEncoder().encode("{ not json")],
    ["a list", "g/arr", "g/arr/.zattrs", () => text([1, 2])],
    ["not JSON", "g/arr", "g/arr/.zattrs", () => new TextEncoder().encode("nope")],
    ["an unknown format", "g", "g/.zgroup", () => text({ zarr_format: 7 })],
    ["a string", "g", "g/.zattrs", () => text("attributes")],
  ];
  for (const [what, path, key, broken] of cases) {
    it(`${key} holding ${what} is a MetadataError carrying that key and the node's path`, async () => {
      const store = await v2Hierarchy();
      store.set(key, broken(store));
      const error = await rejection(open(store, { path, zarrFormat: 2 }));
      if (!isZarrError(error, "MetadataError")) throw error;
      expect(error).toMatchObject({ key, path });
      expect(error.message).toContain(`/${key}`);
    });
  }

  it("a broken .zmetadata carries its key and the group's path", async () => {
    const store = await v2Hierarchy();
    await consolidateMetadata(store, { path: "g" });
    store.set("g/.zmetadata", text({ zarr_consolidated_format: 1, metadata: [] }));
    const error = await rejection(openGroup(store, { path: "g" }));
    if (!isZarrError(error, "MetadataError")) throw error;
    expect(error).toMatchObject({ key: "g/.zmetadata", path: "g" });
  });
});

describe("a node error", () => {
  it("carries the node's path", async () => {
    const store = new Map<string, Uint8Array>();
    await createGroup(store, { path: "g" });
    const error = await rejection(createArray(store, { path: "g", shape: [1], dtype: "uint8" }));
    if (!isZarrError(error, "ContainsGroupError")) throw error;
    expect(error.path).toBe("g");
    expect(error.message).toContain('"/g"');
    expect(isZarrError(error, "NodeError")).toBe(true);
  });

  it("a missing node is a NotFoundError carrying where it was looked for", async () => {
    const error = await rejection(openArray(new Map(), { path: "nothing/here" }));
    if (!isZarrError(error, "NotFoundError")) throw error;
    expect(error.path).toContain("nothing/here");
  });
});
