// The filters against numcodecs itself: Debian's numcodecs 0.11 (NumPy 1.24) at
// /usr/bin/python3 encodes and decodes the same vectors, and our bytes must equal its bytes.
// The vectors aim at the corners: wrap-around, out-of-range and NaN casts, ties in rounding,
// float16 arithmetic, NumPy 1.x scalar promotion, NaN payloads in bitround, padding bits.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import {
  type ArrayToArrayCodec,
  BytesCodec,
  type ChunkSpec,
  loadCodecs,
  resolveCodec,
} from "@z/codecs";
import { quantizeBits } from "@z/codecs/internal";
import { type DataType, resolveDataTypeV3 } from "@z/metadata";
import { numberToHalf } from "@z/ndarray";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PYTHON = "/usr/bin/python3";
const LE = new BytesCodec("little");

const SCRIPT = `
import sys, json, base64, warnings, numpy as np, numcodecs
warnings.simplefilter("ignore")
def pack(a):
    a = np.ascontiguousarray(np.asarray(a)).reshape(-1)
    a = a.astype(a.dtype.newbyteorder("<"))
    return {"dtype": a.dtype.str, "data": base64.b64encode(a.tobytes()).decode()}
req = json.load(sys.stdin)
out = {}
for r in req["cases"]:
    try:
        codec = numcodecs.get_codec(dict(r["config"]))
        arr = np.frombuffer(base64.b64decode(r["data"]), dtype=np.dtype(r["dtype"])).copy()
        if r["op"] == "encode":
            enc = codec.encode(arr)
            out[r["id"]] = {"encoded": pack(enc), "decoded": pack(codec.decode(enc))}
        else:
            out[r["id"]] = {"decoded": pack(codec.decode(arr))}
    except Exception as e:
        out[r["id"]] = {"error": repr(e)}
import math
bits = []
for d in req["digits"]:
    p = 10. ** -d
    e = math.log(p, 10)
    e = int(math.floor(e)) if e < 0 else int(math.ceil(e))
    bits.append(math.ceil(math.log(10. ** -e, 2)))
print(json.dumps({"cases": out, "bits": bits, "versions": [numcodecs.__version__, np.__version__]}))
`;

interface Packed {
  dtype: string;
  data: string;
}
interface PyResult {
  encoded?: Packed;
  decoded?: Packed;
  error?: string;
}

/** One vector: a numcodecs configuration and input elements (as little-endian bytes). */
interface Case {
  id: string;
  group: string;
  config: Record<string, unknown>;
  /** The type of `bytes`: the decoded type for "encode", the encoded type for "decode". */
  dataType: DataType;
  /** The chunk's decoded type (for "decode" cases, differs from `dataType`). */
  chunkType: DataType;
  bytes: Uint8Array;
  op: "encode" | "decode";
}

// --- vectors -----------------------------------------------------------------------------------

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const dt = (name: string) => resolveDataTypeV3(name);
const numpyStr = (dataType: DataType) => dataType.toV2("little") as string;

const FLOAT_SPECIALS = [
  0,
  -0,
  0.5,
  -0.5,
  1.5,
  2.5,
  -2.5,
  3.5,
  127.9,
  128,
  255.5,
  256,
  -129,
  300.7,
  -300.7,
  32767.5,
  32768,
  65504,
  65519,
  65520,
  65535.9,
  65536,
  -32769,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 32 + 5,
  1e10,
  -1e10,
  2 ** 53 + 2,
  2 ** 63,
  -(2 ** 63),
  2 ** 64,
  2 ** 64 + 4096,
  1.8e19,
  1e20,
  -1e20,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  1e-45,
  6e-8,
  3.4e38,
  1e39,
  0.1,
  1 / 3,
  -7.75,
];

const INT_SPECIALS: bigint[] = [
  0n,
  1n,
  -1n,
  2n,
  127n,
  128n,
  -128n,
  -129n,
  255n,
  256n,
  2047n,
  2049n,
  32767n,
  32768n,
  -32769n,
  65535n,
  65536n,
  65519n,
  65521n,
  16777217n,
  16777219n,
  2n ** 31n - 1n,
  -(2n ** 31n),
  2n ** 32n - 1n,
  2n ** 53n + 1n,
  2n ** 60n + 2n ** 36n + 1n,
  2n ** 60n + 2n ** 36n,
  2n ** 63n - 1n,
  -(2n ** 63n),
  2n ** 64n - 1n,
];

