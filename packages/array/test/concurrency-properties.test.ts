import { createArray, openArray, type ZarrArray } from "@z/array";
import { slice } from "@z/indexing";
import { MapStore } from "@z/store-core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/*
 * Many overlapping and disjoint sets run at once against a reference model: the final state
 * must be the outcome of running the writes one after the other in some order, per stored key
 * (a chunk, or a shard: the unit of read-modify-write). Every element holds the value of one of
 * the writes covering it (the fill value only where none does), and within each stored key the
 * "was overwritten by" relation the elements show has no cycle.
 */

const SHAPE = [12, 10];
const FILL = 0;

interface Write {
  start: number[];
  stop: number[];
  value: number;
}

const writeArb = fc
  .tuple(
    ...SHAPE.map((n) =>
      fc
        .tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 1, max: n }))
        .map(([a, len]) => [a, Math.min(n, a + len)] as const),
    ),
  )
  .map((bounds) => ({ start: bounds.map((b) => b[0]), stop: bounds.map((b) => b[1]) }));

const writesArb = fc
  .array(writeArb, { minLength: 1, maxLength: 14 })
  .map((ws) => ws.map((w, i) => ({ ...w, value: i + 1 }) as Write));

function covers(write: Write, index: number[]): boolean {
  return index.every((x, axis) => write.start[axis] <= x && x < write.stop[axis]);
}

/** Checks the final data against the writes; `unit` is the shape of one stored key. */
function checkSerialisable(data: ArrayLike<number>, writes: Write[], unit: number[]): void {
  // Per stored key: edges "loser -> winner" between writes that overlap there.
  const edges = new Map<string, Map<number, Set<number>>>();
  for (let i = 0; i < SHAPE[0]; i++) {
    for (let j = 0; j < SHAPE[1]; j++) {
      const got = data[i * SHAPE[1] + j];
      const covering = writes.filter((w) => covers(w, [i, j]));
      if (covering.length === 0) {
        expect(got, `[${i}, ${j}] is written by nobody`).toBe(FILL);
        continue;
      }
      expect(
        covering.map((w) => w.value),
        `[${i}, ${j}] holds ${got}, not the value of a write covering it`,
      ).toContain(got);
      const key = `${Math.floor(i / unit[0])},${Math.floor(j / unit[1])}`;
      let graph = edges.get(key);
      if (!graph) edges.set(key, (graph = new Map()));
      for (const w of covering) {
        if (w.value === got) continue;
        let next = graph.get(w.value);
        if (!next) graph.set(w.value, (next = new Set()));
        next.add(got);
      }
    }
  }
  for (const [key, graph] of edges) {
    expect(findCycle(graph), `stored key ${key}: no serial order of the writes explains it`).toBe(
      undefined,
    );
  }
}

function findCycle(graph: Map<number, Set<number>>): number[] | undefined {
  const state = new Map<number, "open" | "done">();
  const visit = (node: number, path: number[]): number[] | undefined => {
    if (state.get(node) === "done") return undefined;
    if (state.get(node) === "open") return [...path, node];
    state.set(node, "open");
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next, [...path, node]);
      if (cycle) return cycle;
    }
    state.set(node, "done");
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node, []);
    if (cycle) return cycle;
  }
  return undefined;
}

const layouts = [
  { name: "plain", layout: { chunks: [4, 3] }, unit: [4, 3] },
  { name: "sharded", layout: { shards: [4, 6], chunks: [2, 3] }, unit: [4, 6] },
] as const;

const setups = {
  "one array object": async (store: MapStore) => {
    const arr = await openArray(store);
    return [arr, arr];
  },
  "two array objects": async (store: MapStore) => [await openArray(store), await openArray(store)],
  // Separate store objects share the data but not the in-process lock: only the conditional
  // writes keep the updates, as between processes.
  "two store objects over one map": async (store: MapStore) => [
    await openArray(store),
    await openArray(new MapStore(store.map)),
  ],
} satisfies Record<string, (store: MapStore) => Promise<ZarrArray[]>>;

describe("concurrent sets are serialisable per stored key", () => {
  for (const { name, layout, unit } of layouts) {
    for (const [setupName, setup] of Object.entries(setups)) {
      it(`${name} array, ${setupName}`, async () => {
        await fc.assert(
          fc.asyncProperty(writesArb, fc.boolean(), async (writes, prefilled) => {
            const store = new MapStore();
            const created = await createArray(store, {
              shape: SHAPE,
              ...layout,
              dtype: "int32",
              fillValue: FILL,
            });
            // Either over missing chunks or over chunks that exist (filled, then cleared:
            // deletes as well as rewrites of stored chunks).
            if (prefilled) {
              await created.set(null, 99);
              await created.set(null, FILL);
            }
            const arrays = await setup(store);
            await Promise.all(
              writes.map((w, i) =>
                arrays[i % 2].set(
                  w.start.map((a, axis) => slice(a, w.stop[axis])),
                  w.value,
                ),
              ),
            );
            const { data } = await created.get();
            checkSerialisable(data as Int32Array, writes, [...unit]);
          }),
          { numRuns: 40 },
        );
      });
    }
  }

  it("the checker rejects a lost update (it can fail)", () => {
    const writes: Write[] = [
      { start: [0, 0], stop: [1, 2], value: 1 },
      { start: [0, 1], stop: [1, 3], value: 2 },
    ];
    const data = new Int32Array(SHAPE[0] * SHAPE[1]);
    // Element [0,0] says 1 won over nobody, [0,1] says 1 beat 2, [0,2] lost write 2 entirely.
    data[0] = 1;
    data[1] = 1;
    data[2] = FILL;
    expect(() => checkSerialisable(data, writes, [4, 3])).toThrow(/not the value of a write/);
    // Both writes present but in contradicting orders within one key: a cycle.
    const crossed: Write[] = [
      { start: [0, 0], stop: [1, 2], value: 1 },
      { start: [0, 0], stop: [1, 2], value: 2 },
    ];
    data[0] = 1;
    data[1] = 2;
    data[2] = FILL;
    expect(() => checkSerialisable(data, crossed, [4, 3])).toThrow(/no serial order/);
  });
});
