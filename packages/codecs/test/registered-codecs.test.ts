// The codecs of the zarr-extensions registry: reshape, cast_value, scale_offset and bitround
// (under its registered name); zfp has its own tests (zfp.test.ts). Expected values come from
// the spec's own examples, from NumPy, or from simple reference models.
import {
  CastValueError,
  type ChunkSpec,
  CodecConfigError,
  DecodeError,
  loadCodecs,
  ReshapeCodec,
  resolveCodec,
  ScaleOffsetError,
} from "@z/codecs";
import {
  type DataType,
  type JsonObject,
  type JsonValue,
  registerDataType,
  resolveDataTypeV3,
} from "@z/metadata";
import { type Chunk, cOrderStrides } from "@z/ndarray";
import { havePython, runPython } from "@z/test-utils";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

const spec = (dtype: string | DataType, shape: number[], fillValue: unknown = 0): ChunkSpec => ({
  shape,
  dataType: typeof dtype === "string" ? resolveDataTypeV3(dtype) : dtype,
  fillValue,
});

function chunkOf(dataType: DataType, values: readonly unknown[], shape = [values.length]): Chunk {
  const data = dataType.create(values.length);
  values.forEach((v, i) => {
    dataType.setElement(data, i, dataType.coerce(v));
  });
  return { data, shape, stride: cOrderStrides(shape) };
}

const elements = (dataType: DataType, chunk: Chunk): unknown[] => {
  const n = chunk.shape.reduce((a, b) => a * b, 1);
  return Array.from({ length: n }, (_, i) => dataType.getElement(chunk.data, i));
};

// These codecs load on first use; the tests build them synchronously.
beforeAll(() =>
  loadCodecs(["reshape", "cast_value", "scale_offset", "bitround", "numcodecs.bitround"]),
);

function build(name: string, configuration: JsonObject, s: ChunkSpec) {
  const codec = resolveCodec(
    { name, configuration, mustUnderstand: true },
    { spec: s, zarrFormat: 3 },
  );
  if (codec?.kind !== "array_to_array") throw new Error(`${name} is not array_to_array`);
  return codec;
}

/** Encodes `values` of `from` with a cast_value configuration; the encoded elements. */
function castValues(from: string | DataType, values: unknown[], configuration: JsonObject) {
  const s = spec(from, [values.length]);
  const codec = build("cast_value", configuration, s);
  const out = codec.encodedSpec(s);
  return elements(out.dataType, codec.encode(chunkOf(s.dataType, values), s) as Chunk);
}

