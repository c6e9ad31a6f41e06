// numcodecs' `categorize` filter against its golden files: the encoded codes decode to the
// golden strings, and encoding the strings gives the golden codes byte for byte. Object (|O)
// arrays are decoded into fixed-length unicode chunks (the same strings; the variable-length
// string type belongs to another package).
import { readFileSync } from "node:fs";
import {
  type ArrayToArrayCodec,
  BytesCodec,
  type ChunkSpec,
  CodecConfigError,
  loadCodecs,
  resolveCodec,
} from "@z/codecs";
import { fixedLengthUnicode, loadDataTypes, resolveDataTypeV2 } from "@z/metadata";
import { cOrderStrides } from "@z/ndarray";
import { fixturePath, type GoldenCase, goldenCases, haveFixtures } from "@z/test-utils";
import { describe, expect, it } from "vitest";

// The codec and the string types are built synchronously below; they load on first use.
await Promise.all([loadDataTypes(), loadCodecs(["numcodecs.categorize"])]);

const LE = new BytesCodec("little");
const u4 = fixedLengthUnicode(4);

function codec(config: Record<string, unknown>, spec: ChunkSpec): ArrayToArrayCodec {
  const { id, ...configuration } = config;
  return resolveCodec(
    { name: `numcodecs.${id}`, configuration: configuration as never, mustUnderstand: true },
    { spec, zarrFormat: 2 },
  ) as ArrayToArrayCodec;
}

function expectedValues(c: GoldenCase, kind: "O" | "U"): string[] {
  const n = c.label.split("/").at(-1)!.split(".")[1];
  return JSON.parse(
    readFileSync(
      fixturePath("expected", "numcodecs", "categorize", kind, `array.${n}.json`),
      "utf8",
    ),
  ).values;
}

for (const kind of ["U", "O"] as const) {
  const cases = haveFixtures(`categorize golden files (${kind})`)
    ? goldenCases(`categorize/${kind}`)
    : [];
  describe.skipIf(cases.length === 0)(`categorize golden files (${kind})`, () => {
    it.each(cases.map((c) => [c.label, c] as const))("%s", async (_label, c) => {
      const values = expectedValues(c, kind);
      const spec: ChunkSpec = { shape: [values.length], dataType: u4, fillValue: "" };
      const filter = codec(c.config, spec);
      const codes = LE.decode(c.encoded, filter.encodedSpec(spec));
      const decoded = await filter.decode(codes, spec);
      const strings = Array.from({ length: values.length }, (_, i) =>
        u4.getElement(decoded.data as Uint32Array, i),
      );
      expect(strings).toEqual(values);
      // Encoding the strings gives numcodecs' bytes.
      const data = u4.create(values.length);
      values.forEach((v, i) => {
        u4.setElement(data, i, v);
      });
      const encoded = await filter.encode({ data, shape: [values.length], stride: [1] }, spec);
      expect(Buffer.from(LE.encode(encoded, filter.encodedSpec(spec)))).toEqual(
        Buffer.from(c.encoded),
      );
      if (kind === "U") {
        // The golden input array itself (UTF-32 LE) equals the decoded chunk.
        expect(Buffer.from(u4.encode(decoded.data as Uint32Array, "little"))).toEqual(
          Buffer.from(c.array.data),
        );
      }
    });
  });
}

describe("categorize", () => {
  const spec: ChunkSpec = {
    shape: [2, 3],
    dataType: resolveDataTypeV2(">U5").dataType,
    fillValue: "b",
  };
  const config = { id: "categorize", labels: ["a", "b"], dtype: ">U5", astype: "<u2" };

  it("codes unknown strings as 0 (decoded as empty), keeps the chunk shape, codes the fill value", async () => {
    const filter = codec(config, spec);
    const t = spec.dataType;
    const data = t.create(6);
    ["a", "b", "zz", "", "b", "a"].forEach((v, i) => {
      t.setElement(data, i, v);
    });
    const encoded = await filter.encode(
      { data, shape: [2, 3], stride: cOrderStrides([2, 3]) },
      spec,
    );
    expect(encoded.shape).toEqual([2, 3]);
    expect(Array.from(encoded.data as Uint16Array)).toEqual([1, 2, 0, 0, 2, 1]);
    expect(filter.encodedSpec(spec)).toMatchObject({ fillValue: 2 });
    const decoded = await filter.decode(encoded, spec);
    expect(Array.from({ length: 6 }, (_, i) => t.getElement(decoded.data, i))).toEqual([
      "a",
      "b",
      "",
      "",
      "b",
      "a",
    ]);
    expect(filter.toJson().configuration).toEqual({
      labels: ["a", "b"],
      dtype: ">U5",
      astype: "<u2",
    });
  });

  it("rejects configurations that cannot work", () => {
    expect(() => codec({ ...config, labels: "a" }, spec)).toThrow(CodecConfigError);
    expect(() => codec({ ...config, dtype: "<i4" }, spec)).toThrow(/unicode/);
    expect(() => codec({ ...config, astype: "<f4" }, spec)).toThrow(/integer/);
    expect(() =>
      codec(
        { ...config, astype: "|i1", labels: Array.from({ length: 200 }, (_, i) => `${i}`) },
        spec,
      ),
    ).toThrow(/do not fit/);
    const numeric: ChunkSpec = {
      shape: [2],
      dataType: resolveDataTypeV2("<i4").dataType,
      fillValue: 0,
    };
    expect(() => codec(config, numeric)).toThrow(/not text/);
  });
});
