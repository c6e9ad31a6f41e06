// Data types beyond the plain numeric ones and codecs beyond bytes load on first use. No test
// setup loads them ahead: a test file that builds one synchronously loads it itself. Here every
// test works on fresh module instances (vi.resetModules), where nothing is loaded until an array
// needs it, as in a browser page.
import fc from "fast-check";
import { beforeEach, describe, expect, it, vi } from "vitest";

type Modules = {
  array: typeof import("@z/array");
  codecs: typeof import("@z/codecs");
  metadata: typeof import("@z/metadata");
};

/** Fresh instances of the packages: empty lazy registries. */
async function freshModules(): Promise<Modules> {
  vi.resetModules();
  const [array, codecs, metadata] = await Promise.all([
    import("@z/array"),
    import("@z/codecs"),
    import("@z/metadata"),
  ]);
  return { array, codecs, metadata };
}

const context = (m: Modules, dtype = "float32") => ({
  spec: { shape: [4], dataType: m.metadata.resolveDataTypeV3(dtype), fillValue: 0 },
  zarrFormat: 3 as const,
});
const entry = (name: string, configuration = {}) => ({ name, configuration, mustUnderstand: true });

/** Arrays whose data types and codecs all load on first use, with the values written. */
const CASES = [
  { path: "complex", dtype: "complex64", compressors: ["gzip"], values: [1, 0, 2, -1, 0, 0.5] },
  { path: "zstd", dtype: "int16", compressors: ["zstd"], values: [1, -2, 3] },
  {
    path: "blosc",
    dtype: "float64",
    compressors: [
      {
        name: "blosc",
        configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 8, blocksize: 0 },
      },
    ],
    values: [0.5, 1.5, -2],
  },
  { path: "bfloat16", dtype: "bfloat16", compressors: [], values: [1, 2, 0.5] },
  {
    path: "sharded",
    dtype: "uint8",
    shards: [4],
    chunks: [2],
    compressors: ["gzip"],
    values: [1, 2, 3, 4, 5, 6],
  },
  {
    path: "delta",
    dtype: "int32",
    filters: [{ id: "delta", dtype: "<i4" }],
    compressors: ["zstd"],
    zarrFormat: 2,
    values: [5, 7, 9],
  },
  {
    path: "unicode",
    dtype: "<U3",
    compressors: [{ id: "zlib", level: 1 }],
    zarrFormat: 2,
    values: ["a", "bcd", ""],
  },
] as const;

const lengthOf = (c: (typeof CASES)[number]) =>
  c.dtype === "complex64" ? c.values.length / 2 : c.values.length;