describe("reshape", () => {
  it("resolves the spec's example and the -1 entry", () => {
    const example = new ReshapeCodec([[0, 1], [2], 3]);
    expect(example.outputShape([100, 50, 64, 3])).toEqual([5000, 64, 3]);
    expect(new ReshapeCodec([-1, 4]).outputShape([6, 2, 2])).toEqual([6, 4]);
    expect(new ReshapeCodec([[0, 1], 10, [3, 4]]).outputShape([2, 3, 10, 4, 5])).toEqual([
      6, 10, 20,
    ]);
    expect(new ReshapeCodec([[], -1]).outputShape([3, 4])).toEqual([1, 12]);
  });

  it("refuses what the spec forbids", () => {
    const bad: [unknown[], number[]][] = [
      [
        [[1], [0]],
        [2, 3],
      ],
      [
        [[1, 0], 10, [3, 4]],
        [2, 3, 10, 4, 5],
      ],
      [
        [[3, 4], 10, [0, 1]],
        [2, 3, 10, 4, 5],
      ],
      [[-1, -1], [4]],
      [[5], [4]],
      [[-1, 3], [4]],
      [[0, 4], [4]],
      [[1.5], [4]],
      [[[2]], [4]],
      // [0] is 2 but the output before it (3) is not the input before dimension 0 (none).
      [
        [3, [0], -1],
        [2, 3],
      ],
    ];
    for (const [shape, input] of bad) {
      expect(
        () => ReshapeCodec.fromConfig({ shape: shape as JsonValue }, spec("int8", input)),
        JSON.stringify(shape),
      ).toThrow(CodecConfigError);
    }
    expect(() => ReshapeCodec.fromConfig({ shape: [4], order: "C" }, spec("int8", [4]))).toThrow(
      /unknown configuration field/,
    );
  });

  it("keeps C order both ways, also from a strided view, for any factorisation", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (input, head, transposed) => {
          const total = input.reduce((a, b) => a * b, 1);
          const headTotal = head.reduce((a, b) => a * b, 1);
          const shape = total % headTotal === 0 ? [...head, -1] : [-1];
          const s = spec("int16", input);
          const codec = build("reshape", { shape }, s);
          const values = Array.from({ length: total }, (_, i) => i - 7);
          let chunk = chunkOf(s.dataType, values, input);
          if (transposed && input.length > 1) {
            // The same logical chunk held in Fortran order.
            const data = s.dataType.create(total);
            const fStride = input.map((_, i) => input.slice(0, i).reduce((a, b) => a * b, 1));
            const cStride = cOrderStrides(input);
            for (let flat = 0; flat < total; flat++) {
              let rem = flat;
              let at = 0;
              input.forEach((_, d) => {
                const idx = Math.floor(rem / cStride[d]);
                rem -= idx * cStride[d];
                at += idx * fStride[d];
              });
              s.dataType.setElement(data, at, values[flat]);
            }
            chunk = { data, shape: input, stride: fStride };
          }
          const encoded = codec.encode(chunk, s) as Chunk;
          expect(encoded.shape).toEqual(codec.encodedSpec(s).shape);
          expect(encoded.shape.reduce((a, b) => a * b, 1)).toBe(total);
          expect(elements(s.dataType, encoded)).toEqual(values);
          const decoded = codec.decode(encoded, s) as Chunk;
          expect(decoded.shape).toEqual(input);
          expect(elements(s.dataType, decoded)).toEqual(values);
        },
      ),
    );
  });

  it("refuses an encoded chunk of another size", () => {
    const s = spec("int8", [2, 3]);
    const codec = build("reshape", { shape: [-1] }, s);
    expect(() => codec.decode(chunkOf(s.dataType, [1, 2, 3, 4, 5]), s)).toThrow(DecodeError);
  });
});

