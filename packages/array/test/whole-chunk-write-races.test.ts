import { createArray, openArray, type ZarrArray } from "@z/array";
import { slice } from "@z/indexing";
import { MapStore, type Readable, type Writable } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { MemoryStore } from "@z/store-memory";
import { tempDir } from "@z/test-utils";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

/*
 * Whole-chunk writes replace a chunk without a read or a lock (FsStore: a temporary file and a
 * rename), while partial writes read-modify-write it under the store's conditional writes.
 * Several writers, each with its own store object (so nothing in-process orders them, as with
 * several processes), race whole writes, partial writes and reads of the same chunks:
 * - no read ever sees a torn chunk: every chunk read holds one whole write's value, with some
 *   partial writes' elements on top;
 * - a partial write that started after the final state's whole write had finished is in the
 *   final state (its update is never lost), and one that had finished before that whole write
 *   started is not (whole writes replace everything).
 * With a store whose conditional writes are atomic against blind ones (MemoryStore), the final
 * whole write is also one that no other whole write followed; FsStore lets a blind whole write
 * that lands inside another process's read-modify-write be replaced by it (documented), so
 * there the final value need only be a written one.
 */

const CHUNK = 4096; // int32 elements: 16 KiB chunks
const CHUNKS = 2;
const FILL = 0;
/** Partial writes set one element, each at its own position, to PARTIAL + position. */
const PARTIAL = 1_000_000;

type Op =
  | { kind: "whole"; chunk: number; value: number }
  | { kind: "partial"; chunk: number; position: number }
  | { kind: "read"; chunk: number };

interface Timed {
  op: Op;
  start: number;
  end: number;
}

const opArb = fc.oneof(
  fc.record({ kind: fc.constant("whole" as const), chunk: fc.nat(CHUNKS - 1) }),
  fc.record({ kind: fc.constant("partial" as const), chunk: fc.nat(CHUNKS - 1) }),
  fc.record({ kind: fc.constant("read" as const), chunk: fc.nat(CHUNKS - 1) }),
);

/** 2-4 writers, each a list of operations; values and positions made unique. */
const scheduleArb = fc
  .array(fc.array(fc.tuple(opArb, fc.nat(3)), { minLength: 1, maxLength: 8 }), {
    minLength: 2,
    maxLength: 4,
  })
  .map((writers) => {
    let value = 1;
    let position = 0;
    return writers.map((ops) =>
      ops.map(([op, pause]): [Op, number] => {
        if (op.kind === "whole") return [{ ...op, value: value++ }, pause];
        // Positions spread over the chunk (its first and last bytes included).
        if (op.kind === "partial") return [{ ...op, position: (position++ * 997) % CHUNK }, pause];
        return [op, pause];
      }),
    );
  });

/** Checks that a chunk's elements are one whole write's value with partial writes on top. */
function wholeValueOf(data: Int32Array, where: string): number {
  let whole: number | undefined;
  for (let i = 0; i < data.length; i++) {
    const x = data[i];
    if (x === PARTIAL + i) continue;
    if (whole === undefined) whole = x;
    else expect(x, `${where}: element ${i} of a torn chunk`).toBe(whole);
  }
  // Every element a partial write: the whole value is not seen; any is consistent.
  return whole ?? -1;
}

async function race(stores: (Readable & Writable)[], schedule: [Op, number][][]): Promise<void> {
  const shape = [CHUNK * CHUNKS];
  await createArray(stores[0], { shape, chunks: [CHUNK], dtype: "int32", fillValue: FILL });
  const arrays: ZarrArray[] = await Promise.all(stores.map((store) => openArray(store)));
  let clock = 0;
  const history: Timed[] = [];
  const region = (chunk: number) => [slice(chunk * CHUNK, (chunk + 1) * CHUNK)];

  await Promise.all(
    schedule.map(async (ops, w) => {
      const arr = arrays[w];
      for (const [op, pause] of ops) {
        for (let i = 0; i < pause; i++) await new Promise((resolve) => setImmediate(resolve));
        const start = clock++;
        if (op.kind === "whole") await arr.set(region(op.chunk), op.value);
        else if (op.kind === "partial")
          await arr.set([op.chunk * CHUNK + op.position], PARTIAL + op.position);
        else {
          const { data } = await arr.get(region(op.chunk));
          wholeValueOf(data as Int32Array, `read of chunk ${op.chunk} by writer ${w}`);
        }
        history.push({ op, start, end: clock++ });
      }
    }),
  );

  const final = (await arrays[0].get()).data as Int32Array;
  for (let chunk = 0; chunk < CHUNKS; chunk++) {
    const data = final.subarray(chunk * CHUNK, (chunk + 1) * CHUNK);
    const value = wholeValueOf(data, `final chunk ${chunk}`);
    const mine = history.filter((t) => t.op.chunk === chunk);
    const wholes = mine.filter((t) => t.op.kind === "whole");
    const last =
      value === FILL ? undefined : wholes.find((t) => (t.op as { value: number }).value === value);
    if (value !== FILL && value !== -1)
      expect(last, `chunk ${chunk} holds ${value}, which no whole write wrote`).toBeDefined();
    if (value === -1) continue;
    const lastEnd = last?.end ?? -1;
    const lastStart = last?.start ?? -1;
    for (const t of mine) {
      if (t.op.kind !== "partial") continue;
      const { position } = t.op;
      const kept = data[position] === PARTIAL + position;
      if (t.start > lastEnd)
        expect(kept, `chunk ${chunk}: a partial write after the last whole write was lost`).toBe(
          true,
        );
      if (t.end < lastStart)
        expect(kept, `chunk ${chunk}: a partial write survived a later whole write`).toBe(false);
    }
    if (stores[0] instanceof MapStore) {
      // Atomic conditional writes: no whole write started after the final one had finished.
      for (const t of wholes)
        expect(t.start < lastEnd || t === last, `chunk ${chunk}: a whole write was lost`).toBe(
          true,
        );
    }
  }
}

