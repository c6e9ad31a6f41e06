import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Writes store entries as files under `dir` (key `a/b` is `<dir>/a/b`). */
export function writeEntries(dir: string, entries: Iterable<readonly [string, Uint8Array]>): void {
  mkdirSync(dir, { recursive: true });
  for (const [key, value] of entries) {
    const file = path.join(dir, ...key.split("/"));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, value);
  }
}