describe("cast_value: the spec's examples", () => {
  it("128.0 to int8: an error, clamped to 127, wrapped to -128", () => {
    expect(() => castValues("float64", [128], { data_type: "int8" })).toThrow(CastValueError);
    expect(() => castValues("float64", [128], { data_type: "int8" })).toThrow(/element 0.*128/);
    expect(castValues("float64", [128], { data_type: "int8", out_of_range: "clamp" })).toEqual([
      127,
    ]);
    expect(castValues("float64", [128], { data_type: "int8", out_of_range: "wrap" })).toEqual([
      -128,
    ]);
  });

  it("int16 wraps with two's complement", () => {
    expect(
      castValues("int32", [32768, 32769, -32769], { data_type: "int16", out_of_range: "wrap" }),
    ).toEqual([-32768, -32767, 32767]);
  });

  it("0 in uint16 is 0 in uint8; NaN and infinities need scalar_map for integer targets", () => {
    expect(castValues("uint16", [0, 255], { data_type: "uint8" })).toEqual([0, 255]);
    expect(() => castValues("float64", [Number.NaN], { data_type: "uint8" })).toThrow(/NaN/);
    expect(() =>
      castValues("float64", [Infinity], { data_type: "uint8", out_of_range: "clamp" }),
    ).toThrow(/Infinity/);
    const numpyLike = {
      data_type: "uint8",
      rounding: "towards-zero",
      out_of_range: "wrap",
      scalar_map: {
        encode: [
          ["NaN", 0],
          ["+Infinity", 0],
          ["-Infinity", 0],
        ],
      },
    };
    // "+Infinity" is not the fill value encoding ("Infinity"): the configuration is refused.
    expect(() => castValues("float64", [1], numpyLike)).toThrow(CodecConfigError);
  });

  it("the NumPy-compatible configuration casts as NumPy's astype(uint8) does", () => {
    const config = {
      data_type: "uint8",
      rounding: "towards-zero",
      out_of_range: "wrap",
      scalar_map: {
        encode: [
          ["NaN", 0],
          ["Infinity", 0],
          ["-Infinity", 0],
        ],
      },
    };
    const values = [
      Number.NaN,
      Infinity,
      -Infinity,
      0.5,
      -0.5,
      255.9,
      256,
      300.7,
      -1,
      -129.5,
      1000,
    ];
    const got = castValues("float64", values, config);
    if (havePython("cast_value numpy", ["numpy"])) {
      const script =
        "import json,sys,numpy as np; x=np.array(json.loads(sys.stdin.read()),dtype='f8'); x[~np.isfinite(x)]=0; print(json.dumps(x.astype('u1').tolist()))";
      const json = JSON.stringify(values.map((v) => (Number.isFinite(v) ? v : 0)));
      expect(got).toEqual(JSON.parse(runPython(script, json)));
    }
    expect(got).toEqual([0, 0, 0, 0, 0, 255, 0, 44, 255, 127, 232]);
  });

  it("the fill value must survive the round trip; scalar_map can make it", () => {
    const nanFill = spec("float64", [2], Number.NaN);
    expect(() => build("cast_value", { data_type: "uint8" }, nanFill)).toThrow(
      /fill value NaN cannot be cast/,
    );
    expect(() =>
      build("cast_value", { data_type: "uint8", scalar_map: { encode: [["NaN", 0]] } }, nanFill),
    ).toThrow(/comes back as 0/);
    const codec = build(
      "cast_value",
      { data_type: "uint8", scalar_map: { encode: [["NaN", 0]], decode: [[0, "NaN"]] } },
      nanFill,
    );
    expect(codec.encodedSpec(nanFill).fillValue).toBe(0);
    expect(() => build("cast_value", { data_type: "int8" }, spec("float64", [2], 0.5))).toThrow(
      /comes back as/,
    );
  });

  it("refuses bad configurations", () => {
    const s = spec("float32", [2]);
    const bad: JsonObject[] = [
      {},
      { data_type: "float16", extra: 1 },
      { data_type: "float16", rounding: "up" },
      { data_type: "float16", out_of_range: "saturate" },
      { data_type: "float16", out_of_range: "wrap" },
      { data_type: "string" },
      { data_type: "nope" },
      { data_type: "int8", scalar_map: { encode: [[1]] } },
      { data_type: "int8", scalar_map: { both: [] } },
      { data_type: "int8", scalar_map: { encode: [["x", 1]] } },
    ];
    for (const configuration of bad) {
      expect(() => build("cast_value", configuration, s), JSON.stringify(configuration)).toThrow(
        CodecConfigError,
      );
    }
    expect(() => build("cast_value", { data_type: "int8" }, spec("bool", [2], false))).toThrow(
      CodecConfigError,
    );
  });
});

/** Reference model of rounding a finite number to an integer. */
function roundInteger(x: number, mode: string): number {
  const lo = Math.floor(x);
  if (lo === x) return x;
  const hi = lo + 1;
  const d = x - lo;
  switch (mode) {
    case "towards-zero":
      return Math.trunc(x);
    case "towards-positive":
      return hi;
    case "towards-negative":
      return lo;
    case "nearest-away":
      return d < 0.5 ? lo : d > 0.5 ? hi : x > 0 ? hi : lo;
    default:
      return d < 0.5 ? lo : d > 0.5 ? hi : lo % 2 === 0 ? lo : hi;
  }
}

const MODES = [
  "nearest-even",
  "towards-zero",
  "towards-positive",
  "towards-negative",
  "nearest-away",
];

