import { loadCodecs, resolveCodec } from "@z/codecs";
import { ArrowDataType, arrowDataType } from "@z/dtypes-arrow";
import { isZarrError } from "@z/store-core";
import { describe, expect, it } from "vitest";

// The metadata parser gives integers beyond 2^53 as bigints: an Arrow data type or codec
// configuration holding one is refused with a typed error naming it, not a TypeError from
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

describe("integers beyond 2^53 in Arrow metadata", () => {
  it("as the data type, or its version", () => {
    for (const json of [HUGE, { name: "arrow", configuration: { version: HUGE } }]) {
      const error = thrown(() => ArrowDataType.fromV3(json as never));
      expect(isZarrError(error), String(error)).toBe(true);
      expect(error.message).toContain("18446744073709551616");
    }
  });

  it("as the codec's column name", async () => {
    await loadCodecs(["arrow-ipc"]);
    const dataType = arrowDataType({
      name: "v",
      nullable: true,
      type: { name: "int", bitWidth: 32, isSigned: true },
      children: [],
    } as never);
    const error = thrown(() =>
      resolveCodec(
        {
          name: "arrow-ipc",
          configuration: { column_name: HUGE } as never,
          mustUnderstand: true,
        },
        { spec: { shape: [2], dataType, fillValue: null }, zarrFormat: 3 },
      ),
    );
    expect(isZarrError(error), String(error)).toBe(true);
    expect(error.message).toContain("18446744073709551616");
  });
});
