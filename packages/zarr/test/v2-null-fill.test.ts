import { createArray, openArray } from "@z/zarr";
import { describe, expect, it } from "vitest";

describe("a v2 array created with fillValue null", () => {
  it("has the fill value a reader parses, so what is written reads back from a reopened array", async () => {
    const store = new Map<string, Uint8Array>();
    const created = await createArray(store, {
      zarrFormat: 2,
      shape: [2],
      chunks: [2],
      dtype: "bytes",
      fillValue: null,
    });
    const reopened = await openArray(store);
    expect(created.fillValue).toEqual(reopened.fillValue);
    // Empty bytes differ from the null fill value: the chunk must be stored.
    await created.set(null, [new Uint8Array(0), new Uint8Array([1])]);
    const values = (await openArray(store)).get();
    expect((await values).data).toEqual([new Uint8Array(0), new Uint8Array([1])]);
  });

  it("keeps numeric v2 arrays as they were", async () => {
    const store = new Map<string, Uint8Array>();
    const created = await createArray(store, {
      zarrFormat: 2,
      shape: [2],
      chunks: [2],
      dtype: "<i4",
      fillValue: null,
    });
    expect(created.fillValue).toEqual((await openArray(store)).fillValue);
  });
});
