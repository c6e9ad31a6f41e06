import { createArray, openArray } from "@z/array";
import type { TypedArray } from "@z/ndarray";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type DownsampleMethod,
  OmeOptionError,
  openMultiscale,
  readTile,
  writePyramid,
} from "../src/index.js";

type Dtype = "uint8" | "int16" | "float32" | "float64";
const CTORS: Record<Dtype, new (n: number) => TypedArray> = {
  uint8: Uint8Array,
  int16: Int16Array,
  float32: Float32Array,
  float64: Float64Array,
};

/**
 * The reference: each input element adds to the output element `floor(i / factor)` along
 * every axis; a mean divides the sums by the counts, a nearest keeps the first element.
 */
function reference(
  data: ArrayLike<number>,
  shape: number[],
  factors: number[],
  method: DownsampleMethod,
  Ctor: new (n: number) => TypedArray,
): { data: TypedArray; shape: number[] } {
  const outShape = shape.map((n, d) => Math.ceil(n / factors[d]));
  const size = outShape.reduce((a, b) => a * b, 1);
  const sums = new Float64Array(size);
  const counts = new Float64Array(size);
  const first = new Float64Array(size).fill(Number.NaN);
  const index = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < data.length; i++) {
    let o = 0;
    for (let d = 0; d < shape.length; d++) o = o * outShape[d] + Math.floor(index[d] / factors[d]);
    sums[o] += data[i];
    counts[o]++;
    if (Number.isNaN(first[o])) first[o] = data[i];
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  const out = new Ctor(size) as unknown as number[];
  const integer = !(out instanceof Float32Array || out instanceof Float64Array);
  for (let o = 0; o < size; o++) {
    const mean = sums[o] / counts[o];
    out[o] =
      method === "nearest"
        ? first[o]
        : integer
          ? Math.sign(mean) * Math.round(Math.abs(mean))
          : mean;
  }
  return { data: out as unknown as TypedArray, shape: outShape };
}

function randomValues(dtype: Dtype, size: number, seed: number): TypedArray {
  const out = new CTORS[dtype](size) as unknown as number[];
  let s = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const u = s / 2 ** 32;
    out[i] =
      dtype === "uint8"
        ? Math.floor(u * 256)
        : dtype === "int16"
          ? Math.floor(u * 65536) - 32768
          : (u - 0.5) * 1e4;
  }
  return out as unknown as TypedArray;
}

const AXIS_SETS: Record<number, string[]> = {
  2: ["y", "x"],
  3: ["c", "y", "x"],
  4: ["c", "z", "y", "x"],
};

