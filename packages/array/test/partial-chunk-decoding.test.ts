// Reads of part of a blosc chunk decode only the blosc blocks the selection touches. Whatever
// the selection (steps, reversed slices, integers), the dtype and the block size, the result
// is what the written values say, and a selection inside one block leaves the others undecoded.
import { createArray } from "@z/array";
import { slice } from "@z/indexing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const DTYPES = ["uint8", "int16", "float32", "float64"] as const;

const axisSelection = (n: number) =>
  fc.oneof(
    fc.integer({ min: 0, max: n - 1 }),
    fc
      .tuple(
        fc.integer({ min: 0, max: n }),
        fc.integer({ min: 0, max: n }),
        fc.integer({ min: 1, max: 3 }),
      )
      .map(([a, b, step]) => slice(Math.min(a, b), Math.max(a, b), step)),
    fc
      .tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 1, max: 3 }))
      .map(([a, step]) => slice(a, null, -step)),
  );

const cases = fc.integer({ min: 1, max: 3 }).chain((ndim) =>
  fc.array(fc.integer({ min: 8, max: 40 }), { minLength: ndim, maxLength: ndim }).chain((shape) =>
    fc.record({
      shape: fc.constant(shape),
      chunks: fc.tuple(...shape.map((n) => fc.integer({ min: 4, max: n }))),
      selection: fc.tuple(...shape.map(axisSelection)),
      dtype: fc.constantFrom(...DTYPES),
      shuffle: fc.constantFrom("noshuffle", "shuffle", "bitshuffle"),
      cname: fc.constantFrom("lz4", "blosclz", "zstd", "zlib"),
      blocksize: fc.constantFrom(128, 256, 1024),
      zarrFormat: fc.constantFrom(2 as const, 3 as const),
    }),
  ),
);

/** The value written at flat index `i` (distinct per element, within every dtype's range). */
const valueAt = (i: number) => (i * 37) % 251;

/** The C-order flat index of every element a selection reads, in result order. */
function selectedIndices(
  shape: number[],
  selection: (number | ReturnType<typeof slice>)[],
): number[] {
  const perAxis = selection.map((s, axis) => {
    if (typeof s === "number") return [s];
    const n = shape[axis];
    const step = s.step ?? 1;
    const out: number[] = [];
    if (step > 0) for (let i = s.start ?? 0; i < Math.min(s.stop ?? n, n); i += step) out.push(i);
    else for (let i = s.start ?? n - 1; i >= 0; i += step) out.push(i);
    return out;
  });
  let flat = [0];
  perAxis.forEach((indices, axis) => {
    flat = flat.flatMap((f) => indices.map((i) => f * shape[axis] + i));
  });
  return flat;
}

describe("partial decoding of blosc chunks", () => {
  it("property: any basic selection reads the written values, block by block", async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const store = new Map<string, Uint8Array>();
        const configuration = {
          cname: c.cname,
          clevel: 5,
          shuffle: c.shuffle,
          blocksize: c.blocksize,
        };
        const arr = await createArray(store, {
          shape: c.shape,
          chunks: c.chunks,
          dtype: c.dtype,
          zarrFormat: c.zarrFormat,
          compressors: [{ name: "blosc", configuration }],
        });
        const n = c.shape.reduce((a, b) => a * b, 1);
        const data = arr.dataType.create(n) as Float64Array;
        for (let i = 0; i < n; i++) data[i] = valueAt(i);
        await arr.set(null, { data, shape: c.shape });
        const got = await arr.get(c.selection, { workers: false });
        const expected = selectedIndices(c.shape, c.selection).map(valueAt);
        expect(Array.from(got.data as Float64Array)).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it("a row inside one block decodes that block only: a corrupt other block goes unread", async () => {
    const store = new Map<string, Uint8Array>();
    const configuration = { cname: "lz4", clevel: 5, shuffle: "noshuffle", blocksize: 1024 };
    const arr = await createArray(store, {
      shape: [64, 64],
      chunks: [64, 64],
      dtype: "float32",
      compressors: [{ name: "blosc", configuration }],
    });
    const data = Float32Array.from({ length: 64 * 64 }, (_, i) => Math.sqrt(i));
    await arr.set(null, { data, shape: [64, 64] });
    // 16 KiB of float32 in 1 KiB blocks: rows 0-3 are block 0. Break the last block's stream.
    const key = [...store.keys()].find((k) => k.startsWith("c"));
    const frame = store.get(key as string) as Uint8Array;
    frame.fill(0xff, frame.length - 16);
    const row = await arr.get([2, slice(null)], { workers: false });
    expect(row.data).toEqual(data.subarray(128, 192));
    // The whole chunk needs the broken block: its read fails or gives other values there.
    const whole = await arr.get(null, { workers: false }).catch((error: Error) => error);
    if (whole instanceof Error) expect(whole.message).toMatch(/blosc/);
    else expect(whole.data.subarray(60 * 64)).not.toEqual(data.subarray(60 * 64));
  });
});
