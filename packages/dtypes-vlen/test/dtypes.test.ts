import { CodecConfigError, CodecPipeline, loadCodecs } from "@z/codecs";
import {
  bytesDataType,
  JsonFloat,
  OBJECT_V3_NAME,
  ObjectDataType,
  StringDataType,
  stringDataType,
} from "@z/dtypes-vlen";
import type { DataType } from "@z/metadata";
import {
  FillValueError,
  int32,
  type NamedConfig,
  resolveDataTypeV2,
  resolveDataTypeV3,
} from "@z/metadata";
import { beforeAll, describe, expect, it } from "vitest";

// These codecs load on first use; the tests build pipelines synchronously.
beforeAll(() =>
  loadCodecs([
    "vlen-utf8",
    "vlen-bytes",
    "z.vlen-offsets",
    "numcodecs.vlen-utf8",
    "numcodecs.vlen-bytes",
    "numcodecs.vlen-array",
    "numcodecs.json2",
    "numcodecs.zstd",
  ]),
);

const entry = (name: string, configuration = {}): NamedConfig => ({
  name,
  configuration,
  mustUnderstand: true,
});

describe("data type registry", () => {
  it("resolves the v3 names, zarr-python's bytes name and the object form", () => {
    expect(resolveDataTypeV3("string")).toBe(stringDataType);
    expect(resolveDataTypeV3({ name: "string" })).toBe(stringDataType);
    expect(resolveDataTypeV3("bytes")).toBe(bytesDataType);
    expect(resolveDataTypeV3("variable_length_bytes")).toBe(bytesDataType);
    expect(resolveDataTypeV3({ name: "variable_length_bytes", configuration: {} })).toBe(
      bytesDataType,
    );
    expect(resolveDataTypeV3("binary")).toBe(bytesDataType);
    expect(resolveDataTypeV3(OBJECT_V3_NAME)).toBeInstanceOf(ObjectDataType);
  });

  it("gives every v2 object array its own data type", () => {
    const a = resolveDataTypeV2("|O");
    const b = resolveDataTypeV2("|O");
    expect(a.dataType).toBeInstanceOf(ObjectDataType);
    expect(a.dataType).not.toBe(b.dataType);
    expect(a.dataType.toV2("little")).toBe("|O");
  });

  it("names the string and bytes types and writes them as |O in v2", () => {
    expect([stringDataType.name, stringDataType.kind, stringDataType.itemSize]).toEqual([
      "string",
      "string",
      0,
    ]);
    expect([bytesDataType.name, bytesDataType.kind, bytesDataType.itemSize]).toEqual([
      "bytes",
      "bytes",
      0,
    ]);
    expect(stringDataType.toV3()).toBe("string");
    expect(bytesDataType.toV3()).toBe("bytes");
    expect(stringDataType.toV2("big")).toBe("|O");
    expect(bytesDataType.toV2("little")).toBe("|O");
  });
});

describe("fill values", () => {
  it("string: a JSON string; v2 null and 0 read as the empty string", () => {
    expect(stringDataType.parseFill("", 3)).toBe("");
    expect(stringDataType.parseFill("n/a", 3)).toBe("n/a");
    expect(stringDataType.parseFill(null, 2)).toBe("");
    expect(stringDataType.parseFill(0, 2)).toBe("");
    expect(() => stringDataType.parseFill(0, 3)).toThrow(FillValueError);
    expect(() => stringDataType.parseFill(null, 3)).toThrow(FillValueError);
    expect(stringDataType.fillToJson("é", 3)).toBe("é");
  });

  it("bytes: base64 (as zarr-python writes it) or a list of byte values", () => {
    expect(Array.from(bytesDataType.parseFill("AAH/", 3))).toEqual([0, 1, 255]);
    expect(Array.from(bytesDataType.parseFill("", 3))).toEqual([]);
    expect(Array.from(bytesDataType.parseFill([1, 2, 3], 3))).toEqual([1, 2, 3]);
    expect(() => bytesDataType.parseFill("not base64!", 3)).toThrow(FillValueError);
    expect(() => bytesDataType.parseFill([1, 256], 3)).toThrow(FillValueError);
    expect(() => bytesDataType.parseFill(7, 3)).toThrow(FillValueError);
    expect(bytesDataType.fillToJson(new Uint8Array([0, 1, 255]), 3)).toBe("AAH/");
    expect(bytesDataType.fillToJson(new Uint8Array(0), 2)).toBeNull();
    expect(Array.from(bytesDataType.parseFill(null, 2))).toEqual([]);
  });

  it("object arrays keep the fill value as written (zarr-python 2 writes 0)", () => {
    const object = new ObjectDataType();
    expect(object.parseFill(0, 2)).toBe(0);
    expect(object.parseFill(null, 2)).toBeNull();
    expect(object.parseFill("", 2)).toBe("");
    expect(object.fillToJson(0, 2)).toBe(0);
  });
});