/** Little-endian bytes of values in a data type (integers wrap into it, floats round into it). */
function bytesOf(dataType: DataType, values: readonly (number | bigint)[]): Uint8Array {
  const view = new DataView(new ArrayBuffer(values.length * dataType.itemSize));
  values.forEach((v, i) => {
    const size = dataType.itemSize;
    const offset = i * size;
    switch (dataType.kind) {
      case "bool":
        view.setUint8(offset, v ? 1 : 0);
        return;
      case "float":
        if (size === 2) view.setUint16(offset, numberToHalf(Number(v)), true);
        else if (size === 4) view.setFloat32(offset, Number(v), true);
        else view.setFloat64(offset, Number(v), true);
        return;
      default: {
        const big = typeof v === "bigint" ? v : BigInt(Math.trunc(v));
        const wrapped = BigInt.asUintN(size * 8, big);
        for (let k = 0; k < size; k++)
          view.setUint8(offset + k, Number((wrapped >> BigInt(8 * k)) & 0xffn));
      }
    }
  });
  return new Uint8Array(view.buffer);
}

/** Special values of a type's family, plus random ones. */
function vectorFor(dataType: DataType, random: () => number, extra = 24): Uint8Array {
  if (dataType.kind === "bool")
    return bytesOf(
      dataType,
      Array.from({ length: 40 }, () => (random() < 0.5 ? 1 : 0)),
    );
  if (dataType.kind === "float") {
    const values = [
      ...FLOAT_SPECIALS,
      ...Array.from({ length: extra }, () => (random() - 0.5) * 10 ** (random() * 12)),
    ];
    return bytesOf(dataType, values);
  }
  const randomInts = Array.from({ length: extra }, () =>
    BigInt.asIntN(
      64,
      BigInt(Math.floor(random() * 2 ** 32)) * 2n ** 32n + BigInt(Math.floor(random() * 2 ** 32)),
    ),
  );
  const small = Array.from({ length: extra }, () => BigInt(Math.floor((random() - 0.5) * 600)));
  return bytesOf(dataType, [...INT_SPECIALS, ...randomInts, ...small]);
}

const ALL_TYPES = [
  "bool",
  "int8",
  "int16",
  "int32",
  "int64",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
  "float16",
  "float32",
  "float64",
];

