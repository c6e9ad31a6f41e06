import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseIcechunkLocation } from "../../zarr/src/icechunk-location.js";
import { UsageError } from "../src/errors.js";
import { withRef } from "../src/icechunk-ref.js";

/** Locations of repositories: paths and URLs without `#`, any characters otherwise. */
const inner = fc.oneof(
  fc.string({ minLength: 1 }).map((s) => `/data/${s}`.replaceAll("#", "_")),
  fc.webUrl({ withQueryParameters: true }).map((u) => u.split("#")[0]),
);

describe("--ref on an icechunk+ location (property)", () => {
  it("the library reads back the ref --ref wrote, any text, and keeps the location and asOf", () => {
    fc.assert(
      fc.property(inner, fc.string(), fc.string(), fc.boolean(), (where, old, ref, withAsOf) => {
        const asOf = "2024-05-01T12:00:00.000Z";
        const base = `icechunk+${where}`;
        const given = withAsOf ? `${base}#ref=${encodeURIComponent(old)}&asOf=${asOf}` : base;
        const parsed = parseIcechunkLocation(withRef(given, ref, "get"));
        expect(parsed.inner).toBe(where);
        expect(parsed.ref).toBe(ref);
        expect(parsed.asOf?.toISOString()).toBe(withAsOf ? asOf : undefined);
      }),
    );
  });

  it("refuses --ref on any other location, and leaves locations alone without it", () => {
    fc.assert(
      fc.property(inner, fc.string(), (where, ref) => {
        expect(() => withRef(where, ref, "get")).toThrow(UsageError);
        expect(withRef(where, undefined, "get")).toBe(where);
      }),
    );
  });
});
