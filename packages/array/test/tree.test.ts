import { createHierarchy, openGroup, treeLines } from "@z/array";
import { describe, expect, it } from "vitest";

async function hierarchy() {
  const map = new Map<string, Uint8Array>();
  await createHierarchy(map, {
    "raw/counts": { kind: "array", shape: [1000], chunks: [100], dtype: "uint32" },
    "raw/deep/mask": { kind: "array", shape: [10, 20], chunks: [5, 5], dtype: "bool" },
    temperature: { kind: "array", shape: [365], chunks: [365], dtype: "float32" },
    empty: { kind: "group" },
  });
  return map;
}

describe("ZarrGroup.tree", () => {
  it("draws the hierarchy: children sorted, groups with a slash, arrays with shape, type and chunks", async () => {
    const root = await openGroup(await hierarchy());
    expect(await root.tree()).toBe(
      [
        "/ (group, v3)",
        "├── empty/",
        "├── raw/",
        "│   ├── counts (1000,) uint32 chunks=(100,)",
        "│   └── deep/",
        "│       └── mask (10, 20) bool chunks=(5, 5)",
        "└── temperature (365,) float32 chunks=(365,)",
      ].join("\n"),
    );
    const raw = await root.get("raw");
    expect(await (raw as typeof root).tree()).toBe(
      [
        "/raw (group, v3)",
        "├── counts (1000,) uint32 chunks=(100,)",
        "└── deep/",
        "    └── mask (10, 20) bool chunks=(5, 5)",
      ].join("\n"),
    );
  });

  it("stops at `level`", async () => {
    const root = await openGroup(await hierarchy());
    expect(await root.tree({ level: 1 })).toBe(
      [
        "/ (group, v3)",
        "├── empty/",
        "├── raw/",
        "└── temperature (365,) float32 chunks=(365,)",
      ].join("\n"),
    );
    expect(await root.tree({ level: 0 })).toBe("/ (group, v3)");
  });

  it("shows a child it cannot open with its error, and still draws the rest", async () => {
    const map = await hierarchy();
    map.set(
      "raw/counts/zarr.json",
      new TextEncoder().encode('{"zarr_format": 3, "node_type": "array", "shape": "long"}'),
    );
    map.set("raw/odd/zarr.json", new TextEncoder().encode("not json"));
    const lines: string[] = [];
    for await (const line of treeLines(await openGroup(map))) lines.push(line);
    expect(lines[3]).toMatch(
      /^│ {3}├── counts \(cannot open: MetadataError: \/raw\/counts\/zarr.json.*\)$/,
    );
    expect(lines[6]).toMatch(
      /^│ {3}└── odd \(cannot open: MetadataError: .*raw\/odd\/zarr.json.*\)$/,
    );
    expect(lines.at(-1)).toBe("└── temperature (365,) float32 chunks=(365,)");
    expect(lines).toHaveLength(8);
  });
});
