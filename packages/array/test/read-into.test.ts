import { createArray, ValueShapeError, ZarrArray } from "@z/array";
import { type BlockItem, type OrthogonalItem, type Slice, slice } from "@z/indexing";
import { Complex64Array, ValueTypeError } from "@z/metadata";
import { BoolArray, type Chunk, type Container } from "@z/ndarray";
import type { Readable } from "@z/store-core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/*
 * Reads into the caller's `out`: every selection mode, against the same read into a new
 * container. `out` starts full of garbage, so an element the read skipped (a missing chunk with
 * fill value 0, which a new container gets for free) shows up as a difference.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 120);

const DTYPES = ["int32", "float64", "uint8", "int64", "bool", "complex64", "complex128"] as const;
type Dtype = (typeof DTYPES)[number];
const LAYOUTS = ["v3", "v3 + gzip", "v3 sharded", "v2"] as const;
type Layout = (typeof LAYOUTS)[number];

interface Setup {
  shape: number[];
  chunks: number[];
  /** Inner chunks per shard along each axis (sharded layout). */
  factor: number[];
  dtype: Dtype;
  layout: Layout;
  /** Fill value 0 (false, 0n, 0+0i) or another one. */
  zeroFill: boolean;
  /** The region written (the rest of the array, and the chunks outside it, stay missing). */
  written: [number, number][];
}

/** A value of the data type from an integer, never -0 nor NaN, below the garbage (171). */
function element(dtype: Dtype, i: number): unknown {
  const v = ((i * 7) % 23) - 11;
  switch (dtype) {
    case "bool":
      return i % 3 === 0;
    case "int64":
      return BigInt(v);
    case "uint8":
      return v + 11;
    case "float64":
      return v / 4;
    case "complex64":
    case "complex128":
      return { re: v, im: ((i * 5) % 17) - 8 };
    default:
      return v;
  }
}

function fillValue(dtype: Dtype, zero: boolean): unknown {
  if (zero) return undefined; // the data type's default: zero, false
  switch (dtype) {
    case "bool":
      return true;
    case "int64":
      return -5n;
    case "complex64":
    case "complex128":
      return { re: 1.5, im: -2 };
    default:
      return 3;
  }
}

/** Fills a container with values no read of these arrays returns. */
function garbage(out: Container): Container {
  if (out instanceof BigInt64Array || out instanceof BigUint64Array) out.fill(171n);
  else if (Array.isArray(out)) out.fill("garbage");
  else out.fill(171);
  return out;
}

const setupArb: fc.Arbitrary<Setup> = fc.integer({ min: 1, max: 3 }).chain((ndim) => {
  const dims = <T>(arb: fc.Arbitrary<T>) => fc.array(arb, { minLength: ndim, maxLength: ndim });
  return fc
    .record({
      shape: dims(fc.integer({ min: 1, max: 7 })),
      chunks: dims(fc.integer({ min: 1, max: 4 })),
      factor: dims(fc.integer({ min: 1, max: 2 })),
      dtype: fc.constantFrom(...DTYPES),
      layout: fc.constantFrom(...LAYOUTS),
      zeroFill: fc.boolean(),
      written: dims(fc.tuple(fc.nat({ max: 7 }), fc.nat({ max: 7 }))),
    })
    .map((s) => ({
      ...s,
      written: s.written.map(([a, b], i): [number, number] => {
        const [lo, hi] = [Math.min(a, b), Math.max(a, b)];
        return [Math.min(lo, s.shape[i]), Math.min(hi, s.shape[i])];
      }),
    }));
});

function layoutOptions(s: Setup): Record<string, unknown> {
  switch (s.layout) {
    case "v3":
      return { chunks: s.chunks, compressors: null };
    case "v3 + gzip":
      return { chunks: s.chunks, compressors: [{ name: "gzip", configuration: { level: 1 } }] };
    case "v3 sharded":
      return { chunks: s.chunks, shards: s.chunks.map((c, i) => c * s.factor[i]) };
    case "v2":
      return { chunks: s.chunks, zarrFormat: 2, compressors: null };
  }
}

/** The chunk grid's unit: what `getBlocks` counts in. */
const gridUnit = (s: Setup) =>
  s.layout === "v3 sharded" ? s.chunks.map((c, i) => c * s.factor[i]) : s.chunks;

async function makeArray(s: Setup): Promise<ZarrArray> {
  const array = await createArray(new Map(), {
    shape: s.shape,
    dtype: s.dtype,
    fillValue: fillValue(s.dtype, s.zeroFill),
    ...layoutOptions(s),
  } as never);
  const region = s.written.map(([a, b]) => slice(a, b));
  const regionShape = s.written.map(([a, b]) => b - a);
  const n = regionShape.reduce((a, b) => a * b, 1);
  if (n > 0) {
    const data = array.dataType.create(n);
    for (let i = 0; i < n; i++) array.dataType.setElement(data, i, element(s.dtype, i));
    await array.set(region, { data, shape: regionShape });
  }
  return array;
}

