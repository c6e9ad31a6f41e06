import { createArray, ValueShapeError } from "@z/array";
import { ValueTypeError } from "@z/metadata";
import { isZarrError } from "@z/store-core";
import { describe, expect, it } from "vitest";

/** A 2x3 int32 array holding 0..5 in a Map store, and the store's keys before any append. */
async function twoRows() {
  const store = new Map<string, Uint8Array>();
  const arr = await createArray(store, { shape: [2, 3], chunks: [2, 3], dtype: "int32" });
  await arr.set(null, { data: Int32Array.of(0, 1, 2, 3, 4, 5), shape: [2, 3] });
  const before = new Map([...store].map(([k, v]) => [k, v.slice()]));
  return { store, arr, before };
}

describe("append checks its value before it resizes", () => {
  it("a value that does not fit the data type leaves shape and chunks as they were", async () => {
    const { store, arr, before } = await twoRows();
    const error = await arr
      .append({ data: [6, 7, Number.NaN], shape: [1, 3] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValueTypeError);
    expect(isZarrError(error)).toBe(true);
    expect(store).toEqual(before);
    expect(arr.shape).toEqual([2, 3]);
  });

  it("a value that is not an n-d value is a ValueShapeError naming it, not a TypeError", async () => {
    const { store, arr, before } = await twoRows();
    const error = await arr.append([1n, 2n] as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValueShapeError);
    expect(String(error)).toMatch(/append takes an n-d value .*got \[1,2\]/);
    expect(store).toEqual(before);
  });

  it("a good value still appends", async () => {
    const { arr } = await twoRows();
    expect(await arr.append({ data: [6, 7, 8], shape: [1, 3] })).toEqual([3, 3]);
    expect(Array.from((await arr.get(null)).data as Int32Array)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8,
    ]);
  });
});
