import fc from "fast-check";
import { expect } from "vitest";
import { getSizeOf } from "../get-size.js";
import { MapStore } from "../map-store.js";
import type { ByteRange } from "../range.js";
import type { Store } from "../store.js";
import { type ContractContext, lister, writer } from "./context.js";
import { collect } from "./helpers.js";

/**
 * Directory names and value names are disjoint, so no generated key is ever the "directory" of
 * another (a filesystem cannot hold both `a` and `a/x`). `c-`, `c.d` and `c` sort as
 * `c-` < `c.d/` < `c/`, which a walk sorting directory names alone gets wrong.
 */
const DIRS = ["a", "c", "c.d"];
const NAMES = ["x", "0.0", "zarr.json", ".zattrs", "c-"];

const keyArb = fc
  .tuple(fc.array(fc.constantFrom(...DIRS), { maxLength: 2 }), fc.constantFrom(...NAMES))
  .map(([dirs, name]) => [...dirs, name].join("/"));
const prefixArb = fc
  .array(fc.constantFrom(...DIRS), { maxLength: 2 })
  .map((dirs) => (dirs.length === 0 ? "" : `${dirs.join("/")}/`));
const valueArb = fc.uint8Array({ maxLength: 48 });
const rangeArb: fc.Arbitrary<ByteRange | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({ offset: fc.nat(60), length: fc.nat(60) }),
  fc.record({ offset: fc.nat(60) }),
  fc.record({ suffix: fc.nat(60) }),
);

/** One step of a random session against a store. */
type Op =
  | { op: "set"; key: string; value: Uint8Array }
  | { op: "setIfNotExists"; key: string; value: Uint8Array }
  | { op: "delete"; key: string }
  | { op: "deletePrefix"; prefix: string }
  | { op: "get"; key: string; range: ByteRange | undefined }
  | { op: "getRanges"; key: string; ranges: (ByteRange | undefined)[] }
  | { op: "has"; key: string }
  | { op: "getSize"; key: string }
  | { op: "list" }
  | { op: "listPrefix"; prefix: string }
  | { op: "listDir"; prefix: string };

/** Read operations on keys drawn from `keys`. */
function readOps(keys: fc.Arbitrary<string>): fc.Arbitrary<Op>[] {
  return [
    fc.record({ op: fc.constant("get" as const), key: keys, range: rangeArb }),
    fc.record({ op: fc.constant("get" as const), key: keys, range: rangeArb }),
    fc.record({
      op: fc.constant("getRanges" as const),
      key: keys,
      ranges: fc.array(rangeArb, { maxLength: 3 }),
    }),
    fc.record({ op: fc.constant("has" as const), key: keys }),
    fc.record({ op: fc.constant("getSize" as const), key: keys }),
  ];
}

/** Listing operations on prefixes drawn from `prefixes`. */
function listOps(prefixes: fc.Arbitrary<string>): fc.Arbitrary<Op>[] {
  return [
    fc.constant({ op: "list" as const }),
    fc.record({ op: fc.constant("listPrefix" as const), prefix: prefixes }),
    fc.record({ op: fc.constant("listDir" as const), prefix: prefixes }),
  ];
}

/** Write operations on keys drawn from `keys`, prefixes from `prefixes`. */
function writeOps(keys: fc.Arbitrary<string>, prefixes: fc.Arbitrary<string>): fc.Arbitrary<Op>[] {
  return [
    fc.record({ op: fc.constant("set" as const), key: keys, value: valueArb }),
    fc.record({ op: fc.constant("set" as const), key: keys, value: valueArb }),
    fc.record({ op: fc.constant("setIfNotExists" as const), key: keys, value: valueArb }),
    fc.record({ op: fc.constant("delete" as const), key: keys }),
    fc.record({ op: fc.constant("deletePrefix" as const), prefix: prefixes }),
  ];
}

/** The directory prefixes of a key, from the root down (`"a/b/x"` gives `"", "a/", "a/b/"`). */
function prefixesOf(key: string): string[] {
  const parts = key.split("/");
  return parts.map((_, i) => (i === 0 ? "" : `${parts.slice(0, i).join("/")}/`));
}

/**
 * Sessions draw keys from a small pool chosen per session, so the same keys are written, read
 * and deleted again (keys drawn from the whole space would rarely meet).
 */
