import { stat } from "node:fs/promises";
import { FsStore, type Readable } from "@z/zarr";
import { UsageError } from "./errors.js";

/**
 * Opens the store a `<location>` argument names. Today that is a directory; the `zarr.zip`
 * and http(s) forms come with the zip and HTTP stores.
 * @param options.create create the directory when it does not exist (for destinations)
 */
export async function openLocation(location: string, options: { create?: boolean } = {}): Promise<Readable> {
  if (/^https?:\/\//i.test(location)) {
    throw new UsageError(`HTTP locations are not supported yet: ${location}`);
  }
  const info = await stat(location).catch(() => undefined);
  if (info === undefined && !options.create) throw new UsageError(`No such directory: ${location}`);
  if (info !== undefined && !info.isDirectory()) {
    throw new UsageError(`${location} is not a directory (zip files are not supported yet)`);
  }
  return new FsStore(location, { readOnly: !options.create });
}
