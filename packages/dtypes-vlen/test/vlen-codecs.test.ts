import { CodecPipeline, loadCodecs } from "@z/codecs";
import {
  bytesDataType,
  ObjectDataType,
  stringDataType,
  VlenBytesCodec,
  VlenUtf8Codec,
} from "@z/dtypes-vlen";
import type { DataType, NamedConfig } from "@z/metadata";
import { cOrderStrides } from "@z/ndarray";
import { havePython, runPython } from "@z/test-utils";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { stringSpec } from "./helpers.js";

// These codecs load on first use; pipeline() builds them synchronously.
beforeAll(() =>
  loadCodecs(["vlen-utf8", "vlen-bytes", "numcodecs.vlen-utf8", "transpose", "zstd"]),
);

const entry = (name: string, configuration = {}): NamedConfig => ({
  name,
  configuration,
  mustUnderstand: true,
});
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

function pipeline(
  codecs: NamedConfig[],
  shape: number[],
  dataType: DataType = stringDataType,
  format: 2 | 3 = 3,
) {
  return CodecPipeline.create(codecs, { shape, dataType, fillValue: dataType.defaultFill }, format);
}

/** Strings that exercise every path: empty, NUL, BOM, 2-, 3- and 4-byte UTF-8, long items. */
const TRICKY = [
  "",
  "a",
  "\0",
  "a\0b",
  "\uFEFFbom",
  "é",
  "€",
  "日本語",
  "🚀🎉",
  "x".repeat(127),
  "y".repeat(128),
  "ü".repeat(300),
  "",
];

