import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fixturePath, haveFixtures } from "@z/test-utils";
import {
  isZarrError,
  type JsonObject,
  loadDataTypes,
  parseArrayMetadataV2,
  parseArrayMetadataV3,
} from "@z/zarr";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { migrateArrayDocument, migrateGroupDocument } from "../src/migrate/v3-documents.js";

beforeAll(() => loadDataTypes());

/** The .zarray zarr-python 2 writes for an array of these properties. */
function zarray(fields: Partial<JsonObject> & { dtype: JsonObject["dtype"] }): JsonObject {
  return {
    zarr_format: 2,
    shape: [4],
    chunks: [4],
    fill_value: 0,
    order: "C",
    filters: null,
    compressor: null,
    dimension_separator: ".",
    ...fields,
  };
}

const migrate = (doc: JsonObject, zattrs?: JsonObject) =>
  migrateArrayDocument({ path: "a", zarray: doc, zattrs });

const present = haveFixtures("zarr migrate documents against zarr-python 3.1's");

describe.skipIf(!present)(
  "migrated zarr.json against what zarr-python 3.1 writes (zarrita v3 fixtures)",
  () => {
    // Arrays of the v3 fixtures with the v2 array that holds the same data the same way.
    const cases: [string, JsonObject][] = [
      ["1d.contiguous.gzip.i2", zarray({ dtype: "<i2", compressor: { id: "gzip", level: 5 } })],
      ["1d.contiguous.raw.i2", zarray({ dtype: "<i2" })],
      [
        "1d.contiguous.i4",
        zarray({
          dtype: "<i4",
          compressor: { id: "blosc", cname: "zstd", clevel: 5, shuffle: 0, blocksize: 0 },
        }),
      ],
      [
        "1d.contiguous.f4.le",
        zarray({
          dtype: "<f4",
          fill_value: 0.0,
          compressor: { id: "blosc", cname: "zstd", clevel: 5, shuffle: 0, blocksize: 0 },
        }),
      ],
      [
        "1d.contiguous.f4.be",
        zarray({
          dtype: ">f4",
          fill_value: 0.0,
          compressor: { id: "blosc", cname: "zstd", clevel: 5, shuffle: 0, blocksize: 0 },
        }),
      ],
    ];

    for (const [name, v2] of cases) {
      it(`${name}: every key as zarr-python wrote it, the chunk keys v2's`, () => {
        const expected = JSON.parse(
          readFileSync(fixturePath("zarrita", "v3", "data.zarr", name, "zarr.json"), "utf8"),
        );
        const got = migrate(v2);
        // The same keys, in zarr-python's order; only the chunk key encoding is the migration's own.
        expect(Object.keys(got)).toEqual(Object.keys(expected));
        for (const key of Object.keys(expected)) {
          if (key === "chunk_key_encoding") continue;
          expect([key, got[key]]).toEqual([key, expected[key]]);
        }
        expect(got.chunk_key_encoding).toEqual({ name: "v2", configuration: { separator: "." } });
      });
    }

    it("a group's zarr.json has the keys of zarr-python's, in its order", () => {
      const expected = JSON.parse(
        readFileSync(fixturePath("zarrita", "v3", "data.zarr", "zarr.json"), "utf8"),
      );
      expect(migrateGroupDocument({ path: "" })).toEqual(expected);
      expect(Object.keys(migrateGroupDocument({ path: "", zattrs: { a: 1 } }))).toEqual(
        Object.keys(expected),
      );
    });
  },
);

/** Arrays zarrs migrated in place: each folder holds the v2 documents and zarrs's zarr.json. */
const zarrsMigrated = () => {
  const root = fixturePath("external", "zarrs-head", "zarrs", "tests", "data", "v3");
  return readdirSync(root)
    .map((name) => path.join(root, name))
    .filter((dir) => existsSync(path.join(dir, ".zarray")));
};

describe.skipIf(!present)(
  "migrated zarr.json against zarrs's migration of the same v2 arrays",
  () => {
    it("every field zarrs writes, for blosc, bz2, gzip, zstd, none, transpose, zfpy and pcodec", () => {
      const dirs = zarrsMigrated();
      expect(dirs.length).toBeGreaterThanOrEqual(9);
      const read = (dir: string, name: string) =>
        JSON.parse(readFileSync(path.join(dir, name), "utf8"));
      for (const dir of dirs) {
        const zattrs = existsSync(path.join(dir, ".zattrs")) ? read(dir, ".zattrs") : undefined;
        const got = migrateArrayDocument({ path: "a", zarray: read(dir, ".zarray"), zattrs });
        const expected = read(dir, "zarr.json");
        // zarrs writes the same fields in another order, without storage_transformers.
        for (const key of Object.keys(expected))
          expect([dir, key, got[key]]).toEqual([dir, key, expected[key]]);
        expect(got.storage_transformers).toEqual([]);
      }
    });
  },
);