describe("writePyramid", () => {
  it("writes every level as the reference downsample of the level before", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 4 }).chain((nd) =>
          fc.record({
            shape: fc.array(fc.integer({ min: 1, max: nd === 2 ? 40 : 12 }), {
              minLength: nd,
              maxLength: nd,
            }),
            chunkSeed: fc.array(fc.integer({ min: 1, max: 16 }), { minLength: nd, maxLength: nd }),
            downsampleZ: fc.boolean(),
          }),
        ),
        fc.constantFrom<Dtype>("uint8", "int16", "float32", "float64"),
        fc.constantFrom<DownsampleMethod>("mean", "nearest"),
        fc.integer({ min: 2, max: 3 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom<"0.4" | "0.5">("0.4", "0.5"),
        fc.boolean(),
        fc.integer(),
        async (
          { shape, chunkSeed, downsampleZ },
          dtype,
          method,
          factor,
          levels,
          version,
          fromArray,
          seed,
        ) => {
          const nd = shape.length;
          const axes = AXIS_SETS[nd];
          const shrinking = downsampleZ && nd === 4 ? ["z", "y", "x"] : ["y", "x"];
          const factors = axes.map((a) => (shrinking.includes(a) ? factor : 1));
          const chunks = chunkSeed.map((c, d) => Math.min(c, shape[d]));
          const size = shape.reduce((a, b) => a * b, 1);
          const data = randomValues(dtype, size, seed);
          const store = new Map<string, Uint8Array>();
          let source: Parameters<typeof writePyramid>[0] = { data, shape };
          if (fromArray) {
            const src = await createArray(new Map(), {
              path: "src",
              shape,
              chunks: shape.map((n) => Math.max(1, Math.ceil(n / 2))),
              dtype,
            });
            await src.set(null, { data, shape });
            source = src;
          }
          const image = await writePyramid(source, store, {
            path: "img",
            levels,
            downsample: method,
            factor,
            downsampleAxes: shrinking,
            chunks,
            version,
            axes,
            concurrency: 3,
          });
          expect(image.version).toBe(version);
          expect(image.levels).toHaveLength(levels);
          let expected = { data, shape };
          for (const [k, level] of image.levels.entries()) {
            if (k > 0)
              expected = reference(
                expected.data as unknown as ArrayLike<number>,
                expected.shape,
                factors,
                method,
                CTORS[dtype],
              );
            const read = await (await openArray(store, { path: `img/${k}` })).get();
            expect(read.shape).toEqual(expected.shape);
            expect(read.data).toEqual(expected.data);
            expect(level.array.zarrFormat).toBe(version === "0.4" ? 2 : 3);
            expect(level.scale).toEqual(factors.map((f) => f ** k));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("writes scales, centring translations for means, axes with units and completed omero", async () => {
    const shape = [2, 20, 30];
    const data = Uint16Array.from({ length: 1200 }, (_, i) =>
      i < 600 ? 100 + (i % 7) : 1000 + (i % 50),
    );
    const store = new Map<string, Uint8Array>();
    const image = await writePyramid({ data, shape }, store, {
      levels: 3,
      axes: [
        "c",
        { name: "y", type: "space", unit: "micrometer" },
        { name: "x", type: "space", unit: "micrometer" },
      ],
      scale: [1, 0.5, 0.25],
      translation: [0, 10, 20],
      name: "two channels",
      omero: { channels: [{ label: "DAPI", color: "0000FF" }] },
      version: "0.5",
    });
    expect(image.name).toBe("two channels");
    expect(image.levels.map((l) => l.shape)).toEqual([
      [2, 20, 30],
      [2, 10, 15],
      [2, 5, 8],
    ]);
    expect(image.levels.map((l) => l.scale)).toEqual([
      [1, 0.5, 0.25],
      [1, 1, 0.5],
      [1, 2, 1],
    ]);
    // a mean's pixel centre is the centre of the 2^k block: t0 + s0 * (2^k - 1) / 2
    expect(image.levels.map((l) => l.translation)).toEqual([
      [0, 10, 20],
      [0, 10.25, 20.125],
      [0, 10.75, 20.375],
    ]);
    expect(image.axes[1]).toEqual({ name: "y", type: "space", unit: "micrometer" });
    expect(image.levels[0].array.dimensionNames).toEqual(["c", "y", "x"]);
    const coarsest = await image.levels[2].array.get();
    const c1 = Array.from(coarsest.data as Uint16Array).slice(40);
    expect(image.channels).toEqual([
      {
        label: "DAPI",
        color: "0000FF",
        active: true,
        window: { min: 0, max: 65535, start: 103, end: expect.any(Number) },
      },
      {
        label: "Channel 1",
        color: "00FF00",
        active: true,
        window: { min: 0, max: 65535, start: Math.min(...c1), end: Math.max(...c1) },
      },
    ]);
  });

  it("chooses levels until x and y fit one chunk, and refuses options that do not fit", async () => {
    const data = new Float32Array(100 * 70);
    const image = await writePyramid({ data, shape: [100, 70] }, new Map(), { chunks: [16, 16] });
    expect(image.levels.map((l) => l.shape)).toEqual([
      [100, 70],
      [50, 35],
      [25, 18],
      [13, 9],
    ]);
    const bad: [object, string][] = [
      [{ downsample: "max" }, 'downsample: must be "mean" or "nearest", found "max"'],
      [{ version: "0.6" }, 'version: must be "0.4" or "0.5", found "0.6"'],
      [{ chunks: [4] }, "chunks: must have 2 entries (the dimensions), found 1"],
      [{ levels: 0 }, "levels: must be a positive integer, found 0"],
      [{ axes: ["y", "y"] }, 'multiscales[0].axes[1].name: repeats the axis name "y"'],
      [{ axes: ["a", "x"] }, 'multiscales[0].axes: must have 2 or 3 axes of type "space", found 1'],
      [{ downsampleAxes: ["q"] }, 'downsampleAxes: names no axis "q"'],
      [{ omero: { channels: [{}, {}] } }, "omero.channels: gives 2 channels, the image has 1"],
    ];
    for (const [options, message] of bad)
      await expect(writePyramid({ data, shape: [100, 70] }, new Map(), options)).rejects.toThrow(
        message,
      );
    await expect(
      writePyramid({ data: BigInt64Array.of(1n, 2n, 3n, 4n), shape: [2, 2] }, new Map(), {}),
    ).rejects.toThrow(OmeOptionError);
    const nearest = await writePyramid(
      { data: BigInt64Array.of(1n, 2n, 3n, 4n), shape: [2, 2] },
      new Map(),
      {
        downsample: "nearest",
        levels: 2,
      },
    );
    expect(Array.from((await nearest.levels[1].array.get()).data as BigInt64Array)).toEqual([1n]);
  });

  it("stops at an abort and rejects with its AbortError", async () => {
    const store = new Map<string, Uint8Array>();
    const controller = new AbortController();
    const data = new Uint8Array(256 * 256);
    let chunksWritten = 0;
    const e = await writePyramid({ data, shape: [256, 256] }, store, {
      chunks: [32, 32],
      concurrency: 1,
      signal: controller.signal,
      onProgress: ({ done }) => {
        chunksWritten++;
        if (done === 5) controller.abort(new Error("enough"));
      },
    }).catch((x) => x);
    expect(e.name).toBe("AbortError");
    expect(chunksWritten).toBe(5);
  });

  it("writes a pyramid readTile reads back", async () => {
    const data = Uint8Array.from({ length: 64 * 64 }, (_, i) => i % 251);
    const store = new Map<string, Uint8Array>();
    await writePyramid({ data, shape: [64, 64] }, store, {
      path: "a/b",
      downsample: "nearest",
      levels: 3,
    });
    const image = await openMultiscale(store, { path: "a/b" });
    const tile = await readTile(image, { level: 2, x: 1, y: 2, width: 3, height: 1 });
    // level 2 pixel (2, j) is level 0 pixel (8, 4j)
    expect(Array.from(tile.data as Uint8Array)).toEqual([4, 8, 12].map((x) => data[8 * 64 + x]));
  });
});
