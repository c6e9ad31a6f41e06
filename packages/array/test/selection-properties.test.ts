import { createArray, type ZarrArray } from "@z/array";
import { slice } from "@z/indexing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Reference } from "./reference.js";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);
const DTYPES = ["int32", "float64", "uint8", "int64", "bool"] as const;

/**
 * How chunks are stored: one object per chunk (plain, or gzip-compressed), or sharded: inner
 * chunk by inner chunk with the index at the start or the end, nested sharding, and a gzip
 * after `sharding_indexed` (shards decoded whole); or a `rectilinear` grid of chunks of
 * different shapes, each stored at its own shape, or of shards of different shapes holding
 * regular inner chunks.
 */
const LAYOUTS = [
  "plain",
  "plain + gzip",
  "shards, index at end",
  "shards, index at start",
  "nested shards",
  "shards + gzip",
  "rectilinear",
  "rectilinear shards",
] as const;
type Layout = (typeof LAYOUTS)[number];

interface Setup {
  shape: number[];
  /** The (inner) chunk shape: the unit a read decodes. */
  chunks: number[];
  dtype: (typeof DTYPES)[number];
  zarrFormat: 2 | 3;
  order: "C" | "F";
  layout: Layout;
  /** Inner chunks per shard along each axis (sharded layouts); nested: per middle chunk too. */
  factor: number[];
}

const setupArb: fc.Arbitrary<Setup> = fc.integer({ min: 1, max: 3 }).chain((ndim) =>
  fc
    .record({
      shape: fc.array(fc.integer({ min: 1, max: 7 }), { minLength: ndim, maxLength: ndim }),
      chunks: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: ndim, maxLength: ndim }),
      dtype: fc.constantFrom(...DTYPES),
      zarrFormat: fc.constantFrom(2 as const, 3 as const),
      order: fc.constantFrom("C" as const, "F" as const),
      layout: fc.constantFrom(...LAYOUTS),
      factor: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: ndim, maxLength: ndim }),
    })
    // Sharding is v3 only.
    .map((s) => (s.layout.startsWith("plain") ? s : { ...s, zarrFormat: 3 as const })),
);

/** The middle chunk shape of nested sharding. */
const middleShape = (s: Setup) => s.chunks.map((c, i) => c * s.factor[i]);

/**
 * The edge lengths of a rectilinear setup along one axis: chunk lengths alternating between
 * `chunks[axis]` and `factor[axis]` until they cover the axis, plus one chunk past the end
 * when the factor is 3 (the grid may overflow the array). With shards: shard lengths
 * alternating between `factor` and 1 inner chunks.
 */
function rectilinearEdges(s: Setup, axis: number): number[] {
  const c = s.chunks[axis];
  const [a, b, extra] =
    s.layout === "rectilinear" ? [c, s.factor[axis], 2] : [c * s.factor[axis], c, 2 * c];
  const edges: number[] = [];
  for (let sum = 0; sum < s.shape[axis]; sum += edges[edges.length - 1])
    edges.push(edges.length % 2 === 0 ? a : b);
  if (s.factor[axis] === 3) edges.push(extra);
  return edges;
}

/** The `chunks` option of a rectilinear setup: the first edge as a run `[V, 1]`, the rest plain. */
function rectilinearChunks(s: Setup): (number | [number, number])[][] {
  return s.shape.map((_, axis) =>
    rectilinearEdges(s, axis).map((e, k): number | [number, number] => (k === 0 ? [e, 1] : e)),
  );
}

/** The first element index of each block along an axis (and the end of the last block). */
function blockStarts(s: Setup, axis: number): number[] {
  const edges = s.layout.startsWith("rectilinear") ? rectilinearEdges(s, axis) : undefined;
  const starts = [0];
  for (let k = 0; starts[starts.length - 1] < s.shape[axis]; k++)
    starts.push(starts[starts.length - 1] + (edges ? edges[k] : gridShape(s)[axis]));
  return starts;
}

