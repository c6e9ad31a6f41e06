import { type ContractContext, writer } from "./context.js";
import { abortedSignal, expectFailure } from "./helpers.js";
import { seedEntries } from "./seed.js";
import { expectContents } from "./state.js";

const ABORT = "AbortError";

/** Tests that every operation taking a signal refuses to start when it is already aborted. */
export function signalTests(ctx: ContractContext): void {
  const writable = ctx.options.writable === true;

  ctx.test("an aborted signal rejects get with AbortError", async () => {
    const store = await ctx.make(seedEntries());
    for (const key of ["zarr.json", "missing"]) {
      await expectFailure(() => store.get(key, { signal: abortedSignal() }), ABORT, key);
      const range = { offset: 1, length: 2 };
      await expectFailure(() => store.get(key, { range, signal: abortedSignal() }), ABORT, key);
    }
  });

  ctx.test("an aborted signal rejects getRanges with AbortError", async (context) => {
    const store = await ctx.make(seedEntries());
    context.skip(!store.getRanges, "the store has no getRanges");
    const call = () => store.getRanges!("zarr.json", [{ suffix: 2 }], { signal: abortedSignal() });
    await expectFailure(call, ABORT, "getRanges");
  });

  ctx.test("an aborted signal rejects has with AbortError", async (context) => {
    const store = await ctx.make(seedEntries());
    context.skip(!store.has, "the store has no has()");
    await expectFailure(() => store.has!("zarr.json", { signal: abortedSignal() }), ABORT, "has");
  });

  ctx.test(
    "an aborted signal rejects set with AbortError and writes nothing",
    async () => {
      const entries = seedEntries();
      const store = writer(await ctx.make(entries));
      const value = Uint8Array.of(9, 9, 9);
      for (const key of ["zarr.json", "new/key"]) {
        await expectFailure(() => store.set(key, value, { signal: abortedSignal() }), ABORT, key);
      }
      await expectContents(store, entries, ["new/key"]);
    },
    writable,
  );

  ctx.test(
    "an aborted signal rejects setIfNotExists with AbortError and writes nothing",
    async (context) => {
      const entries = seedEntries();
      const store = writer(await ctx.make(entries));
      context.skip(!store.setIfNotExists, "the store has no setIfNotExists");
      const call = () =>
        store.setIfNotExists!("new", Uint8Array.of(1), { signal: abortedSignal() });
      await expectFailure(call, ABORT, "setIfNotExists");
      await expectContents(store, entries, ["new"]);
    },
    writable,
  );

  ctx.test(
    "an aborted signal rejects delete and deletePrefix with AbortError and deletes nothing",
    async () => {
      const entries = seedEntries();
      const store = writer(await ctx.make(entries));
      const signal = abortedSignal();
      await expectFailure(() => store.delete("zarr.json", { signal }), ABORT, "delete");
      await expectFailure(() => store.deletePrefix("a/", { signal }), ABORT, "deletePrefix");
      await expectFailure(() => store.deletePrefix("", { signal }), ABORT, "deletePrefix root");
      await expectContents(store, entries);
    },
    writable,
  );
}
