// `zarr get --json` keeps the sign of zero: -0.0 in float data (and in a fill value) prints as
// `-0.0`, which JSON readers in JavaScript and Python both read back as negative zero.

import { scratchFolders } from "@z/test-utils";
import { createArray, slice } from "@z/zarr";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonText } from "../src/json-values.js";
import { runMain } from "./support/run-main.js";

const folder = scratchFolders("z-cli-negative-zero-");

describe("negative zero in zarr get --json", () => {
  it("prints -0.0 for negative zero, in values and the fill value", async () => {
    const dir = folder();
    const array = await createArray(dir, {
      shape: [4],
      chunks: [2],
      dtype: "float64",
      fillValue: -0,
    });
    await array.set([slice(0, 2)], { data: Float64Array.of(-0, 1.5), shape: [2] });
    const { code, stdout } = await runMain("get", dir, "--json");
    expect(code).toBe(0);
    expect(stdout).toBe(
      '{"shape":[4],"dtype":"float64","fill_value":-0.0,"values":[-0.0,1.5,-0.0,-0.0]}\n',
    );
    const parsed = JSON.parse(stdout);
    expect(Object.is(parsed.fill_value, -0)).toBe(true);
    expect(parsed.values.map((v: number) => Object.is(v, -0))).toEqual([true, false, true, true]);
  });

  it("jsonText reads back as what it wrote, -0 included", () => {
    const withZeros = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constant(-0),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(withZeros, (value) => {
        expect(JSON.parse(jsonText(value))).toEqual(value);
      }),
    );
  });
});
