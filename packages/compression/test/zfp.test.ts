// zfp through WebAssembly against Debian's zfp 1.0.0: zfpy (python3-zfpy) and the `zfp` tool
// write streams we decode to exactly their values, and they decode ours to exactly ours; our
// streams are theirs bit for bit (Debian builds zfp with 8-bit stream words, so its streams end
// without the zero padding of the last 64-bit word). Malformed streams give a DecompressionError.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { havePython, runPython, tempDir } from "@z/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DecompressionError } from "../src/errors.js";
import {
  type ZfpData,
  type ZfpField,
  type ZfpMode,
  type ZfpType,
  zfpCompress,
  zfpDecompress,
} from "../src/zfp.js";

const python = havePython("zfp", ["zfpy", "numpy"]);
const cli = spawnSync("zfp", ["-h"], { stdio: "ignore" }).error === undefined;
if (!cli) console.warn("[zfp] SKIPPED the zfp tool's cases: no `zfp` (apt-get install zfp)");

const TYPES: ZfpType[] = ["int32", "int64", "float32", "float64"];
const NUMPY: Record<ZfpType, string> = {
  int32: "int32",
  int64: "int64",
  float32: "float32",
  float64: "float64",
};
const SHAPES = [[37], [5, 9], [3, 6, 5], [2, 3, 5, 4]];

/** zfpy's keyword for a mode, and the mode as ours. */
interface Case {
  type: ZfpType;
  shape: number[];
  kwargs: Record<string, number>;
  mode: ZfpMode;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const type of TYPES) {
    for (const shape of SHAPES) {
      const float = type.startsWith("float");
      out.push({ type, shape, kwargs: {}, mode: { mode: "reversible" } });
      out.push({
        type,
        shape,
        kwargs: { rate: 11.5 },
        mode: { mode: "fixed_rate", rate: 11.5, rateType: "none" },
      });
      out.push({
        type,
        shape,
        kwargs: { precision: 17 },
        mode: { mode: "fixed_precision", precision: 17 },
      });
      if (float)
        out.push({
          type,
          shape,
          kwargs: { tolerance: 0.001 },
          mode: { mode: "fixed_accuracy", tolerance: 0.001 },
        });
    }
  }
  return out;
}

/** Values of `type`: smooth with noise, in the range zfp's lossy integer modes take. */
function values(type: ZfpType, n: number, seed: number): ZfpData {
  let x = seed;
  const next = () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32 - 0.5;
  };
  const real = Array.from({ length: n }, (_, i) => Math.sin(i / 7) * 1000 + next() * 10);
  switch (type) {
    case "int32":
      return Int32Array.from(real, (v) => Math.round(v * 100));
    case "int64":
      return BigInt64Array.from(real, (v) => BigInt(Math.round(v * 1e6)));
    case "float32":
      return Float32Array.from(real);
    case "float64":
      return Float64Array.from(real);
  }
}

const b64 = (data: ZfpData | Uint8Array) =>
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
/**
 * A stream of Debian's zfp (built with 8-bit stream words) as zfp's default build writes it:
 * the same bits, the last 64-bit word padded with zeros.
 */
function padded(stream: Uint8Array | string): Uint8Array {
  const bytes = typeof stream === "string" ? Buffer.from(stream, "base64") : stream;
  const out = new Uint8Array(Math.ceil(bytes.length / 8) * 8);
  out.set(bytes);
  return out;
}
const bytesOf = (data: ZfpData) => new Uint8Array(data.buffer, data.byteOffset, data.byteLength);

/** Runs zfpy over cases: compress each input with its kwargs (with header), decode it, and decode `ours`. */
function zfpy(
  inputs: { type: string; shape: number[]; data: string; kwargs: object; ours: string }[],
) {
  const script = `
import sys, json, base64, zfpy, numpy as np
out = []
for c in json.load(sys.stdin):
    a = np.frombuffer(base64.b64decode(c["data"]), dtype=c["type"]).reshape(c["shape"])
    enc = zfpy.compress_numpy(a, write_header=True, **c["kwargs"])
    dec = zfpy.decompress_numpy(enc)
    ours = zfpy.decompress_numpy(base64.b64decode(c["ours"]))
    assert dec.dtype == a.dtype and dec.shape == a.shape and ours.shape == a.shape
    out.append({"encoded": base64.b64encode(enc).decode(), "decoded": base64.b64encode(dec.tobytes()).decode(),
                "ours": base64.b64encode(ours.tobytes()).decode()})
print(json.dumps(out))
`;
  return JSON.parse(runPython(script, JSON.stringify(inputs))) as {
    encoded: string;
    decoded: string;
    ours: string;
  }[];
}