describe("cast_value: integer targets against a reference model", () => {
  it("rounds by each mode, then clamps or wraps (property)", () => {
    const targets: [string, number, boolean][] = [
      ["int8", 8, true],
      ["uint8", 8, false],
      ["int16", 16, true],
      ["uint32", 32, false],
      ["int64", 64, true],
    ];
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.double({ min: -1e6, max: 1e6, noNaN: true }),
            fc.integer({ min: -300, max: 300 }).map((i) => i / 2),
          ),
          { minLength: 1, maxLength: 20 },
        ),
        fc.constantFrom(...MODES),
        fc.constantFrom("clamp", "wrap"),
        fc.constantFrom(...targets),
        (values, rounding, outOfRange, [target, bits, signed]) => {
          const got = castValues("float64", values, {
            data_type: target,
            rounding,
            out_of_range: outOfRange,
          }).map((v) => BigInt(v as number | bigint));
          const min = signed ? -(2n ** BigInt(bits - 1)) : 0n;
          const max = signed ? 2n ** BigInt(bits - 1) - 1n : 2n ** BigInt(bits) - 1n;
          const expected = values.map((x) => {
            const r = BigInt(roundInteger(x, rounding));
            if (r >= min && r <= max) return r;
            if (outOfRange === "clamp") return r < min ? min : max;
            return signed ? BigInt.asIntN(bits, r) : BigInt.asUintN(bits, r);
          });
          expect(got).toEqual(expected);
        },
      ),
    );
  });

  it("int64 values beyond 2^53 cast exactly", () => {
    const big = [2n ** 62n + 1n, -(2n ** 63n), 2n ** 63n - 1n];
    expect(castValues("int64", big, { data_type: "uint64", out_of_range: "wrap" })).toEqual([
      2n ** 62n + 1n,
      2n ** 63n,
      2n ** 63n - 1n,
    ]);
    expect(
      castValues("uint64", [2n ** 64n - 1n], { data_type: "int64", out_of_range: "clamp" }),
    ).toEqual([2n ** 63n - 1n]);
  });
});

describe("cast_value: 64-bit integers to float64, exactly", () => {
  it("nearest-even is Number(bigint); directed modes step to the right neighbour (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), {
          minLength: 1,
          maxLength: 20,
        }),
        (values) => {
          const near = castValues("int64", values, { data_type: "float64" });
          expect(near).toEqual(values.map((v) => Number(v)));
          const down = castValues("int64", values, {
            data_type: "float64",
            rounding: "towards-negative",
          });
          const up = castValues("int64", values, {
            data_type: "float64",
            rounding: "towards-positive",
          });
          values.forEach((v, i) => {
            const lo = down[i] as number;
            const hi = up[i] as number;
            // Both are integers here (|v| > 2^53 or exact): compare as bigints.
            expect(BigInt(lo) <= v && v <= BigInt(hi)).toBe(true);
            if (lo !== hi) {
              // Not exact: hi must be the next float64 above lo.
              const next = new Float64Array([lo]);
              new BigInt64Array(next.buffer)[0] += lo > 0 ? 1n : -1n;
              expect(next[0]).toBe(hi);
            }
          });
        },
      ),
    );
  });
});

const FLOAT_SCRIPT = `
import json, sys, numpy as np
req = json.loads(sys.stdin.read())
x = np.array([float(v) for v in req["values"]], dtype="float64").astype(req["from"])
t = np.dtype(req["to"])
mode = req["mode"]
with np.errstate(all="ignore"):
    r = x.astype(t)
    back = r.astype(np.float64)
    xs = x.astype(np.float64)
    if mode == "towards-positive":
        r = np.where(back < xs, np.nextafter(r, t.type(np.inf)), r)
    elif mode == "towards-negative":
        r = np.where(back > xs, np.nextafter(r, t.type(-np.inf)), r)
    elif mode == "towards-zero":
        r = np.where(np.abs(back) > np.abs(xs), np.nextafter(r, t.type(0)), r)
print(json.dumps(r.view("u%d" % t.itemsize).tolist()))
`;

/** A number as Python's float() reads it back exactly, -0 included (JSON writes -0 as 0). */
const exactString = (v: unknown) => (Object.is(v, -0) ? "-0.0" : String(v));

/** The bit patterns of float elements, as NumPy would store them. */
function floatBits(dataType: DataType, values: unknown[]): number[] {
  const data = dataType.create(values.length);
  values.forEach((v, i) => {
    dataType.setElement(data, i, v);
  });
  const bytes = dataType.encode(data, "little");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return values.map((_, i) =>
    dataType.itemSize === 2 ? view.getUint16(2 * i, true) : view.getUint32(4 * i, true),
  );
}