function sessionArb(kinds: { writes: boolean; lists: boolean }, maxLength: number) {
  return fc.uniqueArray(keyArb, { minLength: 1, maxLength: 6 }).chain((pool) => {
    const keys = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...pool) },
      { weight: 1, arbitrary: keyArb },
    );
    const prefixes = fc.oneof(fc.constantFrom(...new Set(pool.flatMap(prefixesOf))), prefixArb);
    const ops = [
      ...readOps(keys),
      ...(kinds.writes ? writeOps(keys, prefixes) : []),
      ...(kinds.lists ? listOps(prefixes) : []),
    ];
    return fc.tuple(fc.constant(pool), fc.array(fc.oneof(...ops), { minLength: 1, maxLength }));
  });
}

/** Whether a store can run an operation (optional methods may be missing). */
function supports(store: Store, op: Op): boolean {
  if (op.op === "getRanges") return typeof store.getRanges === "function";
  if (op.op === "has") return typeof store.has === "function";
  if (op.op === "setIfNotExists") return typeof writer(store).setIfNotExists === "function";
  return true;
}

/** Runs one operation and returns its outcome as plain data, for deep comparison. */
async function apply(store: Store, op: Op): Promise<unknown> {
  const bytes = (value: Uint8Array | undefined) => (value === undefined ? "missing" : [...value]);
  switch (op.op) {
    case "set":
      return writer(store).set(op.key, op.value);
    case "setIfNotExists":
      return writer(store).setIfNotExists!(op.key, op.value);
    case "delete":
      return writer(store).delete(op.key);
    case "deletePrefix":
      return writer(store).deletePrefix(op.prefix);
    case "get":
      return bytes(await store.get(op.key, op.range === undefined ? {} : { range: op.range }));
    case "getRanges": {
      const ranges = op.ranges.map((range) => range ?? { offset: 0 });
      const parts = await store.getRanges!(op.key, ranges);
      return parts === undefined ? "missing" : parts.map(bytes);
    }
    case "has":
      return store.has!(op.key);
    case "getSize":
      return getSizeOf(store, op.key);
    case "list":
      return collect(lister(store).list());
    case "listPrefix":
      return collect(lister(store).listPrefix(op.prefix));
    case "listDir":
      return lister(store).listDir(op.prefix);
  }
}

/** Compares every key of the pool and of the reference, and the full listing. */
async function expectSameState(
  store: Store,
  reference: MapStore,
  pool: readonly string[],
  listable: boolean,
): Promise<void> {
  const keys = new Set([...pool, ...(await collect(reference.list()))]);
  for (const key of keys) {
    const read: Op = { op: "get", key, range: undefined };
    expect(await apply(store, read), `final ${key}`).toEqual(await apply(reference, read));
  }
  if (listable) {
    const list: Op = { op: "list" };
    expect(await apply(store, list), "final listing").toEqual(await apply(reference, list));
  }
}

/** Property tests: random sessions give the same answers as the reference `MapStore`. */
export function modelTests(ctx: ContractContext): void {
  const { options } = ctx;
  const listable = options.listable;

  ctx.test(
    "random sessions of writes, deletes, reads and listings match MapStore",
    async () => {
      const sessions = sessionArb({ writes: true, lists: listable }, 40);
      await fc.assert(
        fc.asyncProperty(sessions, async ([pool, session]) => {
          const store = await ctx.make();
          const reference = new MapStore();
          try {
            for (const [step, op] of session.entries()) {
              if (!supports(store, op)) continue;
              const expected = await apply(reference, op);
              const actual = await apply(store, op);
              expect(actual, `step ${step}: ${JSON.stringify(op)}`).toEqual(expected);
            }
            await expectSameState(store, reference, pool, listable);
          } finally {
            await ctx.dispose(store);
          }
        }),
        { numRuns: options.propertyRuns },
      );
    },
    options.writable === true,
  );

  ctx.test("random reads and listings of random contents match MapStore", async () => {
    const sessions = sessionArb({ writes: false, lists: listable }, 30).chain(([pool, session]) =>
      fc.tuple(fc.array(fc.tuple(fc.constantFrom(...pool), valueArb)), fc.constant(session)),
    );
    await fc.assert(
      fc.asyncProperty(sessions, async ([contents, session]) => {
        const entries = new Map(contents);
        const store = await ctx.make(entries);
        const reference = new MapStore(new Map(entries));
        try {
          for (const [step, op] of session.entries()) {
            if (!supports(store, op)) continue;
            const expected = await apply(reference, op);
            expect(await apply(store, op), `step ${step}: ${JSON.stringify(op)}`).toEqual(expected);
          }
        } finally {
          await ctx.dispose(store);
        }
      }),
      { numRuns: options.propertyRuns },
    );
  });
}