function buildCases(): Case[] {
  const cases: Case[] = [];
  const random = rng(20240611);
  const add = (
    group: string,
    config: Record<string, unknown>,
    chunkType: DataType,
    bytes: Uint8Array,
  ) =>
    cases.push({
      id: `${group}#${cases.length}`,
      group,
      config,
      dataType: chunkType,
      chunkType,
      bytes,
      op: "encode",
    });
  const addDecode = (
    group: string,
    config: Record<string, unknown>,
    chunkType: DataType,
    encodedType: DataType,
    bytes: Uint8Array,
  ) =>
    cases.push({
      id: `${group}#${cases.length}`,
      group,
      config,
      dataType: encodedType,
      chunkType,
      bytes,
      op: "decode",
    });

  // astype: every pair of numeric types, both directions.
  for (const from of ALL_TYPES) {
    for (const to of ALL_TYPES) {
      const config = {
        id: "astype",
        encode_dtype: numpyStr(dt(to)),
        decode_dtype: numpyStr(dt(from)),
      };
      add("astype", config, dt(from), vectorFor(dt(from), random));
    }
  }

  // delta: every type with itself, and mixed pairs (wrap-around, promotion in cumsum).
  const deltaPairs: [string, string][] = [
    ...ALL_TYPES.map((t) => [t, t] as [string, string]),
    ["int16", "int8"],
    ["uint8", "int16"],
    ["int8", "int16"],
    ["float64", "float32"],
    ["float64", "int32"],
    ["int32", "float32"],
    ["float32", "int32"],
    ["float16", "float32"],
    ["float32", "float16"],
    ["bool", "int8"],
    ["int8", "bool"],
    ["int64", "float64"],
    ["uint64", "int64"],
    ["int32", "int64"],
    ["uint32", "int32"],
    ["uint16", "uint8"],
    ["float64", "float16"],
    ["int64", "uint8"],
  ];
  for (const [dtype, astype] of deltaPairs) {
    const config = { id: "delta", dtype: numpyStr(dt(dtype)), astype: numpyStr(dt(astype)) };
    add("delta", config, dt(dtype), vectorFor(dt(dtype), random));
    // Decoding arbitrary encoded values: overflow in the running sum, float accumulation.
    addDecode("delta", config, dt(dtype), dt(astype), vectorFor(dt(astype), random, 200));
  }

  // fixedscaleoffset: float and integer dtypes, every kind of astype, scalars that change the
  // computation type under NumPy 1.x promotion.
  const fso: [string, string, number, number][] = [];
  for (const astype of [
    "int8",
    "uint8",
    "int16",
    "uint16",
    "int32",
    "uint32",
    "int64",
    "uint64",
    "float16",
    "float32",
    "float64",
  ]) {
    fso.push(
      ["float64", astype, 1000, 10],
      ["float32", astype, 1000, 10],
      ["float16", astype, 10, 4],
    );
  }
  fso.push(
    ["float64", "int16", -3.5, 0.5],
    ["float64", "int32", 0, 1],
    ["float64", "int64", 100000, 2 ** 40],
    ["float32", "int32", 100000, 3],
    ["float32", "float32", 1e10, 1.5],
    ["float16", "float16", 1000, 10],
    ["float16", "int16", 0.25, 100000],
    ["float32", "int16", 12.5, 1e39],
    ["int16", "int8", 100, 3],
    ["int16", "int16", 200, 300],
    ["uint8", "int16", -5, 2],
    ["int32", "int16", 1.5, 10],
    ["int64", "int64", 2 ** 40, 7],
    ["uint32", "uint32", 10, 100000],
    ["int8", "float32", 10, 0.1],
    ["uint64", "float64", 3, 5],
    ["int32", "float16", -7, 3],
  );
  for (const [dtype, astype, offset, scale] of fso) {
    const config = {
      id: "fixedscaleoffset",
      offset,
      scale,
      dtype: numpyStr(dt(dtype)),
      astype: numpyStr(dt(astype)),
    };
    const values =
      dt(dtype).kind === "float"
        ? [
            ...Array.from({ length: 60 }, () => offset + (random() - 0.5) * 30),
            ...[0.5, 1.5, 2.5, -0.5, -1.5].map((t) => offset + t / scale),
            ...FLOAT_SPECIALS,
          ]
        : [
            ...INT_SPECIALS,
            ...Array.from({ length: 60 }, () => BigInt(Math.floor((random() - 0.5) * 1000))),
          ];
    add("fixedscaleoffset", config, dt(dtype), bytesOf(dt(dtype), values));
    addDecode("fixedscaleoffset", config, dt(dtype), dt(astype), vectorFor(dt(astype), random));
  }

  // quantize: every float pair, digits from coarse to beyond float16's range.
  for (const dtype of ["float16", "float32", "float64"]) {
    for (const astype of ["float16", "float32", "float64"]) {
      for (const digits of [-3, -1, 0, 1, 2, 3, 5, 7, 10, 12, 15]) {
        const config = {
          id: "quantize",
          digits,
          dtype: numpyStr(dt(dtype)),
          astype: numpyStr(dt(astype)),
        };
        add("quantize", config, dt(dtype), vectorFor(dt(dtype), random));
      }
    }
  }

  // bitround: every keepbits of interest, NaN payloads and values that carry into the exponent.
  const payloads32 = [
    0x7f800001, 0x7fffffff, 0xff800001, 0x7f7fffff, 0x00000001, 0x807fffff, 0x3f7fffff,
  ];
  for (const [dtype, keeps] of [
    ["float16", [0, 1, 2, 5, 9, 10]],
    ["float32", [0, 1, 3, 7, 10, 22, 23]],
    ["float64", [0, 1, 3, 10, 19, 20, 21, 23, 31, 32, 33, 51, 52]],
  ] as [string, number[]][]) {
    for (const keepbits of keeps) {
      let bytes = vectorFor(dt(dtype), random, 100);
      if (dtype === "float32") {
        const extra = new Uint8Array(new Uint32Array(payloads32).buffer);
        bytes = new Uint8Array([...bytes, ...extra]);
      } else if (dtype === "float64") {
        const words = payloads32
          .flatMap((w) => [0xffffffff, w])
          .concat([0x00000001, 0x7ff00000, 0x80000000, 0x7fefffff]);
        bytes = new Uint8Array([...bytes, ...new Uint8Array(new Uint32Array(words).buffer)]);
      }
      add("bitround", { id: "bitround", keepbits }, dt(dtype), bytes);
    }
  }

  // packbits: every padding (0 to 7), empty chunks, and int8/uint8 input viewed as bool.
  for (let n = 0; n <= 25; n++) {
    add(
      "packbits",
      { id: "packbits" },
      dt("bool"),
      bytesOf(
        dt("bool"),
        Array.from({ length: n }, () => (random() < 0.5 ? 1 : 0)),
      ),
    );
  }
  add(
    "packbits",
    { id: "packbits" },
    dt("uint8"),
    bytesOf(dt("uint8"), [0, 1, 2, 255, 0, 0, 128, 7, 0, 3]),
  );
  add(
    "packbits",
    { id: "packbits" },
    dt("int8"),
    bytesOf(dt("int8"), [0, -1, 2, 0, 0, 0, 0, 1, 0]),
  );
  return cases;
}

