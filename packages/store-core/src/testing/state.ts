import { expect } from "vitest";
import type { Store } from "../store.js";
import { isListable } from "../store.js";
import { collect, expectBytes } from "./helpers.js";

/**
 * Asserts that a store holds exactly `expected`: every key reads back its value and, when the
 * store can list, nothing else is listed. `alsoMissing` names keys that must read as missing
 * (the way to check "nothing else" on a store that cannot list).
 */
export async function expectContents(
  store: Store,
  expected: ReadonlyMap<string, Uint8Array>,
  alsoMissing: Iterable<string> = [],
  what = "store contents",
): Promise<void> {
  if (isListable(store)) {
    expect(await collect(store.list()), `${what}: listed keys`).toEqual(
      [...expected.keys()].sort(),
    );
  }
  for (const [key, value] of expected) expectBytes(await store.get(key), value, `${what}: ${key}`);
  for (const key of alsoMissing) {
    if (!expected.has(key)) expect(await store.get(key), `${what}: ${key}`).toBeUndefined();
  }
}
