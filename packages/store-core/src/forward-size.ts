import type { Readable } from "./store.js";

type SizeOf = (key: string, options?: { signal?: AbortSignal }) => Promise<number | undefined>;

/**
 * Gives a wrapper the wrapped store's `size(key)` when it has one, so byte sources built on the
 * wrapper (a zip read over HTTP) can still ask for a value's size without reading it.
 */
export function forwardSize(wrapper: { size?: SizeOf }, inner: Readable): void {
  const size = (inner as { size?: SizeOf }).size;
  if (typeof size === "function") wrapper.size = (key, options) => size.call(inner, key, options);
}
