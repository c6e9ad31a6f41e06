// Bundled by zfp-browser.test.ts and run in Chromium: the zfp codec (its WebAssembly module
// loaded on first use) decodes streams written in Node to the values Node decodes, and writes
// the streams Node writes.
import { type ArrayToBytesCodec, loadCodecs, resolveCodec } from "@z/codecs";
import type { JsonObject } from "@z/metadata";
import { resolveDataTypeV3 } from "@z/metadata";
import { cOrderStrides } from "@z/ndarray";

/** One case: a codec, a chunk, the stream Node wrote and the values Node decodes from it. */
interface Case {
  name: string;
  configuration: JsonObject;
  dtype: string;
  shape: number[];
  input: string;
  stream: string;
  decoded: string;
}

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

(globalThis as Record<string, unknown>).__run = async (cases: Case[]) => {
  await loadCodecs(["zfp", "numcodecs.zfpy"]);
  const mismatches: string[] = [];
  for (const c of cases) {
    const spec = { shape: c.shape, dataType: resolveDataTypeV3(c.dtype), fillValue: 0 };
    const codec = resolveCodec(
      { name: c.name, configuration: c.configuration, mustUnderstand: true },
      { spec, zarrFormat: 3 },
    ) as ArrayToBytesCodec;
    const chunk = await codec.decode(fromBase64(c.stream), spec);
    const view = chunk.data as unknown as ArrayBufferView;
    const decoded = toBase64(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
    if (decoded !== c.decoded) mismatches.push(`${c.name} ${c.dtype}: decoded values`);
    const input = fromBase64(c.input);
    const data = spec.dataType.create(input.length / spec.dataType.itemSize) as unknown as {
      buffer: ArrayBuffer;
    };
    new Uint8Array(data.buffer).set(input);
    const stream = await codec.encode(
      { data: data as never, shape: c.shape, stride: cOrderStrides(c.shape) },
      spec,
    );
    if (toBase64(stream) !== c.stream) mismatches.push(`${c.name} ${c.dtype}: stream`);
  }
  return { cases: cases.length, mismatches };
};
