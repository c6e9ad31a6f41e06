import {
  type ConsolidatedMetadata,
  consolidateMetadata,
  createGroup,
  createHierarchy,
  openGroup,
  ZarrArray,
  type ZarrGroup,
} from "@z/array";
import { MemoryStore } from "@z/store-memory";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  consolidatedUpdate,
  readConsolidatedHolder,
  updateConsolidated,
  withHierarchyChange,
} from "../src/consolidated/update-consolidated.js";

/** What consolidated metadata says about every node: kind, attributes, shape. */
function listing(consolidated: ConsolidatedMetadata | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of consolidated?.paths() ?? []) {
    const node = consolidated?.node(path);
    out[path] =
      node?.kind === "array"
        ? ["array", node.metadata.attributes, node.metadata.shape]
        : ["group", node?.metadata.attributes];
  }
  return out;
}

/** The reference: consolidated metadata rebuilt from scratch on a copy of the store. */
async function rescanned(store: Map<string, Uint8Array>): Promise<Record<string, unknown>> {
  const copy = new Map(store);
  return listing((await consolidateMetadata(copy)).consolidated);
}

async function stored(store: Map<string, Uint8Array>): Promise<Record<string, unknown>> {
  return listing((await openGroup(store, { consolidated: true })).consolidated);
}

const name = fc.constantFrom("a", "b", "c");
const path = fc.array(name, { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));
const attributes = fc.dictionary(fc.constantFrom("x", "y"), fc.integer({ min: 0, max: 9 }), {
  maxKeys: 2,
});

/** One change made through the library to a hierarchy whose root holds consolidated metadata. */
const operation = fc.oneof(
  fc.record({
    op: fc.constant("create" as const),
    path,
    kind: fc.constantFrom("array" as const, "group" as const),
    attributes,
    overwrite: fc.boolean(),
  }),
  fc.record({ op: fc.constant("root-attributes" as const), attributes }),
  fc.record({
    op: fc.constant("child-attributes" as const),
    path: fc.constantFrom("a", "a/b", "b"),
    attributes,
  }),
  fc.record({ op: fc.constant("create-through-group" as const), path, attributes }),
  fc.record({
    op: fc.constantFrom("array-resize" as const, "array-attributes" as const),
    path,
    attributes,
    extent: fc.integer({ min: 0, max: 5 }),
    // Through the root's consolidated metadata, or the array the creation returned.
    via: fc.constantFrom("root" as const, "created" as const),
  }),
);

type ArrayEdit = {
  op: "array-resize" | "array-attributes";
  path: string;
  attributes: object;
  extent: number;
  via: "root" | "created";
};

/** An array edited directly (resize, attributes), opened as `edit.via` says. */
async function editArray(
  store: Map<string, Uint8Array>,
  format: 2 | 3,
  edit: ArrayEdit,
): Promise<void> {
  let array: ZarrArray | ZarrGroup;
  if (edit.via === "root") array = await (await openGroup(store)).get(edit.path);
  else {
    const spec = { kind: "array" as const, shape: [2], dtype: "int8" };
    const created = await createHierarchy(store, { [edit.path]: spec }, { zarrFormat: format });
    array = created.get(edit.path) as ZarrArray;
  }
  if (!(array instanceof ZarrArray)) return;
  if (edit.op === "array-resize") await array.resize([edit.extent]);
  else await array.updateAttributes(edit.attributes as Record<string, number>, { replace: true });
}

async function run(
  store: Map<string, Uint8Array>,
  format: 2 | 3,
  op:
    | {
        op: "create";
        path: string;
        kind: "array" | "group";
        attributes: object;
        overwrite: boolean;
      }
    | { op: "root-attributes"; attributes: object }
    | { op: "child-attributes"; path: string; attributes: object }
    | { op: "create-through-group"; path: string; attributes: object }
    | ArrayEdit,
): Promise<void> {
  const attrs = op.attributes as Record<string, number>;
  try {
    switch (op.op) {
      case "create":
        await createHierarchy(
          store,
          {
            [op.path]:
              op.kind === "array"
                ? { kind: "array", shape: [2], dtype: "int8", attributes: attrs }
                : { kind: "group", attributes: attrs },
          },
          { overwrite: op.overwrite, zarrFormat: format },
        );
        return;
      case "root-attributes":
        await (await openGroup(store)).updateAttributes(attrs);
        return;
      case "child-attributes": {
        // Opened through the root, so from its consolidated metadata.
        const child = await (await openGroup(store)).get(op.path);
        if ("updateAttributes" in child && !("shape" in child))
          await (child as ZarrGroup).updateAttributes(attrs, { replace: true });
        return;
      }
      case "create-through-group":
        await (await openGroup(store)).createGroup(op.path, { attributes: attrs });
        return;
      case "array-resize":
      case "array-attributes":
        await editArray(store, format, op);
        return;
    }
  } catch (error) {
    // Refused changes (a node there, a node inside an array, no such child) leave the store as it was.
    if (!(error instanceof Error) || !/exists|inside an array|no member/.test(error.message))
      throw error;
  }
}

