import "@z/dtypes-vlen";
import { stringDataType } from "@z/dtypes-vlen";
import { MetadataError, type NamedConfig } from "@z/metadata";
import { codecsToV2Layout, v2Codecs } from "@z/metadata/internal";
import { describe, expect, it } from "vitest";

const entry = (name: string, configuration = {}): NamedConfig => ({
  name,
  configuration,
  mustUnderstand: true,
});

describe("codecsToV2Layout with a variable-length serializer", () => {
  it("vlen-utf8 becomes the first v2 filter and the codec after it the compressor", () => {
    const layout = codecsToV2Layout(
      [entry("vlen-utf8"), entry("zstd", { level: 3, checksum: false })],
      1,
    );
    expect(layout).toEqual({
      order: "C",
      endian: "little",
      filters: [{ id: "vlen-utf8" }],
      compressor: { id: "zstd", level: 3 },
    });
  });

  it("reads the numcodecs names a v2 array's codec list has (v2 to v2 copies)", () => {
    const layout = codecsToV2Layout(
      [entry("numcodecs.vlen-utf8"), entry("numcodecs.zlib", { level: 1 })],
      2,
    );
    expect(layout.filters).toEqual([{ id: "vlen-utf8" }]);
    expect(layout.compressor).toEqual({ id: "zlib", level: 1 });
  });

  it("vlen-bytes without a compressor; json2 keeps its configuration", () => {
    expect(codecsToV2Layout([entry("vlen-bytes")], 1)).toEqual({
      order: "C",
      endian: "little",
      filters: [{ id: "vlen-bytes" }],
      compressor: null,
    });
    const json2 = codecsToV2Layout(
      [
        entry("numcodecs.json2", { encoding: "utf-8", sort_keys: true }),
        entry("gzip", { level: 1 }),
      ],
      1,
    );
    expect(json2.filters).toEqual([{ id: "json2", encoding: "utf-8", sort_keys: true }]);
    expect(json2.compressor).toEqual({ id: "gzip", level: 1 });
  });

  it("F order (a reversing transpose) still works with a vlen serializer", () => {
    const layout = codecsToV2Layout(
      [entry("transpose", { order: [1, 0] }), entry("vlen-utf8"), entry("gzip", { level: 5 })],
      2,
    );
    expect(layout.order).toBe("F");
    expect(layout.filters).toEqual([{ id: "vlen-utf8" }]);
    expect(layout.compressor).toEqual({ id: "gzip", level: 5 });
  });

  it("a compressor-only chain after bytes is unchanged (bytes is not a filter)", () => {
    const layout = codecsToV2Layout(
      [entry("bytes", { endian: "big" }), entry("gzip", { level: 5 })],
      1,
    );
    expect(layout).toEqual({
      order: "C",
      endian: "big",
      filters: null,
      compressor: { id: "gzip", level: 5 },
    });
  });

  it("the offsets layout has no v2 form", () => {
    expect(() => codecsToV2Layout([entry("z.vlen-offsets")], 1)).toThrow(MetadataError);
  });

  it("turns back into the same codec list for a string array", () => {
    const layout = codecsToV2Layout([entry("vlen-utf8"), entry("zstd", { level: 0 })], 1);
    const details = { ...layout, dtype: "|O", dimensionSeparator: "." as const };
    expect(v2Codecs(details, stringDataType, 1).map((c) => c.name)).toEqual([
      "numcodecs.vlen-utf8",
      "numcodecs.zstd",
    ]);
  });
});