describe("data types and codecs that load on first use", () => {
  let m: Modules;
  beforeEach(async () => {
    m = await freshModules();
  });

  it("start unloaded: synchronous lookups say what to await, numeric types and bytes work", async () => {
    const { metadata, codecs } = m;
    expect(metadata.dataTypesLoaded()).toBe(false);
    expect(metadata.resolveDataTypeV3("int32").name).toBe("int32");
    expect(metadata.resolveDataTypeV2("<f8").dataType.name).toBe("float64");
    const error = (() => {
      try {
        metadata.resolveDataTypeV3("complex64", "/a/zarr.json");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(metadata.DataTypeNotLoadedError);
    expect(error).toBeInstanceOf(metadata.UnknownDataTypeError);
    expect((error as Error).message).toContain('"complex64" in /a/zarr.json is not loaded');
    expect((error as Error).message).toContain("loadDataTypes()");
    expect(() => metadata.resolveDataTypeV2("<U4")).toThrow(metadata.DataTypeNotLoadedError);

    expect(codecs.resolveCodec(entry("bytes"), context(m))?.name).toBe("bytes");
    expect(codecs.hasCodec("gzip")).toBe(true);
    expect(codecs.registeredCodecs()).toContain("sharding_indexed");
    expect(() => codecs.resolveCodec(entry("gzip"), context(m), "/a")).toThrow(
      codecs.CodecNotLoadedError,
    );
    expect(() => codecs.resolveCodec(entry("gzip"), context(m))).toThrow(
      /loadCodecs\(\["gzip"\]\)/,
    );

    await metadata.loadDataTypes();
    expect(metadata.dataTypesLoaded()).toBe(true);
    expect(metadata.resolveDataTypeV3("complex64").itemSize).toBe(8);
    await codecs.loadCodecs(["gzip"]);
    expect(codecs.resolveCodec(entry("gzip"), context(m))?.name).toBe("gzip");
    // gzip's module does not bring zstd's.
    expect(() => codecs.resolveCodec(entry("zstd"), context(m))).toThrow(
      codecs.CodecNotLoadedError,
    );
  });

  it("a metadata document of numeric types loads no data types; an unknown codec stays unknown", async () => {
    const { metadata, codecs } = m;
    await metadata.loadDataTypesFor({ data_type: "float32", attributes: { dtype: "<U7" } });
    expect(metadata.dataTypesLoaded()).toBe(false);
    await metadata.loadDataTypesFor({
      dtype: [
        ["a", "<i4"],
        ["b", "<f8"],
      ],
    });
    expect(metadata.dataTypesLoaded()).toBe(true);
    await codecs.loadCodecsFor({ codecs: [entry("no.such.codec")] });
    expect(() => codecs.resolveCodec(entry("no.such.codec"), context(m))).toThrow(
      codecs.UnknownCodecError,
    );
    expect(() => codecs.resolveCodec(entry("no.such.codec"), context(m))).not.toThrow(
      codecs.CodecNotLoadedError,
    );
  });

  it("createArray and openArray load what the metadata names; the values round-trip", async () => {
    // A hierarchy has one format: the v2 cases go to a store of their own.
    const stores = { 2: new Map<string, Uint8Array>(), 3: new Map<string, Uint8Array>() };
    const storeOf = (c: (typeof CASES)[number]) => stores["zarrFormat" in c ? c.zarrFormat : 3];
    for (const c of CASES) {
      const store = storeOf(c);
      const { path, values, ...options } = c;
      // The cases are plain data (readonly tuples); createArray takes them as they are.
      const spec = { path, shape: [lengthOf(c)], chunks: [2], ...options } as unknown;
      const array = await m.array.createArray(
        store,
        spec as Parameters<typeof m.array.createArray>[1],
      );
      if (c.dtype === "complex64") {
        const data = new Float32Array(values as readonly number[]);
        await array.set([null], { data, shape: [3], stride: [1] } as never);
      } else {
        await array.set([null], values.map((v) => v) as never);
      }
    }
    // Another page, nothing loaded: opening each array loads its codecs and data type.
    const reader = await freshModules();
    expect(reader.metadata.dataTypesLoaded()).toBe(false);
    for (const c of CASES) {
      const array = await reader.array.openArray(storeOf(c), { path: c.path });
      const { data } = await array.get([null]);
      const read =
        c.dtype === "complex64"
          ? Array.from(data as Float32Array)
          : Array.from({ length: lengthOf(c) }, (_, k) => array.dataType.getElement(data, k));
      expect(read, c.path).toEqual([...c.values]);
    }
    expect(reader.metadata.dataTypesLoaded()).toBe(true);
  });

  it("opening a consolidated group loads what its members need", async () => {
    const store = new Map<string, Uint8Array>();
    const root = await m.array.createGroup(store);
    const a = await root.createArray("a", {
      shape: [3],
      chunks: [3],
      dtype: "<M8[s]",
      zarrFormat: 3,
      compressors: ["zstd"],
    } as never);
    await a.set([null], [1n, 2n, 3n] as never);
    await m.array.consolidateMetadata(store);
    const reader = await freshModules();
    const group = await reader.array.openGroup(store);
    const member = await group.get("a");
    expect(member).toBeInstanceOf(reader.array.ZarrArray);
    const { data } = await (member as InstanceType<typeof reader.array.ZarrArray>).get([null]);
    expect(Array.from(data as BigInt64Array)).toEqual([1n, 2n, 3n]);
  });

  it("opening a v2 array in F order loads the transpose its order implies (named nowhere)", async () => {
    const store = new Map<string, Uint8Array>();
    const writer = await m.array.createArray(store, {
      shape: [2, 3],
      chunks: [2, 3],
      dtype: "int16",
      zarrFormat: 2,
      order: "F",
      compressors: null,
    });
    await writer.set([null, null], { data: Int16Array.from([1, 2, 3, 4, 5, 6]), shape: [2, 3] });
    // Stored in F order: the columns one after the other.
    expect(Array.from(new Int16Array(store.get("0.0")!.slice().buffer))).toEqual([
      1, 4, 2, 5, 3, 6,
    ]);
    const reader = await freshModules();
    const spec = {
      shape: [2, 3],
      dataType: reader.metadata.resolveDataTypeV3("int16"),
      fillValue: 0,
    };
    expect(() =>
      reader.codecs.resolveCodec(entry("transpose", { order: [1, 0] }), { spec, zarrFormat: 2 }),
    ).toThrow(reader.codecs.CodecNotLoadedError);
    const array = await reader.array.openArray(store);
    const { data } = await array.get([null, null]);
    expect(Array.from(data as Int16Array)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("registrations made before a module loads win over the built-in ones it brings", async () => {
    const { codecs, metadata } = m;
    const mine = codecs.resolveCodec(entry("bytes"), context(m)) as ReturnType<
      typeof codecs.resolveCodec
    >;
    codecs.registerCodec("gzip", () => mine as NonNullable<typeof mine>);
    await codecs.loadAllCodecs();
    expect(codecs.resolveCodec(entry("gzip"), context(m))).toBe(mine);
    // numcodecs.gzip came with the same module and is the built-in one.
    expect(codecs.resolveCodec(entry("numcodecs.gzip"), context(m))?.name).toBe("numcodecs.gzip");

    const int8 = metadata.resolveDataTypeV3("int8");
    metadata.registerDataType(Object.assign(Object.create(int8), { name: "complex64" }));
    await metadata.loadDataTypes();
    expect(metadata.resolveDataTypeV3("complex64").itemSize).toBe(1);
  });

  it("a failed load may be retried (a network error need not be final)", async () => {
    const { codecs } = m;
    let attempts = 0;
    codecs.registerCodecLoader(["example.flaky"], async () => {
      attempts++;
      if (attempts === 1) throw new Error("offline");
      codecs.registerCodec(
        "example.flaky",
        (_, ctx) =>
          codecs.resolveCodec(entry("bytes"), ctx) as NonNullable<
            ReturnType<typeof codecs.resolveCodec>
          >,
      );
    });
    await expect(codecs.loadCodecs(["example.flaky"])).rejects.toThrow("offline");
    expect(() => codecs.resolveCodec(entry("example.flaky"), context(m))).toThrow(
      codecs.CodecNotLoadedError,
    );
    await codecs.loadCodecs(["example.flaky"]);
    expect(codecs.resolveCodec(entry("example.flaky"), context(m))?.name).toBe("bytes");
    await codecs.loadCodecs(["example.flaky"]);
    expect(attempts).toBe(2);
  });

  it("loadCodecsFor loads the codecs named anywhere outside attributes, and only those", async () => {
    // Model: each name's loader module, by the names it registers.
    const groups: string[][] = [
      ["gzip", "numcodecs.gzip", "zlib", "numcodecs.zlib"],
      ["zstd", "numcodecs.zstd"],
      ["blosc", "numcodecs.blosc"],
      ["sharding_indexed"],
      ["numcodecs.delta", "numcodecs.shuffle"],
    ];
    const names = groups.flat();
    const named = fc.record({
      name: fc.constantFrom(...names),
      inAttributes: fc.boolean(),
      depth: fc.integer({ min: 0, max: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(named, { maxLength: 5 }), async (placements) => {
        const fresh = await freshModules();
        const codecList: unknown[] = [];
        const inAttributes: unknown[] = [];
        for (const placement of placements) {
          // Nested `depth` levels down inside sharding configurations.
          let item: unknown = { name: placement.name, configuration: {} };
          for (let i = 0; i < placement.depth; i++)
            item = { name: "sharding_indexed", configuration: { codecs: [item] } };
          (placement.inAttributes ? inAttributes : codecList).push(item);
        }
        const doc = { codecs: codecList, attributes: { codecs: inAttributes } };
        await fresh.codecs.loadCodecsFor(doc as never);
        const expected = new Set<string>();
        for (const { name, inAttributes, depth } of placements) {
          if (inAttributes) continue;
          const nameds = depth > 0 ? [name, "sharding_indexed"] : [name];
          for (const group of groups)
            if (nameds.some((n) => group.includes(n))) for (const n of group) expected.add(n);
        }
        for (const name of names) {
          let loaded = true;
          try {
            fresh.codecs.resolveCodec(entry(name), context(fresh, "int32"));
          } catch (error) {
            if (error instanceof fresh.codecs.CodecNotLoadedError) loaded = false;
          }
          expect(loaded, name).toBe(expected.has(name));
        }
      }),
      { numRuns: 15 },
    );
  });
});