describe.runIf(python)("zfp against zfpy", () => {
  it("writes zfpy's bytes, reads zfpy's streams to its values, and zfpy reads ours to ours", async () => {
    const all = cases();
    const inputs = [];
    const ours: { stream: Uint8Array; decoded: ZfpData; field: ZfpField; data: ZfpData }[] = [];
    for (const [k, c] of all.entries()) {
      const field = { type: c.type, shape: c.shape };
      const data = values(
        c.type,
        c.shape.reduce((a, b) => a * b, 1),
        k + 1,
      );
      const stream = await zfpCompress(data, field, c.mode, { header: true });
      const decoded = await zfpDecompress(stream, field, "header");
      ours.push({ stream, decoded, field, data });
      inputs.push({
        type: NUMPY[c.type],
        shape: c.shape,
        data: b64(data),
        kwargs: c.kwargs,
        ours: b64(stream),
      });
    }
    const results = zfpy(inputs);
    expect(results).toHaveLength(all.length);
    for (const [k, result] of results.entries()) {
      const label = `${all[k].type} [${all[k].shape}] ${all[k].mode.mode}`;
      const { stream, decoded, field } = ours[k];
      expect(b64(stream), `${label}: our stream is zfpy's`).toBe(b64(padded(result.encoded)));
      expect(b64(decoded), `${label}: zfpy reads ours to our values`).toBe(result.ours);
      const theirs = await zfpDecompress(Buffer.from(result.encoded, "base64"), field, "header");
      expect(b64(theirs), `${label}: we read zfpy's to its values`).toBe(result.decoded);
    }
    // Reversible mode is lossless.
    for (const [k, c] of all.entries())
      if (c.mode.mode === "reversible") expect(b64(ours[k].decoded)).toBe(b64(ours[k].data));
  }, 60_000);
});

describe.runIf(cli)("zfp against the zfp tool (streams without a header)", () => {
  const MODES: { flags: string[]; mode: ZfpMode; floatOnly?: boolean }[] = [
    { flags: ["-R"], mode: { mode: "reversible" } },
    { flags: ["-r", "9.25"], mode: { mode: "fixed_rate", rate: 9.25 } },
    { flags: ["-p", "21"], mode: { mode: "fixed_precision", precision: 21 } },
    { flags: ["-a", "0.01"], mode: { mode: "fixed_accuracy", tolerance: 0.01 }, floatOnly: true },
    {
      flags: ["-c", "1", "300", "24", "-20"],
      mode: { mode: "expert", minbits: 1, maxbits: 300, maxprec: 24, minexp: -20 },
    },
  ];
  const TOOL_TYPES: Record<ZfpType, string> = {
    int32: "i32",
    int64: "i64",
    float32: "f32",
    float64: "f64",
  };

  it("reads the tool's streams to its values and the tool reads ours to ours", async () => {
    const { dir, remove } = tempDir("zfp-tool-");
    try {
      let k = 0;
      for (const type of TYPES) {
        for (const shape of SHAPES) {
          for (const { flags, mode, floatOnly } of MODES) {
            if (floatOnly && !type.startsWith("float")) continue;
            k++;
            const label = `${type} [${shape}] ${mode.mode}`;
            const field = { type, shape };
            const data = values(
              type,
              shape.reduce((a, b) => a * b, 1),
              k,
            );
            writeFileSync(`${dir}/in.raw`, bytesOf(data));
            const dims = [`-${shape.length}`, ...[...shape].reverse().map(String)];
            const run = (args: string[]) => {
              const result = spawnSync("zfp", ["-q", "-t", TOOL_TYPES[type], ...dims, ...args]);
              expect(result.status, `${label}: zfp ${args.join(" ")}: ${result.stderr}`).toBe(0);
            };
            run([
              "-i",
              `${dir}/in.raw`,
              "-z",
              `${dir}/theirs.zfp`,
              "-o",
              `${dir}/theirs.raw`,
              ...flags,
            ]);
            const theirs = new Uint8Array(readFileSync(`${dir}/theirs.zfp`));
            const decoded = await zfpDecompress(theirs, field, mode);
            expect(b64(decoded), `${label}: their values`).toBe(
              readFileSync(`${dir}/theirs.raw`).toString("base64"),
            );
            const stream = await zfpCompress(data, field, mode);
            expect(b64(stream), `${label}: their bytes`).toBe(b64(padded(theirs)));
            writeFileSync(`${dir}/ours.zfp`, stream);
            run(["-z", `${dir}/ours.zfp`, "-o", `${dir}/ours.raw`, ...flags]);
            const ours = await zfpDecompress(stream, field, mode);
            expect(readFileSync(`${dir}/ours.raw`).toString("base64"), label).toBe(b64(ours));
          }
        }
      }
    } finally {
      remove();
    }
  }, 60_000);
});

