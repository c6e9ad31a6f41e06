// Random data type x fill value (the extremes included: INT64_MIN, UINT64_MAX, NaN with a
// payload, -0.0, ±Infinity, NaT) x codec chain x chunk size (below and above the decode pool's
// 64 KiB inline threshold) x v2/v3, written and read back through the built packages in fresh
// processes (fill-values-child.mjs), three ways: the decode pool as it comes, every chunk sent to
// a worker, and no pool. Each array is written only in part, so missing chunks and (sharded)
// missing inner chunks read as the fill value. The model is the container memory the data type
// itself gives for the fill and for the written elements, compared byte for byte.
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type DataType, loadDataTypes, resolveDataTypeV2, resolveDataTypeV3 } from "@z/metadata";
import type { TypedArray } from "@z/ndarray";
import { tempDir } from "@z/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const child = path.join(here, "fill-values-child.mjs");
const builtEntry = path.join(here, "../../dist/node.js");
const MODES = ["default", "workers", "inline"] as const;

interface TypeCase {
  /** NumPy type string (both formats) or v3 name (v3 only). */
  dtype: string;
  v2: boolean;
  itemSize: number;
  family: "int" | "uint" | "float" | "complex" | "bool" | "time" | "mini";
  /** Fill values that matter, as little-endian stored bytes. */
  extremes: string[];
}

const le = (value: bigint, bytes: number) => {
  const out = new Uint8Array(bytes);
  let v = BigInt.asUintN(8 * bytes, value);
  for (let i = 0; i < bytes; i++, v >>= 8n) out[i] = Number(v & 0xffn);
  return Buffer.from(out).toString("hex");
};
const floatBits: Record<number, { nan: bigint; payload: bigint; neg0: bigint; inf: bigint }> = {
  2: { nan: 0x7e00n, payload: 0x7e00n, neg0: 0x8000n, inf: 0x7c00n },
  4: { nan: 0x7fc00000n, payload: 0x7fa00001n, neg0: 0x80000000n, inf: 0x7f800000n },
  8: {
    nan: 0x7ff8000000000000n,
    payload: 0x7ff4000000000001n,
    neg0: 0x8000000000000000n,
    inf: 0x7ff0000000000000n,
  },
};
const floatExtremes = (size: number) => {
  const b = floatBits[size];
  const sign = 1n << BigInt(8 * size - 1);
  return [b.nan, b.payload, b.neg0, b.inf, b.inf | sign, 0n].map((v) => le(v, size));
};

const TYPES: TypeCase[] = [
  ...[1, 2, 4, 8].flatMap((size): TypeCase[] => {
    const bits = BigInt(8 * size);
    const min = -(1n << (bits - 1n));
    const max = (1n << (bits - 1n)) - 1n;
    const ends = (family: "int" | "uint") =>
      family === "int"
        ? [le(min, size), le(max, size), le(-1n, size)]
        : [le((1n << bits) - 1n, size), le(1n << (bits - 1n), size)];
    const order = size === 1 ? "|" : "<";
    return [
      { dtype: `${order}i${size}`, v2: true, itemSize: size, family: "int", extremes: ends("int") },
      {
        dtype: `${size === 1 ? "|" : ">"}u${size}`,
        v2: true,
        itemSize: size,
        family: "uint",
        extremes: ends("uint"),
      },
    ];
  }),
  { dtype: "<f2", v2: true, itemSize: 2, family: "float", extremes: floatExtremes(2) },
  { dtype: ">f4", v2: true, itemSize: 4, family: "float", extremes: floatExtremes(4) },
  { dtype: "<f8", v2: true, itemSize: 8, family: "float", extremes: floatExtremes(8) },
  {
    dtype: "<c8",
    v2: true,
    itemSize: 8,
    family: "complex",
    extremes: [
      floatExtremes(4)[0] + floatExtremes(4)[2],
      floatExtremes(4)[3] + floatExtremes(4)[4],
      floatExtremes(4)[1] + floatExtremes(4)[5],
    ],
  },
  {
    dtype: ">c16",
    v2: true,
    itemSize: 16,
    family: "complex",
    extremes: [
      floatExtremes(8)[2] + floatExtremes(8)[0],
      floatExtremes(8)[1] + floatExtremes(8)[3],
    ],
  },
  { dtype: "|b1", v2: true, itemSize: 1, family: "bool", extremes: ["01", "00"] },
  {
    dtype: "<M8[s]",
    v2: true,
    itemSize: 8,
    family: "time",
    extremes: [le(-(1n << 63n), 8), le((1n << 63n) - 1n, 8)],
  },
  { dtype: ">m8[ms]", v2: true, itemSize: 8, family: "time", extremes: [le(-(1n << 63n), 8)] },
  { dtype: "bfloat16", v2: false, itemSize: 2, family: "mini", extremes: ["c07f", "0080", "807f"] },
  { dtype: "float8_e5m2", v2: false, itemSize: 1, family: "mini", extremes: ["7c", "80", "7e"] },
  {
    dtype: "complex_float16",
    v2: false,
    itemSize: 4,
    family: "complex",
    extremes: ["007e0080", "007c00fc", "00380034"],
  },
];

