// The zfp codecs: numcodecs' zfpy (v2 compressor and v3 array-to-bytes codec) against numcodecs'
// golden files and zfpy, and the registered `zfp` codec (zarr-extensions codecs/zfp) as zarrs
// writes it (no header; fixed rate sized for three dimensions; integer promotions), checked
// against the `zfp` tool.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import {
  type ArrayToBytesCodec,
  type BytesToBytesCodec,
  type ChunkSpec,
  CodecConfigError,
  DecodeError,
  loadCodecs,
  resolveCodec,
} from "@z/codecs";
import { type JsonObject, resolveDataTypeV2, resolveDataTypeV3 } from "@z/metadata";
import { type Chunk, cOrderStrides } from "@z/ndarray";
import { goldenCases, havePython, runPython, tempDir } from "@z/test-utils";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

beforeAll(() => loadCodecs(["zfp", "numcodecs.zfpy"]));

const spec = (dtype: string, shape: number[]): ChunkSpec => ({
  shape,
  dataType: resolveDataTypeV3(dtype),
  fillValue: 0,
});

function build(name: string, configuration: JsonObject, s: ChunkSpec, zarrFormat: 2 | 3 = 3) {
  return resolveCodec({ name, configuration, mustUnderstand: true }, { spec: s, zarrFormat });
}

const zfp = (configuration: JsonObject, s: ChunkSpec) =>
  build("zfp", configuration, s) as ArrayToBytesCodec;

const chunkOf = (data: Chunk["data"], shape: number[]): Chunk => ({
  data,
  shape,
  stride: cOrderStrides(shape),
});

const b64 = (view: ArrayBufferView) =>
  Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("base64");

describe("numcodecs.zfpy against numcodecs' golden files", () => {
  const cases = goldenCases("zfpy");
  it.runIf(cases.length > 0)(
    "decodes every file to its array and encodes the array to the file's bytes",
    async () => {
      expect(cases.length).toBe(32);
      for (const { label, config, array, encoded } of cases) {
        const { id: _, ...configuration } = config as JsonObject;
        const { dataType } = resolveDataTypeV2(array.descr);
        const s: ChunkSpec = { shape: array.shape, dataType, fillValue: 0 };
        // numcodecs compressed these flattened (its older releases did), in memory order.
        const values = array.data;
        const flat: ChunkSpec = { ...s, shape: [array.shape.reduce((a, b) => a * b, 1)] };
        // v2: a compressor after the bytes codec.
        const compressor = build("numcodecs.zfpy", configuration, s, 2) as BytesToBytesCodec;
        expect(compressor.kind).toBe("bytes_to_bytes");
        const size = values.length;
        const decoded = await compressor.decode(encoded, { expectedSize: size, maxSize: size });
        expect(b64(decoded), label).toBe(b64(values));
        const flatCompressor = build("numcodecs.zfpy", configuration, flat, 2) as BytesToBytesCodec;
        expect(b64(await flatCompressor.encode(values.slice())), label).toBe(b64(encoded));
        // v3: the array-to-bytes codec.
        const serializer = build("numcodecs.zfpy", configuration, s) as ArrayToBytesCodec;
        const chunk = await serializer.decode(encoded, s);
        expect(b64(chunk.data as ArrayBufferView), label).toBe(b64(values));
        const flatSerializer = build("numcodecs.zfpy", configuration, flat) as ArrayToBytesCodec;
        const again = await flatSerializer.encode(chunkOf(chunk.data, flat.shape), flat);
        expect(b64(again), label).toBe(b64(encoded));
      }
    },
  );
});