type Read = { mode: string; run: (a: ZarrArray, o?: { out: Container }) => Promise<Chunk> };

const sliceArb = (n: number) =>
  fc
    .tuple(
      fc.option(fc.integer({ min: -n - 1, max: n + 1 }), { nil: null }),
      fc.option(fc.integer({ min: -n - 1, max: n + 1 }), { nil: null }),
      fc.integer({ min: -3, max: 3 }).filter((step) => step !== 0),
    )
    .map(([a, b, step]): Slice => slice(a, b, step));

/** One read of every selection mode, drawn for an array of the setup's shape. */
function readArb(s: Setup): fc.Arbitrary<Read> {
  const { shape } = s;
  const perAxis = <T>(arb: (n: number, axis: number) => fc.Arbitrary<T>) =>
    fc.tuple(...shape.map((n, axis) => arb(n, axis)));
  const basic = perAxis((n) => fc.oneof(fc.integer({ min: -n, max: n - 1 }), sliceArb(n))).map(
    (sel): Read => ({ mode: "get", run: (a, o) => a.get(sel, o) }),
  );
  const orthogonal = perAxis(
    (n): fc.Arbitrary<OrthogonalItem> =>
      fc.oneof(
        fc.integer({ min: -n, max: n - 1 }),
        sliceArb(n),
        fc.array(fc.integer({ min: -n, max: n - 1 }), { maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      ),
  ).map((sel): Read => ({ mode: "getOrthogonal", run: (a, o) => a.getOrthogonal(sel, o) }));
  const coordinates = fc
    .integer({ min: 0, max: 6 })
    .chain((k) => perAxis((n) => fc.array(fc.nat({ max: n - 1 }), { minLength: k, maxLength: k })))
    .map((sel): Read => ({ mode: "getCoordinates", run: (a, o) => a.getCoordinates(sel, o) }));
  const size = shape.reduce((a, b) => a * b, 1);
  const mask = fc.array(fc.boolean(), { minLength: size, maxLength: size }).map((bits): Read => {
    const m = { data: Uint8Array.from(bits, Number), shape };
    return { mode: "getMask", run: (a, o) => a.getMask(m, o) };
  });
  const unit = gridUnit(s);
  const blocks = perAxis((n, axis): fc.Arbitrary<BlockItem> => {
    const count = Math.ceil(n / unit[axis]);
    return fc.oneof(
      fc.nat({ max: count - 1 }),
      fc
        .tuple(fc.nat({ max: count }), fc.nat({ max: count }))
        .map(([a, b]) => slice(Math.min(a, b), Math.max(a, b))),
    );
  }).map((sel): Read => ({ mode: "getBlocks", run: (a, o) => a.getBlocks(sel, o) }));
  const any = perAxis((n) => fc.array(fc.nat({ max: n - 1 }), { minLength: 1, maxLength: 3 })).map(
    (sel): Read => ({
      mode: "getSelection",
      run: (a, o) => a.getSelection({ orthogonal: sel }, o),
    }),
  );
  return fc.oneof(basic, orthogonal, coordinates, mask, blocks, any);
}

describe("reads into `out`", () => {
  it("equal the same read into a new container, in `out` itself, whatever `out` held", async () => {
    await fc.assert(
      fc.asyncProperty(
        setupArb.chain((s) =>
          fc.tuple(fc.constant(s), fc.array(readArb(s), { minLength: 1, maxLength: 3 })),
        ),
        async ([setup, reads]) => {
          const array = await makeArray(setup);
          for (const read of reads) {
            const expected = await read.run(array);
            const out = garbage(array.dataType.create(expected.shape.reduce((a, b) => a * b, 1)));
            const got = await read.run(array, { out });
            expect(got.data, read.mode).toBe(out);
            expect(got.shape, read.mode).toEqual(expected.shape);
            expect(got.stride, read.mode).toEqual(expected.stride);
            expect(Array.from(got.data as ArrayLike<unknown>), read.mode).toEqual(
              Array.from(expected.data as ArrayLike<unknown>),
            );
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  for (const layout of LAYOUTS) {
    for (const zeroFill of [true, false]) {
      it(`${layout}, fill ${zeroFill ? "0" : "not 0"}: a whole chunk, written or missing, lands in \`out\``, async () => {
        const setup: Setup = {
          shape: [4, 6],
          chunks: [2, 3],
          factor: [2, 2],
          dtype: "int32",
          layout,
          zeroFill,
          written: [
            [0, 2],
            [0, 3],
          ],
        };
        const array = await makeArray(setup);
        const fill = zeroFill ? 0 : 3;
        for (const [block, values] of [
          [
            [0, 0],
            [-11, -4, 3, 10, -6, 1],
          ],
          [[1, 1], Array(6).fill(fill)],
        ] as const) {
          const sel = [
            slice(block[0] * 2, block[0] * 2 + 2),
            slice(block[1] * 3, block[1] * 3 + 3),
          ];
          const out = garbage(new Int32Array(6));
          const got = await array.get(sel, { out });
          expect(got.data).toBe(out);
          expect(Array.from(out)).toEqual(values);
        }
      });
    }
  }
});

/** A read-only view of a store that counts reads. */
function counting(store: Readable): Readable & { gets: number } {
  const counted = {
    gets: 0,
    get: (key: string, options?: Parameters<Readable["get"]>[1]) => {
      counted.gets++;
      return store.get(key, options);
    },
  };
  return counted;
}

describe("an `out` that does not fit: a typed error before any chunk is read, `out` untouched", () => {
  const reads: Read[] = [
    { mode: "get", run: (a, o) => a.get([slice(0, 2), null], o) },
    { mode: "getOrthogonal", run: (a, o) => a.getOrthogonal([[0, 1], null], o) },
    {
      mode: "getCoordinates",
      run: (a, o) =>
        a.getCoordinates(
          [
            [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3],
            [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5],
          ],
          o,
        ),
    },
    {
      mode: "getMask",
      run: (a, o) =>
        a.getMask({ data: Uint8Array.from({ length: 24 }, (_, i) => +(i < 12)), shape: [4, 6] }, o),
    },
    { mode: "getBlocks", run: (a, o) => a.getBlocks([0, slice(0, 2)], o) },
    { mode: "getSelection", run: (a, o) => a.getSelection({ orthogonal: [[0, 1], null] }, o) },
    { mode: "get (one whole chunk)", run: (a, o) => a.get([slice(0, 2), slice(0, 3)], o) },
  ];
  /** Every read above selects 12 elements except the whole chunk (6). */
  const count = (mode: string) => (mode.includes("whole") ? 6 : 12);

  const cases: [Dtype, (n: number) => Container, (n: number) => Container][] = [
    // [data type, an `out` of the right class, one of a wrong class]
    ["int32", (n) => new Int32Array(n), (n) => new Float32Array(n)],
    ["int64", (n) => new BigInt64Array(n), (n) => new BigUint64Array(n)],
    ["bool", (n) => new BoolArray(n), (n) => new Uint8Array(n)],
    ["complex64", (n) => new Complex64Array(2 * n), (n) => new Float32Array(2 * n)],
  ];

  for (const [dtype, right, wrong] of cases) {
    for (const read of reads) {
      it(`${dtype} ${read.mode}`, async () => {
        const made = await makeArray({
          shape: [4, 6],
          chunks: [2, 3],
          factor: [1, 1],
          dtype,
          layout: "v3",
          zeroFill: false,
          written: [
            [0, 4],
            [0, 6],
          ],
        });
        const store = counting(made.store);
        const array = new ZarrArray(store, made.path, made.metadata);
        const n = count(read.mode);
        const lanes = dtype.startsWith("complex") ? 2 : 1;

        for (const [out, error, pattern] of [
          [right(n + 1), ValueShapeError, `must have length ${n * lanes}`],
          [
            right(n - 1),
            ValueShapeError,
            `got ${right(0).constructor.name} of length ${(n - 1) * lanes}`,
          ],
          [wrong(n), ValueTypeError, `must be of class ${right(0).constructor.name}`],
          [wrong(n), ValueTypeError, `got ${wrong(0).constructor.name}`],
        ] as const) {
          garbage(out);
          const before = Array.from(out as ArrayLike<unknown>);
          const failure = await read.run(array, { out }).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(failure).toBeInstanceOf(error);
          expect(String((failure as Error).message)).toContain(pattern);
          expect(store.gets).toBe(0);
          expect(Array.from(out as ArrayLike<unknown>)).toEqual(before);
        }
        // The right `out` reads (the counting store does see those reads).
        const out = garbage(right(n));
        expect((await read.run(array, { out })).data).toBe(out);
        expect(store.gets).toBeGreaterThan(0);
      });
    }
  }

  it("a value that is not a container at all is a ValueTypeError", async () => {
    const array = await makeArray({
      shape: [4],
      chunks: [2],
      factor: [1],
      dtype: "float64",
      layout: "v3",
      zeroFill: true,
      written: [[0, 4]],
    });
    for (const out of [null, 7, "x", [1, 2, 3, 4], { length: 4 }]) {
      await expect(array.get(null, { out: out as never })).rejects.toThrow(ValueTypeError);
    }
  });
});