/** The chunk grid's shape: the unit of `getBlocks` (shards for sharded layouts; the first chunk of a rectilinear grid). */
function gridShape(s: Setup): number[] {
  if (s.layout.startsWith("plain") || s.layout === "rectilinear") return s.chunks;
  if (s.layout === "nested shards") return middleShape(s).map((m, i) => m * s.factor[i]);
  // The first shard of rectilinear shards.
  return middleShape(s);
}

function shardingCodec(chunkShape: number[], codecs: object[], location: "start" | "end") {
  return {
    name: "sharding_indexed",
    configuration: {
      chunk_shape: chunkShape,
      codecs,
      index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
      index_location: location,
    },
  };
}

/** The creation options of a setup's layout. */
function layoutOptions(s: Setup): Record<string, unknown> {
  const bytes = { name: "bytes", configuration: { endian: "little" } };
  const gzip = { name: "gzip", configuration: { level: 1 } };
  switch (s.layout) {
    case "plain":
      return { chunks: s.chunks, compressors: null };
    case "plain + gzip":
      return { chunks: s.chunks, compressors: [gzip] };
    case "rectilinear":
      return { chunks: rectilinearChunks(s), compressors: [gzip] };
    case "rectilinear shards":
      return { chunks: s.chunks, shards: rectilinearChunks(s), compressors: null };
    case "shards, index at end":
    case "shards, index at start":
      return {
        chunks: s.chunks,
        shards: gridShape(s),
        shardIndexLocation: s.layout.endsWith("start") ? "start" : "end",
        compressors: null,
      };
    case "nested shards":
      return {
        chunks: gridShape(s),
        codecs: [shardingCodec(middleShape(s), [shardingCodec(s.chunks, [bytes], "start")], "end")],
      };
    case "shards + gzip":
      return { chunks: gridShape(s), codecs: [shardingCodec(s.chunks, [bytes], "end"), gzip] };
  }
}

function element(dtype: Setup["dtype"], i: number): unknown {
  switch (dtype) {
    case "bool":
      return i % 3 === 0;
    case "int64":
      return BigInt(i * 7919) - 1000n;
    case "uint8":
      return (i * 37) % 256;
    case "float64":
      return i / 4 - 3;
    default:
      return i * 13 - 50;
  }
}

/** Elements as the array returns them (bool as 0/1) for comparison with the reference. */
function plain(dtype: Setup["dtype"], value: unknown): unknown {
  return dtype === "bool" ? (value ? 1 : 0) : value;
}

async function makeArray(setup: Setup): Promise<{ array: ZarrArray; ref: Reference }> {
  const array = await createArray(new Map(), {
    shape: setup.shape,
    dtype: setup.dtype,
    zarrFormat: setup.zarrFormat,
    order: setup.order,
    ...layoutOptions(setup),
  });
  // Plain sharding reads inner chunk by inner chunk; codecs around it make shards decode whole.
  const partial =
    setup.layout.startsWith("shards, index") ||
    setup.layout === "nested shards" ||
    setup.layout === "rectilinear shards";
  expect(array.access.subchunkShape !== undefined).toBe(partial);
  const n = setup.shape.reduce((a, b) => a * b, 1);
  const values = Array.from({ length: n }, (_, i) => element(setup.dtype, i));
  const ref = new Reference(
    setup.shape,
    values.map((v) => plain(setup.dtype, v)),
  );
  const data = array.dataType.create(n);
  for (const [i, v] of values.entries()) array.dataType.setElement(data, i, v);
  await array.set(null, { data, shape: setup.shape });
  return { array, ref };
}

function toList(data: ArrayLike<unknown>): unknown[] {
  return Array.from(data);
}

const itemArb = (length: number) =>
  fc.oneof(
    fc.integer({ min: -length, max: length - 1 }),
    fc
      .tuple(
        fc.option(fc.integer({ min: -length - 2, max: length + 2 }), { nil: null }),
        fc.option(fc.integer({ min: -length - 2, max: length + 2 }), { nil: null }),
        fc.integer({ min: -3, max: 3 }).filter((s) => s !== 0),
      )
      .map(([a, b, s]) => slice(a, b, s)),
    fc.constant(null),
  );

const indexArrayArb = (length: number) =>
  fc.array(fc.integer({ min: -length, max: length - 1 }), { maxLength: 6 });