describe.runIf(havePython("cast_value float rounding", ["numpy"]))(
  "cast_value: float targets against NumPy with nextafter for the directed modes",
  () => {
    const cases: [string, string, number][] = [
      ["float64", "float32", 3.4e38],
      ["float64", "float16", 65504],
      ["float32", "float16", 65504],
      ["int32", "float16", 65504],
      ["int32", "float32", 2 ** 31 - 1],
    ];
    for (const [from, to, limit] of cases) {
      it(`${from} to ${to}, every mode`, () => {
        const integral = from.startsWith("int");
        const arb = integral
          ? fc.integer({ min: -limit, max: limit })
          : fc.oneof(
              fc.double({ min: -limit, max: limit, noNaN: true }),
              fc.double({ min: -1e-3, max: 1e-3, noNaN: true }),
              fc.integer({ min: -4096, max: 4096 }).map((i) => 1 + i / 4096),
            );
        const samples = fc.sample(fc.array(arb, { minLength: 50, maxLength: 50 }), 1)[0];
        const values = [...samples, 0, -0, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 2049, 2051, 65503.9];
        const source = resolveDataTypeV3(from);
        const inputs = elements(
          source,
          chunkOf(
            source,
            values.map((v) => (integral ? Math.trunc(v) : v)),
          ),
        );
        for (const rounding of [
          "nearest-even",
          "towards-zero",
          "towards-positive",
          "towards-negative",
        ]) {
          const got = castValues(from, inputs, { data_type: to, rounding });
          const expected = JSON.parse(
            runPython(
              FLOAT_SCRIPT,
              JSON.stringify({ values: inputs.map(exactString), from, to, mode: rounding }),
            ),
          );
          expect(floatBits(resolveDataTypeV3(to), got), rounding).toEqual(expected);
        }
      });
    }
  },
);

describe("cast_value: float special values and ranges", () => {
  it("keeps NaN, infinities and signed zero between float types", () => {
    const got = castValues("float64", [Number.NaN, Infinity, -Infinity, -0, 0], {
      data_type: "float16",
    });
    expect(Number.isNaN(got[0])).toBe(true);
    expect(got.slice(1).map((v) => (Object.is(v, -0) ? "-0" : v))).toEqual([
      Infinity,
      -Infinity,
      "-0",
      0,
    ]);
  });

  it("rounds before the range check: 65519 is 65504, 65520 is out of range or clamps to Infinity", () => {
    expect(castValues("float64", [65519], { data_type: "float16" })).toEqual([65504]);
    expect(() => castValues("float64", [65520], { data_type: "float16" })).toThrow(
      /outside the range/,
    );
    expect(
      castValues("float64", [65520, -1e300], { data_type: "float16", out_of_range: "clamp" }),
    ).toEqual([Infinity, -Infinity]);
    expect(
      castValues("float64", [65535], { data_type: "float16", rounding: "towards-zero" }),
    ).toEqual([65504]);
    expect(() =>
      castValues("float64", [1e10], { data_type: "float16", rounding: "towards-zero" }),
    ).toThrow(CastValueError);
    expect(() => castValues("float64", [1e39], { data_type: "float32" })).toThrow(
      /outside the range/,
    );
    expect(
      castValues("int64", [2n ** 62n + 1n], { data_type: "float32", rounding: "towards-positive" }),
    ).toEqual([2 ** 62 + 2 ** 39]);
  });

  it("decodes through the inverse cast, with scalar_map.decode first", () => {
    const s = spec("float64", [4], Number.NaN);
    const codec = build(
      "cast_value",
      { data_type: "uint8", scalar_map: { encode: [["NaN", 0]], decode: [[0, "NaN"]] } },
      s,
    );
    const stored = chunkOf(resolveDataTypeV3("uint8"), [0, 1, 2, 255]);
    const decoded = elements(s.dataType, codec.decode(stored, s) as Chunk);
    expect(decoded.map((v) => (Number.isNaN(v) ? "NaN" : v))).toEqual(["NaN", 1, 2, 255]);
  });

  it("reports decode failures as DecodeError", () => {
    const s = spec("int8", [1]);
    const codec = build("cast_value", { data_type: "int16" }, s);
    expect(() => codec.decode(chunkOf(resolveDataTypeV3("int16"), [300]), s)).toThrow(DecodeError);
  });
});