describe.runIf(havePython("zfp codec", ["zfpy", "numpy"]))("numcodecs.zfpy against zfpy", () => {
  it("writes what zfpy decodes to our values, in every numcodecs mode", async () => {
    const configs: JsonObject[] = [
      { mode: 4, tolerance: 0.01, rate: -1, precision: -1 },
      { mode: 2, tolerance: -1, rate: 12, precision: -1 },
      { mode: 3, tolerance: -1, rate: -1, precision: 20 },
      { mode: 5 },
      { mode: 4 },
    ];
    const inputs = [];
    const ours: string[] = [];
    for (const [k, configuration] of configs.entries()) {
      const s = spec("float64", [4 + k, 7]);
      const data = Float64Array.from({ length: (4 + k) * 7 }, (_, i) => Math.cos(i / 3) * 50);
      const codec = build("numcodecs.zfpy", configuration, s) as ArrayToBytesCodec;
      const encoded = await codec.encode(chunkOf(data, s.shape), s);
      const decoded = await codec.decode(encoded, s);
      ours.push(b64(decoded.data as Float64Array));
      inputs.push({ stream: b64(encoded), shape: s.shape });
    }
    const theirs = JSON.parse(
      runPython(
        `
import sys, json, base64, zfpy
out = []
for c in json.load(sys.stdin):
    a = zfpy.decompress_numpy(base64.b64decode(c["stream"]))
    assert list(a.shape) == c["shape"], a.shape
    out.append(base64.b64encode(a.tobytes()).decode())
print(json.dumps(out))
`,
        JSON.stringify(inputs),
      ),
    );
    expect(theirs).toEqual(ours);
  });

  it("writes numcodecs' configuration, as zarr-python and zarrs read it", () => {
    const codec = build("numcodecs.zfpy", { mode: 4, tolerance: 0.5 }, spec("float32", [4]));
    expect(codec?.toJson().configuration).toEqual({
      mode: 4,
      tolerance: 0.5,
      rate: -1,
      precision: -1,
      compression_kwargs: { tolerance: 0.5 },
    });
  });
});

describe("numcodecs.zfpy configurations and chunks it refuses", () => {
  it("refuses types zfpy does not take, 0-d and 5-d chunks, unknown modes", () => {
    expect(() => build("numcodecs.zfpy", {}, spec("uint8", [4]))).toThrow(
      /numcodecs\.zfpy codec: zfp cannot compress uint8 data; it takes int32, int64, float32, float64/,
    );
    expect(() => build("numcodecs.zfpy", {}, spec("float32", []))).toThrow(/not 0/);
    expect(() => build("numcodecs.zfpy", {}, spec("float32", [1, 1, 1, 1, 2]), 2)).toThrow(
      /1 to 4 dimensions, not 5/,
    );
    expect(() => build("numcodecs.zfpy", { mode: 1 }, spec("float32", [4]))).toThrow(
      CodecConfigError,
    );
    expect(() =>
      build("numcodecs.zfpy", { mode: 4, tolerance: "x" }, spec("float32", [4])),
    ).toThrow(/"tolerance" must be a number/);
  });

  it("reports a chunk of another shape or type, and corrupt or truncated streams", async () => {
    const s = spec("float64", [6, 5]);
    const codec = build("numcodecs.zfpy", { mode: 5 }, s) as ArrayToBytesCodec;
    const data = Float64Array.from({ length: 30 }, (_, i) => i * 1.5);
    const encoded = await codec.encode(chunkOf(data, s.shape), s);
    await expect(codec.decode(encoded, spec("float64", [5, 5]))).rejects.toThrow(
      /numcodecs\.zfpy codec: the stream holds float64 \[6, 5\], not float64 \[5, 5\]/,
    );
    const float32 = spec("float32", [6, 5]);
    const other = build("numcodecs.zfpy", { mode: 5 }, float32) as ArrayToBytesCodec;
    await expect(other.decode(encoded, float32)).rejects.toThrow(
      /the stream holds float64 \[6, 5\], not float32 \[6, 5\]/,
    );
    await expect(codec.decode(encoded.subarray(0, encoded.length - 16), s)).rejects.toThrow(
      DecodeError,
    );
    await expect(codec.decode(new Uint8Array(40).fill(7), s)).rejects.toThrow(
      /no valid zfp header/,
    );
  });
});

