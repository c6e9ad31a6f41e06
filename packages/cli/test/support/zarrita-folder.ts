import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * A read-only zarrita store over a folder the CLI wrote: `get` and, for shards, `getRange`
 * (zarrita asks with absolute keys, `/a/zarr.json`), so zarrita reads our output from disk.
 */
export function zarritaFolder(root: string) {
  const get = (key: string) =>
    readFile(path.join(root, ...key.replace(/^\//, "").split("/"))).then(
      (b) => new Uint8Array(b),
      () => undefined,
    );
  return {
    get,
    getRange: async (
      key: string,
      range: { offset: number; length: number } | { suffixLength: number },
    ) => {
      const bytes = await get(key);
      if (!bytes) return undefined;
      return "suffixLength" in range
        ? bytes.subarray(bytes.length - range.suffixLength)
        : bytes.subarray(range.offset, range.offset + range.length);
    },
  };
}
