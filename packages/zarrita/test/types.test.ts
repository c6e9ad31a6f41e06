import * as zarr from "@z/zarrita";
import { describe, expect, expectTypeOf, test } from "vitest";

// The types zarrita's own type tests check with snapshots (excluded from the suite run: a
// compiled test has no types), checked here by tsc through expectTypeOf, with the run-time
// answers of `is`.

const metadata = (data_type: zarr.DataType, fill_value: unknown = 0) => ({
  shape: [4],
  data_type,
  chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  codecs: [{ name: "bytes", configuration: { endian: "little" } }],
  fill_value,
  attributes: {},
});

describe("Array.is narrows the data type", () => {
  test("kinds", () => {
    const arr = new zarr.Array(new Map(), "/", metadata("int16")) as zarr.Array;
    expect(arr.is("number")).toBe(true);
    expect(arr.is("bigint")).toBe(false);
    if (arr.is("number")) expectTypeOf(arr.dtype).toEqualTypeOf<zarr.NumberDataType>();
    if (arr.is("bigint")) expectTypeOf(arr.dtype).toEqualTypeOf<zarr.BigintDataType>();
    if (arr.is("string")) expectTypeOf(arr.dtype).toEqualTypeOf<zarr.StringDataType>();
    if (arr.is("boolean")) expectTypeOf(arr.dtype).toEqualTypeOf<"bool">();
    if (arr.is("object")) expectTypeOf(arr.dtype).toEqualTypeOf<"v2:object">();
  });

  test.each([
    ["uint64", "bigint"],
    ["bool", "boolean"],
    ["string", "string"],
    ["v2:U6", "string"],
    ["v2:S6", "string"],
    ["v2:object", "object"],
    ["float32", "number"],
  ] as const)("%s is %s and only that", (dtype, kind) => {
    const arr = new zarr.Array(new Map(), "/", metadata(dtype, null));
    for (const query of ["number", "bigint", "boolean", "string", "object"] as const) {
      expect(arr.is(query)).toBe(query === kind);
    }
    expect(arr.is(dtype)).toBe(true);
  });
});

test("get returns a chunk of the data type's container, and a scalar for a point", async () => {
  const arr = await zarr.create(zarr.root(new Map()).resolve("a"), {
    shape: [2, 3],
    chunkShape: [2, 2],
    dtype: "int32",
  });
  await zarr.set(arr, null, {
    data: new Int32Array([1, 2, 3, 4, 5, 6]),
    shape: [2, 3],
    stride: [3, 1],
  });
  const chunk = await zarr.get(arr, [null, zarr.slice(1, 3)]);
  expectTypeOf(chunk).toEqualTypeOf<zarr.Chunk<"int32">>();
  expectTypeOf(chunk.data).toEqualTypeOf<Int32Array>();
  expect(Array.from(chunk.data)).toEqual([2, 3, 5, 6]);
  const point = await zarr.get(arr, [1, 2]);
  expectTypeOf(point).toEqualTypeOf<number>();
  expect(point).toBe(6);
});
