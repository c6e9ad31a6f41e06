import { arrowDataType } from "@z/dtypes-arrow";
import { runCli, scratchFolders } from "@z/test-utils";
import { createArray, FsStore, slice } from "@z/zarr";
import { describe, expect, it } from "vitest";
import { field } from "./cases.js";

const scratch = scratchFolders("z-cli-arrow-");
const run = runCli;

const RECORD = field("record", { name: "struct" }, true, [
  field("id", { name: "int", bitWidth: 64, isSigned: false }, false),
  field("tags", { name: "list" }, true, [field("item", { name: "utf8" }, false)]),
  field("score", { name: "floatingpoint", precision: "DOUBLE" }),
  field("price", { name: "decimal", precision: 9, scale: 2, bitWidth: 128 }),
  field("raw", { name: "binary" }),
  field("attrs", { name: "map", keysSorted: false }, true, [
    field("entries", { name: "struct" }, false, [
      field("key", { name: "utf8" }, false),
      field("value", { name: "int", bitWidth: 32, isSigned: true }),
    ]),
  ]),
]);

describe("zarr get --json prints Arrow elements, nested values as JSON", () => {
  it("structs as objects, lists as arrays, maps as pairs, bytes as base64, big integers as strings", async () => {
    const dir = scratch();
    const arr = await createArray(new FsStore(dir), {
      path: "records",
      shape: [2, 2],
      chunks: [1, 2],
      dtype: arrowDataType(RECORD),
      serializer: "z.arrow-ipc",
    });
    await arr.set([0, slice(null)], {
      data: [
        {
          id: 2n ** 64n - 1n,
          tags: ["a", "é"],
          score: Number.NaN,
          price: "-12.5",
          raw: new Uint8Array([104, 105]),
          attrs: [
            ["k", 1],
            ["m", null],
          ],
        },
        { id: 7n, tags: [], score: null, price: null, raw: null, attrs: null },
      ],
      shape: [2],
    });
    await arr.set([1, 1], {
      id: 9n,
      tags: null,
      score: Number.NEGATIVE_INFINITY,
      price: "0",
      raw: new Uint8Array(0),
      attrs: [],
    });
    const result = await run("get", dir, "--path", "records", "--json");
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      shape: [2, 2],
      dtype: arrowDataType(RECORD).toV3(),
      fill_value: null,
      values: [
        {
          id: "18446744073709551615",
          tags: ["a", "é"],
          score: "NaN",
          price: "-12.50",
          raw: { base64: "aGk=" },
          attrs: [
            ["k", 1],
            ["m", null],
          ],
        },
        { id: 7, tags: [], score: null, price: null, raw: null, attrs: null },
        null,
        { id: 9, tags: null, score: "-Infinity", price: "0.00", raw: { base64: "" }, attrs: [] },
      ],
    });
    const one = await run("get", dir, "--path", "records", "--select", "0,::-1", "--json");
    expect(JSON.parse(one.stdout).values.map((v: { id: unknown }) => v.id)).toEqual([
      7,
      "18446744073709551615",
    ]);
  });

  it("unions as {typeId, value}, dictionaries as their values, temporal types as integers", async () => {
    const dir = scratch();
    const store = new FsStore(dir);
    const union = field("u", { name: "union", mode: "DENSE", typeIds: [2, 4] }, true, [
      field("n", { name: "int", bitWidth: 8, isSigned: true }),
      field("t", { name: "timestamp", unit: "NANOSECOND", timezone: "UTC" }),
    ]);
    const u = await createArray(store, {
      path: "u",
      shape: [3],
      dtype: arrowDataType(union),
      serializer: "z.arrow-ipc",
    });
    await u.set(null, {
      data: [{ typeId: 2, value: -1 }, null, { typeId: 4, value: 1_700_000_000_000_000_000n }],
      shape: [3],
    });
    const cat = {
      ...field("c", { name: "utf8" }, false),
      dictionary: {
        id: 0,
        indexType: { name: "int" as const, bitWidth: 8 as const, isSigned: true },
        isOrdered: false,
      },
    };
    const c = await createArray(store, {
      path: "c",
      shape: [3],
      chunks: [2],
      dtype: arrowDataType(cat),
      serializer: "z.arrow-ipc",
      fillValue: "none",
    });
    await c.set([slice(0, 2)], { data: ["x", "y"], shape: [2] });
    const ur = await run("get", dir, "--path", "u", "--json");
    expect(ur.code, ur.stderr).toBe(0);
    expect(JSON.parse(ur.stdout).values).toEqual([
      { typeId: 2, value: -1 },
      null,
      { typeId: 4, value: "1700000000000000000" },
    ]);
    const cr = await run("get", dir, "--path", "c", "--json");
    expect(JSON.parse(cr.stdout)).toMatchObject({ fill_value: "none", values: ["x", "y", "none"] });
  });
});
