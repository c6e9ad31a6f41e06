import { rm, stat } from "node:fs/promises";
import { createZipFile, FsStore, HttpStore, openZipFile, type Readable, ZipStore } from "@z/zarr";
import { UsageError } from "./errors.js";

/** Zip stores this process opened, with the file a new archive is written to. */
const opened = new Map<ZipStore, string | undefined>();

const isUrl = (location: string) => /^https?:\/\//i.test(location);
/** Whether a location names a zip archive (`.zip`, query string aside for URLs). */
const isZipName = (location: string) =>
  /\.zip$/i.test(isUrl(location) ? location.split(/[?#]/)[0] : location);

/** A URL of a `.zip` as the folder URL (query kept) and the archive's name in it. */
function splitZipUrl(location: string): { folder: string; name: string } {
  const url = new URL(location);
  const slash = url.pathname.lastIndexOf("/");
  const name = decodeURIComponent(url.pathname.slice(slash + 1));
  url.pathname = url.pathname.slice(0, slash + 1);
  url.hash = "";
  return { folder: url.href, name };
}

async function openHttp(location: string, create: boolean): Promise<Readable> {
  if (create) throw new UsageError(`Cannot write to ${location}: HTTP locations are read-only`);
  if (!isZipName(location)) return new HttpStore(location);
  const { folder, name } = splitZipUrl(location);
  const store = await ZipStore.fromStore(new HttpStore(folder), name);
  opened.set(store, undefined);
  return store;
}

/**
 * Opens the store a `<location>` argument names: a directory, a `.zip` file, or an http(s) URL
 * of a hierarchy's folder or of a `.zip`. Zip files and URLs are read-only; a destination
 * (`create`) is a directory (created when missing) or a new `.zip` file, written with stored
 * entries and completed by {@link completeLocation}.
 * @param options.create open for writing (for destinations)
 */
export async function openLocation(
  location: string,
  options: { create?: boolean } = {},
): Promise<Readable> {
  const create = options.create ?? false;
  if (isUrl(location)) return openHttp(location, create);
  const info = await stat(location).catch(() => undefined);
  if (create && isZipName(location)) {
    if (info !== undefined) {
      throw new UsageError(
        `${location} already exists: zarr copy writes a new .zip file (remove it first)`,
      );
    }
    const store = await createZipFile(location);
    opened.set(store, location);
    return store;
  }
  if (info === undefined && !create)
    throw new UsageError(`No such directory or zip file: ${location}`);
  if (info?.isFile()) {
    if (create)
      throw new UsageError(
        `${location} is a file: a destination is a directory or a new .zip file`,
      );
    const store = await openZipFile(location);
    opened.set(store, undefined);
    return store;
  }
  if (info !== undefined && !info.isDirectory())
    throw new UsageError(`${location} is neither a directory nor a zip file`);
  return new FsStore(location, { readOnly: !create });
}

/** Completes a destination once everything was written to it (writes a new zip's directory). */
export async function completeLocation(store: Readable): Promise<void> {
  if (!(store instanceof ZipStore) || !opened.has(store)) return;
  opened.delete(store);
  await store.close();
}

/**
 * Releases every location this process opened. A new zip that was never completed (the command
 * failed) is removed rather than left behind as a file without a central directory.
 */
export async function closeLocations(): Promise<void> {
  const stores = [...opened];
  opened.clear();
  for (const [store, unfinished] of stores) {
    await store.close().catch(() => {});
    if (unfinished !== undefined) await rm(unfinished, { force: true });
  }
}
