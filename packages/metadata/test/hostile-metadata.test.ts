import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import {
  DEFAULT_METADATA_LIMITS,
  type JsonValue,
  loadDataTypes,
  MetadataError,
  MetadataLimitError,
  metadataLimits,
  parseArrayMetadataV2,
  parseArrayMetadataV3,
  parseGroupMetadataV2,
  parseGroupMetadataV3,
  parseJson,
  resolveDataTypeV2,
  resolveDataTypeV3,
  setMetadataLimits,
  stringifyJson,
  structType,
  uint8,
} from "@z/metadata";
import { parseStructV2 } from "@z/metadata/internal";
import { isZarrError } from "@z/store-core";
import { fixturePath, haveFixtures, jsonMutation } from "@z/test-utils";
import fc from "fast-check";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

// The sized types (S, U, V, raw bytes, structured) load on first use, as opening an array loads
// them before parsing its metadata; the tests parse synchronously.
beforeAll(loadDataTypes);

const V3 = (fields: Record<string, string> = {}) =>
  `{"zarr_format": 3, "node_type": "array", "shape": ${fields.shape ?? "[4]"}, "data_type": ${fields.dtype ?? '"int32"'},
   "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": ${fields.chunks ?? "[2]"}}},
   "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
   "codecs": ${fields.codecs ?? '[{"name": "bytes", "configuration": {"endian": "little"}}]'}${fields.extra ?? ""}}`;
const V2 = (fields: Record<string, string> = {}) =>
  `{"zarr_format": 2, "shape": ${fields.shape ?? "[4]"}, "chunks": ${fields.chunks ?? "[2]"},
   "dtype": ${fields.dtype ?? '"<i4"'}, "compressor": null, "fill_value": 0, "order": "C", "filters": null}`;

const openV3 = (text: string) =>
  parseArrayMetadataV3(parseJson(text, "/a/zarr.json"), "/a/zarr.json");
const openV2 = (text: string, zattrs?: string) =>
  parseArrayMetadataV2(
    parseJson(text, "/a/.zarray"),
    zattrs === undefined ? undefined : parseJson(zattrs, "/a/.zattrs"),
    "/a/.zarray",
  );

/** The error `f` throws, checked to be a branded @z error. */
function branded(f: () => unknown): Error {
  let caught: unknown;
  try {
    f();
  } catch (error) {
    caught = error;
  }
  expect(caught, "expected an error").toBeInstanceOf(Error);
  expect(isZarrError(caught), String(caught)).toBe(true);
  return caught as Error;
}

afterEach(() => {
  setMetadataLimits(DEFAULT_METADATA_LIMITS);
});

describe("integers beyond 2^53 in shapes and chunks", () => {
  const big = ["9007199254740994", "1152921504606846976", "18446744073709551616"];
  it.each(big)("zarr.json shape and chunk extent %s: a MetadataError naming the value", (n) => {
    for (const text of [V3({ shape: `[${n}]` }), V3({ chunks: `[${n}]` })]) {
      const error = branded(() => openV3(text));
      expect(error).toBeInstanceOf(MetadataError);
      expect(error.message).toContain(n);
      expect(error.message).toContain("/a/zarr.json");
    }
  });

  it.each(big)(".zarray shape and chunk extent %s: a MetadataError naming the value", (n) => {
    for (const text of [V2({ shape: `[${n}]`, chunks: `[${n}]` }), V2({ chunks: `[${n}]` })]) {
      const error = branded(() => openV2(text));
      expect(error.message).toContain(n);
      expect(error.message).toContain("/a/.zarray");
    }
  });

  it("bigints elsewhere (dimension names, order, separator, codec entries, zarr_format)", () => {
    const n = "18446744073709551616";
    const cases = [
      () => openV3(V3({ extra: `, "dimension_names": [${n}]` })),
      () => openV3(V3({ codecs: `[${n}]` })),
      () => openV3(V3({ dtype: n })),
      () => openV3(V3().replace('"zarr_format": 3', `"zarr_format": ${n}`)),
      () => openV2(V2().replace('"order": "C"', `"order": ${n}`)),
      () => openV2(V2().replace('"compressor": null', `"compressor": ${n}`)),
      () => openV2(V2({ dtype: n })),
      () => openV2(V2({ dtype: `[["a", "<i4", [${n}]]]` })),
      () =>
        parseGroupMetadataV3(
          parseJson(`{"zarr_format": ${n}, "node_type": "group"}`),
          "/g/zarr.json",
        ),
    ];
    for (const f of cases) expect(branded(f).message).toContain(n);
  });

  it("a shape whose element count passes 2^53 is refused; one just below opens", () => {
    const error = branded(() =>
      openV3(V3({ shape: "[4294967296, 4294967296]", chunks: "[1, 1]" })),
    );
    expect(error.message).toMatch(/more than 2\^53 elements/);
    expect(openV3(V3({ shape: "[4294967296, 2097151]", chunks: "[1, 1]" })).shape).toEqual([
      4294967296, 2097151,
    ]);
  });

  it("more dimensions than maxDimensions: a MetadataLimitError", () => {
    const ones = (n: number) => `[${Array(n).fill(1).join(",")}]`;
    const error = branded(() => openV3(V3({ shape: ones(65), chunks: ones(65) })));
    expect(error).toBeInstanceOf(MetadataLimitError);
    expect(error.message).toContain("65");
    expect(openV3(V3({ shape: ones(64), chunks: ones(64) })).shape).toHaveLength(64);
  });
});

