// The writers of metadata-concurrency.test.ts, shared by its in-process runs and the child
// processes (metadata-writer-child.ts): each writer opens its own objects of one hierarchy and
// runs its operations one after the other, while the other writers run theirs.
import { openGroup, type ZarrArray, type ZarrGroup } from "@z/array";
import type { Readable, Writable } from "@z/store-core";

/** The nodes of the hierarchy a writer edits: the root group, group `g` and array `a`. */
export type Target = "root" | "g" | "a";

/** One operation of a writer. */
export type Op =
  | { kind: "attr"; target: Target; key: string; value: number; yields: number }
  | { kind: "resize"; length: number; yields: number }
  | { kind: "create"; name: string; array: boolean; yields: number };

/** What a writer saw go wrong, as text (empty when nothing did). */
export type Problems = string[];

/** Lets the other writers run for a while (a random number of event-loop turns). */
async function yieldTurns(turns: number): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs one writer's operations on objects of its own, opened through the root's consolidated
 * metadata (so their edits update it too). After each attribute update the object must hold
 * every attribute this writer set so far (only it sets its keys): the update merged onto the
 * stored attributes and the object took them as stored.
 */
export async function runWriter(store: Readable & Writable, ops: readonly Op[]): Promise<Problems> {
  const problems: Problems = [];
  const root = await openGroup(store);
  const nodes: Record<Target, ZarrGroup | ZarrArray> = {
    root,
    g: (await root.get("g")) as ZarrGroup,
    a: (await root.get("a")) as ZarrArray,
  };
  const mine: Record<Target, Record<string, number>> = { root: {}, g: {}, a: {} };
  const created: string[] = [];
  for (const op of ops) {
    await yieldTurns(op.yields);
    if (op.kind === "attr") {
      const node = nodes[op.target];
      const returned = await node.updateAttributes({ [op.key]: op.value });
      if (returned !== node)
        problems.push(`${op.target}: updateAttributes returned another object`);
      mine[op.target][op.key] = op.value;
      const attrs = node.attrs;
      for (const [key, value] of Object.entries(mine[op.target])) {
        if (key.startsWith("shared")) continue;
        if (attrs[key] !== value)
          problems.push(
            `${op.target} after setting ${op.key}: ${key} is ${attrs[key]}, not ${value}`,
          );
      }
    } else if (op.kind === "resize") {
      const array = nodes.a as ZarrArray;
      await array.resize([op.length]);
      if (array.shape[0] !== op.length)
        problems.push(`a after resize to ${op.length}: shape [${array.shape}]`);
    } else {
      const before = (await openGroup(store)).consolidated?.paths() ?? [];
      if (op.array) await root.createArray(op.name, { shape: [2], chunks: [2], dtype: "uint8" });
      else await root.createGroup(op.name);
      created.push(op.name);
      // The root's view of its consolidated metadata is the one stored: it lists what this
      // writer created, and what was stored before (others' creations included).
      const listed = root.consolidated?.paths() ?? [];
      for (const name of new Set(["a", "g", ...created, ...before]))
        if (!listed.includes(name)) problems.push(`after creating ${op.name}: ${name} not listed`);
    }
  }
  return problems;
}
