import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MapStore, registerStore, resolveStore, StoreError } from "../src/index.js";

/*
 * Schemes registered with a trailing "+" take every location that starts with them, whatever
 * follows (a URL, a path, nothing that looks like a scheme); other locations resolve as before.
 */
describe("registerStore with a prefix scheme", () => {
  const seen: string[] = [];
  const wrapped = new MapStore();
  const plain = new MapStore();
  registerStore("wrap+", (location) => {
    seen.push(location);
    return wrapped;
  });
  registerStore("wrap+exact", () => plain);

  it("hands the whole location to the prefix's factory, whatever follows the prefix", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("wrap+", "WRAP+", "Wrap+"),
        fc.oneof(
          fc.webUrl(),
          fc.string().map((s) => `/data/${s}`),
          fc.string(),
        ),
        async (prefix, rest) => {
          seen.length = 0;
          expect(await resolveStore(`${prefix}${rest}`)).toBe(wrapped);
          expect(seen).toEqual([`${prefix}${rest}`]);
        },
      ),
    );
  });

  it("takes the prefix before an exact scheme, and leaves other locations alone", async () => {
    expect(await resolveStore("wrap+exact://x")).toBe(wrapped);
    await expect(resolveStore("nowrap+file:///x")).rejects.toThrow(StoreError);
    await expect(resolveStore("nowrap+file:///x")).rejects.toThrow(/"nowrap\+file:" locations/);
  });
});
