import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  type OfficialRepo,
  writeOfficialRepository,
} from "../../../store-icechunk/test/official-repo.js";

/*
 * The repository the official implementation writes in store-icechunk's interop tests, copied
 * from its Map into a folder, so locations reach it through FsStore or a real HTTP server.
 */

/** Writes the official repository of `specVersion` into `dir`, returning what it reported. */
export async function officialRepositoryIn(dir: string, specVersion: 1 | 2): Promise<OfficialRepo> {
  const written = await writeOfficialRepository(specVersion);
  for (const [key, bytes] of written.files) {
    const file = path.join(dir, ...key.split("/"));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, bytes);
  }
  return written;
}

export {
  type CommitLabel,
  type OfficialRepo,
  valueAt,
  versionAt,
} from "../../../store-icechunk/test/official-repo.js";
