// Whole-chunk decodes with a hint of the elements to be read and a destination buffer, through
// the codec pipeline, against the same decode without them: every hinted element comes out the
// same (both byte orders, blosc and the codecs that ignore the hint), shared memory works, the
// chunk views the destination where the data type allows, and pipelines that cannot use the
// hint decode everything.
import { type ChunkSpec, CodecError, CodecPipeline, loadCodecsFor } from "@z/codecs";
import { type JsonValue, type NamedConfig, resolveDataTypeV3 } from "@z/metadata";
import {
  type Chunk,
  cOrderStrides,
  type IndexRange,
  product,
  regionElementRanges,
  type StridedRegion,
} from "@z/ndarray";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const entry = (name: string, configuration: Record<string, unknown> = {}): NamedConfig => ({
  name,
  configuration: configuration as never,
  mustUnderstand: true,
});

const DTYPES = ["uint8", "int16", "float32", "float64"] as const;

/** A chunk of `shape` with smooth, compressible values of `dtype`. */
function chunkOf(dtype: string, shape: number[], seed: number): Chunk {
  const dataType = resolveDataTypeV3(dtype);
  const n = product(shape);
  const data = dataType.create(n) as Float64Array;
  for (let i = 0; i < n; i++) {
    const v = Math.sin((i + seed) / 13) * 100 + (i % 7);
    data[i] = dtype.startsWith("float") ? v : Math.round(v) & (dtype === "uint8" ? 0xff : 0x7fff);
  }
  return { data, shape, stride: cOrderStrides(shape) };
}

/** Marks the elements a region selects. */
function mark(shape: readonly number[], region: StridedRegion, marked: Uint8Array): void {
  const stride = cOrderStrides(shape);
  const walk = (axis: number, offset: number): void => {
    if (axis === shape.length) {
      marked[offset] = 1;
      return;
    }
    for (let i = 0; i < region.shape[axis]; i++)
      walk(axis + 1, offset + (region.start[axis] + i * region.step[axis]) * stride[axis]);
  };
  walk(0, 0);
}

/** A strided region inside `shape` (forward steps; reversed ones are the ndarray tests' job). */
const regionIn = (shape: number[]) =>
  fc
    .tuple(
      ...shape.map((n) =>
        fc
          .record({ a: fc.nat(n - 1), b: fc.nat(n - 1), step: fc.integer({ min: 1, max: 3 }) })
          .map(({ a, b, step }) => {
            const [first, last] = a <= b ? [a, b] : [b, a];
            return { start: first, step, count: Math.floor((last - first) / step) + 1 };
          }),
      ),
    )
    .map((axes) => ({
      start: axes.map((x) => x.start),
      step: axes.map((x) => x.step),
      shape: axes.map((x) => x.count),
    }));

const caseArb = fc
  .record({
    shape: fc.array(fc.integer({ min: 1, max: 48 }), { minLength: 1, maxLength: 3 }),
    dtype: fc.constantFrom(...DTYPES),
    endian: fc.constantFrom("little", "big"),
    cname: fc.constantFrom("lz4", "blosclz", "zstd", "zlib"),
    shuffle: fc.constantFrom("noshuffle", "shuffle", "bitshuffle"),
    blocksize: fc.constantFrom(0, 128, 512, 4096),
    checksum: fc.boolean(),
    // Where the destination sits in its shared buffer (in bytes; odd offsets force a copy).
    into: fc.constantFrom(undefined, 0, 8, 3),
    seed: fc.nat(1000),
  })
  .chain((c) =>
    fc.tuple(fc.constant(c), fc.array(regionIn(c.shape), { minLength: 0, maxLength: 2 })),
  );

