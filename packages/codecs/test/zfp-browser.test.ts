// The zfp codecs in headless Chromium: the WebAssembly module loads there, decodes the streams
// written in Node to the values Node decodes, and writes the same streams.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ArrayToBytesCodec, loadCodecs, resolveCodec } from "@z/codecs";
import { type JsonObject, resolveDataTypeV3 } from "@z/metadata";
import { cOrderStrides } from "@z/ndarray";
import {
  bundleForBrowser,
  chromiumAvailableOrWarn,
  NOT_BUNDLED_IN_PAGES,
  runInChromium,
} from "@z/test-utils";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasChromium = chromiumAvailableOrWarn("zfp in Chromium");

const CASES: { name: string; configuration: JsonObject; dtype: string; shape: number[] }[] = [
  { name: "zfp", configuration: { mode: "reversible" }, dtype: "int16", shape: [5, 6] },
  {
    name: "zfp",
    configuration: { mode: "fixed_rate", rate: 7.5 },
    dtype: "float64",
    shape: [9, 4, 3],
  },
  {
    name: "zfp",
    configuration: { mode: "fixed_accuracy", tolerance: 0.01 },
    dtype: "float32",
    shape: [40],
  },
  {
    name: "numcodecs.zfpy",
    configuration: { mode: 3, precision: 20 },
    dtype: "int64",
    shape: [3, 3, 3, 3],
  },
];

const b64 = (view: ArrayBufferView) =>
  Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("base64");

/** The cases with their input, the stream Node writes and the values Node decodes from it. */
async function cases() {
  await loadCodecs(["zfp", "numcodecs.zfpy"]);
  return Promise.all(
    CASES.map(async (c, k) => {
      const spec = { shape: c.shape, dataType: resolveDataTypeV3(c.dtype), fillValue: 0 };
      const codec = resolveCodec(
        { name: c.name, configuration: c.configuration, mustUnderstand: true },
        { spec, zarrFormat: 3 },
      ) as ArrayToBytesCodec;
      const n = c.shape.reduce((a, b) => a * b, 1);
      const data = spec.dataType.create(n) as unknown as { [i: number]: number | bigint };
      for (let i = 0; i < n; i++) {
        const value = Math.round(Math.sin((i + k) / 3) * 1000);
        data[i] = c.dtype === "int64" ? BigInt(value) : value;
      }
      const chunk = { data: data as never, shape: c.shape, stride: cOrderStrides(c.shape) };
      const stream = await codec.encode(chunk, spec);
      const decoded = (await codec.decode(stream, spec)).data as unknown as ArrayBufferView;
      return {
        ...c,
        input: b64(data as unknown as ArrayBufferView),
        stream: b64(stream),
        decoded: b64(decoded),
      };
    }),
  );
}

describe.skipIf(!hasChromium)("zfp in Chromium", () => {
  it("loads, reads Node's streams to Node's values and writes Node's streams", async () => {
    const run = await runInChromium<{ cases: number; mismatches: string[] }>(
      await bundleForBrowser(path.join(here, "zfp-page/entry.ts"), {
        external: [...NOT_BUNDLED_IN_PAGES],
      }),
      await cases(),
    );
    expect(run.errors).toEqual([]);
    expect(run.result).toEqual({ cases: CASES.length, mismatches: [] });
  }, 180_000);
});