/**
 * A bfloat16 data type for the test only (bit patterns in a Uint16Array), standing in for any
 * data type registered later: cast_value and scale_offset reach it through DataType alone.
 */
function testBfloat16(): DataType<number, Uint16Array> {
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  const toNumber = (bits: number) => {
    u32[0] = bits << 16;
    return f32[0];
  };
  const toBits = (value: number) => {
    f32[0] = value;
    // Exact for representable values (the only ones codecs store).
    return u32[0] >>> 16;
  };
  return {
    name: "test.bfloat16",
    kind: "float",
    itemSize: 2,
    lanes: 1,
    endianSensitive: true,
    defaultFill: 0,
    create: (n) => new Uint16Array(n),
    toV3: () => "test.bfloat16",
    toV2: () => "test.bfloat16",
    encode: (data) =>
      new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)),
    decode: (bytes, n) => new Uint16Array(bytes.slice(0, 2 * n).buffer),
    parseFill: (json) => (json === "NaN" ? Number.NaN : Number(json)),
    fillToJson: (v) => v,
    coerce: (v) => Number(v),
    fill: (data, v, s, e) => data.fill(toBits(v), s, e),
    isAllFill: (data, v) => data.every((b) => Object.is(toNumber(b), v)),
    getElement: (data, i) => toNumber(data[i]),
    setElement: (data, i, v) => {
      data[i] = toBits(v);
    },
    toJsonElement: (v) => v,
  };
}

describe("cast_value and scale_offset through a data type registered later", () => {
  const bf16 = testBfloat16();
  registerDataType(bf16 as unknown as DataType);

  it("casts float32 to it with nearest-even, as the bit-level bfloat16 rounding does", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.float({
            noNaN: true,
            noDefaultInfinity: true,
            min: Math.fround(-3e38),
            max: Math.fround(3e38),
          }),
          {
            minLength: 1,
          },
        ),
        (values) => {
          const got = castValues("float32", values, { data_type: "test.bfloat16" }) as number[];
          const expected = values.map((v) => {
            const f = new Float32Array([v]);
            const bits = new Uint32Array(f.buffer)[0];
            const rounded = ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16) << 16;
            return new Float32Array(new Uint32Array([rounded >>> 0]).buffer)[0];
          });
          expect(got).toEqual(expected);
        },
      ),
    );
  });

  it("scales and offsets in its own arithmetic", () => {
    const s = spec(bf16 as unknown as DataType, [3]);
    const codec = build("scale_offset", { offset: 1, scale: 3 }, s);
    // (2 - 1) * 3 = 3; (1.0078125 - 1) * 3 = 0.0234375 (exact in bfloat16).
    const encoded = codec.encode(chunkOf(s.dataType, [2, 1.0078125, 1]), s) as Chunk;
    expect(elements(s.dataType, encoded)).toEqual([3, 0.0234375, 0]);
  });
});

