import { expect } from "vitest";
import { isListable, isWritable, type Store } from "../store.js";
import { type ContractContext, lister, writer } from "./context.js";
import { collect, expectFailure } from "./helpers.js";
import { ESCAPE_TARGETS, HOSTILE_KEYS, HOSTILE_PREFIXES } from "./hostile-keys.js";
import { seedEntries } from "./seed.js";
import { expectContents } from "./state.js";

const INVALID_KEY = "InvalidKeyError";
const show = (key: string) => JSON.stringify(key);

/** Every refusal a store must make for a hostile key or prefix, as (label, call) pairs. */
function hostileCalls(store: Store, writes: boolean): [string, () => unknown][] {
  const calls: [string, () => unknown][] = [];
  const marker = Uint8Array.of(0xde, 0xad);
  for (const key of HOSTILE_KEYS) {
    calls.push([`get ${show(key)}`, () => store.get(key)]);
    calls.push([`ranged get ${show(key)}`, () => store.get(key, { range: { suffix: 1 } })]);
    if (store.has) calls.push([`has ${show(key)}`, () => store.has!(key)]);
    if (store.getRanges) calls.push([`getRanges ${show(key)}`, () => store.getRanges!(key, [])]);
    if (writes && isWritable(store)) {
      calls.push([`set ${show(key)}`, () => writer(store).set(key, marker)]);
      calls.push([`delete ${show(key)}`, () => writer(store).delete(key)]);
      const setIfNotExists = writer(store).setIfNotExists;
      if (setIfNotExists) {
        calls.push([`setIfNotExists ${show(key)}`, () => setIfNotExists.call(store, key, marker)]);
      }
    }
  }
  for (const prefix of HOSTILE_PREFIXES) {
    if (isListable(store)) {
      calls.push([`listPrefix ${show(prefix)}`, () => collect(lister(store).listPrefix(prefix))]);
      calls.push([`listDir ${show(prefix)}`, () => lister(store).listDir(prefix)]);
    }
    if (writes && isWritable(store)) {
      calls.push([`deletePrefix ${show(prefix)}`, () => writer(store).deletePrefix(prefix)]);
    }
  }
  return calls;
}

/** Tests of key validation: hostile keys are refused and nothing is written anywhere. */
export function keyTests(ctx: ContractContext): void {
  const writes = ctx.options.writable === true;

  ctx.test("hostile keys and prefixes are refused with InvalidKeyError", async () => {
    const store = await ctx.make(seedEntries());
    for (const [label, call] of hostileCalls(store, false)) {
      await expectFailure(call, INVALID_KEY, label);
    }
  });

  ctx.test(
    "hostile writes and deletes are refused and change nothing anywhere",
    async () => {
      const entries = seedEntries();
      // Values where a careless store would land an escaping write or delete: a write there
      // changes the value, a delete removes it (the others, "a" and "b", are directories).
      for (const key of ["x", "abs", "ab", "tmp/x"]) entries.set(key, Uint8Array.of(1, 2, 3));
      const store = await ctx.make(entries);
      for (const [label, call] of hostileCalls(store, true)) {
        await expectFailure(call, INVALID_KEY, label);
      }
      await expectContents(store, entries, ESCAPE_TARGETS, "after hostile writes");
    },
    writes,
  );

  ctx.test("invalid keys reject the promise rather than throw synchronously", async () => {
    const store = await ctx.make(seedEntries());
    const synchronous: string[] = [];
    for (const [label, call] of hostileCalls(store, writes)) {
      const outcome = await expectFailure(call, INVALID_KEY, label);
      if (outcome.synchronous) synchronous.push(label);
    }
    expect(synchronous, "calls that threw instead of returning a rejected promise").toEqual([]);
  });
}
