import { rm, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import {
  createZipFile,
  FsStore,
  isWritable,
  isZipLocation,
  type Readable,
  resolveStore,
  schemeOf,
  ZipStore,
} from "@z/zarr";
import { UsageError } from "./errors.js";
import {
  commitIcechunkDestination,
  dropIcechunkDestinations,
  openIcechunkDestination,
} from "./icechunk-destination.js";
import { isIcechunkLocation } from "./icechunk-ref.js";

/** Zip stores this process opened, with the file a new archive is written to. */
const opened = new Map<ZipStore, string | undefined>();

const isUrl = (location: string) => /^https?:\/\//i.test(location);

/**
 * Opens the store a `<location>` argument names: a directory, a `.zip` file, or an http(s) URL
 * of a hierarchy's folder or of a `.zip`. Zip files and URLs are read-only; a destination
 * (`create`) is a directory (created when missing) or a new `.zip` file, written with stored
 * entries and completed by {@link completeLocation}. An `icechunk+` destination is a writable
 * session on the repository's branch (created when missing), committed by {@link completeLocation}.
 * @param options.create open for writing (for destinations)
 * @param options.message the commit message of an Icechunk destination
 */
export async function openLocation(
  location: string,
  options: { create?: boolean; message?: string } = {},
): Promise<Readable> {
  const create = options.create ?? false;
  if (!create) return openSource(location);
  if (isIcechunkLocation(location))
    return openIcechunkDestination(location, options.message ?? `zarr wrote ${location}`);
  if (isUrl(location))
    throw new UsageError(`Cannot write to ${location}: HTTP locations are read-only`);
  const scheme = schemeOf(location);
  if (scheme === "file") return openDestinationPath(fileURLToPath(location));
  if (scheme !== "") return openDestinationUrl(location, scheme);
  return openDestinationPath(location);
}

/**
 * A destination with a URL scheme other than file: opened through the store registered for
 * it, never taken for a local path (`s3://bucket/x` must not become a folder named `s3:`).
 * @throws StoreError when no store is registered for the scheme
 */
async function openDestinationUrl(location: string, scheme: string): Promise<Readable> {
  const store = await resolveStore(location);
  if (!isWritable(store)) {
    if (store instanceof ZipStore) opened.set(store, undefined);
    throw new UsageError(`Cannot write to ${location}: the "${scheme}:" store is read-only`);
  }
  return store;
}

/** A local destination: a directory (created when missing) or a new `.zip` file. */
async function openDestinationPath(location: string): Promise<Readable> {
  const info = await stat(location).catch(() => undefined);
  if (isZipLocation(location)) {
    if (info !== undefined) {
      throw new UsageError(
        `${location} already exists: zarr copy writes a new .zip file (remove it first)`,
      );
    }
    const store = await createZipFile(location);
    opened.set(store, location);
    return store;
  }
  if (info?.isFile()) {
    throw new UsageError(`${location} is a file: a destination is a directory or a new .zip file`);
  }
  return new FsStore(location);
}

/** A location to read: whatever the registered store schemes make of it (folder, zip, URL). */
async function openSource(location: string): Promise<Readable> {
  if (!isUrl(location) && !/^[a-z][a-z0-9+.-]+:|^icechunk\+/i.test(location)) {
    const info = await stat(location).catch(() => undefined);
    if (info === undefined) throw new UsageError(`No such directory or zip file: ${location}`);
    if (!info.isFile() && !info.isDirectory())
      throw new UsageError(`${location} is neither a directory nor a zip file`);
  }
  const store = await resolveStore(location);
  if (store instanceof ZipStore) opened.set(store, undefined);
  return store;
}

/**
 * Completes a destination once everything was written to it: writes a new zip's directory, or
 * commits an Icechunk destination's session (returning the new snapshot id).
 */
export async function completeLocation(store: Readable): Promise<string | undefined> {
  const snapshot = await commitIcechunkDestination(store);
  if (!(store instanceof ZipStore) || !opened.has(store)) return snapshot;
  opened.delete(store);
  await store.close();
  return undefined;
}

/**
 * Releases every location this process opened. A new zip that was never completed (the command
 * failed) is removed rather than left behind as a file without a central directory.
 */
export async function closeLocations(): Promise<void> {
  const stores = [...opened];
  opened.clear();
  dropIcechunkDestinations();
  for (const [store, unfinished] of stores) {
    await store.close().catch(() => {});
    if (unfinished !== undefined) await rm(unfinished, { force: true });
  }
}