// --- our side --------------------------------------------------------------------------------

function filterFor(c: Case, spec: ChunkSpec): ArrayToArrayCodec {
  const { id, ...configuration } = c.config;
  const codec = resolveCodec(
    { name: `numcodecs.${id}`, configuration: configuration as never, mustUnderstand: true },
    { spec, zarrFormat: 2 },
  );
  if (codec?.kind !== "array_to_array")
    throw new Error(`numcodecs.${id} is not an array-to-array codec`);
  return codec;
}

function specOf(dataType: DataType, n: number): ChunkSpec {
  return { shape: [n], dataType, fillValue: dataType.defaultFill };
}

async function ourEncode(c: Case): Promise<Uint8Array> {
  const spec = specOf(c.chunkType, c.bytes.length / c.chunkType.itemSize);
  const codec = filterFor(c, spec);
  return LE.encode(await codec.encode(LE.decode(c.bytes, spec), spec), codec.encodedSpec(spec));
}

async function ourDecode(c: Case, encoded: Uint8Array, n: number): Promise<Uint8Array> {
  const spec = specOf(c.chunkType, n);
  const codec = filterFor(c, spec);
  const decoded = await codec.decode(LE.decode(encoded, codec.encodedSpec(spec)), spec);
  expect(decoded.shape).toEqual(spec.shape);
  return LE.encode(decoded, spec);
}

/** Whether a little-endian float element is a NaN (any sign, any payload). */
function isNaNBits(bytes: Uint8Array, size: number): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, size);
  if (size === 2)
    return (view.getUint16(0, true) & 0x7c00) === 0x7c00 && (view.getUint16(0, true) & 0x3ff) !== 0;
  return Number.isNaN(size === 4 ? view.getFloat32(0, true) : view.getFloat64(0, true));
}

/**
 * Compares two little-endian element vectors; returns the first difference, or "" when they
 * are identical. With `tolerateNaNBits`, two NaNs of a float type count as equal: for vectors
 * through float16, whose NaN sign the metadata layer's float16 conversion does not keep.
 */
function difference(
  numpyDtype: string,
  ours: Uint8Array,
  theirs: Uint8Array,
  input: Uint8Array,
  inputType: string,
  tolerateNaNBits: boolean,
): string {
  if (ours.length !== theirs.length) return `length ${ours.length} vs numcodecs ${theirs.length}`;
  const size = Number(numpyDtype.slice(2)) || 1;
  const inSize = Number(inputType.slice(2)) || 1;
  for (let i = 0; i < ours.length; i += size) {
    const a = ours.subarray(i, i + size);
    const b = theirs.subarray(i, i + size);
    if (Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0) continue;
    if (tolerateNaNBits && numpyDtype[1] === "f" && isNaNBits(a, size) && isNaNBits(b, size)) {
      toleratedNaNs++;
      continue;
    }
    const k = i / size;
    const hex = (x: Uint8Array) => Buffer.from(x).toString("hex");
    const source = hex(input.subarray(k * inSize, (k + 1) * inSize));
    return `element ${k} (${numpyDtype}, LE hex): ours ${hex(a)}, numcodecs ${hex(b)}; input element ${source} (${inputType})`;
  }
  return "";
}

