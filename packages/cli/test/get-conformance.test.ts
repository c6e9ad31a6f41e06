import {
  deferredReason,
  expectedArrays,
  expectedValues,
  haveFixtures,
  toFixtureEncoding,
} from "@z/test-utils";
import { halfToNumber, numberToHalf, openArray } from "@z/zarr";
import { afterAll, describe, expect, it } from "vitest";
import { type FloatBits, floatBitsOf } from "../src/float-digits.js";
import { runMain } from "./support/run-main.js";

const suite = "fixture conformance (zarr get --json)";
const entries = haveFixtures(suite)
  ? expectedArrays().filter((e) => deferredReason(e) === undefined)
  : [];

/**
 * A value rounded to the float width of its data type: `zarr get --json` prints float32 and
 * float16 values with their shortest digits, the fixtures with the digits of the double they
 * widen to; both must denote the same stored float.
 */
function asStored(value: unknown, bits: FloatBits): unknown {
  if (typeof value === "number")
    return bits === 32
      ? Math.fround(value)
      : bits === 16
        ? halfToNumber(numberToHalf(value))
        : value;
  if (Array.isArray(value)) return value.map((part) => asStored(part, bits));
  return value;
}

describe.skipIf(entries.length === 0)(suite, () => {
  let checked = 0;
  afterAll(() => console.log(`[${suite}] checked ${checked} arrays through the CLI`));

  it.each(entries.map((e) => [e.label, e] as const))("%s", async (_label, entry) => {
    const { code, ...output } = await runMain(
      "get",
      entry.storeRoot,
      "--path",
      entry.path,
      "--json",
    );
    expect(output.stderr).toBe("");
    expect(code).toBe(0);
    // Exactly one JSON object on standard output.
    const lines = output.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0]);
    expect(Object.keys(result)).toEqual(["shape", "dtype", "fill_value", "values"]);
    expect(result.shape).toEqual(entry.shape);
    const array = await openArray(entry.storeRoot, { path: entry.path });
    const bits = floatBitsOf(array.metadata.dataType);
    expect(result.values.map(toFixtureEncoding).map((v: unknown) => asStored(v, bits))).toEqual(
      expectedValues(entry).map((v) => asStored(v, bits)),
    );
    // v2 arrays report the type string as their metadata writes it, which is what NumPy prints.
    if (entry.label.startsWith("zarrita/v2") || entry.label.startsWith("zarr-python-v2")) {
      expect(result.dtype).toBe(entry.dtype);
    }
    checked++;
  });

  it.each(entries.map((e) => [e.label, e] as const))(
    "%s prints without --json",
    async (_label, entry) => {
      const { code, ...output } = await runMain("get", entry.storeRoot, "--path", entry.path);
      expect(output.stderr).toBe("");
      expect(code).toBe(0);
      const text = output.stdout.trimEnd();
      // A NumPy print: brackets as deep as the array (a 0-d array prints its one value).
      if (entry.shape.length > 0) {
        expect(text.startsWith("[".repeat(entry.shape.length))).toBe(true);
        expect(text.endsWith("]".repeat(entry.shape.length))).toBe(true);
      }
      if (entry.shape.reduce((a, b) => a * b, 1) > 1000) expect(text).toContain("...");
    },
  );
});
