import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  apiSurfaces,
  entryPoints,
  exportStars,
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

  it("lists the names of every entry point (no `export *`)", () => {
    const stars = packageFolders()
      .flatMap((folder) => entryPoints(folder))
      .flatMap((entry) => exportStars(entry.file));
    expect(stars).toEqual([]);
  });
});
