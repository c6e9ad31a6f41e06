import { isListable, isWritable, type Listable, type Readable, type Writable } from "./store.js";
import { hasConditionalWrites } from "./store-conditional.js";

/**
 * Gives a wrapper the wrapped store's `getSize(key)` when it has one, so byte sources built on
 * the wrapper (a zip read over HTTP) can still ask for a value's size without reading it.
 */
export function forwardSize(wrapper: Pick<Readable, "getSize">, inner: Readable): void {
  const getSize = inner.getSize;
  if (typeof getSize === "function") {
    wrapper.getSize = (key, options) => getSize.call(inner, key, options);
  }
}

/** Gives a wrapper the wrapped store's listing methods, unchanged, when it can list. */
export function forwardListing(wrapper: Partial<Listable>, inner: Readable): void {
  if (!isListable(inner)) return;
  wrapper.list = () => inner.list();
  wrapper.listPrefix = (prefix) => inner.listPrefix(prefix);
  wrapper.listDir = (prefix) => inner.listDir(prefix);
}

/**
 * Gives a wrapper the wrapped store's write methods, unchanged, when it can be written, with
 * its versioned reads and conditional writes (see {@link forwardVersions}).
 */
export function forwardWrites(
  wrapper: Partial<Writable> & Partial<Readable>,
  inner: Readable,
): void {
  if (!isWritable(inner)) return;
  wrapper.set = inner.set.bind(inner);
  wrapper.delete = inner.delete.bind(inner);
  wrapper.deletePrefix = inner.deletePrefix.bind(inner);
  if (inner.setIfNotExists) wrapper.setIfNotExists = inner.setIfNotExists.bind(inner);
  forwardVersions(wrapper, inner, (key) => key);
}

/**
 * Gives a wrapper the wrapped store's `getVersioned` and `conditionalWrites` when it has both,
 * reading through to the wrapped store (never from a cache, so a version is never stale).
 * `toInner` maps the wrapper's key to the wrapped store's key (a prefix store adds its path).
 * The wrapper's `set` and `delete` must pass `ifMatch` / `ifNoneMatch` on unchanged.
 */
export function forwardVersions(
  wrapper: Partial<Writable> & Partial<Readable>,
  inner: Readable,
  toInner: (key: string) => string,
): void {
  if (!hasConditionalWrites(inner)) return;
  wrapper.getVersioned = (key, options) => inner.getVersioned(toInner(key), options);
  (wrapper as { conditionalWrites?: boolean }).conditionalWrites = true;
}
