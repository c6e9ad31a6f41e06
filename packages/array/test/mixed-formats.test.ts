import {
  ContainsGroupError,
  createArray,
  createGroup,
  createHierarchy,
  MixedFormatsError,
  openGroup,
  ZarrArray,
} from "@z/array";
import { isZarrError } from "@z/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** A copy of a map store's contents, to check that a refused creation wrote nothing. */
function snapshot(store: Map<string, Uint8Array>): [string, string][] {
  return [...store].map(([key, bytes]) => [key, new TextDecoder().decode(bytes)]);
}

describe("a node of one format under a group of the other", () => {
  it("is refused with a MixedFormatsError naming both nodes and formats, writing nothing", async () => {
    for (const [outer, inner] of [
      [3, 2],
      [2, 3],
    ] as const) {
      const store = new Map<string, Uint8Array>();
      await createGroup(store, { path: "c", zarrFormat: outer });
      const before = snapshot(store);
      const attempts = [
        () => createGroup(store, { path: "c/a", zarrFormat: inner }),
        () => createArray(store, { path: "c/a/x", shape: [2], dtype: "uint8", zarrFormat: inner }),
        () => createHierarchy(store, { "c/b": { kind: "group" } }, { zarrFormat: inner }),
        async () => (await openGroup(store, { path: "c" })).createGroup("a", { zarrFormat: inner }),
      ];
      for (const attempt of attempts) {
        const error = await attempt().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(MixedFormatsError);
        if (!isZarrError(error, "MixedFormatsError")) throw error;
        expect(error.zarrFormat).toBe(inner);
        expect(error.parentZarrFormat).toBe(outer);
        // The nearest existing group of the other format: the root when it is one, else /c.
        expect(["", "c"]).toContain(error.parent);
        expect(error.path.startsWith("c/")).toBe(true);
        expect(error.message).toContain(`v${inner} node /${error.path}`);
        expect(error.message).toContain(`v${outer} group /${error.parent}`);
        expect(snapshot(store)).toEqual(before);
      }
    }
  });

  it("nodes of the parent's format are still created, and a hierarchy reads back whole", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(2 as const, 3 as const),
        fc.uniqueArray(fc.constantFrom("a", "b", "a/x", "b/y/z"), { minLength: 1, maxLength: 4 }),
        async (format, paths) => {
          const store = new Map<string, Uint8Array>();
          await createGroup(store, { zarrFormat: format });
          const other = format === 2 ? 3 : 2;
          const present = new Set<string>();
          for (const path of paths) {
            // The other format is refused wherever it goes (a node already there is named
            // first); the same format is created, with its missing parents.
            await expect(createGroup(store, { path, zarrFormat: other })).rejects.toThrow(
              present.has(path) ? ContainsGroupError : MixedFormatsError,
            );
            if (present.has(path)) continue;
            await createGroup(store, { path, zarrFormat: format });
            const segments = path.split("/");
            for (let i = 1; i <= segments.length; i++) present.add(segments.slice(0, i).join("/"));
          }
          const root = await openGroup(store, { consolidated: false });
          for (const path of paths) expect((await root.get(path)).zarrFormat).toBe(format);
        },
      ),
      { numRuns: 20 },
    );
  });

  it("an array of the other format is refused under the root group too", async () => {
    const store = new Map<string, Uint8Array>();
    await createGroup(store, { zarrFormat: 2 });
    await expect(
      createArray(store, { path: "t", shape: [1], dtype: "int8", zarrFormat: 3 }),
    ).rejects.toThrow(/v3 node \/t under the v2 group \/:/);
    const same = await createArray(store, { path: "t", shape: [1], dtype: "int8", zarrFormat: 2 });
    expect(same).toBeInstanceOf(ZarrArray);
  });
});