describe("the registered zfp codec", () => {
  it("reads every example configuration of the registry and writes it back", () => {
    const examples: JsonObject[] = [
      { mode: "expert", minbits: 1, maxbits: 13, maxprec: 19, minexp: -2 },
      { mode: "fixed_accuracy", tolerance: 0.05 },
      { mode: "fixed_precision", precision: 19 },
      { mode: "fixed_rate", rate: 10.5 },
      { mode: "reversible" },
    ];
    for (const configuration of examples)
      expect(zfp(configuration, spec("float32", [4, 4])).toJson()).toEqual({
        name: "zfp",
        configuration,
        mustUnderstand: true,
      });
  });

  it("refuses invalid configurations, types and chunks, saying what is wrong", () => {
    const s = spec("float32", [4]);
    expect(() => zfp({}, s)).toThrow(/"mode" must be "reversible", "fixed_rate"/);
    expect(() => zfp({ mode: "fixed_rate" }, s)).toThrow(/"rate" must be a number/);
    expect(() => zfp({ mode: "fixed_precision", precision: -1 }, s)).toThrow(
      /"precision" must be an unsigned integer/,
    );
    expect(() => zfp({ mode: "expert", minbits: 1, maxbits: 2, maxprec: 3 }, s)).toThrow(
      /"minexp" must be an integer/,
    );
    expect(() => zfp({ mode: "fixed_accuracy", tolerance: 0.1 }, spec("int32", [4]))).toThrow(
      /fixed_accuracy mode applies to floating-point data, not int32/,
    );
    expect(() => zfp({ mode: "reversible" }, spec("float16", [4]))).toThrow(
      /zfp cannot compress float16/,
    );
    expect(() => zfp({ mode: "reversible" }, spec("float32", [2, 1, 2, 1, 2]))).toThrow(
      /1 to 4 dimensions, not 5 \(chunk shape \[2, 1, 2, 1, 2\]\); a reshape codec/,
    );
  });

  it("round-trips every data type exactly in reversible mode, 0-d chunks included", async () => {
    const TYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"];
    const FLOATS = ["float32", "float64"];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TYPES, ...FLOATS),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 0, maxLength: 4 }),
        fc.integer({ min: 1, max: 1 << 30 }),
        async (dtype, shape, seed) => {
          const s = spec(dtype, shape);
          const n = shape.reduce((a, b) => a * b, 1);
          const data = s.dataType.create(n) as unknown as { [i: number]: number | bigint };
          let x = seed;
          for (let i = 0; i < n; i++) {
            x = (Math.imul(x, 1103515245) + 12345) >>> 0;
            const bits = s.dataType.itemSize * 8;
            if (dtype.endsWith("64") && dtype.includes("int")) {
              const big = (BigInt(x) << 32n) | BigInt(Math.imul(x, 31) >>> 0);
              data[i] = dtype === "int64" ? BigInt.asIntN(64, big) : BigInt.asUintN(63, big);
            } else if (FLOATS.includes(dtype)) data[i] = (x / 2 ** 32 - 0.5) * 1e6;
            else if (dtype === "uint32") data[i] = x >>> 1;
            else
              data[i] = dtype.startsWith("u") ? x % 2 ** bits : (x % 2 ** bits) - 2 ** (bits - 1);
          }
          const codec = zfp({ mode: "reversible" }, s);
          const encoded = await codec.encode(chunkOf(data as Chunk["data"], shape), s);
          const back = await codec.decode(encoded, s);
          expect(Array.from(back.data as ArrayLike<unknown>)).toEqual(
            Array.from(data as ArrayLike<unknown>),
          );
          expect(back.shape).toEqual(shape);
        },
      ),
      { numRuns: 80 },
    );
  });

  it("promotes and demotes integers as the registry defines (clamping)", async () => {
    // 16-bit integers promoted by << 15 keep their value through fixed precision 32.
    const s = spec("uint16", [8]);
    const data = Uint16Array.from([0, 1, 2, 1000, 32767, 32768, 65534, 65535]);
    const codec = zfp({ mode: "fixed_precision", precision: 32 }, s);
    const back = await codec.decode(await codec.encode(chunkOf(data, [8]), s), s);
    expect(Array.from(back.data as Uint16Array)).toEqual(Array.from(data));
    // uint32 beyond int32's range is clamped to 2^31 - 1, as zarrs clamps it.
    const u = spec("uint32", [4]);
    const big = Uint32Array.from([0, 5, 0x7fffffff, 0xffffffff]);
    const reversible = zfp({ mode: "reversible" }, u);
    const clamped = await reversible.decode(await reversible.encode(chunkOf(big, [4]), u), u);
    expect(Array.from(clamped.data as Uint32Array)).toEqual([0, 5, 0x7fffffff, 0x7fffffff]);
  });

  it("reports truncated and corrupt streams as DecodeError, bounded by the chunk", async () => {
    const s = spec("float32", [16, 16]);
    const data = Float32Array.from({ length: 256 }, (_, i) => Math.sin(i));
    const codec = zfp({ mode: "fixed_accuracy", tolerance: 1e-3 }, s);
    const encoded = await codec.encode(chunkOf(data, s.shape), s);
    await expect(codec.decode(encoded.subarray(0, encoded.length >> 1), s)).rejects.toThrow(
      /zfp codec: the stream is truncated/,
    );
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
        try {
          const chunk = await codec.decode(bytes, s);
          expect((chunk.data as Float32Array).length).toBe(256);
        } catch (error) {
          expect(error).toBeInstanceOf(DecodeError);
        }
      }),
      { numRuns: 200 },
    );
  });
});

