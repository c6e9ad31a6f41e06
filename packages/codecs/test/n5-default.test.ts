// The n5_default codec (zarr-extensions codecs/n5_default): N5 default-mode blocks, a header of
// the block's shape then its elements in F order, big-endian, compressed. Checked against the
// registry's layout byte for byte, and against N5 arrays zarr-python 2 writes (zarr.n5), read and
// written through the array API.
import { mkdirSync, writeFileSync } from "node:fs";
import { createArray, openArray } from "@z/array";
import {
  type ArrayToBytesCodec,
  type ChunkSpec,
  CodecConfigError,
  DecodeError,
  loadCodecs,
  resolveCodec,
} from "@z/codecs";
import { type JsonObject, resolveDataTypeV3 } from "@z/metadata";
import { type Chunk, cOrderStrides } from "@z/ndarray";
import { FsStore } from "@z/store-fs";
import { havePython, runPython, tempDir } from "@z/test-utils";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

beforeAll(() => loadCodecs(["n5_default", "transpose", "gzip", "zstd"]));

const spec = (dtype: string, shape: number[], fillValue: unknown = 0): ChunkSpec => ({
  shape,
  dataType: resolveDataTypeV3(dtype),
  fillValue,
});

const n5Codecs = (ndim: number, compressor?: JsonObject): JsonObject[] => [
  {
    name: "transpose",
    configuration: { order: Array.from({ length: ndim }, (_, i) => ndim - 1 - i) },
  },
  { name: "bytes", configuration: { endian: "big" } },
  ...(compressor ? [compressor] : []),
];

const build = (s: ChunkSpec, codecs: JsonObject[] = n5Codecs(s.shape.length)) =>
  resolveCodec(
    { name: "n5_default", configuration: { codecs }, mustUnderstand: true },
    { spec: s, zarrFormat: 3 },
  ) as ArrayToBytesCodec;

const chunkOf = (data: Chunk["data"], shape: number[]): Chunk => ({
  data,
  shape,
  stride: cOrderStrides(shape),
});

/** A block as the registry lays it out: header, then uint16 elements in F order, big-endian. */
function referenceBlock(shape: number[], values: number[]): Uint8Array {
  const out = new Uint8Array(4 + 4 * shape.length + 2 * values.length);
  const view = new DataView(out.buffer);
  view.setUint16(2, shape.length);
  for (const [i, extent] of shape.entries()) view.setUint32(4 + 4 * i, extent);
  const stride = cOrderStrides(shape);
  const n = values.length;
  for (let f = 0; f < n; f++) {
    // f counts in F order (first axis fastest); c is the same element's C-order index.
    let rest = f;
    let c = 0;
    for (let axis = 0; axis < shape.length; axis++) {
      c += (rest % shape[axis]) * stride[axis];
      rest = Math.floor(rest / shape[axis]);
    }
    view.setUint16(4 + 4 * shape.length + 2 * f, values[c]);
  }
  return out;
}

describe("n5_default blocks", () => {
  it("are the registry's layout byte for byte, and decode back, for any shape", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }),
        async (shape) => {
          const s = spec("uint16", shape);
          const n = shape.reduce((a, b) => a * b, 1);
          const values = Array.from({ length: n }, (_, i) => (i * 2654435761) % 65536);
          const codec = build(s);
          const block = await codec.encode(chunkOf(Uint16Array.from(values), shape), s);
          expect(Buffer.from(block).toString("hex")).toBe(
            Buffer.from(referenceBlock(shape, values)).toString("hex"),
          );
          const back = await codec.decode(block, s);
          expect(Array.from(back.data as Uint16Array)).toEqual(values);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("read truncated edge blocks (N5's Java library writes them) with the fill value beyond", async () => {
    const s = spec("uint16", [3, 4], 7);
    // A [2, 3] block of 1..6 (C order [[1, 2, 3], [4, 5, 6]]).
    const block = referenceBlock([2, 3], [1, 2, 3, 4, 5, 6]);
    const chunk = await build(s).decode(block, s);
    expect(Array.from(chunk.data as Uint16Array)).toEqual([1, 2, 3, 7, 4, 5, 6, 7, 7, 7, 7, 7]);
    expect(chunk.shape).toEqual([3, 4]);
  });

  it("refuse other modes, dimensionalities, short blocks and blocks larger than the chunk", async () => {
    const s = spec("uint16", [2, 2]);
    const codec = build(s);
    const good = referenceBlock([2, 2], [1, 2, 3, 4]);
    const varlength = good.slice();
    varlength[1] = 1;
    await expect(codec.decode(varlength, s)).rejects.toThrow(/mode 1 \(varlength\)/);
    await expect(codec.decode(referenceBlock([4], [1, 2, 3, 4]), s)).rejects.toThrow(
      /the block header has 1 dimensions; the array has 2/,
    );
    await expect(codec.decode(good.subarray(0, 3), s)).rejects.toThrow(DecodeError);
    await expect(codec.decode(good.subarray(0, 9), s)).rejects.toThrow(/shorter than its 12-byte/);
    await expect(codec.decode(referenceBlock([3, 2], [1, 2, 3, 4, 5, 6]), s)).rejects.toThrow(
      /larger than the chunk \[2, 2\]/,
    );
    await expect(codec.decode(good.subarray(0, good.length - 1), s)).rejects.toThrow(DecodeError);
  });

  it("refuse codec lists that are not N5's layout", () => {
    const s = spec("uint16", [2, 3]);
    expect(() => build(s, [n5Codecs(2)[1]])).toThrow(CodecConfigError);
    expect(() =>
      build(s, [{ name: "transpose", configuration: { order: [0, 1] } }, n5Codecs(2)[1]]),
    ).toThrow(/the first codec must be a transpose with order \[1, 0\]/);
    expect(() =>
      build(s, [n5Codecs(2)[0], { name: "bytes", configuration: { endian: "little" } }]),
    ).toThrow(/the second codec must be bytes with endian "big"/);
    expect(() =>
      build(s, [...n5Codecs(2), { name: "transpose", configuration: { order: [1, 0] } }]),
    ).toThrow(CodecConfigError);
    // One-byte types may leave the byte order out.
    const u8 = spec("uint8", [2, 3]);
    expect(build(u8, [n5Codecs(2)[0], { name: "bytes", configuration: {} }]).name).toBe(
      "n5_default",
    );
  });
});