describe("migrated zarr.json as zarr-python 3.1's migration tests expect it", () => {
  it("uint16 with blosc: bytes little-endian, blosc with the element size, attributes, fill value", () => {
    const got = migrate(
      zarray({
        dtype: "<u2",
        shape: [10, 10],
        chunks: [10, 10],
        fill_value: 2,
        compressor: { id: "blosc", cname: "zstd", clevel: 3, shuffle: 1, blocksize: 0 },
      }),
      { baz: 42, qux: [1, 4, 7, 12] },
    );
    expect(got).toEqual({
      shape: [10, 10],
      data_type: "uint16",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [10, 10] } },
      chunk_key_encoding: { name: "v2", configuration: { separator: "." } },
      fill_value: 2,
      codecs: [
        { name: "bytes", configuration: { endian: "little" } },
        {
          name: "blosc",
          configuration: {
            typesize: 2,
            cname: "zstd",
            clevel: 3,
            shuffle: "shuffle",
            blocksize: 0,
          },
        },
      ],
      attributes: { baz: 42, qux: [1, 4, 7, 12] },
      zarr_format: 3,
      node_type: "array",
      storage_transformers: [],
    });
  });

  it("zstd and gzip become the v3 codecs; other compressors numcodecs.<id> with their configuration", () => {
    const codecs = (compressor: JsonObject) => migrate(zarray({ dtype: "<u2", compressor })).codecs;
    expect(codecs({ id: "zstd", level: 3 })).toEqual([
      { name: "bytes", configuration: { endian: "little" } },
      { name: "zstd", configuration: { level: 3, checksum: false } },
    ]);
    expect(codecs({ id: "gzip", level: 3 })).toContainEqual({
      name: "gzip",
      configuration: { level: 3 },
    });
    const lzma: JsonObject = {
      id: "lzma",
      format: 3,
      check: -1,
      preset: null,
      filters: [
        { id: 3, dist: 4 },
        { id: 33, preset: 1 },
      ],
    };
    expect(codecs(lzma)).toContainEqual({
      name: "numcodecs.lzma",
      configuration: {
        format: 3,
        check: -1,
        preset: null,
        filters: [
          { id: 3, dist: 4 },
          { id: 33, preset: 1 },
        ],
      },
    });
    expect(codecs({ id: "zlib", level: 1 })).toContainEqual({
      name: "numcodecs.zlib",
      configuration: { level: 1 },
    });
  });

  it("a delta filter becomes numcodecs.delta; order F a transpose first; big-endian the bytes codec's endian", () => {
    const got = migrate(
      zarray({
        dtype: ">u2",
        shape: [2, 3, 4],
        chunks: [1, 2, 3],
        order: "F",
        filters: [{ id: "delta", dtype: "<u2", astype: "<u2" }],
      }),
    );
    expect(got.codecs).toEqual([
      { name: "transpose", configuration: { order: [2, 1, 0] } },
      { name: "numcodecs.delta", configuration: { dtype: "<u2", astype: "<u2" } },
      { name: "bytes", configuration: { endian: "big" } },
    ]);
  });

  it("types without a byte order get a bytes codec without configuration", () => {
    for (const dtype of ["|u1", "|i1", "|b1", "|S5", "|V3"])
      expect(migrate(zarray({ dtype, fill_value: null })).codecs).toEqual([{ name: "bytes" }]);
  });

  it("strings, raw bytes, times and records by their v3 names; byte-string fill values lose trailing NULs", () => {
    expect(migrate(zarray({ dtype: "|S4", fill_value: "YWIAAA==" }))).toMatchObject({
      data_type: { name: "null_terminated_bytes", configuration: { length_bytes: 4 } },
      fill_value: "YWI=",
    });
    expect(migrate(zarray({ dtype: ">U3", fill_value: "ab" }))).toMatchObject({
      data_type: { name: "fixed_length_utf32", configuration: { length_bytes: 12 } },
      fill_value: "ab",
      codecs: [{ name: "bytes", configuration: { endian: "big" } }],
    });
    expect(migrate(zarray({ dtype: "|V2", fill_value: "AAE=" }))).toMatchObject({
      data_type: { name: "raw_bytes", configuration: { length_bytes: 2 } },
      fill_value: "AAE=",
    });
    expect(migrate(zarray({ dtype: "<M8[10s]", fill_value: -(2n ** 63n) }))).toMatchObject({
      data_type: { name: "numpy.datetime64", configuration: { unit: "s", scale_factor: 10 } },
      fill_value: -(2n ** 63n),
    });
    expect(
      migrate(
        zarray({
          dtype: [
            ["x", "<i4"],
            ["y", "|u1"],
          ],
          fill_value: "AAAAAAA=",
        }),
      ),
    ).toMatchObject({
      data_type: {
        name: "structured",
        configuration: {
          fields: [
            ["x", "int32"],
            ["y", "uint8"],
          ],
        },
      },
      codecs: [{ name: "bytes" }],
      fill_value: "AAAAAAA=",
    });
  });

  it("a null fill value becomes the type's zero", () => {
    const fill = (dtype: string) => migrate(zarray({ dtype, fill_value: null })).fill_value;
    expect([fill("<i4"), fill("<f8"), fill("<c8"), fill("|b1"), fill("|S3"), fill("<U2")]).toEqual([
      0,
      0,
      [0, 0],
      false,
      "",
      "",
    ]);
    expect(fill("|V2")).toBe("AAA=");
  });

  const refused: [string, JsonObject, RegExp][] = [
    [
      "a .zarray whose shape is not a list",
      zarray({ dtype: "<i4", shape: 5 }),
      /"shape" is not a list/,
    ],
    [
      "an object data type",
      zarray({ dtype: "|O", filters: [{ id: "vlen-utf8" }] }),
      /object data types/,
    ],
    [
      "a codec without a v3 equivalent",
      zarray({
        dtype: "<u2",
        filters: [{ id: "categorize", labels: ["a"], dtype: "<U1", astype: "|u1" }],
      }),
      /no v3 codec numcodecs.categorize/,
    ],
    [
      "a compressor given as a filter",
      zarray({ dtype: "<u2", filters: [{ id: "zstd", level: 3 }] }),
      /numcodecs.zstd is a bytes-to-bytes codec, not an array-to-array codec/,
    ],
    [
      "a filter given as the compressor",
      zarray({ dtype: "<u2", compressor: { id: "delta", dtype: "<u2" } }),
      /numcodecs.delta is an array-to-array codec, not a bytes-to-bytes codec/,
    ],
    [
      "a big-endian record field",
      zarray({ dtype: [["x", ">i4"]], fill_value: null }),
      /big-endian/,
    ],
    [
      "a record field with a shape",
      zarray({ dtype: [["x", "<i4", [2]]], fill_value: null }),
      /subarray/,
    ],
    ["a type v3 has no name for", zarray({ dtype: "<f16" }), /no v3 data type/],
  ];
  for (const [what, doc, reason] of refused) {
    it(`refuses ${what}, naming the array and the reason`, () => {
      let error: unknown;
      try {
        migrate(doc);
      } catch (e) {
        error = e;
      }
      expect(isZarrError(error, "MigrationError")).toBe(true);
      expect((error as Error).message).toMatch(/^Cannot migrate \/a to Zarr v3: /);
      expect((error as Error).message).toMatch(reason);
      expect((error as { path: string }).path).toBe("a");
    });
  }
});

