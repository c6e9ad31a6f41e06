import fc from "fast-check";

/**
 * Values of every JavaScript type, for `set`: scalars of each primitive type (including the
 * edges: NaN, -0, 2^53 + 1, 2^64, huge bigints, lone surrogates), objects of every built-in
 * kind, typed arrays of every element type and a wrong or right length, nested and ragged
 * lists, and `{data, shape, stride}` values with hostile shapes and strides. Inputs are
 * descriptions (readable in failure records) built into values by {@link buildValue}.
 */

const SCALARS: Record<string, () => unknown> = {
  undefined: () => undefined,
  null: () => null,
  true: () => true,
  false: () => false,
  zero: () => 0,
  negZero: () => -0,
  one: () => 1,
  minusOne: () => -1,
  half: () => 0.5,
  NaN: () => Number.NaN,
  Infinity: () => Number.POSITIVE_INFINITY,
  negInfinity: () => Number.NEGATIVE_INFINITY,
  "255": () => 255,
  "256": () => 256,
  "-129": () => -129,
  "2^31": () => 2 ** 31,
  "2^32": () => 2 ** 32,
  "2^53+2": () => 2 ** 53 + 2,
  "2^64": () => 2 ** 64,
  "-2^63": () => -(2 ** 63),
  "1e308": () => 1e308,
  "5e-324": () => 5e-324,
  "0n": () => 0n,
  "-1n": () => -1n,
  "2^63n": () => 2n ** 63n,
  "2^64n": () => 2n ** 64n,
  "-2^63-1n": () => -(2n ** 63n) - 1n,
  "2^200n": () => 2n ** 200n,
  emptyString: () => "",
  "'1'": () => "1",
  "'abc'": () => "abc",
  "'NaN'": () => "NaN",
  "'0x10'": () => "0x10",
  "'1e3'": () => "1e3",
  "'\\0'": () => "\u0000",
  loneSurrogate: () => "\ud800",
  "'日本語🚀'": () => "日本語🚀",
  longString: () => "x".repeat(100_000),
  symbol: () => Symbol("s"),
  function: () => () => 1,
  emptyObject: () => ({}),
  valueOfObject: () => ({ valueOf: () => 3 }),
  toStringObject: () => ({ toString: () => "7" }),
  nullProtoObject: () => Object.create(null),
  date: () => new Date(0),
  invalidDate: () => new Date(Number.NaN),
  map: () => new Map([[1, 2]]),
  set: () => new Set([1]),
  regexp: () => /x/,
  promise: () => Promise.resolve(1),
  error: () => new Error("a value"),
  arrayBuffer: () => new ArrayBuffer(8),
  dataView: () => new DataView(new ArrayBuffer(8)),
  weakMap: () => new WeakMap(),
  bytes4: () => Uint8Array.of(1, 2, 3, 4),
  emptyBytes: () => new Uint8Array(0),
  complexPair: () => [1.5, -2],
  complexObject: () => ({ re: 1, im: 2 }),
  structLike: () => ({ x: 1, y: 2, when: 0 }),
  emptyArray: () => [],
  sparseArray: () => new Array(4),
  proxy: () => new Proxy({}, {}),
};

const SCALAR_NAMES = Object.keys(SCALARS);

const TYPED: Record<string, (n: number) => unknown> = {
  Int8Array: (n) => Int8Array.from({ length: n }, (_, i) => i - 2),
  Uint8Array: (n) => Uint8Array.from({ length: n }, (_, i) => i * 60),
  Uint8ClampedArray: (n) => new Uint8ClampedArray(n),
  Int16Array: (n) => Int16Array.from({ length: n }, (_, i) => -i * 1000),
  Uint16Array: (n) => Uint16Array.from({ length: n }, (_, i) => i * 20000),
  Int32Array: (n) => Int32Array.from({ length: n }, (_, i) => i * -1e9),
  Uint32Array: (n) => Uint32Array.from({ length: n }, (_, i) => i * 1e9),
  Float32Array: (n) => Float32Array.from({ length: n }, (_, i) => (i % 2 ? Number.NaN : i / 3)),
  Float64Array: (n) => Float64Array.from({ length: n }, (_, i) => (i % 2 ? -Infinity : 1e300 * i)),
  BigInt64Array: (n) => BigInt64Array.from({ length: n }, (_, i) => -(2n ** 62n) * BigInt(i)),
  BigUint64Array: (n) => BigUint64Array.from({ length: n }, (_, i) => 2n ** 63n + BigInt(i)),
};

/** A description of a value. */
export type ValueSpec =
  | { scalar: string }
  | { list: string[] }
  | { nested: string[][] }
  | { typed: string; length: number }
  | { nd: { data: ValueSpec; shape: unknown; stride?: unknown } };

const scalar = fc.constantFrom(...SCALAR_NAMES).map((s) => ({ scalar: s }));
const list = fc.array(fc.constantFrom(...SCALAR_NAMES), { maxLength: 6 }).map((l) => ({ list: l }));
const nested = fc
  .array(fc.array(fc.constantFrom(...SCALAR_NAMES), { maxLength: 3 }), { maxLength: 3 })
  .map((n) => ({ nested: n }));
const typed = fc
  .record({
    typed: fc.constantFrom(...Object.keys(TYPED)),
    length: fc.constantFrom(0, 1, 2, 3, 4, 5, 8),
  })
  .map((t) => t as ValueSpec);
const HOSTILE_SHAPES: unknown[] = [
  [4],
  [2],
  [2, 2],
  [],
  [0],
  [-1],
  [Number.NaN],
  [2 ** 53],
  [1.5],
  "4",
  null,
  [4, 1, 1],
  [1, 4],
];
const HOSTILE_STRIDES: unknown[] = [
  undefined,
  [1],
  [0],
  [-1],
  [2 ** 40],
  [1, 1],
  [],
  ["1"],
  [Number.NaN],
];
const nd = fc
  .record({
    data: fc.oneof(typed, list, scalar),
    shape: fc.constantFrom(...HOSTILE_SHAPES),
    stride: fc.constantFrom(...HOSTILE_STRIDES),
  })
  .map((n) => ({ nd: n }) as ValueSpec);

/** Any value description. */
export const valueSpec: fc.Arbitrary<ValueSpec> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 3, arbitrary: list },
  { weight: 1, arbitrary: nested },
  { weight: 3, arbitrary: typed },
  { weight: 2, arbitrary: nd },
);

/** Builds the value a description stands for (fresh each time). */
export function buildValue(spec: ValueSpec): unknown {
  if ("scalar" in spec) return SCALARS[spec.scalar]();
  if ("list" in spec) return spec.list.map((s) => SCALARS[s]());
  if ("nested" in spec) return spec.nested.map((row) => row.map((s) => SCALARS[s]()));
  if ("typed" in spec) return TYPED[spec.typed](spec.length);
  const value: Record<string, unknown> = { data: buildValue(spec.nd.data), shape: spec.nd.shape };
  if (spec.nd.stride !== undefined) value.stride = spec.nd.stride;
  return value;
}
