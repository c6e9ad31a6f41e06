import type { BoolArray, Container } from "@z/ndarray";
import { isZarrError, ReadOnlyError } from "@z/store-core";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  createArray,
  createGroup,
  DataTypeMismatchError,
  openArray,
  openGroup,
  type ZarrArray,
} from "../src/index.js";

// The expectTypeOf lines are checked by `tsc -p tsconfig.json` at the root (part of pnpm lint):
// a wrong type there fails the type check, not only the run.

describe("data types narrow the element container", () => {
  it("ZarrGroup.createArray returns the container of its dtype, like createArray", async () => {
    const root = await createGroup(new Map());
    const temperature = await root.createArray("temperature", { shape: [4], dtype: "float32" });
    expectTypeOf(temperature).toEqualTypeOf<ZarrArray<Float32Array>>();
    const { data } = await temperature.get();
    expectTypeOf(data).toEqualTypeOf<Float32Array>();
    expect(data).toBeInstanceOf(Float32Array);

    const counts = await createArray(new Map(), { shape: [2], dtype: "uint64" });
    expectTypeOf((await counts.get()).data).toEqualTypeOf<BigUint64Array>();
    const flags = await root.createArray("flags", { shape: [2], dtype: "bool" });
    expectTypeOf((await flags.get()).data).toEqualTypeOf<BoolArray>();
  });

  it("a v2 typestr keeps the general container (its name says nothing to the type system)", async () => {
    const arr = await createArray(new Map(), { zarrFormat: 2, shape: [2], dtype: ">i4" });
    expectTypeOf((await arr.get()).data).toEqualTypeOf<Container>();
    expect((await arr.get()).data).toBeInstanceOf(Int32Array);
  });

  it("openArray with dtype checks the data type and narrows", async () => {
    const store = new Map<string, Uint8Array>();
    await createArray(store, { path: "t", shape: [3], dtype: "float64" });
    const untyped = await openArray(store, { path: "t" });
    expectTypeOf(untyped).toEqualTypeOf<ZarrArray>();
    const typed = await openArray(store, { path: "t", dtype: "float64" });
    expectTypeOf(typed).toEqualTypeOf<ZarrArray<Float64Array>>();
    expect((await typed.get()).data).toBeInstanceOf(Float64Array);
    // A v2 typestr of the same type in either byte order matches too.
    expect((await openArray(store, { path: "t", dtype: ">f8" })).dtype).toBe("float64");

    const error = await openArray(store, { path: "t", dtype: "int16" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataTypeMismatchError);
    expect(isZarrError(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain("/t");
    expect(message).toContain("float64");
    expect(message).toContain("int16");
    await expect(openArray(store, { path: "t", dtype: "no-such-type" })).rejects.toThrow(
      /float64.*no-such-type/,
    );
  });

  it("arr.is(dtype) is a type guard that matches exactly the array's own data type", async () => {
    const store = new Map<string, Uint8Array>();
    const names = ["int8", "uint16", "float32", "int64", "bool"] as const;
    for (const dtype of names) await createArray(store, { path: dtype, shape: [1], dtype });
    for (const dtype of names) {
      const arr = await openArray(store, { path: dtype });
      for (const other of names) expect(arr.is(other)).toBe(other === dtype);
    }
    const arr: ZarrArray = await openArray(store, { path: "float32" });
    if (arr.is("float32")) {
      expectTypeOf((await arr.get()).data).toEqualTypeOf<Float32Array>();
    } else {
      expect.unreachable("float32 array not recognised");
    }
  });
});

describe("stores that cannot be written say why", () => {
  const readOnly = (store: Map<string, Uint8Array>) => ({
    get: async (key: string) => store.get(key),
  });

  it("a store with get and set but no delete names the missing method", async () => {
    const backing = new Map<string, Uint8Array>();
    const store = {
      ...readOnly(backing),
      set: async (key: string, value: Uint8Array) => void backing.set(key, value),
    };
    const error = await createGroup(store).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReadOnlyError);
    expect((error as Error).message).toMatch(/no delete\(\) method/);
    expect(backing.size).toBe(0);
  });

  it("updating a group's attributes through such a store names the missing method too", async () => {
    const backing = new Map<string, Uint8Array>();
    await createGroup(backing, { attributes: { a: 1 } });
    const store = {
      ...readOnly(backing),
      set: async (key: string, value: Uint8Array) => void backing.set(key, value),
    };
    const group = await openGroup(store);
    const error = await group.updateAttributes({ b: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReadOnlyError);
    expect((error as Error).message).toMatch(/update attributes of.*no delete\(\) method/);
  });

  it("a store with only get is read-only, and writes to its arrays say which array", async () => {
    const backing = new Map<string, Uint8Array>();
    await createArray(backing, { path: "a/b", shape: [2], dtype: "uint8" });
    const arr = await openArray(readOnly(backing), { path: "a/b" });
    await expect(arr.set(null, 1)).rejects.toThrow(/a\/b.*read-only/);
    await expect(createGroup(readOnly(backing), { path: "x" })).rejects.toThrow(
      /"\/x": the store is read-only/,
    );
  });
});

describe("registered small types narrow too", () => {
  it("bfloat16 and float8 read into Float32Array, int4 into Int8Array", async () => {
    const store = new Map<string, Uint8Array>();
    const bf = await createArray(store, { path: "bf", shape: [2], chunks: [2], dtype: "bfloat16" });
    const i4 = await createArray(store, { path: "i4", shape: [2], chunks: [2], dtype: "int4" });
    expectTypeOf((await bf.get()).data).toEqualTypeOf<Float32Array>();
    expectTypeOf((await i4.get()).data).toEqualTypeOf<Int8Array>();
    expect((await bf.get()).data).toBeInstanceOf(Float32Array);
    expect((await i4.get()).data).toBeInstanceOf(Int8Array);
  });
});