describe("deep nesting and huge documents", () => {
  const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;

  it("attributes nested 100,000 deep in zarr.json: a MetadataLimitError naming the document", () => {
    const error = branded(() => openV3(V3({ extra: `, "attributes": {"a": ${deep(100_000)}}` })));
    expect(error).toBeInstanceOf(MetadataLimitError);
    expect(error.message).toContain("/a/zarr.json");
    expect(error.message).toMatch(/more than 512 levels/);
  });

  it("attributes nested 100,000 deep in .zattrs", () => {
    const error = branded(() => openV2(V2(), `{"a": ${deep(100_000)}}`));
    expect(error.message).toContain("/a/.zattrs");
  });

  it("a million unclosed brackets stop at the depth limit", () => {
    const error = branded(() => parseJson("[".repeat(1_000_000), "/x"));
    expect(error).toBeInstanceOf(MetadataLimitError);
    expect((error as MetadataLimitError).limit).toBe("maxJsonDepth");
  });

  it("nesting exactly at the limit parses, writes and parses again; one more level does not", () => {
    const { maxJsonDepth } = metadataLimits();
    const ok = parseJson(deep(maxJsonDepth));
    expect(parseJson(stringifyJson(ok, 0))).toEqual(ok);
    expect(branded(() => parseJson(deep(maxJsonDepth + 1)))).toBeInstanceOf(MetadataLimitError);
  });

  it("objects count as nesting too", () => {
    const n = 600;
    const text = `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
    expect(branded(() => parseJson(text))).toBeInstanceOf(MetadataLimitError);
  });

  it("a document beyond maxDocumentBytes is refused before it is decoded", () => {
    setMetadataLimits({ maxDocumentBytes: 1000 });
    const text = V3({ extra: `, "attributes": {"pad": "${"x".repeat(1000)}"}` });
    const error = branded(() => parseJson(new TextEncoder().encode(text), "/big/zarr.json"));
    expect(error).toBeInstanceOf(MetadataLimitError);
    expect(error.message).toContain("/big/zarr.json");
    expect(error.message).toContain(String(text.length));
  });

  it.runIf(haveFixtures("hostile-metadata"))(
    "the default size limit holds the consolidated metadata of 100,000 real arrays",
    () => {
      const one = readFileSync(fixturePath("zarr-metadata/v3/array/sharding_indexed_codec.json"));
      // Consolidated entries are the node documents, indented two levels deeper.
      const perArray = one.length * 1.5 + 100;
      expect(100_000 * perArray).toBeLessThan(DEFAULT_METADATA_LIMITS.maxDocumentBytes);
    },
  );

  it("setMetadataLimits refuses nonsense and returns the previous limits", () => {
    expect(branded(() => setMetadataLimits({ maxJsonDepth: 0 }))).toBeInstanceOf(MetadataError);
    expect(branded(() => setMetadataLimits({ maxJsonDepth: Number.NaN })).message).toContain(
      "maxJsonDepth",
    );
    expect(branded(() => setMetadataLimits({ maxNothing: 3 } as never)).message).toContain(
      "maxNothing",
    );
    const previous = setMetadataLimits({ maxJsonDepth: 10 });
    expect(previous.maxJsonDepth).toBe(512);
    expect(metadataLimits().maxJsonDepth).toBe(10);
    expect(() => parseJson(deep(11))).toThrow(MetadataLimitError);
  });
});

describe("declared sizes are checked before any allocation", () => {
  const allocated = () => process.memoryUsage().arrayBuffers;

  it('.zarray dtype "|V99999999999": a MetadataLimitError naming the dtype', () => {
    const error = branded(() => openV2(V2({ dtype: '"|V99999999999"' })));
    expect(error).toBeInstanceOf(MetadataLimitError);
    expect(error.message).toContain("|V99999999999");
  });

  it('.zarray dtype "|V2000000000" is refused without allocating the element', () => {
    const before = allocated();
    const error = branded(() => openV2(V2({ dtype: '"|V2000000000"' })));
    expect(error.message).toContain("|V2000000000");
    expect(allocated() - before).toBeLessThan(64 * 2 ** 20);
  });

  it("every sized type family: S, U, V, r<bits>, raw_bytes, null_terminated_bytes, fixed_length_utf32", () => {
    const huge = 2 ** 40;
    const v2 = [`|S${huge}`, `<U${huge}`, `|V${huge}`, "<U5000000"];
    for (const dtype of v2)
      expect(branded(() => resolveDataTypeV2(dtype, "/x/.zarray")).message).toContain(dtype);
    const v3: JsonValue[] = [
      `r${huge * 8}`,
      { name: "raw_bytes", configuration: { length_bytes: huge } },
      { name: "null_terminated_bytes", configuration: { length_bytes: huge } },
      { name: "fixed_length_utf32", configuration: { length_bytes: huge } },
    ];
    for (const dtype of v3) {
      const error = branded(() => resolveDataTypeV3(dtype, "/x/zarr.json"));
      expect(error).toBeInstanceOf(MetadataLimitError);
      expect(error.message).toContain(String(huge));
    }
  });

  it("a structured dtype whose subarray makes the record too large", () => {
    const error = branded(() => openV2(V2({ dtype: '[["a", "<f8", [1000000, 1000000]]]' })));
    expect(error).toBeInstanceOf(MetadataLimitError);
    expect(error.message).toContain('"a"');
  });

  it("a chunk larger than maxChunkBytes is refused; a huge shard of small inner chunks opens", () => {
    const error = branded(() =>
      openV2(V2({ shape: "[100000, 100000]", chunks: "[100000, 100000]" })),
    );
    expect(error).toBeInstanceOf(MetadataLimitError);
    expect(error.message).toContain("100000, 100000");
    const sharded = V3({
      shape: "[1000000, 1000000]",
      chunks: "[1000000, 1000000]",
      codecs: `[{"name": "sharding_indexed", "configuration": {"chunk_shape": [1000, 1000],
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
        "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]}}]`,
    });
    expect(openV3(sharded).chunkGrid.chunkShape).toEqual([1000000, 1000000]);
    const hugeInner = sharded.replace("[1000, 1000]", "[1000000, 1000000]");
    expect(branded(() => openV3(hugeInner))).toBeInstanceOf(MetadataLimitError);
  });

  it("variable-size chunks are bounded by their element count", () => {
    setMetadataLimits({ maxChunkBytes: 1000 });
    expect(branded(() => openV3(V3({ shape: "[1000]", chunks: "[1000]" })))).toBeInstanceOf(
      MetadataLimitError,
    );
    expect(openV3(V3({ shape: "[1000]", chunks: "[250]" })).shape).toEqual([1000]);
  });
});

describe("structured data types", () => {
  /** A v2 dtype list nested `depth` records deep. */
  function nestedV2(depth: number): JsonValue {
    let dtype: JsonValue = [["x", "<i4"]];
    for (let i = 0; i < depth - 1; i++) dtype = [["r", dtype]];
    return dtype;
  }

  it("a 5,000-deep structured dtype (already parsed JSON) is a MetadataLimitError, not a stack overflow", () => {
    const doc = { ...JSON.parse(V2()), dtype: nestedV2(5000) };
    const error = branded(() => parseArrayMetadataV2(doc, undefined, "/s/.zarray"));
    expect(error).toBeInstanceOf(MetadataLimitError);
    expect((error as MetadataLimitError).limit).toBe("maxStructDepth");
  });

  it("a 5,000-deep v3 struct (already parsed JSON) too", () => {
    let dataType: JsonValue = "int32";
    for (let i = 0; i < 5000; i++)
      dataType = {
        name: "struct",
        configuration: { fields: [{ name: "f", data_type: dataType }] },
      };
    const error = branded(() => resolveDataTypeV3(dataType, "/s/zarr.json"));
    expect((error as MetadataLimitError).limit).toBe("maxStructDepth");
  });

  it("records nested up to maxStructDepth work; one more level does not (also through structType)", () => {
    const { maxStructDepth } = metadataLimits();
    expect(parseStructV2(nestedV2(maxStructDepth) as JsonValue[], resolveDataTypeV2).depth).toBe(
      maxStructDepth,
    );
    expect(
      branded(() => parseStructV2(nestedV2(maxStructDepth + 1) as JsonValue[], resolveDataTypeV2)),
    ).toBeInstanceOf(MetadataLimitError);
    let type = structType([{ name: "x", dataType: uint8 }]);
    for (let i = 1; i < maxStructDepth; i++) type = structType([{ name: "r", dataType: type }]);
    expect(branded(() => structType([{ name: "r", dataType: type }]))).toBeInstanceOf(
      MetadataLimitError,
    );
  });

  it("100,000 fields are checked for duplicates in linear time", () => {
    const fields = Array.from({ length: 100_000 }, (_, i) => [`f${i}`, "|u1"]);
    fields.push(["f7", "|u1"]);
    const error = branded(() => parseStructV2(fields as JsonValue[], resolveDataTypeV2));
    expect(error.message).toContain('"f7" twice');
  });
});

// ---------------------------------------------------------------------------------------------
// Property: random mutations of real metadata documents parse or fail with a branded error.

interface Doc {
  file: string;
  json: JsonValue;
}

function metadataFixtures(): Doc[] {
  const root = fixturePath("zarr-metadata");
  const out: Doc[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === "fill_values.json") {
        // Data type cases: an array document per fill value, with the folder's data type.
        const typeFile = path.join(dir, "data_type.json");
        const dataType = existsSync(typeFile)
          ? parseJson(readFileSync(typeFile), typeFile)
          : path.basename(dir);
        const cases = parseJson(readFileSync(full), full) as Record<string, JsonValue>;
        for (const fill of Object.values(cases)) {
          const doc = { ...(parseJson(V3()) as object), data_type: dataType, fill_value: fill };
          out.push({ file: path.relative(root, full), json: doc as JsonValue });
        }
      } else if (name.endsWith(".json")) {
        const json = parseJson(readFileSync(full), full);
        // cases.json files hold lists of documents or of codec entries; keep node documents.
        const docs = Array.isArray(json) ? json : [json];
        for (const doc of docs) {
          if (doc && typeof doc === "object" && !Array.isArray(doc) && "zarr_format" in doc)
            out.push({ file: path.relative(root, full), json: doc });
        }
      }
    }
  };
  walk(root);
  return out;
}

