import { describe, expect, test } from "vitest";
import { isListable, isWritable, type Readable } from "../store.js";
import { conditionalTests } from "./conditional.js";
import { createContext } from "./context.js";
import { keyTests } from "./keys.js";
import { listingTests } from "./listing.js";
import { modelTests } from "./model.js";
import { type MakeStore, resolveContractOptions, type StoreContractOptions } from "./options.js";
import { readTests } from "./reads.js";
import { seedEntries } from "./seed.js";
import { signalTests } from "./signals.js";
import { storeApiTests } from "./store-api.js";
import { writeTests } from "./writes.js";

/**
 * Registers the vitest tests every store must pass, in a `describe` block named after the
 * store. Results are compared with the reference `MapStore`; `options` declare what the store
 * lacks (writes, listing) and which tests are known to fail for it; a test checks that every
 * name in `skip` and `expectedFailures` exists, so a typo cannot silently hide a failure.
 *
 * @example
 * ```ts
 * import { describeStoreContract, fillStore } from "@z/store-core/testing";
 * describeStoreContract("MyStore", (entries) => fillStore(new MyStore(), entries));
 * ```
 */
export function describeStoreContract<S extends Readable>(
  name: string,
  makeStore: MakeStore<S>,
  options: StoreContractOptions<S> = {},
): void {
  const resolved = resolveContractOptions(options);
  describe(`store contract: ${name}`, () => {
    const ctx = createContext(makeStore, resolved as never);

    ctx.test("has the capabilities it declares", async () => {
      const store = await ctx.make(seedEntries());
      expect(typeof store.get).toBe("function");
      if (resolved.writable !== false) expect(isWritable(store), "writable").toBe(true);
      if (resolved.listable) expect(isListable(store), "listable").toBe(true);
    });

    describe("reads", () => readTests(ctx));
    describe("writes", () => writeTests(ctx));
    describe("conditional writes", () => conditionalTests(ctx));
    describe("listing", () => listingTests(ctx));
    describe("keys", () => keyTests(ctx));
    describe("signals", () => signalTests(ctx));
    describe("model", () => modelTests(ctx));
    describe("store API", () => storeApiTests(ctx));

    // A test rather than a check here: nested describe blocks are collected after this callback.
    describe("options", () => {
      test("skip and expectedFailures name existing tests", () => {
        const listed = [...resolved.skip, ...resolved.expectedFailures];
        expect(
          listed.filter((n) => !ctx.names.has(n)),
          "unknown test names",
        ).toEqual([]);
      });
    });
  });
}
