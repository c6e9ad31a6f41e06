import {
  type ArrayOptions,
  consolidateMetadata,
  createArray,
  createGroup,
  createHierarchy,
  open,
  openArray,
  openGroup,
} from "@z/array";
import { SelectionError } from "@z/indexing";
import {
  InvalidDataTypeError,
  MetadataError,
  MetadataLimitError,
  metadataLimits,
  USER_JSON_DEPTH_MARGIN,
} from "@z/metadata";
import { isZarrError } from "@z/store-core";
import { describe, expect, it } from "vitest";

/** The error a promise rejects with, checked to be a branded @z error. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "expected a rejection").toBeInstanceOf(Error);
  expect(isZarrError(error), String(error)).toBe(true);
  return error as Error;
}

const base: ArrayOptions = { shape: [10, 20], chunks: [5, 5], dtype: "int32" };

/** `depth` nested lists around 1. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe("createArray options: a typed error naming the option and the value, nothing written", () => {
  const cases: [string, Record<string, unknown>, RegExp | string][] = [
    ["bigint shape", { shape: [10n, 20] }, "10n"],
    ["bigint chunk", { chunks: [5n, 5] }, "5n"],
    ["negative shape", { shape: [-1, 20] }, "-1"],
    ["fractional shape", { shape: [1.5, 20] }, "1.5"],
    ["NaN shape", { shape: [Number.NaN, 20] }, "NaN"],
    ["shape not a list", { shape: "10" }, '"10"'],
    ["zero chunk", { chunks: [0, 5] }, "0"],
    ["fractional chunk", { chunks: [2.5, 5] }, "2.5"],
    ["chunks of another rank", { chunks: [5] }, "[5]"],
    ["order X", { order: "X" }, /order.*"X"/],
    ["dtype {}", { dtype: {} }, /dtype.*\{\}/],
    ["dtype a number", { dtype: 5 }, /dtype.*5/],
    ["dtype missing", { dtype: undefined }, /dtype/],
    ["unknown dtype name", { dtype: "int33" }, "int33"],
    ["dtype too large", { dtype: "|V2000000000" }, "|V2000000000"],
    ["fill value of the wrong type", { fillValue: "abc" }, /fillValue.*"abc"/],
    ["fill value an object", { fillValue: { a: 1 } }, /fillValue/],
    ["dimension names of the wrong length", { dimensionNames: ["a"] }, '["a"]'],
    ["dimension names not strings", { dimensionNames: [1, 2] }, "[1,2]"],
    ["codecs not objects", { codecs: [5] }, /codecs\[0\].*5/],
    ["codecs empty", { codecs: [] }, /codecs/],
    ["codecs not a list", { codecs: "gzip" }, /codecs.*"gzip"/],
    [
      "codec configuration not an object",
      { codecs: [{ name: "bytes", configuration: 3 }] },
      /configuration.*3/,
    ],
    [
      "codec configuration with a function",
      { compressors: [{ name: "gzip", configuration: { level: () => 1 } }] },
      /compressors\[0\]\.configuration\.level/,
    ],
    [
      "codec must_understand not a boolean",
      { codecs: [{ name: "bytes", must_understand: "yes" }] },
      /must_understand/,
    ],
    ["null compressor in a list", { compressors: [null] }, /compressors\[0\].*null/],
    ["filters not a list", { filters: { id: "delta" } }, /filters/],
    ["serializer a number", { serializer: 7 }, /serializer.*7/],
    [
      "chunk key encoding unknown",
      { chunkKeyEncoding: { name: "x" } },
      /chunkKeyEncoding.name.*"x"/,
    ],
    [
      "chunk key separator unknown",
      { chunkKeyEncoding: { name: "default", separator: "-" } },
      /separator.*"-"/,
    ],
    ["chunk key encoding a string", { chunkKeyEncoding: "v2" }, /chunkKeyEncoding.*"v2"/],
    [
      "shard index location unknown",
      { shards: [10, 10], shardIndexLocation: "middle" },
      /"middle"/,
    ],
    ["zarr format 4", { zarrFormat: 4 }, /zarrFormat.*4/],
    ["attributes an array", { attributes: [1] }, /attributes.*\[1\]/],
    ["attributes a string", { attributes: "abc" }, /attributes.*"abc"/],
    ["attributes a Date", { attributes: new Date(0) }, /attributes.*Date/],
    ["attribute a function", { attributes: { f: () => 1 } }, /attributes\.f is a function/],
    ["attribute a symbol", { attributes: { s: Symbol("s") } }, /attributes\.s is a symbol/],
    ["attribute undefined", { attributes: { u: undefined } }, /attributes\.u is undefined/],
    ["attribute a Map", { attributes: { m: new Map() } }, /attributes\.m is a Map/],
    [
      "attribute in a list a class instance",
      { attributes: { l: [1, new Uint8Array(2)] } },
      /attributes\.l\[1\] is a Uint8Array/,
    ],
    ["chunk too large", { shape: [100000, 100000], chunks: [100000, 100000] }, /maxChunkBytes/],
  ];

  it.each(cases)("%s", async (_, change, message) => {
    const store = new Map<string, Uint8Array>();
    const error = await rejection(
      createArray(store, { ...base, ...change, path: "a/b" } as ArrayOptions),
    );
    // Fill values are converted by the data type, whose own typed errors may be kept.
    if (!("fillValue" in change)) expect(error).toBeInstanceOf(MetadataError);
    expect(error.message).toMatch(message);
    expect(store.size).toBe(0);
  });

  it("the error classes say what kind of problem it is", async () => {
    const store = new Map<string, Uint8Array>();
    expect(await rejection(createArray(store, { ...base, dtype: {} as never }))).toBeInstanceOf(
      InvalidDataTypeError,
    );
    // A plain error from the conversion becomes a FillValueError; a typed one keeps its class.
    const fill = await rejection(createArray(store, { ...base, fillValue: () => 1 }));
    expect(fill.message).toMatch(/fillValue option \[function/);
    expect(
      await rejection(createArray(store, { ...base, shape: [1e15], chunks: [1e15] })),
    ).toBeInstanceOf(MetadataLimitError);
  });

  it("the node path is named", async () => {
    const error = await rejection(
      createArray(new Map(), { ...base, order: "X" as never, path: "deep/node" }),
    );
    expect(error.message).toContain("/deep/node");
  });

  it("options that are not an object", async () => {
    for (const options of [undefined, null, "x", 5, [base]]) {
      const error = await rejection(createArray(new Map(), options as never));
      expect(error.message).toMatch(/createArray takes an options object/);
    }
    const error = await rejection(createGroup(new Map(), "g" as never));
    expect(error.message).toMatch(/createGroup takes an options object, got "g"/);
  });

  it("valid options still work: bigint and NaN attributes are JSON metadata can hold", async () => {
    const store = new Map<string, Uint8Array>();
    const attributes = { big: 2n ** 64n, nan: Number.NaN, nested: { list: [1, "a", null] } };
    await createArray(store, { ...base, attributes, order: "F", path: "a" });
    const reopened = await openArray(store, { path: "a" });
    expect(reopened.attrs.big).toBe(2n ** 64n);
    expect(reopened.attrs.nested).toEqual({ list: [1, "a", null] });
  });
});

describe("attributes given by users: cycles, depth, size", () => {
  const maxDepth = metadataLimits().maxJsonDepth - USER_JSON_DEPTH_MARGIN;

  it("a cycle names where it closes", async () => {
    const cyclic: Record<string, unknown> = { a: { b: [] } };
    (cyclic.a as { b: unknown[] }).b.push(cyclic);
    const store = new Map<string, Uint8Array>();
    const error = await rejection(createArray(store, { ...base, attributes: cyclic as never }));
    expect(error.message).toContain("attributes.a.b[0] refers back to itself");
    expect(store.size).toBe(0);
  });

  it("100,000 levels deep: a MetadataLimitError naming the path, no stack overflow", async () => {
    const error = await rejection(
      createArray(new Map(), { ...base, attributes: { deep: nested(100_000) } as never }),
    );
    expect(error).toBeInstanceOf(MetadataLimitError);
    expect(error.message).toMatch(/attributes\.deep(\[0\])+ is nested more than/);
  });

  it("attributes up to the depth limit are written and read back, also consolidated", async () => {
    const store = new Map<string, Uint8Array>();
    await createGroup(store);
    const deep = { deep: nested(maxDepth - 1) };
    await createArray(store, { ...base, path: "a", attributes: deep as never });
    expect((await openArray(store, { path: "a" })).attrs).toEqual(deep);
    await expect(
      createArray(store, { ...base, path: "b", attributes: { deep: nested(maxDepth) } as never }),
    ).rejects.toThrow(MetadataLimitError);
    await consolidateMetadata(store);
    const group = await openGroup(store, { consolidated: true });
    expect(((await group.get("a")) as { attrs: unknown }).attrs).toEqual(deep);
  });

  it("a list that holds itself twice, sixty times over, is refused at once (bounded work)", async () => {
    let shared: unknown[] = [1];
    for (let i = 0; i < 60; i++) shared = [shared, shared];
    const error = await rejection(
      createArray(new Map(), { ...base, attributes: { shared } as never }),
    );
    expect(error).toBeInstanceOf(MetadataLimitError);
    expect(error.message).toMatch(/maxDocumentBytes/);
  });

  it("shared (not cyclic) sub-objects are fine", async () => {
    const part = { x: [1, 2] };
    const store = new Map<string, Uint8Array>();
    await createArray(store, { ...base, attributes: { a: part, b: part } });
    expect((await openArray(store)).attrs).toEqual({ a: part, b: part });
  });
});

describe("updateAttributes and group attributes", () => {
  it('array.updateAttributes("abc") is a typed error and writes nothing', async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, { ...base, attributes: { keep: 1 } });
    const before = new Map(store);
    for (const bad of ["abc", [1, 2], 5, null, new Date(0)]) {
      const error = await rejection(arr.updateAttributes(bad as never));
      expect(error.message).toMatch(/attributes must be a plain object/);
    }
    expect(store).toEqual(before);
    expect((await openArray(store)).attrs).toEqual({ keep: 1 });
  });

  it("array and group updateAttributes refuse cycles, functions and deep values", async () => {
    const store = new Map<string, Uint8Array>();
    const group = await createGroup(store, { path: "g", zarrFormat: 2 });
    const arr = await createArray(store, { ...base, path: "g/a", zarrFormat: 2 });
    const cyclic: Record<string, unknown> = {};
    cyclic.me = cyclic;
    for (const node of [group, arr]) {
      const before = new Map(store);
      expect((await rejection(node.updateAttributes(cyclic as never))).message).toContain(
        "attributes.me refers back to itself",
      );
      expect((await rejection(node.updateAttributes({ f: () => 0 } as never))).message).toMatch(
        /attributes\.f is a function/,
      );
      expect(
        await rejection(node.updateAttributes({ d: nested(100_000) } as never)),
      ).toBeInstanceOf(MetadataLimitError);
      expect(store).toEqual(before);
    }
  });

  it("createGroup and createHierarchy check group attributes before writing", async () => {
    const store = new Map<string, Uint8Array>();
    const error = await rejection(createGroup(store, { attributes: "abc" as never, path: "g" }));
    expect(error.message).toMatch(/\/g attributes must be a plain object/);
    await rejection(
      createHierarchy(store, {
        x: { kind: "group", attributes: { ok: 1 } },
        "x/y": { kind: "group", attributes: { bad: Symbol("no") } as never },
      }),
    );
    await rejection(createHierarchy(store, { z: 5 as never }));
    expect(store.size).toBe(0);
  });
});

describe("open options and selections", () => {
  it("open with an unknown kind, format or consolidated value", async () => {
    const store = new Map<string, Uint8Array>();
    await createArray(store, base);
    for (const options of [{ kind: "table" }, { zarrFormat: 5 }, { consolidated: "yes" }]) {
      const error = await rejection(open(store, options as never));
      expect(error.message).toContain(Object.values(options)[0] as string);
    }
  });

  it("a node path that is not a string", async () => {
    const store = new Map<string, Uint8Array>();
    const group = await createGroup(store);
    for (const attempt of [
      () => open(store, { path: 5n as never }),
      () => group.get(5n as never),
      () => createArray(store, { ...base, path: 7 as never }),
    ]) {
      expect((await rejection(attempt())).message).toMatch(
        /node path must be a string, not a (bigint|number)/,
      );
    }
  });

  it("arr.get([1n]) is a SelectionError naming 1n", async () => {
    const arr = await createArray(new Map(), { shape: [4], chunks: [2], dtype: "int32" });
    const error = await rejection(arr.get([1n as never]));
    expect(error).toBeInstanceOf(SelectionError);
    expect(error.message).toContain("1n");
  });
});
