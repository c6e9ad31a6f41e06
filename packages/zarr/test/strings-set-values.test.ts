import { createArray, isZarrError, slice, ValueTypeError } from "@z/zarr";
import { describe, expect, it } from "vitest";

/** Values that are not strings (or bytes), each a typed error for a variable-length type. */
const NOT_TEXT: [string, unknown][] = [
  ["a number", 5],
  ["NaN", Number.NaN],
  ["a bigint", 5n],
  ["a boolean", true],
  ["undefined", undefined],
  ["a symbol", Symbol("s")],
  ["a function", () => "x"],
  ["an object", { text: "x" }],
  ["a Date", new Date(0)],
];

async function stringArray(dtype: "string" | "bytes", serializer: string) {
  const store = new Map<string, Uint8Array>();
  const arr = await createArray(store, { shape: [6], chunks: [2], dtype, serializer });
  return { arr, store };
}

describe("set on variable-length string and bytes arrays", () => {
  for (const serializer of ["vlen-utf8", "z.vlen-offsets"]) {
    it(`strings only, null as "" (${serializer})`, async () => {
      const { arr, store } = await stringArray("string", serializer);
      await arr.set(null, ["a", "bb", "", "日本", "🚀", "z"]);
      const before = new Map(store);
      for (const [label, value] of NOT_TEXT) {
        const scalar = await arr.set([0], value as never).catch((e: unknown) => e);
        expect(scalar, label).toBeInstanceOf(ValueTypeError);
        expect(isZarrError(scalar)).toBe(true);
        expect((scalar as ValueTypeError).dataType).toBe("string");
        // The same value as the fifth element of a value spanning all three chunks.
        const many = await arr
          .set(null, ["q", "q", "q", "q", value, "q"] as never)
          .catch((e: unknown) => e);
        expect(many, label).toBeInstanceOf(ValueTypeError);
        expect((many as ValueTypeError).index).toEqual([4]);
        expect(String(many)).toContain("element [4] of the value");
        expect(store, label).toEqual(before);
      }
      // A TypedArray is not a container of strings: its numbers are checked like any others.
      const typed = await arr.set(null, new Float64Array(6)).catch((e: unknown) => e);
      expect(typed).toBeInstanceOf(ValueTypeError);
      expect(store).toEqual(before);
      await arr.set([slice(2, 4)], [null, "x"]);
      expect((await arr.get()).data).toEqual(["a", "bb", "", "x", "🚀", "z"]);
    });
  }

  it("bytes: byte views and ArrayBuffers, null as empty; strings and numbers are typed errors", async () => {
    const { arr, store } = await stringArray("bytes", "vlen-bytes");
    await arr.set([0], new Uint8Array([1, 2]));
    await arr.set([1], new Uint16Array([0x0102]).buffer as never);
    await arr.set([2], null);
    await arr.set([slice(4, 6)], [new Uint8Array([9]), new Uint8Array(0)]);
    const before = new Map(store);
    for (const [label, value] of [...NOT_TEXT, ["a string", "hi"] as [string, unknown]]) {
      const error = await arr.set([3], value as never).catch((e: unknown) => e);
      expect(error, label).toBeInstanceOf(ValueTypeError);
      expect(store, label).toEqual(before);
    }
    const got = (await arr.get()).data as Uint8Array[];
    expect(got.map((b) => Array.from(b))).toEqual([[1, 2], [2, 1], [], [], [9], []]);
  });
});
