// Chunk sizes must be greater than zero (regular grid spec; v2 `chunks` likewise): stored
// metadata with a 0 anywhere in its chunk shape is refused when parsed, naming the document and
// the axis. A 0-length array axis is valid and stays so.
import { open, openArray } from "@z/array";
import {
  loadDataTypes,
  MetadataError,
  parseArrayMetadataV2,
  parseArrayMetadataV3,
} from "@z/metadata";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

beforeAll(() => loadDataTypes());

const v3Doc = (shape: number[], chunkShape: number[]) => ({
  zarr_format: 3,
  node_type: "array",
  shape,
  data_type: "uint8",
  chunk_grid: { name: "regular", configuration: { chunk_shape: chunkShape } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 0,
  codecs: [{ name: "bytes" }],
});
const v2Doc = (shape: number[], chunks: number[]) => ({
  zarr_format: 2,
  shape,
  chunks,
  dtype: "|u1",
  compressor: null,
  filters: null,
  fill_value: 0,
  order: "C",
});

/** A shape (0-length axes allowed), a chunk shape with a 0 at `axis`, and that axis. */
const withZeroChunk = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 50 })), {
    minLength: 1,
    maxLength: 5,
  })
  .chain((dims) =>
    fc.record({
      shape: fc.constant(dims.map(([extent]) => extent)),
      chunks: fc.constant(dims.map(([, chunk]) => chunk)),
      axis: fc.integer({ min: 0, max: dims.length - 1 }),
    }),
  )
  .map(({ shape, chunks, axis }) => ({
    shape,
    chunks: chunks.map((c, i) => (i === axis ? 0 : c)),
    axis,
  }));

/** The error a parse throws, or undefined. */
function errorOf(parse: () => unknown): unknown {
  try {
    parse();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("a chunk size of 0", () => {
  it("is refused in v3 chunk_shape, naming the document and the axis", () => {
    fc.assert(
      fc.property(withZeroChunk, ({ shape, chunks, axis }) => {
        const error = errorOf(() => parseArrayMetadataV3(v3Doc(shape, chunks), "x/y/zarr.json"));
        expect(error).toBeInstanceOf(MetadataError);
        expect((error as Error).message).toContain("x/y/zarr.json chunk_grid");
        expect((error as Error).message).toContain(`at axis ${axis} of [${chunks.join(",")}]`);
      }),
    );
  });

  it("is refused in v2 chunks, naming the document and the axis", () => {
    fc.assert(
      fc.property(withZeroChunk, ({ shape, chunks, axis }) => {
        const error = errorOf(() =>
          parseArrayMetadataV2(v2Doc(shape, chunks), undefined, "x/y/.zarray"),
        );
        expect(error).toBeInstanceOf(MetadataError);
        expect((error as Error).message).toContain("x/y/.zarray");
        expect((error as Error).message).toContain(`at axis ${axis} of [${chunks.join(",")}]`);
      }),
    );
  });

  it("makes stored metadata fail to open, naming its key", async () => {
    const encode = (doc: object) => new TextEncoder().encode(JSON.stringify(doc));
    const store = new Map<string, Uint8Array>([
      ["a/zarr.json", encode(v3Doc([4, 4], [2, 0]))],
      ["b/.zarray", encode(v2Doc([4, 4], [0, 2]))],
    ]);
    await expect(openArray(store, { path: "a" })).rejects.toThrow(MetadataError);
    await expect(open(store, { path: "a" })).rejects.toThrow(/a\/zarr\.json.*axis 1 of \[2,0\]/);
    await expect(openArray(store, { path: "b" })).rejects.toThrow(MetadataError);
    await expect(open(store, { path: "b" })).rejects.toThrow(/b\/\.zarray.*axis 0 of \[0,2\]/);
  });
});

describe("a 0-length array axis", () => {
  it("parses with positive chunk sizes in v3 and v2", () => {
    fc.assert(
      fc.property(withZeroChunk, ({ shape, chunks, axis }) => {
        const zeroShape = shape.map((n, i) => (i === axis ? 0 : n));
        const positive = chunks.map((c) => c || 1);
        expect(parseArrayMetadataV3(v3Doc(zeroShape, positive)).shape).toEqual(zeroShape);
        expect(parseArrayMetadataV2(v2Doc(zeroShape, positive)).shape).toEqual(zeroShape);
      }),
    );
  });

  it("opens and reads as an empty array", async () => {
    const encode = (doc: object) => new TextEncoder().encode(JSON.stringify(doc));
    const store = new Map([["e/zarr.json", encode(v3Doc([0, 3], [2, 3]))]]);
    const array = await openArray(store, { path: "e" });
    expect(array.shape).toEqual([0, 3]);
    expect((await array.get()).shape).toEqual([0, 3]);
  });
});
