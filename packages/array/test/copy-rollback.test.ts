import {
  type ArrayOptions,
  ContainsGroupError,
  consolidateMetadata,
  copyNode,
  createArray,
  createGroup,
  createHierarchy,
  fromArray,
  type IncompleteRollbackError,
  openArray,
  openGroup,
  type ZarrArray,
  type ZarrGroup,
} from "@z/array";
import { isZarrError, type Readable, type Writable } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { MemoryStore } from "@z/store-memory";
import { tempDir } from "@z/test-utils";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

/**
 * A copy is all or nothing: whatever fails once it has begun writing (a corrupt source chunk,
 * the destination failing at any write, an abort), the destination holds exactly the keys and
 * bytes it held before, and a rerun once the cause is gone succeeds.
 */

const { dir: scratchRoot, remove } = tempDir("z-copy-rollback-");
afterAll(remove);
let folders = 0;
const newFolder = () => `${scratchRoot}/d${folders++}`;

/** The error a promise rejects with (a test failure if it resolves). */
async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(outcome instanceof Error)) throw new Error(`expected a failure, got ${String(outcome)}`);
  return outcome;
}

/** Every key of a store with its bytes (hex), the reference a failed copy must leave. */
async function contents(store: Readable): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const listable = store as Readable & { list(): AsyncIterable<string> };
  for await (const key of listable.list())
    out.set(key, Buffer.from((await store.get(key)) as Uint8Array).toString("hex"));
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

const SOURCE_ARRAYS: Record<string, ArrayOptions> = {
  a_ok: { shape: [6, 4], chunks: [2, 4], dtype: "int16" },
  b_bad: { shape: [5], chunks: [2], dtype: "int32" },
  "sub/c_ok": { shape: [3], chunks: [2], dtype: "float64" },
};

/** A v2 hierarchy of three zlib-compressed arrays; `b_bad`'s second chunk is garbage when `corrupt`. */
async function source(store: MemoryStore | FsStore, corrupt: boolean): Promise<ZarrGroup> {
  const specs = Object.fromEntries(
    Object.entries(SOURCE_ARRAYS).map(([path, options]) => [
      path,
      {
        kind: "array" as const,
        ...options,
        compressor: { id: "zlib", level: 1 },
        attributes: { name: path },
      },
    ]),
  );
  const created = await createHierarchy(
    store,
    { "": { kind: "group", attributes: { title: "survey" } }, ...specs },
    { zarrFormat: 2, overwrite: true },
  );
  for (const path of Object.keys(SOURCE_ARRAYS)) {
    const array = created.get(path) as ZarrArray;
    const n = array.shape.reduce((a, b) => a * b, 1);
    await array.set(null, {
      data: Array.from({ length: n }, (_, i) => i * 3 - 7),
      shape: array.shape,
    });
  }
  if (corrupt) await store.set("b_bad/1", new TextEncoder().encode("not zlib at all"));
  return openGroup(store);
}

/**
 * A destination that already holds things a copy must leave alone: an unrelated array, a
 * group with consolidated metadata above where the copy goes (which the copy updates), and a
 * stray chunk key where the copy will write one.
 */
async function destination(store: MemoryStore | FsStore, zarrFormat: 2 | 3 = 3): Promise<void> {
  await createGroup(store, { attributes: { owner: "someone else" }, zarrFormat });
  const keep = await createArray(store, {
    path: "keep",
    shape: [4],
    chunks: [2],
    dtype: "uint8",
    zarrFormat,
  });
  await keep.set(null, { data: Uint8Array.of(1, 2, 3, 4), shape: [4] });
  await createGroup(store, { path: "copies", zarrFormat });
  await consolidateMetadata(store, { path: "copies" });
  await store.set(`copies/run/b_bad/${zarrFormat === 3 ? "c/" : ""}0`, Uint8Array.of(9, 9, 9));
}

/** The values of every array below a group, by relative path. */
async function values(group: ZarrGroup): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  for (const path of Object.keys(SOURCE_ARRAYS)) {
    const array = (await group.get(path)) as ZarrArray;
    out[path] = Array.from((await array.get()).data as ArrayLike<number>);
  }
  return out;
}

/** Counts the writes (set, delete, ...) reaching a store and fails the `failAt`-th, once. */
function failingOnce(store: Readable & Writable, failAt: number) {
  const state = { writes: 0, failed: false };
  const methods = new Set(["set", "delete", "deletePrefix", "setIfNotExists"]);
  const proxy = new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (!methods.has(property as string)) return value.bind(target);
      return async (...args: unknown[]) => {
        state.writes++;
        if (!state.failed && state.writes === failAt) {
          state.failed = true;
          throw new Error(`injected failure of write ${failAt} (${String(property)} ${args[0]})`);
        }
        return value.apply(target, args);
      };
    },
  });
  return { store: proxy, state };
}

