import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { fixturePath, haveFixtures, scratchFolders } from "@z/test-utils";
import { createHierarchy, FsStore, openGroup } from "@z/zarr";
import { describe, expect, it } from "vitest";
import { runMain } from "./support/run-main.js";

const scratch = scratchFolders("z-cli-tree-");

describe("zarr tree (drawn by ZarrGroup.tree)", () => {
  it("prints what ZarrGroup.tree renders, a node it cannot open included", async () => {
    const dir = scratch();
    const store = new FsStore(dir);
    await createHierarchy(store, {
      "a/x": { kind: "array", shape: [4, 6], chunks: [2, 3], dtype: "int16" },
      "a/broken": { kind: "group" },
      b: { kind: "array", shape: [3], chunks: [3], dtype: "float64" },
    });
    writeFileSync(
      path.join(dir, "a", "broken", "zarr.json"),
      '{"zarr_format": 3, "node_type": "mystery"}',
    );
    const { code, stdout } = await runMain("tree", dir);
    expect(code).toBe(0);
    expect(stdout).toBe(`${await (await openGroup(store)).tree()}\n`);
    expect(stdout.split("\n")).toEqual([
      "/ (group, v3)",
      "├── a/",
      '│   ├── broken (cannot open: MetadataError: /a/broken/zarr.json: "node_type" must be "array" or "group", got "mystery")',
      "│   └── x (4, 6) int16 chunks=(2, 3)",
      "└── b (3,) float64 chunks=(3,)",
      "",
    ]);
    const sub = await runMain("tree", dir, "--path", "a/x");
    expect(sub.stdout).toBe("/a/x (4, 6) int16 chunks=(2, 3)\n");
  });

  it.skipIf(!haveFixtures("zarr tree (consolidated)"))(
    "draws zarr-python's consolidated hierarchies as their listing does",
    async () => {
      for (const location of [
        fixturePath("zarrita", "v3", "data.zarr", "consolidated"),
        fixturePath("zarrita", "v2", "data.zarr"),
      ]) {
        const { stdout } = await runMain("tree", location);
        const listed = await openGroup(new FsStore(location, { readOnly: true }), {
          consolidated: false,
        });
        expect(stdout).toBe(`${await listed.tree()}\n`);
        expect(stdout.split("\n").length).toBeGreaterThan(4);
      }
    },
  );
});
