import { readdirSync } from "node:fs";
import { tempDir } from "@z/test-utils";
import {
  BoundsError,
  ChecksumError,
  createArray,
  DecodeError,
  FsStore,
  InvalidKeyError,
  isZarrError,
  MetadataError,
  open,
  openArray,
  slice,
  UnknownCodecError,
  UnknownDataTypeError,
} from "@z/zarr";
import { describe, expect, it } from "vitest";

const encode = (value: unknown) =>
  new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value));

const V3_ARRAY = {
  zarr_format: 3,
  node_type: "array",
  shape: [4],
  data_type: "int32",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 0,
  codecs: [{ name: "bytes", configuration: { endian: "little" } }],
};

function storeWith(doc: unknown, key = "zarr.json"): Map<string, Uint8Array> {
  return new Map([[key, encode(doc)]]);
}

describe("malformed metadata", () => {
  it("JSON that does not parse: MetadataError with key and position", async () => {
    const store = storeWith('{"zarr_format": 3,\n  "node_type": "array", oops}');
    const error = await open(store).catch((e) => e);
    expect(error).toBeInstanceOf(MetadataError);
    expect(error.message).toMatch(/Malformed JSON in \/zarr\.json at line 2, column \d+/);
    expect(isZarrError(error)).toBe(true);
  });

  it("a missing required field names the field and the document", async () => {
    const { fill_value: _, ...doc } = V3_ARRAY;
    await expect(open(storeWith(doc))).rejects.toThrow(
      /\/zarr\.json is missing the required field "fill_value"/,
    );
    await expect(
      open(
        storeWith(
          { zarr_format: 2, shape: [1], dtype: "<i4", compressor: null, fill_value: 0 },
          ".zarray",
        ),
      ),
    ).rejects.toThrow(/\/\.zarray is missing the required field "chunks"/);
  });

  it("wrong field types and inconsistent shapes", async () => {
    await expect(open(storeWith({ ...V3_ARRAY, shape: [-1] }))).rejects.toThrow(MetadataError);
    await expect(open(storeWith({ ...V3_ARRAY, shape: "big" }))).rejects.toThrow(
      /"shape" must be a list/,
    );
    await expect(
      open(
        storeWith({
          ...V3_ARRAY,
          chunk_grid: { name: "regular", configuration: { chunk_shape: [0] } },
        }),
      ),
    ).rejects.toThrow(/chunk extents must be positive integers/);
    await expect(open(storeWith({ ...V3_ARRAY, codecs: [] }))).rejects.toThrow(
      /"codecs" must be a non-empty list/,
    );
    await expect(open(storeWith({ ...V3_ARRAY, fill_value: "zero" }))).rejects.toThrow(
      /Invalid int32 fill value/,
    );
    await expect(open(storeWith({ ...V3_ARRAY, fill_value: 2 ** 40 }))).rejects.toThrow(
      /outside the range/,
    );
  });

  it("an unknown extension field that must be understood", async () => {
    await expect(
      open(storeWith({ ...V3_ARRAY, spatial: { must_understand: true } })),
    ).rejects.toThrow(/"spatial"/);
    const ok = await open(storeWith({ ...V3_ARRAY, spatial: { must_understand: false } }));
    expect(ok.toString()).toMatch(/ZarrArray/);
  });
});

describe("unknown extensions", () => {
  it("an unknown codec: UnknownCodecError at open, skipped when must_understand is false", async () => {
    const codecs = [{ name: "bytes", configuration: { endian: "little" } }, { name: "frobnicate" }];
    await expect(open(storeWith({ ...V3_ARRAY, codecs }))).rejects.toThrow(UnknownCodecError);
    await expect(open(storeWith({ ...V3_ARRAY, codecs }))).rejects.toThrow(
      /Unknown codec "frobnicate" in \/zarr\.json codecs/,
    );
    const lenient = [...codecs.slice(0, 1), { name: "frobnicate", must_understand: false }];
    expect((await open(storeWith({ ...V3_ARRAY, codecs: lenient }))).toString()).toMatch(
      /ZarrArray/,
    );
  });

  it("an unknown data type: UnknownDataTypeError in v3 and v2", async () => {
    await expect(open(storeWith({ ...V3_ARRAY, data_type: "int33" }))).rejects.toThrow(
      UnknownDataTypeError,
    );
    const v2 = {
      zarr_format: 2,
      shape: [1],
      chunks: [1],
      dtype: "<q9",
      compressor: null,
      fill_value: 0,
      filters: null,
      order: "C",
    };
    await expect(open(storeWith(v2, ".zarray"))).rejects.toThrow(
      /Unknown data type "<q9" in \/\.zarray/,
    );
  });

  it("creating with an unknown codec or data type writes nothing", async () => {
    const store = new Map<string, Uint8Array>();
    await expect(
      createArray(store, { shape: [4], dtype: "int32", compressors: ["nope"] }),
    ).rejects.toThrow(UnknownCodecError);
    await expect(createArray(store, { shape: [4], dtype: "complex256" })).rejects.toThrow(
      UnknownDataTypeError,
    );
    expect(store.size).toBe(0);
  });
});

