import { loadCodecs, resolveCodec } from "@z/codecs";
import { bytesDataType, ObjectDataType, stringDataType } from "@z/dtypes-vlen";
import type { DataType } from "@z/metadata";
import { isZarrError } from "@z/store-core";
import { describe, expect, it } from "vitest";

// The metadata parser gives integers beyond 2^53 as bigints: fill values and codec settings
// holding one must be refused with a typed error naming the value, not a TypeError from
// JSON.stringify (found by the fuzz suite).
const HUGE = 2n ** 64n;

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("nothing was thrown");
}

function expectTyped(error: Error) {
  expect(isZarrError(error), String(error)).toBe(true);
  expect(error.message).toContain("18446744073709551616");
}

describe("integers beyond 2^53 in string and bytes metadata", () => {
  it("as a string or bytes fill value", () => {
    expectTyped(thrown(() => stringDataType.parseFill(HUGE as never, 3)));
    expectTyped(thrown(() => bytesDataType.parseFill(HUGE as never, 3)));
  });

  const codec = (name: string, configuration: Record<string, unknown>, dataType: DataType) =>
    thrown(() =>
      resolveCodec(
        { name, configuration: configuration as never, mustUnderstand: true },
        { spec: { shape: [2], dataType, fillValue: dataType.defaultFill }, zarrFormat: 2 },
      ),
    );

  it("in json2 and z.vlen-offsets settings", async () => {
    await loadCodecs(["numcodecs.json2", "z.vlen-offsets"]);
    expectTyped(codec("numcodecs.json2", { sort_keys: HUGE }, new ObjectDataType()));
    expectTyped(codec("numcodecs.json2", { encoding: HUGE }, new ObjectDataType()));
    expectTyped(codec("z.vlen-offsets", { offsets: HUGE }, stringDataType));
  });
});