describe("scale_offset", () => {
  it("float64: (x - offset) * scale and back, as NumPy computes it", () => {
    const values = [0, 1.5, -2.25, 1e10, 123.456, Number.NaN, Infinity];
    const s = spec("float64", [values.length]);
    const codec = build("scale_offset", { offset: 5, scale: 0.1 }, s);
    const encoded = elements(s.dataType, codec.encode(chunkOf(s.dataType, values), s) as Chunk);
    const expected = values.map((x) => (x - 5) * 0.1);
    expect(encoded).toEqual(expected);
    const decoded = elements(s.dataType, codec.decode(chunkOf(s.dataType, encoded), s) as Chunk);
    expect(decoded).toEqual(expected.map((y) => y / 0.1 + 5));
  });

  it.runIf(havePython("scale_offset numpy", ["numpy"]))(
    "float32 and float16 round each step in their type, as NumPy does",
    () => {
      for (const dtype of ["float32", "float16"]) {
        const values = Array.from({ length: 40 }, (_, i) => Math.fround(Math.sin(i) * 300));
        const s = spec(dtype, [values.length]);
        const inputs = elements(
          s.dataType,
          chunkOf(
            s.dataType,
            values.map((v) => (dtype === "float16" ? Math.round(v) : v)),
          ),
        );
        const codec = build("scale_offset", { offset: 2.5, scale: 0.3 }, s);
        const encoded = codec.encode(chunkOf(s.dataType, inputs), s) as Chunk;
        const script = `import json,sys,numpy as np; x=np.array(json.loads(sys.stdin.read()),dtype='${dtype}'); t=np.dtype('${dtype}').type; print(json.dumps(((x - t(2.5)) * t(0.3)).view('u${dtype === "float32" ? 4 : 2}').tolist()))`;
        expect(floatBits(s.dataType, elements(s.dataType, encoded)), dtype).toEqual(
          JSON.parse(runPython(script, JSON.stringify(inputs))),
        );
      }
    },
  );

  it("integers: exact, an overflow is an error, division truncates", () => {
    const s = spec("int16", [3]);
    const codec = build("scale_offset", { offset: 1000, scale: 2 }, s);
    expect(
      elements(s.dataType, codec.encode(chunkOf(s.dataType, [1000, 1010, 990]), s) as Chunk),
    ).toEqual([0, 20, -20]);
    expect(() => codec.encode(chunkOf(s.dataType, [30000, 0, 0]), s)).toThrow(ScaleOffsetError);
    expect(() => codec.encode(chunkOf(s.dataType, [-32000, 0, 0]), s)).toThrow(/element 0/);
    expect(elements(s.dataType, codec.decode(chunkOf(s.dataType, [3, -3, 0]), s) as Chunk)).toEqual(
      [1001, 999, 1000],
    );
    const big = spec("uint64", [2]);
    const bigCodec = build(
      "scale_offset",
      { offset: 2 ** 40, scale: 3 },
      { ...big, fillValue: 2n ** 40n },
    );
    expect(
      elements(
        big.dataType,
        bigCodec.encode(chunkOf(big.dataType, [2n ** 40n + 5n, 2n ** 41n]), big) as Chunk,
      ),
    ).toEqual([15n, 3n * 2n ** 40n]);
    expect(() => bigCodec.encode(chunkOf(big.dataType, [0n, 2n ** 63n]), big)).toThrow(
      ScaleOffsetError,
    );
  });

  it("float overflow to infinity is an error; non-finite inputs pass", () => {
    const s = spec("float32", [2]);
    const codec = build("scale_offset", { scale: 1e30 }, s);
    expect(() => codec.encode(chunkOf(s.dataType, [1e10, 0]), s)).toThrow(/overflows float32/);
    expect(
      elements(
        s.dataType,
        codec.encode(chunkOf(s.dataType, [Infinity, Number.NaN]), s) as Chunk,
      ).map(String),
    ).toEqual(["Infinity", "NaN"]);
  });

  it("carries the fill value through, defaults to the identity, refuses bad configurations", () => {
    const s = spec("float64", [2], 10);
    expect(build("scale_offset", { offset: 10, scale: 0.1 }, s).encodedSpec(s).fillValue).toBe(0);
    expect(build("scale_offset", {}, s).encodedSpec(s).fillValue).toBe(10);
    expect(build("scale_offset", {}, s).toJson().configuration).toEqual({});
    const bad: JsonObject[] = [
      { scale: 0 },
      { offset: "x" },
      { offset: 1.5 },
      { factor: 2 },
      { scale: "NaN" },
    ];
    for (const configuration of bad) {
      // 1.5 is a float64 value, but not an int8 one.
      const target = configuration.offset === 1.5 ? spec("int8", [2]) : s;
      expect(
        () => build("scale_offset", configuration, target),
        JSON.stringify(configuration),
      ).toThrow(CodecConfigError);
    }
    expect(() =>
      build("scale_offset", { offset: 100, scale: 2 }, spec("int8", [2], 100 as unknown)),
    ).not.toThrow();
    expect(() => build("scale_offset", { offset: -100, scale: 2 }, spec("int8", [2], 100))).toThrow(
      /fill value 100 cannot be encoded/,
    );
  });
});