describe("updateConsolidated keeps consolidated metadata equal to a fresh consolidation", () => {
  it("after any sequence of creations, attribute edits and array resizes (v2 and v3)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(2 as const, 3 as const),
        fc.array(operation, { maxLength: 6 }),
        async (format, ops) => {
          const store = new Map<string, Uint8Array>();
          await createGroup(store, { zarrFormat: format, attributes: { root: 1 } });
          await consolidateMetadata(store);
          for (const op of ops) {
            await run(store, format, op);
            expect(await stored(store)).toEqual(await rescanned(store));
          }
          const root = await openGroup(store, { consolidated: false });
          const expectedRoot: Record<string, unknown> = { root: 1 };
          for (const op of ops)
            if (op.op === "root-attributes") Object.assign(expectedRoot, op.attributes);
          expect(root.attrs).toEqual(expectedRoot);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("updateConsolidated", () => {
  it("a group opened through its parent's consolidated metadata updates its entry there", async () => {
    for (const format of [2, 3] as const) {
      const store = new Map<string, Uint8Array>();
      await createHierarchy(store, { "a/b": { kind: "group" } }, { zarrFormat: format });
      await consolidateMetadata(store);
      const child = (await (await openGroup(store)).get("a/b")) as ZarrGroup;
      const updated = await child.updateAttributes({ k: format });
      expect(updated.consolidated?.isRoot).toBe(false);
      const root = await openGroup(store, { consolidated: true });
      expect(root.consolidated?.node("a/b")?.metadata.attributes).toEqual({ k: format });
      expect(await stored(store)).toEqual(await rescanned(store));
    }
  });

  it("patches a holder below the root with store paths, ignoring changes elsewhere", async () => {
    const store = new MemoryStore();
    await createHierarchy(store, {
      "h/x": { kind: "array", shape: [3], dtype: "uint8" },
      "h/g": { kind: "group" },
      other: { kind: "group" },
    });
    await consolidateMetadata(store, { path: "h" });
    const holder = await readConsolidatedHolder(store, "h");
    expect(holder?.consolidated.paths()).toEqual(["g", "x"]);
    if (!holder) return;
    const node = {
      kind: "group" as const,
      metadata: { zarrFormat: 3 as const, attributes: { new: true }, extraFields: {} },
    };
    const updated = await updateConsolidated(store, holder, {
      removed: ["h/x", "other"],
      written: [
        ["h/g/y", node],
        ["other/z", node],
        ["h", { ...node, metadata: { ...node.metadata, attributes: { holder: 1 } } }],
      ],
    });
    expect(updated.consolidated.paths()).toEqual(["g", "g/y"]);
    const reopened = await openGroup(store, { path: "h", consolidated: true });
    expect(reopened.consolidated?.paths()).toEqual(["g", "g/y"]);
    expect(reopened.attrs).toEqual({ holder: 1 });
  });

  it("says nothing is held for a group without consolidated metadata (v2: one read)", async () => {
    const store = new Map<string, Uint8Array>();
    await createGroup(store, { zarrFormat: 2 });
    const reads: string[] = [];
    const counting = new Proxy(new MemoryStore(store), {
      get(target, property) {
        if (property === "get")
          return (key: string, options?: object) => {
            reads.push(key);
            return target.get(key, options);
          };
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    expect(await readConsolidatedHolder(counting, "", { zarrFormat: 2 })).toBeUndefined();
    expect(reads).toEqual([".zmetadata"]);
  });

  it("withHierarchyChange and consolidatedUpdate do no I/O and keep the input as it was", async () => {
    const store = new Map<string, Uint8Array>();
    await createHierarchy(store, { "a/b": { kind: "group" } }, { zarrFormat: 2 });
    const group = await consolidateMetadata(store);
    const before = group.consolidated?.toJson();
    const holder = {
      path: "",
      metadata: group.metadata,
      consolidated: group.consolidated as ConsolidatedMetadata,
    };
    const changed = withHierarchyChange("", holder.consolidated, { removed: ["a"] });
    expect(changed.paths()).toEqual([]);
    const { documents } = consolidatedUpdate(holder, { removed: ["a/b"] });
    expect(documents.map(([key]) => key)).toEqual([".zmetadata"]);
    expect(group.consolidated?.toJson()).toEqual(before);
  });
});