describe("CodecPipeline.decode with an element hint and a destination", () => {
  it("decodes every hinted element as the whole decode does (random chunks and regions)", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ([c, regions]) => {
        const dataType = resolveDataTypeV3(c.dtype);
        const spec: ChunkSpec = { shape: c.shape, dataType, fillValue: 0 };
        const codecs = [
          entry("bytes", { endian: c.endian }),
          entry("blosc", {
            cname: c.cname,
            clevel: 5,
            shuffle: c.shuffle,
            typesize: dataType.itemSize,
            blocksize: c.blocksize,
          }),
          ...(c.checksum ? [entry("crc32c")] : []),
        ];
        await loadCodecsFor(codecs as unknown as JsonValue);
        const pipeline = CodecPipeline.create(codecs, spec, 3);
        expect(pipeline.takesDecodeHints).toBe(true);
        const original = chunkOf(c.dtype, c.shape, c.seed);
        const stored = await pipeline.encode(original);
        const whole = (await pipeline.decode(stored)).data as Float64Array;
        expect(Array.from(whole)).toEqual(Array.from(original.data as Float64Array));

        const elements = regionElementRanges(c.shape, regions, 16);
        const size = product(c.shape) * dataType.itemSize;
        let into: Uint8Array | undefined;
        if (c.into !== undefined) {
          into = new Uint8Array(new SharedArrayBuffer(size + 16), c.into, size);
          into.fill(0x5a);
        }
        const chunk = await pipeline.decode(stored, { elements, into });
        expect(chunk.shape).toEqual(c.shape);
        const data = chunk.data as Float64Array;
        const marked = new Uint8Array(product(c.shape));
        for (const region of regions) mark(c.shape, region, marked);
        for (const [b, e] of elements) marked.fill(1, b, e);
        for (let i = 0; i < marked.length; i++)
          if (marked[i] && !Object.is(data[i], whole[i]))
            expect(data[i], `element ${i} of ${JSON.stringify({ c, regions })}`).toBe(whole[i]);
        if (
          into !== undefined &&
          c.endian === "little" &&
          into.byteOffset % dataType.itemSize === 0
        ) {
          // The chunk is the destination's bytes, not a copy.
          expect(data.buffer).toBe(into.buffer);
          expect(data.byteOffset).toBe(into.byteOffset);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("decodes only the blocks the hint touches (a slab of a chunk of several blocks)", async () => {
    const dataType = resolveDataTypeV3("float32");
    const shape = [16, 64, 64];
    const spec: ChunkSpec = { shape, dataType, fillValue: 0 };
    // zstd blocks are not split, so the forced 16 KiB blocks stand: 16 of them, one per z.
    const codecs = [
      entry("bytes", { endian: "little" }),
      entry("blosc", {
        cname: "zstd",
        clevel: 3,
        shuffle: "shuffle",
        typesize: 4,
        blocksize: 16384,
      }),
    ];
    await loadCodecsFor(codecs as unknown as JsonValue);
    const pipeline = CodecPipeline.create(codecs, spec, 3);
    const stored = await pipeline.encode(chunkOf("float32", shape, 1));
    const whole = (await pipeline.decode(stored)).data as Float32Array;
    const slab = { start: [5, 0, 0], step: [1, 1, 1], shape: [1, 64, 64] };
    const elements = regionElementRanges(shape, [slab]);
    expect(elements).toEqual([[5 * 4096, 6 * 4096]]);
    const into = new Uint8Array(product(shape) * 4).fill(0xee);
    const data = (await pipeline.decode(stored, { elements, into })).data as Float32Array;
    expect(Array.from(data.subarray(5 * 4096, 6 * 4096))).toEqual(
      Array.from(whole.subarray(5 * 4096, 6 * 4096)),
    );
    // The other 15 blocks were not decoded: the destination still holds its old bytes there.
    expect(into.subarray(0, 5 * 16384).every((b) => b === 0xee)).toBe(true);
    expect(into.subarray(6 * 16384).every((b) => b === 0xee)).toBe(true);
  });

  it("decodes everything where the pipeline cannot use the hint, and codecs that ignore it", async () => {
    const dataType = resolveDataTypeV3("int16");
    const shape = [9, 11];
    const spec: ChunkSpec = { shape, dataType, fillValue: 0 };
    const elements: IndexRange[] = [[3, 4]];
    const blosc = entry("blosc", {
      cname: "lz4",
      clevel: 5,
      shuffle: "shuffle",
      typesize: 2,
      blocksize: 0,
    });
    const pipelines = [
      { codecs: [entry("transpose", { order: [1, 0] }), entry("bytes"), blosc], hints: false },
      { codecs: [entry("bytes", { endian: "big" }), entry("gzip", { level: 1 })], hints: true },
      { codecs: [entry("bytes", { endian: "little" })], hints: true },
    ];
    const original = chunkOf("int16", shape, 4);
    for (const { codecs, hints } of pipelines) {
      await loadCodecsFor(codecs as unknown as JsonValue);
      const pipeline = CodecPipeline.create(codecs, spec, 3);
      expect(pipeline.takesDecodeHints).toBe(hints);
      const stored = await pipeline.encode(original);
      const into = new Uint8Array(new SharedArrayBuffer(9 * 11 * 2));
      const chunk = await pipeline.decode(stored, { elements, into });
      const values: number[] = [];
      for (let i = 0; i < 9; i++)
        for (let j = 0; j < 11; j++)
          values.push((chunk.data as Int16Array)[i * chunk.stride[0] + j * chunk.stride[1]]);
      expect(values, codecs.map((c) => c.name).join(" ")).toEqual(
        Array.from(original.data as Int16Array),
      );
      // Where the hint is used, the destination holds the bytes the bytes codec read.
      if (hints) expect(into.some((b) => b !== 0)).toBe(true);
    }
  });

  it("rejects hints outside the chunk and destinations of the wrong size", async () => {
    const dataType = resolveDataTypeV3("float64");
    const spec: ChunkSpec = { shape: [4, 5], dataType, fillValue: 0 };
    const codecs = [
      entry("bytes"),
      entry("blosc", { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 8, blocksize: 0 }),
    ];
    await loadCodecsFor(codecs as unknown as JsonValue);
    const pipeline = CodecPipeline.create(codecs, spec, 3);
    const stored = await pipeline.encode(chunkOf("float64", [4, 5], 0));
    await expect(pipeline.decode(stored, { elements: [[19, 21]] })).rejects.toThrow(
      /Element range \[19, 21\) is not inside the 20 elements/,
    );
    await expect(pipeline.decode(stored, { into: new Uint8Array(159) })).rejects.toThrow(
      CodecError,
    );
  });
});