const axisMaskArb = (length: number) =>
  fc.array(fc.boolean(), { minLength: length, maxLength: length });

/** A value for a write of `n` elements: a scalar or one value per element. */
function writeValue(
  array: ZarrArray,
  dtype: Setup["dtype"],
  n: number,
  seed: number,
  scalar: boolean,
) {
  if (scalar) {
    const value = element(dtype, seed + 1000);
    return { value: value as never, at: () => plain(dtype, value) };
  }
  const data = array.dataType.create(n);
  const values = Array.from({ length: n }, (_, k) => element(dtype, seed + k * 3 + 1));
  for (const [k, v] of values.entries()) array.dataType.setElement(data, k, v);
  return { value: data, at: (k: number) => plain(dtype, values[k]) };
}

describe("selections agree with a naive reference model", () => {
  it("basic get and set", async () => {
    await fc.assert(
      fc.asyncProperty(
        setupArb.chain((s) =>
          fc.tuple(fc.constant(s), fc.tuple(...s.shape.map(itemArb)), fc.boolean(), fc.nat(100)),
        ),
        async ([setup, items, scalar, seed]) => {
          const { array, ref } = await makeArray(setup);
          const { positions, shape } = ref.orthogonal(items);
          const got = await array.get(items);
          expect(got.shape).toEqual(shape);
          expect(toList(got.data)).toEqual(ref.read(positions));
          const { value, at } = writeValue(array, setup.dtype, positions.length, seed, scalar);
          await array.set(items, scalar ? value : { data: value as never, shape });
          ref.write(positions, at);
          expect(toList((await array.get()).data)).toEqual(ref.data);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("orthogonal get and set (index arrays, masks, repeats, negative and unsorted indices)", async () => {
    const ortho = (length: number) =>
      fc.oneof(itemArb(length), indexArrayArb(length), axisMaskArb(length));
    await fc.assert(
      fc.asyncProperty(
        setupArb.chain((s) =>
          fc.tuple(fc.constant(s), fc.tuple(...s.shape.map(ortho)), fc.boolean(), fc.nat(100)),
        ),
        async ([setup, items, scalar, seed]) => {
          const { array, ref } = await makeArray(setup);
          const selection = items.map((item) =>
            Array.isArray(item) && typeof item[0] === "boolean" ? item : item,
          );
          const { positions, shape } = ref.orthogonal(selection);
          const got = await array.getOrthogonal(selection as never);
          expect(got.shape).toEqual(shape);
          expect(toList(got.data)).toEqual(ref.read(positions));
          const { value, at } = writeValue(array, setup.dtype, positions.length, seed, scalar);
          await array.setOrthogonal(
            selection as never,
            scalar ? value : { data: value as never, shape },
          );
          ref.write(positions, at);
          expect(toList((await array.get()).data)).toEqual(ref.data);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("coordinate get and set (repeated and unsorted points)", async () => {
    await fc.assert(
      fc.asyncProperty(
        setupArb.chain((s) =>
          fc.tuple(
            fc.constant(s),
            fc.integer({ min: 0, max: 8 }).chain((n) =>
              fc.tuple(
                ...s.shape.map((len) =>
                  fc.array(fc.integer({ min: -len, max: len - 1 }), {
                    minLength: n,
                    maxLength: n,
                  }),
                ),
              ),
            ),
            fc.boolean(),
            fc.nat(100),
          ),
        ),
        async ([setup, lists, scalar, seed]) => {
          const { array, ref } = await makeArray(setup);
          const positions = ref.coordinates(lists);
          const got = await array.getCoordinates(lists);
          expect(got.shape).toEqual([positions.length]);
          expect(toList(got.data)).toEqual(ref.read(positions));
          const { value, at } = writeValue(array, setup.dtype, positions.length, seed, scalar);
          await array.setCoordinates(lists, value);
          ref.write(positions, at);
          expect(toList((await array.get()).data)).toEqual(ref.data);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("mask get and set", async () => {
    await fc.assert(
      fc.asyncProperty(
        setupArb.chain((s) =>
          fc.tuple(
            fc.constant(s),
            fc.array(fc.boolean(), {
              minLength: s.shape.reduce((a, b) => a * b, 1),
              maxLength: s.shape.reduce((a, b) => a * b, 1),
            }),
            fc.boolean(),
            fc.nat(100),
          ),
        ),
        async ([setup, mask, scalar, seed]) => {
          const { array, ref } = await makeArray(setup);
          const positions = ref.mask(mask);
          const got = await array.getMask({ data: mask, shape: setup.shape });
          expect(toList(got.data)).toEqual(ref.read(positions));
          const { value, at } = writeValue(array, setup.dtype, positions.length, seed, scalar);
          await array.setMask({ data: mask, shape: setup.shape }, value);
          ref.write(positions, at);
          expect(toList((await array.get()).data)).toEqual(ref.data);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("block get and set", async () => {
    const blockItem = (blocks: number) =>
      fc.oneof(
        fc.integer({ min: -blocks, max: blocks - 1 }),
        fc
          .tuple(
            fc.integer({ min: -blocks, max: blocks }),
            fc.integer({ min: -blocks, max: blocks }),
          )
          .map(([a, b]) => slice(a, b)),
        fc.constant(null),
      );
    await fc.assert(
      fc.asyncProperty(
        setupArb.chain((s) =>
          fc.tuple(
            fc.constant(s),
            fc.tuple(...s.shape.map((_, i) => blockItem(blockStarts(s, i).length - 1))),
            fc.nat(100),
          ),
        ),
        async ([setup, items, seed]) => {
          const { array, ref } = await makeArray(setup);
          // The same region as a basic selection of element slices.
          const asSlices = items.map((item, axis) => {
            const starts = blockStarts(setup, axis);
            const n = setup.shape[axis];
            const blocks = starts.length - 1;
            if (item === null) return slice(0, n);
            if (typeof item === "number") {
              const b = item < 0 ? item + blocks : item;
              return slice(starts[b], Math.min(starts[b + 1], n));
            }
            const indices = Reference.axisIndices(slice(item.start, item.stop), blocks).indices;
            if (indices.length === 0) return slice(0, 0);
            return slice(starts[indices[0]], Math.min(starts[indices[indices.length - 1] + 1], n));
          });
          const { positions, shape } = ref.orthogonal(asSlices);
          const got = await array.getBlocks(items);
          expect(got.shape).toEqual(shape);
          expect(toList(got.data)).toEqual(ref.read(positions));
          const { value, at } = writeValue(array, setup.dtype, positions.length, seed, false);
          await array.setBlocks(items, { data: value as never, shape });
          ref.write(positions, at);
          expect(toList((await array.get()).data)).toEqual(ref.data);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("selections covering one whole chunk, in any order (reversed slices, permutations, points)", async () => {
    // Arrays of exactly one chunk (or shard), where a read may hand back the decoded chunk.
    const oneChunk = setupArb
      .map((s) => ({ ...s, shape: gridShape(s) }))
      .filter((s) => s.shape.reduce((a, b) => a * b, 1) <= 300);
    const axisOrder = (n: number) =>
      fc.oneof(
        fc.constant(slice(null, null, -1)),
        fc.constant(null),
        fc.shuffledSubarray(
          Array.from({ length: n }, (_, i) => i),
          { minLength: n, maxLength: n },
        ),
      );
    await fc.assert(
      fc.asyncProperty(
        oneChunk.chain((s) => fc.tuple(fc.constant(s), fc.tuple(...s.shape.map(axisOrder)))),
        async ([setup, items]) => {
          const { array, ref } = await makeArray(setup);
          const { positions, shape } = ref.orthogonal(items);
          const got = await array.getOrthogonal(items as never);
          expect(got.shape).toEqual(shape);
          expect(toList(got.data)).toEqual(ref.read(positions));
          // The same elements as points, in the orthogonal result's order.
          const points = setup.shape.map((_, axis) => positions.map((p) => p[axis]));
          expect(toList((await array.getCoordinates(points)).data)).toEqual(ref.read(positions));
        },
      ),
      { numRuns: RUNS },
    );
  });
});
