import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  apiSurfaces,
  entryPoints,
  packageFolders,
  SNAPSHOT_DIR,
  snapshotText,
} from "./api-surface.js";

// Update the snapshots after an intended change of the public API: `pnpm api:update`.
const surfaces = apiSurfaces();

describe("public API", () => {
  for (const [name, surface] of surfaces) {
    it(`@z/${name} matches api/${name}.api.json`, async () => {
      await expect(snapshotText(surface)).toMatchFileSnapshot(
        join(SNAPSHOT_DIR, `${name}.api.json`),
      );
    });
  }

  it("has a snapshot file for each package and no other", () => {
    const files = readdirSync(SNAPSHOT_DIR).filter((file) => file.endsWith(".api.json"));
    expect(files.sort()).toEqual([...surfaces.keys()].map((name) => `${name}.api.json`).sort());
  });
});

/** The entries the umbrella `@z/zarr` re-exports in full (the CLI is a program, not a library). */
const UMBRELLA_PARTS = [
  "@z/array",
  "@z/codecs",
  "@z/dtypes-arrow",
  "@z/dtypes-vlen",
  "@z/indexing",
  "@z/log",
  "@z/metadata",
  "@z/ndarray",
  "@z/store-browser",
  "@z/store-core",
  "@z/store-http",
  "@z/store-memory",
  "@z/store-reference",
  "@z/store-s3",
  "@z/store-zip",
];
const NODE_ONLY_PARTS = ["@z/store-fs", "@z/store-zip/node"];

describe("the umbrella @z/zarr", () => {
  const entries = new Map([...surfaces.values()].flatMap((surface) => Object.entries(surface)));
  const missing = (umbrella: string, parts: string[]) => {
    const names = entries.get(umbrella) ?? {};
    return parts.flatMap((part) =>
      Object.keys(entries.get(part) ?? {})
        .filter((name) => !(name in names))
        .map((name) => `${part}: ${name}`),
    );
  };

  it("re-exports the public API of every package", () => {
    for (const part of UMBRELLA_PARTS) expect(entries.has(part), part).toBe(true);
    expect(missing("@z/zarr", UMBRELLA_PARTS)).toEqual([]);
  });

  it("re-exports in Node.js everything of the browser entry and the filesystem stores", () => {
    expect(missing("@z/zarr (node)", ["@z/zarr", ...NODE_ONLY_PARTS])).toEqual([]);
  });
});
