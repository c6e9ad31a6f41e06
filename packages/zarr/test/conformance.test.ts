import {
  deferredReason,
  expectedArrays,
  expectedValues,
  haveFixtures,
  toFixtureEncoding,
} from "@z/test-utils";
import { FsStore, openArray } from "@z/zarr";
import { afterAll, describe, expect, it } from "vitest";

const suite = "fixture conformance (library)";

const entries = haveFixtures(suite) ? expectedArrays() : [];
const included = entries.filter((e) => deferredReason(e) === undefined);
const excluded = entries.filter((e) => deferredReason(e) !== undefined);

describe.skipIf(entries.length === 0)(suite, () => {
  let checked = 0;
  afterAll(() => {
    const reasons = new Map<string, number>();
    for (const e of excluded)
      reasons.set(deferredReason(e)!, (reasons.get(deferredReason(e)!) ?? 0) + 1);
    console.log(
      `[${suite}] checked ${checked} arrays against the values zarr-python read; excluded ${excluded.length}: ` +
        [...reasons].map(([reason, n]) => `${n} (${reason})`).join(", "),
    );
  });

  it.each(included.map((e) => [e.label, e] as const))("%s", async (_label, entry) => {
    const array = await openArray(new FsStore(entry.storeRoot, { readOnly: true }), {
      path: entry.path,
    });
    const result = await array.get();
    expect(result.shape).toEqual(entry.shape);
    const values = Array.from({ length: result.shape.reduce((a, b) => a * b, 1) }, (_, i) =>
      toFixtureEncoding(array.dataType.toJsonElement(array.dataType.getElement(result.data, i))),
    );
    expect(values).toEqual(expectedValues(entry));
    checked++;
  });
});
