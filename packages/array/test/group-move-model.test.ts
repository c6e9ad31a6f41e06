import {
  consolidateMetadata,
  createGroup,
  openConsolidated,
  openGroup,
  UnreadableNode,
  ZarrArray,
  type ZarrGroup,
} from "@z/array";
import type { Listable, Readable, Writable } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { MemoryStore } from "@z/store-memory";
import { tempDir } from "@z/test-utils";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

/**
 * Sequences of createGroup, createArray, move and delete through one group object, against a
 * tree model (path -> kind): after every step the store walked afresh, the consolidated
 * metadata read afresh and the group object itself all list what the model holds, and every
 * refused step is refused with the model's error.
 */

const sandbox = tempDir("z-array-group-move-model-");
afterAll(sandbox.remove);

type Kind = "array" | "group";
type Model = Map<string, Kind>;
type Op =
  | { op: "createGroup"; path: string }
  | { op: "createArray"; path: string }
  | { op: "delete"; path: string }
  | { op: "move"; path: string; dest: string };

const segment = fc.constantFrom("a", "b", "c");
const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join("/"));
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("createGroup" as const), path }),
  fc.record({ op: fc.constant("createArray" as const), path }),
  fc.record({ op: fc.constant("delete" as const), path }),
  fc.record({ op: fc.constant("move" as const), path, dest: path }),
);

const ancestors = (p: string) => {
  const parts = p.split("/");
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
};
const isAtOrBelow = (p: string, root: string) => p === root || p.startsWith(`${root}/`);
const containsError = (kind: Kind) =>
  kind === "array" ? "ContainsArrayError" : "ContainsGroupError";

/** The model's outcome of a step: the error's name, or undefined after changing the model. */
function apply(model: Model, step: Op): string | undefined {
  const arrayAbove = (p: string) => ancestors(p).some((a) => model.get(a) === "array");
  const addParents = (p: string) => {
    for (const a of ancestors(p)) if (!model.has(a)) model.set(a, "group");
  };
  if (step.op === "createGroup" || step.op === "createArray") {
    const there = model.get(step.path);
    if (there) return containsError(there);
    if (arrayAbove(step.path)) return "ContainsArrayError";
    addParents(step.path);
    model.set(step.path, step.op === "createGroup" ? "group" : "array");
    return undefined;
  }
  if (step.op === "delete") {
    if (!model.has(step.path)) return "NotFoundError";
    for (const p of [...model.keys()]) if (isAtOrBelow(p, step.path)) model.delete(p);
    return undefined;
  }
  const { path: from, dest } = step;
  if (isAtOrBelow(dest, from)) return "NodeError";
  if (!model.has(from)) return "NotFoundError";
  const there = model.get(dest);
  if (there) return containsError(there);
  if (arrayAbove(dest)) return "ContainsArrayError";
  addParents(dest);
  for (const [p, kind] of [...model]) {
    if (!isAtOrBelow(p, from)) continue;
    model.delete(p);
    model.set(dest + p.slice(from.length), kind);
  }
  return undefined;
}

async function run(root: ZarrGroup, step: Op): Promise<string | undefined> {
  try {
    if (step.op === "createGroup") await root.createGroup(step.path);
    else if (step.op === "createArray")
      await root.createArray(step.path, { shape: [2], dtype: "int8" });
    else if (step.op === "delete") await root.delete(step.path);
    else await root.move(step.path, step.dest);
    return undefined;
  } catch (error) {
    return (error as Error).name;
  }
}

async function listing(group: ZarrGroup): Promise<[string, Kind][]> {
  return (await group.members({ maxDepth: null })).map(([p, node]) => {
    if (node instanceof UnreadableNode) throw node.error;
    return [p, node instanceof ZarrArray ? "array" : "group"];
  });
}

const sorted = (model: Model): [string, Kind][] =>
  [...model].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

type Store = Readable & Writable & Listable;
let folders = 0;
const stores: [string, () => Store, number][] = [
  ["MemoryStore", () => new MemoryStore(), 60],
  ["FsStore", () => new FsStore(`${sandbox.dir}/p${folders++}.zarr`, { fsync: false }), 8],
];

describe.each(stores)("move/delete sequences against a tree model on %s", (_, makeStore, runs) => {
  describe.each([2, 3] as const)("v%s", (zarrFormat) => {
    it("every step does what the model does, consolidated metadata included", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (steps) => {
          const store = makeStore();
          await createGroup(store, { zarrFormat });
          await consolidateMetadata(store);
          const root = await openConsolidated(store);
          const model: Model = new Map();
          for (const step of steps) {
            const expected = apply(model, step);
            expect(await run(root, step), JSON.stringify(step)).toBe(expected);
            const want = sorted(model);
            expect(await listing(await openGroup(store, { consolidated: false }))).toEqual(want);
            expect(await listing(await openConsolidated(store))).toEqual(want);
            expect(await listing(root)).toEqual(want);
          }
        }),
        { numRuns: runs },
      );
    }, 120_000);
  });
});