let toleratedNaNs = 0;
const involvesHalf = (c: Case) =>
  JSON.stringify(c.config).includes("f2") || c.chunkType.name === "float16";

// --- the comparison ----------------------------------------------------------------------------

const cases = buildCases();
const DIGITS = Array.from({ length: 601 }, (_, i) => i - 300);
let python: { cases: Record<string, PyResult>; bits: number[]; versions: string[] } | undefined;
let skipReason = "";

beforeAll(() => {
  if (!existsSync(PYTHON)) {
    skipReason = `${PYTHON} not found`;
    return;
  }
  try {
    const input = JSON.stringify({
      cases: cases.map((c) => ({
        id: c.id,
        config: c.config,
        dtype: numpyStr(c.dataType),
        data: Buffer.from(c.bytes).toString("base64"),
        op: c.op,
      })),
      digits: DIGITS,
    });
    python = JSON.parse(
      execFileSync(PYTHON, ["-c", SCRIPT], { input, maxBuffer: 1 << 28 }).toString(),
    );
  } catch (error) {
    skipReason = `numcodecs via ${PYTHON} failed: ${(error as Error).message.split("\n")[0]}`;
  }
});

const report: string[] = [];
afterAll(() => {
  if (skipReason) console.warn(`[filters-numpy] SKIPPED: ${skipReason}`);
  if (report.length)
    console.log(
      `[filters-numpy] against numcodecs ${python?.versions.join(" / numpy ")}\n  ${report.join("\n  ")}`,
    );
});

const groups = ["astype", "delta", "fixedscaleoffset", "quantize", "bitround", "packbits"];
// The filters load on first use; filterFor builds them synchronously.
beforeAll(() => loadCodecs(groups.map((group) => `numcodecs.${group}`)));

describe("filters against numcodecs 0.11 (Debian python3)", () => {
  for (const group of groups) {
    it(`${group}: encodes and decodes byte-identically to numcodecs`, async (ctx) => {
      if (!python) return ctx.skip();
      const mismatches: string[] = [];
      let encodes = 0;
      let decodes = 0;
      let elements = 0;
      toleratedNaNs = 0;
      for (const c of cases.filter((x) => x.group === group)) {
        const theirs = python.cases[c.id];
        expect(theirs.error, `${c.id} ${JSON.stringify(c.config)}`).toBeUndefined();
        const n = c.bytes.length / c.dataType.itemSize;
        elements += n;
        const inputType = numpyStr(c.dataType);
        if (c.op === "encode" && theirs.encoded) {
          const ours = await ourEncode(c);
          const expected = new Uint8Array(Buffer.from(theirs.encoded.data, "base64"));
          const diff = difference(
            theirs.encoded.dtype,
            ours,
            expected,
            c.bytes,
            inputType,
            involvesHalf(c),
          );
          if (diff) mismatches.push(`${c.id} encode ${JSON.stringify(c.config)}: ${diff}`);
          encodes++;
        }
        if (theirs.decoded) {
          const encoded =
            c.op === "encode" && theirs.encoded
              ? new Uint8Array(Buffer.from(theirs.encoded.data, "base64"))
              : c.bytes;
          const ours = await ourDecode(c, encoded, n);
          const expected = new Uint8Array(Buffer.from(theirs.decoded.data, "base64"));
          const encodedType = theirs.encoded?.dtype ?? inputType;
          const diff = difference(
            theirs.decoded.dtype,
            ours,
            expected,
            encoded,
            encodedType,
            involvesHalf(c),
          );
          if (diff) mismatches.push(`${c.id} decode ${JSON.stringify(c.config)}: ${diff}`);
          decodes++;
        }
      }
      expect(mismatches.slice(0, 15)).toEqual([]);
      expect(encodes + decodes).toBeGreaterThan(0);
      const nans = toleratedNaNs
        ? `; ${toleratedNaNs} float16-derived NaNs differ only in sign bit`
        : "";
      report.push(
        `${group}: ${encodes} encodes and ${decodes} decodes identical (${elements} input elements${nans})`,
      );
    });
  }

  it("quantize computes numcodecs' number of bits for every digits from -300 to 300", (ctx) => {
    if (!python) return ctx.skip();
    expect(DIGITS.map(quantizeBits)).toEqual(python.bits);
    report.push(`quantize bits: ${DIGITS.length} digits values agree with Python's math`);
  });
});