describe.each([
  ["MemoryStore", () => new MemoryStore()],
  ["FsStore", () => new FsStore(newFolder())],
])("a copy that fails is taken back (%s)", (_label, makeStore) => {
  it("a corrupt chunk in one array of a hierarchy leaves nothing behind; the rerun succeeds", async () => {
    const from = makeStore();
    const to = makeStore();
    await destination(to);
    const before = await contents(to);
    const error = await failure(
      copyNode(await source(from, true), to, {
        path: "copies/run",
        zarrFormat: 3,
      }),
    );
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/^copy of \/b_bad to \/copies\/run\/b_bad: /);
    expect(error.name).toBe("DecodeError");
    expect((error as { path?: string }).path).toBe("b_bad");
    expect(await contents(to)).toEqual(before);
    // The stray chunk is back too (the copy had replaced it).
    expect(Array.from((await to.get("copies/run/b_bad/c/0")) as Uint8Array)).toEqual([9, 9, 9]);

    const fixed = await source(from, false);
    const copied = await copyNode(fixed, to, { path: "copies/run", zarrFormat: 3 });
    expect(copied.arrays.map((a) => a.path)).toEqual([
      "copies/run/a_ok",
      "copies/run/b_bad",
      "copies/run/sub/c_ok",
    ]);
    expect(await values(await openGroup(to, { path: "copies/run" }))).toEqual(await values(fixed));
    // The consolidated metadata above lists the copy, and the unrelated array is untouched.
    const copies = await openGroup(to, { path: "copies" });
    expect(copies.consolidated?.childNames()).toEqual(["run"]);
    expect((await (await openArray(to, { path: "keep" })).get()).data).toEqual(
      Uint8Array.of(1, 2, 3, 4),
    );
  });

  it("without the rollback the rerun would be refused: a failed copy left no node", async () => {
    const from = makeStore();
    const to = makeStore();
    await copyNode(await source(from, true), to, { zarrFormat: 3 }).catch(() => {});
    expect(await contents(to)).toEqual(new Map());
    await expect(copyNode(await source(from, false), to, { zarrFormat: 3 })).resolves.toBeDefined();
    // A second copy onto it is refused, as before: the rollback did not weaken the check.
    await expect(copyNode(await openGroup(from), to, { zarrFormat: 3 })).rejects.toBeInstanceOf(
      ContainsGroupError,
    );
  });
});

describe("a copy failing at any write leaves the destination as it was (property)", () => {
  it("for every point of failure, in either format, at any concurrency", async () => {
    const from = new MemoryStore();
    const group = await source(from, false);
    // The writes a successful copy makes, per setting: every one of them is a point of failure.
    const totals = new Map<string, number>();
    for (const format of [2, 3] as const) {
      for (const concurrency of [1, 3]) {
        const to = new MemoryStore();
        await destination(to, format);
        const counter = failingOnce(to, 0);
        await copyNode(group, counter.store, {
          path: "copies/run",
          zarrFormat: format,
          concurrency,
        });
        totals.set(`${format}/${concurrency}`, counter.state.writes);
      }
    }
    expect(Math.min(...totals.values())).toBeGreaterThan(10);
    const setting = fc
      .record({
        format: fc.constantFrom(2 as const, 3 as const),
        concurrency: fc.constantFrom(1, 3),
        fraction: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      })
      .map((s) => ({
        ...s,
        failAt: 1 + Math.floor(s.fraction * (totals.get(`${s.format}/${s.concurrency}`) ?? 1)),
      }));
    await fc.assert(
      fc.asyncProperty(setting, async ({ format, concurrency, failAt }) => {
        const to = new MemoryStore();
        await destination(to, format);
        const before = await contents(to);
        const failing = failingOnce(to, failAt);
        const error = await failure(
          copyNode(group, failing.store, {
            path: "copies/run",
            zarrFormat: format,
            concurrency,
          }),
        );
        expect(error).toBeInstanceOf(Error);
        expect(error.message).toContain(`injected failure of write ${failAt}`);
        expect(await contents(to)).toEqual(before);
        // The rerun, with the store working, copies everything.
        await copyNode(group, to, { path: "copies/run", zarrFormat: format, concurrency });
        expect(await values(await openGroup(to, { path: "copies/run" }))).toEqual(
          await values(group),
        );
      }),
      { numRuns: 40 },
    );
  });
});

describe("the other ways a copy ends early", () => {
  it("an abort in the middle takes back what was written", async () => {
    const from = new MemoryStore();
    const group = await source(from, false);
    const to = new MemoryStore();
    await destination(to);
    const before = await contents(to);
    const controller = new AbortController();
    const error = await failure(
      copyNode(group, to, {
        path: "copies/run",
        zarrFormat: 3,
        concurrency: 1,
        signal: controller.signal,
        onProgress: (array) => {
          if (array.path === "b_bad") controller.abort();
        },
      }),
    );
    expect(error.name).toBe("AbortError");
    expect(await contents(to)).toEqual(before);
  });

  it("fromArray is all or nothing too", async () => {
    const from = new MemoryStore();
    await source(from, true);
    const to = new MemoryStore();
    const bad = await openArray(from, { path: "b_bad" });
    const error = await failure(fromArray(to, bad, { path: "x", zarrFormat: 3 }));
    expect(error.message).toMatch(/^copy of \/b_bad to \/x: /);
    expect(await contents(to)).toEqual(new Map());
  });

  it("a destination that fails again while cleaning up says which keys it left", async () => {
    const from = new MemoryStore();
    const group = await source(from, false);
    const to = new MemoryStore();
    // Every delete fails: the copy's writes cannot be taken back.
    const stuck = new Proxy(to, {
      get(target, property) {
        if (property === "delete")
          return async () => {
            throw new Error("the store is read-only now");
          };
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const failing = failingOnce(stuck, 4);
    const error = await failure(copyNode(group, failing.store, { zarrFormat: 3 }));
    expect(isZarrError(error, "IncompleteRollbackError")).toBe(true);
    const incomplete = error as IncompleteRollbackError;
    expect(incomplete.cause).toBeInstanceOf(Error);
    expect((incomplete.cause as Error).message).toContain("injected failure of write 4");
    // The keys it names are the ones left, and the message says what to do.
    expect(incomplete.keys).toEqual([...(await contents(to)).keys()]);
    expect(incomplete.message).toMatch(/remove them before copying again/);
  });
});