describe("zfp streams", () => {
  const field = { type: "float64", shape: [6, 7] } as const;
  const data = values("float64", 42, 3);

  it("round-trips every type and dimensionality exactly in reversible mode", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TYPES),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 1 << 30 }),
        fc.boolean(),
        async (type, shape, seed, header) => {
          const f = { type, shape };
          const input = values(
            type,
            shape.reduce((a, b) => a * b, 1),
            seed,
          );
          const stream = await zfpCompress(input, f, { mode: "reversible" }, { header });
          const back = await zfpDecompress(stream, f, header ? "header" : { mode: "reversible" });
          expect(b64(back)).toBe(b64(input));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("decodes into a given array", async () => {
    const stream = await zfpCompress(data, field, { mode: "reversible" });
    const into = new Float64Array(42);
    const back = await zfpDecompress(stream, field, { mode: "reversible" }, into);
    expect(back).toBe(into);
    expect(Array.from(into)).toEqual(Array.from(data as Float64Array));
  });

  it("reports a truncated stream, never reading past its end", async () => {
    const stream = await zfpCompress(data, field, { mode: "reversible" }, { header: true });
    // Cuts inside the last 64-bit word are not seen: Debian's streams end there.
    for (const cut of [1, 8, 9, stream.length >> 1, stream.length - 8, stream.length - 9]) {
      await expect(zfpDecompress(stream.subarray(0, cut), field, "header")).rejects.toThrow(
        DecompressionError,
      );
    }
    await expect(zfpDecompress(new Uint8Array(0), field, "header")).rejects.toThrow(/empty/);
  });

  it("reports a stream that goes on a word or more past the field's values", async () => {
    const big = values("float64", 400, 5);
    const stream = await zfpCompress(
      big,
      { type: "float64", shape: [20, 20] },
      { mode: "reversible" },
    );
    await expect(zfpDecompress(stream, field, { mode: "reversible" })).rejects.toThrow(
      /the stream goes on past the values of the field/,
    );
    // Extra zero bytes within the last word are padding, as zfp's own builds write it.
    const own = await zfpCompress(data, field, { mode: "reversible" });
    const longer = new Uint8Array(own.length + 7);
    longer.set(own);
    expect(Array.from(await zfpDecompress(longer, field, { mode: "reversible" }))).toEqual(
      Array.from(data as Float64Array),
    );
  });

  it("reports a header that describes another type or count, saying which", async () => {
    const stream = await zfpCompress(data, field, { mode: "reversible" }, { header: true });
    // The same values in another shape are those values (older zfpy streams are flattened).
    const flat = await zfpDecompress(stream, { type: "float64", shape: [42] }, "header");
    expect(Array.from(flat)).toEqual(Array.from(data as Float64Array));
    await expect(
      zfpDecompress(stream, { type: "float64", shape: [6, 6] }, "header"),
    ).rejects.toThrow("the stream holds float64 [6, 7], not float64 [6, 6]");
    await expect(
      zfpDecompress(stream, { type: "float32", shape: [6, 7] }, "header"),
    ).rejects.toThrow("the stream holds float64 [6, 7], not float32 [6, 7]");
    const noHeader = await zfpCompress(data, field, { mode: "reversible" });
    await expect(zfpDecompress(noHeader, field, "header")).rejects.toThrow(/no valid zfp header/);
  });

  it("gives a DecompressionError or values, never anything else, for any bytes", async () => {
    const modes: (ZfpMode | "header")[] = [
      "header",
      { mode: "reversible" },
      { mode: "fixed_rate", rate: 8 },
      { mode: "fixed_accuracy", tolerance: 0.1 },
    ];
    const stream = await zfpCompress(data, field, { mode: "reversible" }, { header: true });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 600 }),
          fc
            .tuple(fc.nat(stream.length - 1), fc.integer({ min: 1, max: 255 }))
            .map(([at, mask]) => stream.map((b, i) => (i === at ? b ^ mask : b))),
        ),
        fc.constantFrom(...modes),
        async (bytes, mode) => {
          try {
            const out = await zfpDecompress(bytes, field, mode);
            expect(out.length).toBe(42);
          } catch (error) {
            expect(error).toBeInstanceOf(DecompressionError);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refuses fields and data zfp cannot compress", async () => {
    await expect(
      zfpCompress(
        new Float64Array(32),
        { type: "float64", shape: [2, 2, 2, 2, 2] },
        {
          mode: "reversible",
        },
      ),
    ).rejects.toThrow(/1 to 4 dimensions/);
    await expect(
      zfpCompress(new Float32Array(4), { type: "float64", shape: [4] }, { mode: "reversible" }),
    ).rejects.toThrow(/Float64Array of 4 elements/);
    await expect(
      zfpCompress(
        new Float64Array(4),
        { type: "float64", shape: [4] },
        {
          mode: "fixed_rate",
          rate: -1,
        },
      ),
    ).rejects.toThrow(/rejects the compression parameters/);
  });
});