describe("elements", () => {
  it("string arrays take strings; null becomes the empty string; other values are refused", () => {
    expect(stringDataType.coerce("x")).toBe("x");
    expect(stringDataType.coerce(null)).toBe("");
    expect(() => stringDataType.coerce(1)).toThrow(TypeError);
    expect(() => stringDataType.coerce(new Uint8Array(1))).toThrow(/Uint8Array/);
    const data = stringDataType.create(3);
    expect(data).toEqual(["", "", ""]);
    stringDataType.fill(data, "a", 1);
    expect(data).toEqual(["", "a", "a"]);
    expect(stringDataType.isAllFill(["a", "a"], "a")).toBe(true);
    expect(stringDataType.isAllFill(["a", "b"], "a")).toBe(false);
  });

  it("bytes arrays take any ArrayBufferView or ArrayBuffer, compare by content, print base64", () => {
    const u8 = new Uint8Array([104, 105]);
    expect(bytesDataType.coerce(u8)).toBe(u8);
    expect(Array.from(bytesDataType.coerce(new Uint16Array([0x0102])))).toEqual([2, 1]);
    expect(Array.from(bytesDataType.coerce(new Uint8Array([7]).buffer))).toEqual([7]);
    expect(() => bytesDataType.coerce("hi")).toThrow(TypeError);
    expect(bytesDataType.isAllFill([new Uint8Array([1]), Uint8Array.of(1)], Uint8Array.of(1))).toBe(
      true,
    );
    expect(bytesDataType.isAllFill([new Uint8Array([1]), Uint8Array.of(2)], Uint8Array.of(1))).toBe(
      false,
    );
    expect(bytesDataType.toJsonElement(u8)).toEqual({ base64: "aGk=" });
  });

  it("object elements print as `zarr get --json` encodes values (NaN and infinities as strings, big integers as decimal strings, bytes as base64)", () => {
    const object = new ObjectDataType();
    expect(object.toJsonElement(["a", 1, Number.NaN, null, true])).toEqual([
      "a",
      1,
      "NaN",
      null,
      true,
    ]);
    expect(object.toJsonElement({ k: Number.POSITIVE_INFINITY, b: new Uint8Array([1]) })).toEqual({
      k: "Infinity",
      b: { base64: "AQ==" },
    });
    expect(object.toJsonElement(new JsonFloat(2))).toBe(2);
    expect(object.toJsonElement(2n ** 60n)).toBe("1152921504606846976");
    expect(object.toJsonElement(new Int16Array([1, -2]))).toEqual([1, -2]);
  });

  it("the fixed-size bytes codec cannot store them, and says which codec can", () => {
    // Called as the bytes codec calls any data type.
    const strings: DataType = stringDataType;
    const bytes: DataType = bytesDataType;
    expect(() => strings.encode(["a"], "little")).toThrow(CodecConfigError);
    expect(() => strings.encode(["a"], "little")).toThrow(/vlen-utf8/);
    expect(() => bytes.decode(new Uint8Array(0), 0, "little")).toThrow(/vlen-bytes/);
  });
});

describe("object arrays learn their element kind from their object codec", () => {
  const build = (codecs: NamedConfig[]) => {
    const dataType = new ObjectDataType();
    CodecPipeline.create(codecs, { shape: [4], dataType, fillValue: 0 }, 2);
    return dataType;
  };

  it("vlen-utf8 arrays are v3 strings, vlen-bytes arrays v3 bytes, others z.object", () => {
    const strings = build([entry("numcodecs.vlen-utf8"), entry("numcodecs.zstd", { level: 1 })]);
    expect(strings.objectCodec).toBe("vlen-utf8");
    expect(strings.toV3()).toBe("string");
    expect(strings.fillToJson(0, 3)).toBe("");
    expect(strings.fillToJson("x", 3)).toBe("x");
    const bytes = build([entry("numcodecs.vlen-bytes")]);
    expect(bytes.toV3()).toBe("bytes");
    expect(bytes.fillToJson(0, 3)).toBe("");
    const json = build([entry("numcodecs.json2", { encoding: "utf-8" })]);
    expect(json.toV3()).toBe(OBJECT_V3_NAME);
    expect(json.fillToJson(0, 3)).toBe(0);
    expect(new ObjectDataType().toV3()).toBe(OBJECT_V3_NAME);
  });
});

describe("codec configuration", () => {
  const spec = (dataType: never) => ({ shape: [2], dataType, fillValue: 0 });

  it("refuses data types a codec cannot serialise", () => {
    expect(() => CodecPipeline.create([entry("vlen-utf8")], spec(int32 as never), 3)).toThrow(
      CodecConfigError,
    );
    expect(() =>
      CodecPipeline.create([entry("vlen-utf8")], spec(bytesDataType as never), 3),
    ).toThrow(/string/);
    expect(() =>
      CodecPipeline.create([entry("vlen-bytes")], spec(stringDataType as never), 3),
    ).toThrow(/bytes/);
    expect(() =>
      CodecPipeline.create([entry("z.vlen-offsets")], spec(new ObjectDataType() as never), 3),
    ).toThrow(/object/);
    expect(() =>
      CodecPipeline.create(
        [entry("numcodecs.vlen-array", { dtype: "<i4" })],
        spec(stringDataType as never),
        2,
      ),
    ).toThrow(/object/);
  });

  it("refuses unknown configuration fields and bad values", () => {
    expect(() =>
      CodecPipeline.create([entry("vlen-utf8", { typo: 1 })], spec(stringDataType as never), 3),
    ).toThrow(/typo/);
    expect(() =>
      CodecPipeline.create(
        [entry("z.vlen-offsets", { offsets: "int16" })],
        spec(stringDataType as never),
        3,
      ),
    ).toThrow(/int32/);
    expect(() =>
      CodecPipeline.create(
        [entry("numcodecs.json2", { encoding: "latin-1" })],
        spec(stringDataType as never),
        2,
      ),
    ).toThrow(/utf-8/);
    expect(() =>
      CodecPipeline.create(
        [entry("numcodecs.vlen-array", {})],
        spec(new ObjectDataType() as never),
        2,
      ),
    ).toThrow(/dtype/);
  });

  it("a StringDataType subclass is still a string type to the codecs", () => {
    const custom = new (class extends StringDataType {})();
    expect(() =>
      CodecPipeline.create([entry("vlen-utf8")], spec(custom as never), 3),
    ).not.toThrow();
  });
});