const sandbox = tempDir("z-array-whole-races-");
afterAll(() => sandbox.remove());

/** The store's reads and writes as `method key [condition]`, through a view of `store`. */
function recording<S extends Readable & Writable>(store: S): { store: S; calls: string[] } {
  const calls: string[] = [];
  const view = Object.create(store) as S;
  const record = (
    method: string,
    key: string,
    options?: { ifMatch?: string; ifNoneMatch?: string },
  ) =>
    calls.push(
      `${method} ${key}${options?.ifMatch ? " ifMatch" : ""}${options?.ifNoneMatch ? " ifNoneMatch" : ""}`,
    );
  for (const method of ["get", "getInto", "getVersioned", "set", "delete"] as const) {
    const original = (store as unknown as Record<string, (...a: unknown[]) => unknown>)[method];
    if (original === undefined) continue;
    (view as unknown as Record<string, unknown>)[method] = (key: string, ...rest: unknown[]) => {
      const options = method === "set" ? rest[1] : rest[0];
      record(method, key, options as { ifMatch?: string });
      return original.call(store, key, ...rest);
    };
  }
  return { store: view, calls };
}

describe("what a chunk write asks of the store", () => {
  for (const [name, make] of [
    ["MemoryStore", () => new MemoryStore()],
    ["FsStore", () => new FsStore(`${sandbox.dir}/calls-${Math.random()}.zarr`, { fsync: false })],
  ] as const) {
    it(`${name}: a whole chunk is one plain set; a partial one a versioned read and a conditional set`, async () => {
      const { store, calls } = recording(make() as Readable & Writable);
      const arr = await createArray(store, { shape: [8], chunks: [4], dtype: "int32" });
      await arr.set([slice(0, 4)], 5);
      calls.length = 0;
      await arr.set([slice(0, 4)], 6); // replaces a stored chunk
      await arr.set([slice(4, 8)], 7); // a new one
      expect(calls).toEqual(["set c/0", "set c/1"]);
      calls.length = 0;
      await arr.set([1], 8);
      await arr.set([slice(0, 4)], 0); // all fill value: deleted, unread
      expect(calls).toEqual(["getVersioned c/0", "set c/0 ifMatch", "delete c/0"]);
      expect(Array.from((await arr.get()).data)).toEqual([0, 0, 0, 0, 7, 7, 7, 7]);
    });
  }
});

describe("whole-chunk writes racing partial writes and reads", () => {
  it("MemoryStore (one map, a store object per writer)", async () => {
    await fc.assert(
      fc.asyncProperty(scheduleArb, async (schedule) => {
        const memory = new MemoryStore();
        const stores = schedule.map((_, w) => (w === 0 ? memory : new MapStore(memory.map)));
        await race(stores, schedule);
      }),
      { numRuns: 25 },
    );
  });

  it("FsStore (one folder, a store object per writer)", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scheduleArb, async (schedule) => {
        const root = `${sandbox.dir}/run-${run++}.zarr`;
        const stores = schedule.map(() => new FsStore(root, { fsync: false }));
        await race(stores, schedule);
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it("the checks can fail: a torn chunk and a lost partial write are caught", async () => {
    const torn = new Int32Array(CHUNK).fill(7);
    torn[CHUNK - 1] = 8;
    expect(() => wholeValueOf(torn, "torn")).toThrow(/torn chunk/);
    const patched = new Int32Array(CHUNK).fill(7);
    patched[5] = PARTIAL + 5;
    expect(wholeValueOf(patched, "patched")).toBe(7);
    // A store that claims conditional writes but ignores the conditions: two partial writes
    // of one chunk at once both read it empty, and the second write drops the first.
    const memory = new MemoryStore();
    const careless = (store: MapStore) =>
      Object.assign(Object.create(store), {
        set: (key: string, value: Uint8Array) => store.set(key, value),
      });
    const stores = [careless(memory), careless(new MapStore(memory.map))];
    const partial = (position: number): [Op, number][] => [
      [{ kind: "partial", chunk: 0, position }, 0],
    ];
    await expect(race(stores, [partial(1), partial(2)])).rejects.toThrow(/was lost/);
  });
});