function parseAny(doc: JsonValue, file: string): void {
  const obj = doc as Record<string, JsonValue>;
  const where = `/${file}`;
  const isV2 = obj?.zarr_format === 2;
  if (file.includes("consolidated")) return void parseJson(stringifyJson(doc), where);
  if (isV2 && file.includes("group")) parseGroupMetadataV2(doc, undefined, where);
  else if (isV2) parseArrayMetadataV2(doc, obj.attributes, where);
  else if (obj?.node_type === "group") parseGroupMetadataV3(doc, where);
  else parseArrayMetadataV3(doc, where);
}

describe.runIf(haveFixtures("hostile-metadata"))("mutated fixture documents", () => {
  const docs = haveFixtures("hostile-metadata") ? metadataFixtures() : [];

  it("finds the fixture documents", () => {
    expect(docs.length).toBeGreaterThan(60);
  });

  it("property: a mutated document parses (and writes and reads back) or throws a branded error", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...docs),
        fc.array(jsonMutation, { minLength: 1, maxLength: 3 }),
        (doc, mutations) => {
          const mutated = mutations.reduce((d, m) => m(d), doc.json);
          try {
            parseAny(mutated, doc.file);
            // What parsed must survive our own writer and parser.
            parseAny(parseJson(stringifyJson(mutated), doc.file), doc.file);
          } catch (error) {
            if (!isZarrError(error)) throw error;
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("property: a document cut or spliced as text parses or throws a branded error", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...docs),
        fc.nat(),
        fc.string({ maxLength: 8 }),
        (doc, at, insert) => {
          const text = stringifyJson(doc.json);
          const cut = at % (text.length + 1);
          try {
            parseAny(parseJson(text.slice(0, cut) + insert + text.slice(cut + 1)), doc.file);
          } catch (error) {
            if (!isZarrError(error)) throw error;
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