/** A stored element's bytes made into one every path keeps exactly (see the comments). */
function canonical(t: TypeCase, hex: string, format: 2 | 3, fill = false): string {
  const bytes = Buffer.from(hex, "hex");
  if (t.family === "bool") return (bytes[0] & 1).toString(16).padStart(2, "0");
  if (t.dtype === "bfloat16") {
    // bfloat16 values are held as float32; a NaN's payload is not kept through every write path.
    const bits = bytes.readUInt16LE(0);
    return (bits & 0x7f80) === 0x7f80 && (bits & 0x7f) !== 0 ? "c07f" : hex;
  }
  const parts = t.family === "complex" ? 2 : 1;
  const part = t.itemSize / parts;
  if (t.family !== "float" && t.family !== "complex") return hex;
  for (let p = 0; p < parts; p++) {
    const at = p * part;
    // Half floats are held as float32 where the runtime lacks Float16Array, which keeps no
    // payload; v2 metadata holds only "NaN". Those NaNs become the usual quiet NaN.
    const view = bytes.subarray(at, at + part);
    const bits = view.reduceRight((acc, b) => (acc << 8n) | BigInt(b), 0n);
    const nan =
      part === 2
        ? (bits & 0x7c00n) === 0x7c00n && (bits & 0x3ffn) !== 0n
        : part === 4
          ? (bits & 0x7f800000n) === 0x7f800000n && (bits & 0x7fffffn) !== 0n
          : (bits & 0x7ff0000000000000n) === 0x7ff0000000000000n &&
            (bits & 0xfffffffffffffn) !== 0n;
    if (nan && (part === 2 || format === 2))
      Buffer.from(le(floatBits[part].nan, part), "hex").copy(bytes, at);
    // A fill value is a JavaScript number, and a float32 signaling NaN becomes one only quieted
    // (its payload kept): the quiet bit is set.
    else if (nan && fill && part === 4) bytes[at + 2] |= 0x40;
  }
  return bytes.toString("hex");
}

/** One array, as drawn: its elements come from `seed` (see {@link dataOf}). */
interface ArrayCase {
  dtype: string;
  fill: string;
  options: Record<string, unknown>;
  region: [number, number][];
  seed: number;
}

const codecChoice = fc.constantFrom("none", "zstd", "blosc", "gzip", "transpose", "sharded");
const v2Choice = fc.constantFrom("none", "zstd", "blosc", "zlib", "lz4", "F");

/** The codec options of a case, and its chunk (inner chunk) shape. */
function layout(format: 2 | 3, choice: string, itemSize: number, chunks: number[]) {
  if (format === 2) {
    const compressor =
      choice === "zstd"
        ? { id: "zstd", level: 1 }
        : choice === "blosc"
          ? { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 }
          : choice === "zlib"
            ? { id: "zlib", level: 1 }
            : choice === "lz4"
              ? { id: "lz4", acceleration: 1 }
              : null;
    return { zarrFormat: 2, chunks, compressor, order: choice === "F" ? "F" : "C" };
  }
  const blosc = {
    name: "blosc",
    configuration: {
      cname: "lz4",
      clevel: 5,
      shuffle: "shuffle",
      typesize: itemSize,
      blocksize: 0,
    },
  };
  const compressors =
    choice === "zstd" || choice === "sharded"
      ? [{ name: "zstd", configuration: { level: 1, checksum: false } }]
      : choice === "blosc"
        ? [blosc]
        : choice === "gzip" || choice === "transpose"
          ? [{ name: "gzip", configuration: { level: 1 } }]
          : null;
  return {
    zarrFormat: 3,
    chunks,
    compressors,
    ...(choice === "transpose"
      ? { filters: [{ name: "transpose", configuration: { order: [1, 0] } }] }
      : {}),
    ...(choice === "sharded" ? { shards: [2 * chunks[0], 2 * chunks[1]] } : {}),
  };
}

const arrayCase = fc
  .record({
    type: fc.constantFrom(...TYPES),
    v3: fc.boolean(),
    big: fc.boolean(),
    v3codecs: codecChoice,
    v2codecs: v2Choice,
    fillPick: fc.nat(),
    randomFill: fc.uint8Array({ minLength: 16, maxLength: 16 }),
    useRandomFill: fc.boolean(),
    seed: fc.integer(),
  })
  .map((r): ArrayCase => {
    const t = r.type;
    const format: 2 | 3 = r.v3 || !t.v2 ? 3 : 2;
    const raw = r.useRandomFill
      ? Buffer.from(r.randomFill.subarray(0, t.itemSize)).toString("hex")
      : t.extremes[r.fillPick % t.extremes.length];
    const fill = canonical(t, raw, format, true);
    // Small chunks stay on the calling thread; large ones (over 64 KiB decoded) go to workers.
    const elements = r.big ? Math.ceil((72 * 1024) / t.itemSize) : 96;
    const c0 = r.big ? 64 : 8;
    const chunks = [c0, Math.ceil(elements / c0)];
    const shape = [2 * chunks[0] + 3, chunks[1] + 5];
    // The first chunk whole and part of its neighbours: the rest is missing (fill).
    const region: [number, number][] = [
      [0, chunks[0] + 1],
      [0, chunks[1] - 2],
    ];
    const choice = format === 3 ? r.v3codecs : r.v2codecs;
    const options = { shape, dtype: t.dtype, ...layout(format, choice, t.itemSize, chunks) };
    return { dtype: t.dtype, fill, options, region, seed: r.seed };
  });

