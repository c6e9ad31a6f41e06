import { writeFileSync } from "node:fs";
import path from "node:path";
import { runCli, scratchFolders } from "@z/test-utils";
import { describe, expect, it } from "vitest";

describe("the zarr command on hostile metadata", () => {
  const folder = scratchFolders("hostile-cli");

  it("deep attributes and huge element sizes print the typed error, not a RangeError", async () => {
    const deep = folder();
    writeFileSync(
      path.join(deep, "zarr.json"),
      `{"zarr_format": 3, "node_type": "group", "attributes": {"a": ${"[".repeat(100_000)}${"]".repeat(100_000)}}}`,
    );
    const wide = folder();
    writeFileSync(
      path.join(wide, ".zarray"),
      JSON.stringify({
        zarr_format: 2,
        shape: [4],
        chunks: [2],
        dtype: "|V2000000000",
        compressor: null,
        fill_value: null,
        order: "C",
        filters: null,
      }),
    );
    for (const [dir, message] of [
      [deep, /MetadataLimitError: .*zarr\.json nests lists and objects more than 512 levels/],
      [wide, /MetadataLimitError: .*\|V2000000000/],
    ] as const) {
      const { code, stderr } = await runCli("info", dir);
      expect(code).not.toBe(0);
      expect(stderr).toMatch(message);
      expect(stderr).not.toMatch(/RangeError|Maximum call stack/);
    }
  });
});