describe("vlen-utf8", () => {
  it("writes numcodecs' layout: u32le count, then u32le length and UTF-8 bytes per item", () => {
    const codec = new VlenUtf8Codec();
    const bytes = codec.encode({ data: ["a", "", "é"], shape: [3], stride: [1] }, stringSpec(3));
    expect(hex(bytes)).toBe("03000000" + "0100000061" + "00000000" + "02000000c3a9");
  });

  it("round-trips tricky strings, keeping a leading BOM and embedded NULs", () => {
    const codec = new VlenUtf8Codec();
    const spec = stringSpec(TRICKY.length);
    const decoded = codec.decode(
      codec.encode({ data: TRICKY, shape: [TRICKY.length], stride: [1] }, spec),
      spec,
    );
    expect(decoded.data).toEqual(TRICKY);
  });

  it("round-trips any strings, through the pipeline with a compressor (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: "binary", maxLength: 300 }), { minLength: 1, maxLength: 60 }),
        async (texts) => {
          const p = pipeline(
            [entry("vlen-utf8"), entry("zstd", { level: 1, checksum: false })],
            [texts.length],
          );
          const out = await p.decode(
            await p.encode({ data: texts, shape: [texts.length], stride: [1] }),
          );
          expect(out.data).toEqual(texts);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("writes elements in C order whatever the chunk's strides (F order through a transpose)", async () => {
    const p = pipeline([entry("transpose", { order: [1, 0] }), entry("vlen-utf8")], [2, 3]);
    const logical = ["a", "b", "c", "d", "e", "f"];
    const bytes = await p.encode({ data: logical, shape: [2, 3], stride: cOrderStrides([2, 3]) });
    // Stored in F order: column by column.
    const stored = new VlenUtf8Codec().decode(bytes, stringSpec(6)).data;
    expect(stored).toEqual(["a", "d", "b", "e", "c", "f"]);
    const back = await p.decode(bytes);
    const read = Array.from(
      { length: 6 },
      (_, i) =>
        (back.data as string[])[Math.floor(i / 3) * back.stride[0] + (i % 3) * back.stride[1]],
    );
    expect(read).toEqual(logical);
  });

  it("is not fooled by length prefixes that are themselves UTF-8 (43459 = c3 a9 00 00, 'é')", () => {
    const texts = ["ab", "x".repeat(0xa9c3), "é", "z".repeat(130), "ü"];
    const codec = new VlenUtf8Codec();
    const spec = stringSpec(texts.length);
    const bytes = codec.encode({ data: texts, shape: [texts.length], stride: [1] }, spec);
    expect(Array.from(bytes.subarray(10, 14))).toEqual([0xc3, 0xa9, 0, 0]);
    expect(codec.decode(bytes, spec).data).toEqual(texts);
    // An item cut short before its last sequence is caught even when the length prefix after
    // it completes the sequence: item 0 is 61 c3, item 1 has 169 (a9 00 00 00) bytes.
    const u32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24];
    const cut = new Uint8Array([
      ...u32(2),
      ...u32(2),
      0x61,
      0xc3,
      ...u32(169),
      ...new Array(169).fill(0x62),
    ]);
    expect(() => codec.decode(cut, stringSpec(2))).toThrow(/item 0 is not valid UTF-8/);
  });

  it("decodes chunks far larger than one decoding window, and names a bad item deep inside", () => {
    const texts = fc.sample(fc.string({ unit: "binary", maxLength: 30 }), {
      numRuns: 20_000,
      seed: 11,
    });
    const codec = new VlenUtf8Codec();
    const spec = stringSpec(texts.length);
    const bytes = codec.encode({ data: texts, shape: [texts.length], stride: [1] }, spec);
    expect(bytes.length).toBeGreaterThan(4 * 65536);
    expect(codec.decode(bytes, spec).data).toEqual(texts);
    // Corrupt the first byte of item 15000 (a non-empty one) with a lone continuation byte.
    let at = 4;
    let index = 0;
    for (; index < 15_000 || new DataView(bytes.buffer).getUint32(at, true) === 0; index++) {
      at += 4 + new DataView(bytes.buffer).getUint32(at, true);
    }
    bytes[at + 4] = 0x80;
    expect(() => codec.decode(bytes, spec)).toThrow(new RegExp(`item ${index} is not valid UTF-8`));
  });

  it("writes null, undefined and 0 of object arrays as empty strings, as numcodecs does", () => {
    const codec = new VlenUtf8Codec("numcodecs.vlen-utf8");
    const spec = { shape: [3], dataType: new ObjectDataType(), fillValue: 0 };
    expect(
      codec.decode(codec.encode({ data: [null, 0, "z"], shape: [3], stride: [1] }, spec), spec)
        .data,
    ).toEqual(["", "", "z"]);
    expect(() =>
      codec.encode({ data: [1.5], shape: [1], stride: [1] }, { ...spec, shape: [1] }),
    ).toThrow(/element 0 is number 1.5/);
  });

  it("writes lone surrogates as U+FFFD (UTF-8 cannot hold them)", () => {
    const codec = new VlenUtf8Codec();
    const spec = stringSpec(1);
    expect(
      codec.decode(codec.encode({ data: ["a\uD800b"], shape: [1], stride: [1] }, spec), spec).data,
    ).toEqual(["a\uFFFDb"]);
  });
});

describe("vlen-bytes", () => {
  it("round-trips byte strings; decoded items never alias the input buffer", () => {
    const items = [new Uint8Array([0, 255]), new Uint8Array(0), new Uint8Array(200).fill(7)];
    const spec = { shape: [3], dataType: bytesDataType, fillValue: new Uint8Array(0) };
    const codec = new VlenBytesCodec();
    const bytes = codec.encode({ data: items, shape: [3], stride: [1] }, spec);
    expect(hex(bytes.subarray(0, 14))).toBe("03000000" + "02000000" + "00ff" + "00000000");
    const decoded = codec.decode(bytes, spec).data as Uint8Array[];
    expect(decoded.map((b) => Array.from(b))).toEqual(items.map((b) => Array.from(b)));
    bytes.fill(9);
    expect(Array.from(decoded[0])).toEqual([0, 255]);
  });

  it("refuses strings (encode them first)", () => {
    const spec = { shape: [1], dataType: bytesDataType, fillValue: new Uint8Array(0) };
    expect(() =>
      new VlenBytesCodec().encode({ data: ["text"], shape: [1], stride: [1] }, spec),
    ).toThrow(/only Uint8Arrays/);
  });
});

describe.skipIf(!havePython("vlen codecs against numcodecs", ["numcodecs", "numpy"]))(
  "vlen codecs against numcodecs",
  () => {
    it("vlen-utf8 and vlen-bytes encode byte-identically to numcodecs for tricky values", () => {
      const script = `
import sys, json, numpy as np
from numcodecs import VLenUTF8, VLenBytes
texts = json.loads(sys.stdin.read())
a = np.array(texts, dtype=object)
b = np.array([t.encode("utf-8") for t in texts], dtype=object)
print(bytes(VLenUTF8().encode(a)).hex())
print(bytes(VLenBytes().encode(b)).hex())
`;
      const [utf8, raw] = runPython(script, JSON.stringify(TRICKY)).trim().split("\n");
      const spec = stringSpec(TRICKY.length);
      expect(
        hex(
          new VlenUtf8Codec().encode({ data: TRICKY, shape: [TRICKY.length], stride: [1] }, spec),
        ),
      ).toBe(utf8);
      const asBytes = TRICKY.map((t) => new TextEncoder().encode(t));
      const bytesSpec = {
        shape: [TRICKY.length],
        dataType: bytesDataType,
        fillValue: new Uint8Array(0),
      };
      expect(
        hex(
          new VlenBytesCodec().encode(
            { data: asBytes, shape: [TRICKY.length], stride: [1] },
            bytesSpec,
          ),
        ),
      ).toBe(raw);
    });

    it("decodes what numcodecs encodes from random strings", () => {
      const texts = fc.sample(fc.string({ unit: "binary", maxLength: 40 }), {
        numRuns: 200,
        seed: 7,
      });
      const script = `
import sys, json, numpy as np
from numcodecs import VLenUTF8
print(bytes(VLenUTF8().encode(np.array(json.loads(sys.stdin.read()), dtype=object))).hex())
`;
      const encoded = Buffer.from(runPython(script, JSON.stringify(texts)).trim(), "hex");
      expect(
        new VlenUtf8Codec().decode(new Uint8Array(encoded), stringSpec(texts.length)).data,
      ).toEqual(texts);
    });
  },
);