describe("migrated zarr.json, property: the v3 array our parser reads is the v2 array", () => {
  const numeric = [
    "i1",
    "u1",
    "b1",
    "i2",
    "u2",
    "i4",
    "u4",
    "i8",
    "u8",
    "f2",
    "f4",
    "f8",
    "c8",
    "c16",
  ];
  const compressors: (JsonObject | null)[] = [
    null,
    { id: "gzip", level: 1 },
    { id: "zstd", level: 2, checksum: true },
    { id: "blosc", cname: "lz4", clevel: 5, shuffle: -1, blocksize: 0 },
    { id: "zlib", level: 4 },
  ];
  const v2Array = fc
    .record({
      type: fc.constantFrom(...numeric),
      big: fc.boolean(),
      shape: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 3 }),
      order: fc.constantFrom("C", "F"),
      separator: fc.constantFrom(".", "/"),
      compressor: fc.constantFrom(...compressors),
    })
    .map(({ type, big, shape, order, separator, compressor }) =>
      zarray({
        dtype: `${type === "b1" || type.endsWith("1") ? "|" : big ? ">" : "<"}${type}`,
        shape,
        chunks: shape.map((n) => Math.max(1, n)),
        fill_value:
          type === "b1"
            ? true
            : type.startsWith("c")
              ? [1, "NaN"]
              : type.startsWith("f")
                ? "-Infinity"
                : 7,
        order,
        dimension_separator: separator,
        compressor,
      }),
    );

  it("same shape, chunks, data type, fill value and chunk keys; codecs in zarr-python's order", () => {
    fc.assert(
      fc.property(v2Array, (doc) => {
        const v2 = parseArrayMetadataV2(doc);
        const v3 = parseArrayMetadataV3(migrate(doc));
        expect(v3.shape).toEqual(v2.shape);
        expect(v3.chunkGrid.chunkShape).toEqual(v2.chunkGrid.chunkShape);
        expect(v3.dataType.toV3()).toEqual(v2.dataType.toV3());
        expect(v3.fillValueJson).toEqual(v2.dataType.fillToJson(v2.fillValue, 3));
        const coords = v2.shape.map((n) => Math.max(0, n - 1));
        expect(v3.chunkKeyEncoding.encode(coords)).toBe(v2.chunkKeyEncoding.encode(coords));
        const names = v3.codecs.map((c) => c.name);
        const bytesAt = names.indexOf("bytes");
        expect(names.slice(0, bytesAt)).toEqual(doc.order === "F" ? ["transpose"] : []);
        expect(names.length - bytesAt - 1).toBe(doc.compressor === null ? 0 : 1);
      }),
      { numRuns: 200 },
    );
  });
});