const cli = spawnSync("zfp", ["-h"], { stdio: "ignore" }).error === undefined;

describe.runIf(cli)("the registered zfp codec against the zfp tool", () => {
  /** Runs the tool on `input` (raw values) with `flags`; returns the stream and the values it decodes. */
  function tool(input: ArrayBufferView, type: string, shape: number[], flags: string[]) {
    const { dir, remove } = tempDir("zfp-codec-");
    try {
      writeFileSync(
        `${dir}/in.raw`,
        new Uint8Array(input.buffer, input.byteOffset, input.byteLength),
      );
      const dims = [`-${shape.length}`, ...[...shape].reverse().map(String)];
      const result = spawnSync("zfp", [
        "-q",
        "-t",
        type,
        ...dims,
        ...flags,
        "-i",
        `${dir}/in.raw`,
        "-z",
        `${dir}/out.zfp`,
        "-o",
        `${dir}/out.raw`,
      ]);
      expect(result.status, String(result.stderr)).toBe(0);
      return {
        stream: new Uint8Array(readFileSync(`${dir}/out.zfp`)),
        values: new Uint8Array(readFileSync(`${dir}/out.raw`)),
      };
    } finally {
      remove();
    }
  }

  /** The tool's stream (8-bit words) as this build writes it: padded to a 64-bit word. */
  const padded = (stream: Uint8Array) => {
    const out = new Uint8Array(Math.ceil(stream.length / 8) * 8);
    out.set(stream);
    return out;
  };

  it("fixed rate sizes blocks for three dimensions whatever the chunk's (as zarrs does)", async () => {
    for (const [dtype, type, shape, minBits] of [
      ["float64", "f64", [9, 13], 12],
      ["float32", "f32", [40], 9],
      ["int32", "i32", [3, 5, 6, 7], 0],
    ] as const) {
      const s = spec(dtype, [...shape]);
      const n = shape.reduce((a: number, b: number) => a * b, 1);
      const data = s.dataType.create(n) as Float64Array;
      for (let i = 0; i < n; i++)
        data[i] = dtype === "int32" ? (i * 7919) % 5000 : Math.sin(i / 4) * 9;
      const rate = 2.5;
      // zfp_stream_set_rate(rate, type, 3): 4^3 * rate bits per block, and at least the
      // block exponent's bits for floating-point data.
      const bits = String(Math.max(Math.floor(64 * rate + 0.5), minBits));
      const theirs = tool(data, type, [...shape], ["-c", bits, bits, "64", "-1074"]);
      const codec = zfp({ mode: "fixed_rate", rate }, s);
      const ours = await codec.encode(chunkOf(data, [...shape]), s);
      expect(b64(ours), dtype).toBe(b64(padded(theirs.stream)));
      const decoded = await codec.decode(theirs.stream, s);
      expect(b64(decoded.data as ArrayBufferView), dtype).toBe(b64(theirs.values));
    }
  });

  it("reads the tool's streams of every other mode to its values", async () => {
    const s = spec("float64", [6, 10, 7]);
    const data = Float64Array.from({ length: 420 }, (_, i) => Math.exp(Math.sin(i / 9)) * 100);
    for (const [configuration, flags] of [
      [{ mode: "reversible" }, ["-R"]],
      [{ mode: "fixed_precision", precision: 18 }, ["-p", "18"]],
      [{ mode: "fixed_accuracy", tolerance: 0.25 }, ["-a", "0.25"]],
      [
        { mode: "expert", minbits: 8, maxbits: 900, maxprec: 30, minexp: -8 },
        ["-c", "8", "900", "30", "-8"],
      ],
    ] as const) {
      const theirs = tool(data, "f64", s.shape, [...flags]);
      const codec = zfp(configuration, s);
      const decoded = await codec.decode(theirs.stream, s);
      expect(b64(decoded.data as Float64Array), configuration.mode).toBe(b64(theirs.values));
      const ours = await codec.encode(chunkOf(data, s.shape), s);
      expect(b64(ours), configuration.mode).toBe(b64(padded(theirs.stream)));
    }
  });
});
