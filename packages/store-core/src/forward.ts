import { isListable, isWritable, type Listable, type Readable, type Writable } from "./store.js";

/**
 * Gives a wrapper the wrapped store's `size(key)` when it has one, so byte sources built on the
 * wrapper (a zip read over HTTP) can still ask for a value's size without reading it.
 */
export function forwardSize(wrapper: Pick<Readable, "size">, inner: Readable): void {
  const size = inner.size;
  if (typeof size === "function")
    (wrapper as { size?: Readable["size"] }).size = (key, options) =>
      size.call(inner, key, options);
}

/** Gives a wrapper the wrapped store's listing methods, unchanged, when it can list. */
export function forwardListing(wrapper: Partial<Listable>, inner: Readable): void {
  if (!isListable(inner)) return;
  wrapper.list = () => inner.list();
  wrapper.listPrefix = (prefix) => inner.listPrefix(prefix);
  wrapper.listDir = (prefix) => inner.listDir(prefix);
}

/** Gives a wrapper the wrapped store's write methods, unchanged, when it can be written. */
export function forwardWrites(wrapper: Partial<Writable>, inner: Readable): void {
  if (!isWritable(inner)) return;
  wrapper.set = inner.set.bind(inner);
  wrapper.delete = inner.delete.bind(inner);
  wrapper.deletePrefix = inner.deletePrefix.bind(inner);
  if (inner.setIfNotExists) wrapper.setIfNotExists = inner.setIfNotExists.bind(inner);
}
