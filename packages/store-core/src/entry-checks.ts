import { throwIfAborted } from "./errors.js";
import { validateKey } from "./keys.js";
import { type ByteRange, validateRange } from "./range.js";

/*
 * Keys are validated once, where they enter the store layer: by the store that touches a
 * backend (a Map, files, HTTP, a zip archive, browser storage), at the start of each public
 * method, with these checks. Wrapper stores that pass keys through unchanged (caching,
 * coalescing, logging, read-only) do not check them again; the store they wrap does. A wrapper
 * that builds new keys (PrefixStore joins its path) checks what it is given first, since joining
 * could make an invalid key look valid (`""` under `a/b` is `a/b`).
 */

/**
 * The checks where a read enters a store: the key's syntax, the range's numbers, the signal.
 * @throws InvalidKeyError, InvalidRangeError, AbortError
 */
export function checkRead(
  key: string,
  range: ByteRange | undefined,
  signal: AbortSignal | undefined,
): void {
  validateKey(key);
  if (range !== undefined) validateRange(range);
  throwIfAborted(signal);
}

/**
 * The checks where a batched read (`getRanges`) enters a store: the key, every range, the
 * signal (an `undefined` range, the whole value, needs no check).
 * @throws InvalidKeyError, InvalidRangeError, AbortError
 */
export function checkRangesRead(
  key: string,
  ranges: readonly (ByteRange | undefined)[],
  signal: AbortSignal | undefined,
): void {
  validateKey(key);
  for (const range of ranges) if (range !== undefined) validateRange(range);
  throwIfAborted(signal);
}