/** The written elements of a case as stored bytes (hex), from its seed. */
function dataOf(c: ArrayCase): string {
  const t = TYPES.find((k) => k.dtype === c.dtype)!;
  const format = c.options.zarrFormat as 2 | 3;
  const n = c.region.reduce((acc, [start, stop]) => acc * (stop - start), 1);
  let state = c.seed >>> 0 || 1;
  const element = () => {
    const out = Buffer.alloc(t.itemSize);
    for (let i = 0; i < t.itemSize; i++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      out[i] = state >>> 24;
    }
    return canonical(t, out.toString("hex"), format);
  };
  return Array.from({ length: n }, element).join("");
}

function dataTypeOf(dtype: string): DataType {
  return /^[<>|]/.test(dtype) ? resolveDataTypeV2(dtype).dataType : resolveDataTypeV3(dtype);
}

/** The container memory the whole array must read as: the fill, then the written region. */
function model(c: ArrayCase, dataHex: string): string {
  const dt = dataTypeOf(c.dtype);
  const shape = c.options.shape as number[];
  const one = dt.decode(Buffer.from(c.fill, "hex"), 1, "little") as TypedArray;
  const width = one.byteLength;
  const fill = new Uint8Array(one.buffer, one.byteOffset, width);
  const total = shape[0] * shape[1];
  const out = new Uint8Array(total * width);
  for (let i = 0; i < total; i++) out.set(fill, i * width);
  const [[r0, r1], [c0, c1]] = c.region;
  const cols = c1 - c0;
  const data = dt.decode(Buffer.from(dataHex, "hex"), (r1 - r0) * cols, "little") as TypedArray;
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  for (let row = r0; row < r1; row++) {
    const from = (row - r0) * cols * width;
    out.set(bytes.subarray(from, from + cols * width), (row * shape[1] + c0) * width);
  }
  return Buffer.from(out).toString("hex");
}

/** Where a result first differs from the model (element index and both values), or "". */
function firstDifference(got: string, want: string, c: ArrayCase): string {
  if (got === want) return "";
  const width = (2 * want.length) / (c.options.shape as number[]).reduce((a, b) => a * b, 1);
  for (let i = 0; i < want.length; i += width)
    if (got.slice(i, i + width) !== want.slice(i, i + width))
      return `element ${i / width}: ${got.slice(i, i + width)}, model ${want.slice(i, i + width)} (got ${got.length / 2} bytes, model ${want.length / 2})`;
  return `got ${got.length / 2} bytes, model ${want.length / 2}`;
}

function runChild(args: string[]): string {
  return execFileSync(process.execPath, [child, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    cwd: here,
  });
}

describe("fill values, codecs and chunk sizes through the built packages, in fresh processes", () => {
  const { dir, remove } = tempDir("z-fill-values-");
  afterAll(remove);
  beforeAll(async () => {
    if (!existsSync(builtEntry))
      throw new Error(`${builtEntry} is missing: build the packages first (pnpm build)`);
    await loadDataTypes();
  });

  it("every array reads as the model in every pool mode", { timeout: 600_000 }, async () => {
    let run = 0;
    const dispatched: number[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(arrayCase, { minLength: 10, maxLength: 14 }), async (drawn) => {
        run++;
        const cases = drawn.map((c, i) => ({ ...c, id: `r${run}a${i}`, data: dataOf(c) }));
        const casesFile = path.join(dir, `cases-${run}.json`);
        writeFileSync(casesFile, JSON.stringify(cases));
        const root = path.join(dir, `run-${run}.zarr`);
        runChild(["write", casesFile, root]);
        const expected = new Map(cases.map((c) => [c.id, model(c, c.data)]));
        for (const mode of MODES) {
          const lines = runChild(["read", casesFile, root, mode]).trim().split("\n");
          for (const line of lines) {
            const result = JSON.parse(line);
            if (result.stats) {
              dispatched.push(result.stats.dispatched);
              continue;
            }
            const { data: _, ...c } = cases.find((k) => k.id === result.id)!;
            const what = `${mode}: ${JSON.stringify(c)}`;
            expect(result.error, what).toBeUndefined();
            expect(firstDifference(result.hex, expected.get(c.id)!, c), what).toBe("");
          }
          expect(lines.length).toBeGreaterThanOrEqual(cases.length);
        }
      }),
      { numRuns: Number(process.env.FILL_VALUE_RUNS ?? 3), endOnFailure: true },
    );
    // Forced to workers, every chunk of every run went to one.
    expect(dispatched.length).toBe(run);
    for (const count of dispatched) expect(count).toBeGreaterThan(0);
    console.log(
      `[fill values through dist] ${run} runs; chunks decoded in workers: ${dispatched.join(", ")}`,
    );
  });
});