describe("corrupt chunks", () => {
  const compressors = [
    ["gzip", { name: "gzip", configuration: { level: 5 } }],
    ["zstd", { name: "zstd", configuration: { level: 3, checksum: false } }],
    [
      "blosc",
      {
        name: "blosc",
        configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 },
      },
    ],
    ["zlib", { id: "zlib", level: 5 }],
    ["lz4", { id: "lz4", acceleration: 1 }],
    ["none", undefined],
  ] as const;

  for (const [label, compressor] of compressors) {
    it(`${label}: truncated and corrupted chunk bytes are a DecodeError naming the chunk`, async () => {
      const store = new Map<string, Uint8Array>();
      const arr = await createArray(store, {
        shape: [1000],
        chunks: [1000],
        dtype: "float32",
        compressors: compressor ? [compressor as never] : null,
      });
      await arr.set(
        null,
        Float32Array.from({ length: 1000 }, (_, i) => Math.sin(i)),
      );
      const good = store.get("c/0")!;
      store.set("c/0", good.subarray(0, Math.floor(good.length / 2)));
      await expect(arr.get()).rejects.toThrow(DecodeError);
      await expect(arr.get()).rejects.toThrow(/chunk \/c\/0/);
      const flipped = good.slice();
      for (let i = 0; i < flipped.length; i += 7) flipped[i] ^= 0x5a;
      store.set("c/0", flipped);
      // Scrambled bytes must fail loudly, or (for the rare codec without integrity checks whose
      // framing survives) decode to the right size; never crash, hang or mis-size.
      const result = await arr.get().then(
        (r) => r,
        (e) => e,
      );
      if (result instanceof Error) expect(result).toBeInstanceOf(DecodeError);
      else expect(result.data.length).toBe(1000);
    });
  }

  it("a crc32c mismatch is a ChecksumError", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [8],
      chunks: [8],
      dtype: "uint8",
      compressors: [{ name: "crc32c" }],
    });
    await arr.set(null, 3);
    const bytes = store.get("c/0")!.slice();
    bytes[2] ^= 1;
    store.set("c/0", bytes);
    await expect(arr.get()).rejects.toThrow(ChecksumError);
    await expect(arr.get()).rejects.toThrow(/crc32c mismatch/);
  });

  it("a chunk of the wrong size is an error, not garbage", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [4],
      chunks: [4],
      dtype: "int32",
      compressors: null,
    });
    store.set("c/0", new Uint8Array(12));
    await expect(arr.get()).rejects.toThrow(
      /the chunk has 12 bytes; 4 int32 elements need exactly 16/,
    );
  });
});

describe("hostile keys and paths", () => {
  it("a path with .. is refused and nothing is written outside the store", async () => {
    const { dir, remove } = tempDir("z-hostile-");
    try {
      const store = new FsStore(`${dir}/inner`);
      await expect(
        createArray(store, { path: "../escape", shape: [1], dtype: "int8" }),
      ).rejects.toThrow(InvalidKeyError);
      await expect(store.set("a/../../x", new Uint8Array(1))).rejects.toThrow(InvalidKeyError);
      await expect(store.get("../x")).rejects.toThrow(InvalidKeyError);
      await expect(openArray(store, { path: "a/./b" })).rejects.toThrow(InvalidKeyError);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      remove();
    }
  });
});

describe("selections", () => {
  it("out-of-bounds selections are a BoundsError and write nothing", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [3, 3],
      chunks: [2, 2],
      dtype: "int8",
      compressors: null,
    });
    const before = new Map(store);
    await expect(arr.get([3, 0])).rejects.toThrow(BoundsError);
    await expect(arr.set([0, -4], 1)).rejects.toThrow(
      /Index -4 is out of bounds for axis 1 with size 3/,
    );
    await expect(arr.set([slice(0, 2), 0], new Int8Array(3))).rejects.toThrow(
      /has 3 elements; the selection \[2\] has 2/,
    );
    expect(store).toEqual(before);
  });
});