describe("bitround under its registered name", () => {
  // codecs/bitround/sample_data/bitround_float32.zarr of the zarr-extensions registry
  // (keepbits 3): the original values and the stored chunk c/0, little-endian float32.
  const original = [0, 0.1, 1.2, 12.3, 123.4, 1234.5, Number.NaN, Infinity, -Infinity];
  const rounded = [0, 0.1015625, 1.25, 12, 120, 1280, Number.NaN, Infinity, -Infinity];

  it("encodes the registry's float32 sample data bit for bit", async () => {
    const s = spec("float32", [9]);
    const codec = build("bitround", { keepbits: 3 }, s);
    expect(codec.name).toBe("bitround");
    expect(codec.toJson()).toMatchObject({ name: "bitround", configuration: { keepbits: 3 } });
    const encoded = elements(s.dataType, codec.encode(chunkOf(s.dataType, original), s) as Chunk);
    expect(floatBits(s.dataType, encoded)).toEqual(floatBits(s.dataType, rounded));
  });

  it("refuses integer chunks under the numcodecs alias, which is float-only", () => {
    expect(() => build("numcodecs.bitround", { keepbits: 3 }, spec("uint8", [10]))).toThrow(
      /numcodecs\.bitround: only float16, float32 and float64/,
    );
  });
});

describe("bitround on integers (registered name only)", () => {
  /** Reference: round the unsigned pattern to `keepbits` significant bits, ties to even, saturating. */
  function reference(value: bigint, bits: number, signed: boolean, keepbits: number): bigint {
    const modulus = 1n << BigInt(bits);
    const pattern = value < 0n ? value + modulus : value;
    const width = pattern === 0n ? 0 : pattern.toString(2).length;
    if (keepbits >= width) return value;
    const q = 1n << BigInt(width - keepbits);
    let k = pattern / q;
    const rest = pattern - k * q;
    if (rest * 2n > q || (rest * 2n === q && k % 2n === 1n)) k += 1n;
    let r = k * q;
    if (r > modulus - 1n) r = ((modulus - 1n) / q) * q;
    return signed && r >= modulus / 2n ? r - modulus : r;
  }

  it("encodes the registry's uint8 sample data (bitround_uint8.zarr/c/0) byte for byte", () => {
    const s = spec("uint8", [10]);
    const codec = build("bitround", { keepbits: 3 }, s);
    const encoded = codec.encode(
      chunkOf(s.dataType, [0, 1, 10, 11, 100, 123, 200, 208, 209, 255]),
      s,
    ) as Chunk;
    expect(Buffer.from(s.dataType.encode(encoded.data, "little")).toString("hex")).toBe(
      "00010a0c6080c0c0e0e0",
    );
    expect(codec.decode(encoded, s)).toMatchObject({ shape: [10] });
  });

  it("matches the reference for every integer type (property)", () => {
    const types: [string, number, boolean][] = [
      ["int8", 8, true],
      ["uint16", 16, false],
      ["int32", 32, true],
      ["uint32", 32, false],
      ["int64", 64, true],
      ["uint64", 64, false],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        fc.integer({ min: 0, max: 70 }),
        fc.array(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { minLength: 1, maxLength: 16 }),
        ([name, bits, signed], keepbits, raw) => {
          const modulus = 1n << BigInt(bits);
          const values = raw.map((r) => {
            const p = r % modulus;
            return signed && p >= modulus / 2n ? p - modulus : p;
          });
          const s = spec(name, [values.length]);
          const codec = build("bitround", { keepbits }, s);
          const input = values.map((v) => (bits === 64 ? v : Number(v)));
          const got = elements(s.dataType, codec.encode(chunkOf(s.dataType, input), s) as Chunk);
          expect(got.map((v) => BigInt(v as number | bigint))).toEqual(
            values.map((v) => reference(v, bits, signed, keepbits)),
          );
        },
      ),
    );
  });
});
