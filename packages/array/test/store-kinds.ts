import { FsStore } from "@z/store-fs";
import { MemoryStore } from "@z/store-memory";
import { tempDir } from "@z/test-utils";
import { afterAll, beforeAll } from "vitest";

/** A store a test writes to, with its name for the test titles. */
export type NamedStore = [name: string, make: () => MemoryStore | FsStore];

/**
 * The stores every node method is tested on: a fresh MemoryStore, and an FsStore in a new
 * folder of a temporary directory the suite removes after its tests; `dir()` is that directory,
 * for the suite's other files (a folder an HTTP server serves, say).
 */
export function memoryAndFsStores(prefix: string): { stores: NamedStore[]; dir: () => string } {
  let sandbox: { dir: string; remove: () => void } | undefined;
  beforeAll(() => {
    sandbox = tempDir(prefix);
  });
  afterAll(() => sandbox?.remove());
  const dir = () => {
    if (!sandbox) throw new Error("the temporary directory exists only while tests run");
    return sandbox.dir;
  };
  let count = 0;
  return {
    stores: [
      ["MemoryStore", () => new MemoryStore()],
      ["FsStore", () => new FsStore(`${dir()}/s${count++}`)],
    ],
    dir,
  };
}
