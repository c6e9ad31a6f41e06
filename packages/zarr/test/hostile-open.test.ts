import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fixturePath, haveFixtures, jsonMutation } from "@z/test-utils";
import { encodeJson, isZarrError, open, parseJson, ZarrArray } from "@z/zarr";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** The metadata documents of every array of the zarrita fixtures (v2 and v3), as stores. */
function fixtureNodes(): { name: string; docs: Record<string, unknown> }[] {
  const out: { name: string; docs: Record<string, unknown> }[] = [];
  for (const version of ["v2", "v3"]) {
    const root = fixturePath("zarrita", version, "data.zarr");
    for (const name of readdirSync(root)) {
      const docs: Record<string, unknown> = {};
      for (const key of ["zarr.json", ".zarray", ".zattrs", ".zgroup"]) {
        const file = path.join(root, name, key);
        if (existsSync(file)) docs[key] = parseJson(readFileSync(file), file);
      }
      if (Object.keys(docs).length > 0) out.push({ name: `${version}/${name}`, docs });
    }
  }
  return out;
}

describe.runIf(haveFixtures("hostile-open"))("open() on mutated real metadata", () => {
  const nodes = haveFixtures("hostile-open") ? fixtureNodes() : [];

  it("finds the fixture arrays", () => {
    expect(nodes.length).toBeGreaterThan(40);
  });

  it("property: open and a one-element read succeed or fail with a branded error", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...nodes),
        fc.array(jsonMutation, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        async (node, mutations, which) => {
          const keys = Object.keys(node.docs);
          const key = keys[which % keys.length];
          const docs = { ...node.docs, [key]: mutations.reduce((d, m) => m(d), node.docs[key]) };
          const store = new Map(Object.entries(docs).map(([k, v]) => [k, encodeJson(v)]));
          try {
            const found = await open(store);
            if (found instanceof ZarrArray && found.shape.every((n) => n > 0))
              await found.get(found.shape.map(() => 0));
          } catch (error) {
            if (!isZarrError(error)) throw error;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
