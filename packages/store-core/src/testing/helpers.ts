import { expect } from "vitest";
import type { Readable, Writable } from "../store.js";

/** Writes every entry into a store; a `MakeStore` for a writable store is often just this. */
export async function fillStore<S extends Readable & Writable>(
  store: S,
  entries: Iterable<readonly [string, Uint8Array]>,
): Promise<S> {
  for (const [key, value] of entries) await store.set(key, value);
  return store;
}

/** `length` deterministic, irregular bytes: different seeds give different values. */
export function patternBytes(length: number, seed = 1): Uint8Array {
  const out = new Uint8Array(length);
  let state = (seed * 0x9e3779b1) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    // xorshift32: cheap, and no run of equal bytes hides an off-by-one in a range.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = state & 0xff;
  }
  return out;
}

/** Every byte value once, then every byte value backwards. */
export function allByteValues(): Uint8Array {
  const out = new Uint8Array(512);
  for (let i = 0; i < 256; i++) {
    out[i] = i;
    out[511 - i] = i;
  }
  return out;
}

/** Asserts that `actual` is a Uint8Array with exactly the bytes of `expected`. */
export function expectBytes(actual: unknown, expected: Uint8Array, what = "value"): void {
  expect(actual, `${what}: expected a Uint8Array`).toBeInstanceOf(Uint8Array);
  const bytes = actual as Uint8Array;
  expect(bytes.length, `${what}: length`).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    // One assertion for the first difference keeps megabyte values cheap to compare.
    if (bytes[i] !== expected[i]) {
      expect(bytes[i], `${what}: byte ${i} of ${expected.length}`).toBe(expected[i]);
    }
  }
}

/**
 * Asserts that a call fails with an error of one of the given names, whether it throws at once
 * or rejects (names rather than classes, so errors from another copy of a package still match).
 * @returns whether it threw synchronously
 */
export async function expectFailure(
  call: () => unknown,
  names: string | readonly string[],
  what: string,
): Promise<{ synchronous: boolean }> {
  const expected = typeof names === "string" ? [names] : names;
  let synchronous = false;
  let error: unknown;
  try {
    let pending: unknown;
    try {
      pending = call();
    } catch (thrown) {
      synchronous = true;
      throw thrown;
    }
    await pending;
  } catch (caught) {
    error = caught;
  }
  expect(error, `${what}: expected ${expected.join(" or ")}, but it succeeded`).toBeDefined();
  expect(expected, `${what}: ${String(error)}`).toContain((error as Error).name);
  return { synchronous };
}

/** Collects an async iterable in the order it yields (no sorting: order is under test). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Keys sorted the way every store sorts them (UTF-16 code units, as `Array.prototype.sort`). */
export function sortedKeys(keys: Iterable<string>): string[] {
  return [...keys].sort();
}

/** An AbortSignal that is already aborted. */
export function abortedSignal(): AbortSignal {
  const controller = new AbortController();
  controller.abort(new Error("aborted by the store contract test"));
  return controller.signal;
}
