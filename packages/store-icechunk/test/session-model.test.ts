import { MapStore } from "@z/store-core";
import { createRepository } from "@z/store-icechunk";
import { createArray, createGroup } from "@z/zarr";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/*
 * Random chunk writes and deletes over several commits, against a Map of the keys they should
 * leave: after each commit a fresh read of the branch holds exactly the model's keys and bytes,
 * whether the chunks went inline (512 bytes or fewer) or to chunk files.
 */

const CHUNK_KEYS = [
  ...[0, 1, 2, 3].map((i) => `a/c/${i}`),
  ...[0, 1].flatMap((i) => [0, 1].map((j) => `g/b/c/${i}/${j}`)),
];

type Op =
  | { kind: "set"; key: string; bytes: Uint8Array }
  | { kind: "delete"; key: string }
  | { kind: "commit" };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("set" as const),
      key: fc.constantFrom(...CHUNK_KEYS),
      bytes: fc.uint8Array({ minLength: 0, maxLength: 700 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("delete" as const),
      key: fc.constantFrom(...CHUNK_KEYS),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: "commit" as const }) },
);

describe("writable sessions against a model", () => {
  it("each commit holds exactly the keys and bytes written", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        const repo = await createRepository(new MapStore());
        let session = await repo.writableSession({ branch: "main" });
        await createGroup(session.store);
        await createGroup(session.store, { path: "g" });
        await createArray(session.store, { path: "a", shape: [8], chunks: [2], dtype: "uint8" });
        await createArray(session.store, {
          path: "g/b",
          shape: [4, 4],
          chunks: [2, 2],
          dtype: "uint8",
        });
        const model = new Map<string, Uint8Array>();
        for (const key of ["zarr.json", "g/zarr.json", "a/zarr.json", "g/b/zarr.json"])
          model.set(key, (await session.store.get(key)) as Uint8Array);
        const check = async (store: {
          get(k: string): Promise<Uint8Array | undefined>;
          list(): AsyncIterable<string>;
        }) => {
          const keys: string[] = [];
          for await (const k of store.list()) keys.push(k);
          expect(keys).toEqual([...model.keys()].sort());
          for (const [k, v] of model) expect(await store.get(k), k).toEqual(v);
        };
        for (const o of [...ops, { kind: "commit" as const }]) {
          if (o.kind === "set") {
            await session.store.set(o.key, o.bytes);
            model.set(o.key, o.bytes);
          } else if (o.kind === "delete") {
            await session.store.delete(o.key);
            model.delete(o.key);
          } else {
            await check(session.store);
            // A session without changes has nothing to commit (an IcechunkSessionError).
            if (!session.hasChanges) continue;
            await session.commit("step");
            await check((await repo.readonlySession({ branch: "main" })).store);
            session = await repo.writableSession({ branch: "main" });
          }
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