describe.runIf(havePython("n5_default", ["zarr", "numcodecs"]))(
  "n5_default against zarr-python 2's N5 arrays",
  () => {
    /** The zarr.json that reads an N5 array of these N5 attributes (dimensions in N5's order). */
    function zarrJson(dimensions: number[], blockSize: number[], dtype: string, level: number) {
      return {
        zarr_format: 3,
        node_type: "array",
        shape: dimensions,
        data_type: dtype,
        chunk_grid: { name: "regular", configuration: { chunk_shape: blockSize } },
        chunk_key_encoding: { name: "v2", configuration: { separator: "/" } },
        fill_value: 0,
        codecs: [
          {
            name: "n5_default",
            configuration: {
              codecs: n5Codecs(dimensions.length, { name: "gzip", configuration: { level } }),
            },
          },
        ],
      };
    }

    it("reads what zarr-python writes, and zarr-python reads what we write", async () => {
      const { dir, remove } = tempDir("n5-");
      try {
        // zarr-python's N5 store reverses N5's dimensions: its (5, 7) array is N5's [7, 5].
        const theirs = runPython(`
import json, zarr, numcodecs, numpy as np
s = zarr.n5.N5FSStore(${JSON.stringify(`${dir}/a.n5`)})
z = zarr.create(store=s, shape=(5, 7), chunks=(2, 3), dtype="<i4", compressor=numcodecs.GZip(5), fill_value=0)
z[...] = (np.arange(35).reshape(5, 7) * 1000 - 9000).astype("<i4")
print(json.dumps(z[...].tolist()))
`);
        const values = JSON.parse(theirs) as number[][];
        writeFileSync(
          `${dir}/a.n5/zarr.json`,
          JSON.stringify(zarrJson([7, 5], [3, 2], "int32", 5)),
        );
        const arr = await openArray(new FsStore(`${dir}/a.n5`));
        const all = await arr.get();
        expect(all.shape).toEqual([7, 5]);
        // Ours is zarr-python's transposed.
        const expected = Array.from({ length: 7 }, (_, x) =>
          Array.from({ length: 5 }, (_, y) => values[y][x]),
        ).flat();
        expect(Array.from(all.data as Int32Array)).toEqual(expected);
        const part = await arr.get([null, 3]);
        expect(Array.from(part.data as Int32Array)).toEqual(values[3]);

        // We write into an N5 array zarr-python created; it reads our blocks.
        mkdirSync(`${dir}/b.n5`);
        runPython(`
import zarr, numcodecs
s = zarr.n5.N5FSStore(${JSON.stringify(`${dir}/b.n5`)})
zarr.create(store=s, shape=(4, 6), chunks=(3, 4), dtype="<f8", compressor=numcodecs.GZip(1), fill_value=0)
`);
        const metadata = { ...zarrJson([6, 4], [4, 3], "float64", 1) };
        const ours = await createArray(new FsStore(`${dir}/b.n5`), {
          shape: metadata.shape,
          chunks: metadata.chunk_grid.configuration.chunk_shape,
          dtype: "float64",
          chunkKeyEncoding: { name: "v2", separator: "/" },
          codecs: metadata.codecs as never,
        });
        const written = Float64Array.from({ length: 24 }, (_, i) => i * 1.25 - 3);
        await ours.set(null, { data: written, shape: [6, 4] });
        const read = JSON.parse(
          runPython(`
import json, zarr
z = zarr.open(zarr.n5.N5FSStore(${JSON.stringify(`${dir}/b.n5`)}), mode="r")
print(json.dumps(z[...].T.ravel().tolist()))
`),
        );
        expect(read).toEqual(Array.from(written));
      } finally {
        remove();
      }
    });
  },
);
